import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { deepCopy, NodeOperationError } from 'n8n-workflow';

import { chargeJson } from '../../api/charges';
import { postImageJob } from '../../api/images';
import { extractResultUrls, type ResultUrlOptions } from '../../api/tasks/results';
import type { QueryRoute } from '../../api/tasks/routes';
import { taskIdOf, type TaskSnapshot } from '../../api/tasks/snapshot';
import type { UploadedImage } from '../../api/uploads';
import { estimateOf, type Batch } from '../../engine/running/batch';
import { submittedTaskId } from '../../engine/running/submitAnswer';
import type { Submitted } from '../../engine/running/types';
import { mergeBody } from '../../params/additionalBody';
import { readRegistryValues } from '../../params/registryValues';
import { imageCostJson } from '../../pipeline/cost';
import { describeModel, readExtraBody, requireHost, resolveModel } from '../../pipeline/prepare';
import { registryRefusal } from '../../pipeline/refusals';
import { fitToRelayBuild } from '../../pipeline/relaySizes';
import { itemsPerUrl, resultDownload } from '../../pipeline/taskOutput';
import { UNKNOWN_IMAGE_MODEL } from '../../registry/imageModels';
import type { ModelSpec } from '../../registry/models';
import { gatewayCredentials, nodeOf } from '../../transport/context';
import { originsFrom, type GatewayHost } from '../../transport/urls';
import { IMAGE_FIELD_SETS, type ImageOperation } from './imageFields';

/*
 * What Image → Generate and Edit both do, called by each operation's run (generate.operation.ts,
 * edit.operation.ts): read the model and its fields into a body, send the one billed call, read
 * its answer (image URLs: done; a task id: waited for), turn a finished item into one item per
 * image. What only Edit does (its references, their upload, the mask) is in its own file.
 */

/** The model one item runs on: its registry row (or the unknown-model row), its host, where its tasks are read. */
export interface ImageModel {
	id: string;
	spec: Omit<ModelSpec, 'id'>;
	host: GatewayHost;
	route: QueryRoute;
}

/** One item's checked request, read before anything is sent for any item. */
export interface ImageJob {
	operation: ImageOperation;
	model: ImageModel;
	/** The body of the fields and Additional Body Fields (an edit's references join it at submit). */
	body: IDataObject;
	/** What the body's size became on the plain relay (pipeline/relaySizes.ts), for the item to say. */
	sizeNote?: string;
}

/** What the billed call answered: a task, or the image URLs of a sync answer (receiptUrls). */
export interface ImageAnswer extends Submitted {
	/** The body as sent, reference URLs included. */
	request: IDataObject;
	/** A synchronous answer's relay request id: its charge is looked up by it after the run. */
	requestId?: string;
	uploads: UploadedImage[];
}

/** The item's model: its row on the chosen host (none for an unknown id: the common image fields). */
export function readImageModel(ctx: IExecuteFunctions, itemIndex: number): ImageModel {
	const chosen = resolveModel(ctx, itemIndex, 'image');
	const spec = chosen.row ?? UNKNOWN_IMAGE_MODEL;
	return {
		id: chosen.id,
		spec,
		host: chosen.host,
		route: spec.queryRoute ?? (chosen.host === 'alt' ? 'alt' : 'image'),
	};
}

/**
 * The body of the model's fields (registry rules, checked) and the Additional Body Fields, which
 * may not replace a key the node sets: the fields', and the model's reference and mask keys. A
 * model of the alt host needs the credential's Alt Base URL.
 */
export async function readImageBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
	operation: ImageOperation,
	model: ImageModel,
	prompt: string,
): Promise<IDataObject> {
	await requireHost(ctx, itemIndex, { id: model.id, host: model.host, group: model.spec.group });
	const fields = readRegistryValues(
		ctx,
		itemIndex,
		IMAGE_FIELD_SETS[operation],
		model.id,
		model.spec,
		(refusal) => registryRefusal(ctx, itemIndex, describeModel(model), refusal),
	);
	const limits = model.spec.limits ?? {};
	const template: IDataObject = { model: model.id, prompt: '', ...fields };
	const labels: Record<string, string> = {};
	if (limits.referenceField) {
		template[limits.referenceField] = [];
		labels[limits.referenceField] = 'Reference Images';
	}
	if (limits.maskField) {
		template[limits.maskField] = '';
		labels[limits.maskField] = 'Mask URL';
	}
	const extra = readExtraBody(ctx, itemIndex, {
		value: ctx.getNodeParameter('additionalBodyFields', itemIndex, ''),
		example: '{"seed": 7}',
		template,
		rules: model.spec.fields?.[operation] ?? {},
		labels,
	});
	return mergeBody({ model: model.id, prompt, ...fields }, extra);
}

/**
 * The job's body as this gateway's build reads it (engine/running/batch.ts fitItems, after the
 * cost check): a ratio size as pixels on the plain relay (pipeline/relaySizes.ts), said on its items.
 */
export async function fitImageJob(
	ctx: IExecuteFunctions,
	job: ImageJob,
	itemIndex: number,
): Promise<void> {
	const rules = job.model.spec.fields?.[job.operation] ?? {};
	const { body, note } = await fitToRelayBuild(ctx, itemIndex, rules, job.body);
	job.body = body;
	if (note) job.sizeNote = note;
}

/**
 * The one billed call of an image item (never repeated) and its answer read: image URLs (or inline
 * images) mean a finished sync call, else its task id means a task to wait for.
 */
export async function sendImageJob(
	ctx: IExecuteFunctions,
	job: ImageJob,
	request: IDataObject,
	uploads: UploadedImage[],
	itemIndex: number,
): Promise<ImageAnswer> {
	const { model } = job;
	const startedAt = Date.now();
	const { body, requestId } = await postImageJob(ctx, {
		endpoint: job.operation,
		host: model.host,
		body: request,
		model: model.id,
		sync: model.spec.mode !== 'task',
		atOnce: model.spec.mode === 'sync',
		itemIndex,
	});
	const urls = extractResultUrls(body, await resultUrlOptions(ctx, model, request));
	const noun = `image ${job.operation === 'edit' ? 'edit' : 'job'}`;
	const taskId =
		urls.length > 0
			? undefined
			: submittedTaskId(nodeOf(ctx), itemIndex, noun, body, taskIdOf(body));
	return {
		taskId,
		route: taskId ? model.route : undefined,
		startedAt,
		raw: body,
		request,
		uploads,
		...(taskId ? {} : { receiptUrls: urls }),
		// The Base URL's usage log knows only its own calls: an alt-host call's id is not looked up there.
		...(taskId || !requestId || model.host !== 'main' ? {} : { requestId }),
	};
}

/** How result URLs of this model's answers are read: relative to its host, inline as its format. */
async function resultUrlOptions(
	ctx: IExecuteFunctions,
	model: ImageModel,
	request: IDataObject,
): Promise<ResultUrlOptions> {
	const format = request.output_format;
	return {
		origin: originsFrom(await gatewayCredentials(ctx))[model.host],
		inlineMimeType:
			typeof format === 'string' ? `image/${format === 'jpg' ? 'jpeg' : format}` : 'image/png',
	};
}

/**
 * A finished item: one item per image, with its URL, what was sent, the estimate and the charge,
 * and (Download Files, on by default) the file.
 */
export async function imageItems(
	ctx: IExecuteFunctions,
	batch: Batch<ImageJob>,
	job: ImageJob,
	answer: ImageAnswer,
	itemIndex: number,
	task?: TaskSnapshot,
): Promise<INodeExecutionData[]> {
	const urls = task
		? task.urls
		: (answer.receiptUrls ??
			extractResultUrls(answer.raw, await resultUrlOptions(ctx, job.model, answer.request)));
	if (urls.length === 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The gateway answered ${describeModel(job.model)} without image URLs or a task ID`,
			{ itemIndex, description: `Answer: ${JSON.stringify(answer.raw).slice(0, 500)}` },
		);
	}
	const revised = revisedPrompts(task?.raw ?? answer.raw);
	const estimatedCost = imageCostJson(
		job.model.spec,
		answer.request,
		urls.length,
		estimateOf(batch, job),
	);
	const charge = {
		...(await chargeJson(ctx, task, urls.length, itemIndex)),
		// Looked up once after the run in the relay's usage log (engine/spend/usageCharges.ts).
		...(!task && answer.requestId ? { requestId: answer.requestId } : {}),
	};
	const taskId = task?.taskId ?? answer.taskId;
	const json = (url: string, index: number): IDataObject => ({
		url,
		...(revised.has(url) ? { revised_prompt: revised.get(url) } : {}),
		...(taskId ? { taskId } : {}),
		model: job.model.id,
		...(job.model.host === 'alt' ? { host: 'alt' } : {}),
		operation: job.operation,
		imageIndex: index,
		imageCount: urls.length,
		request: deepCopy(answer.request),
		...(job.sizeNote ? { sizeNote: job.sizeNote } : {}),
		estimatedCost: deepCopy(estimatedCost),
		charge: deepCopy(charge),
		...(answer.uploads.length > 0 ? { uploadedReferences: deepCopy(answer.uploads) } : {}),
		// The task's own query route did not know it: which one answered (api/tasks/routes.ts fallbacks).
		...(task?.answeredBy ? { answeredBy: task.answeredBy } : {}),
	});
	const format = answer.request.output_format;
	return await itemsPerUrl(
		ctx,
		urls,
		json,
		resultDownload(ctx, batch, answer, itemIndex, {
			kind: 'image',
			baseName: taskId ?? `${job.model.id}-${itemIndex + 1}`,
			defaultMimeType: typeof format === 'string' ? `image/${format}` : 'image/png',
			paid: { taskId, expiresAt: task?.expiresAt },
		}),
	);
}

/** data[].revised_prompt of a sync answer (or a finished task), by image URL. */
function revisedPrompts(body: IDataObject | undefined): Map<string, string> {
	const found = new Map<string, string>();
	const data = body?.data;
	if (!Array.isArray(data)) return found;
	for (const entry of data as IDataObject[]) {
		if (typeof entry?.url === 'string' && typeof entry.revised_prompt === 'string')
			found.set(entry.url, entry.revised_prompt);
	}
	return found;
}

/** What a pending image item also says: its model, what was sent, the estimate of one image call. */
export function pendingImage(
	batch: Batch<ImageJob>,
	job: ImageJob,
	answer: ImageAnswer,
): IDataObject {
	return {
		model: job.model.id,
		request: deepCopy(answer.request),
		...(job.sizeNote ? { sizeNote: job.sizeNote } : {}),
		estimatedCost: imageCostJson(
			job.model.spec,
			answer.request,
			Number(answer.request.n ?? 1),
			estimateOf(batch, job),
			1,
		),
	};
}
