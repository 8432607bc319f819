import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { deepCopy, NodeOperationError } from 'n8n-workflow';

import { submittedTaskId } from '../../engine/running/submitAnswer';
import type { Submitted } from '../../engine/running/jobPlan';
import type { QueryRoute } from '../../api/tasks/routes';
import { extractResultUrls, type ResultUrlOptions } from '../../api/tasks/results';
import { taskIdOf } from '../../api/tasks/snapshot';
import { imageCostJson, imageEstimate } from '../../pipeline/cost';
import { chargeJson } from '../../api/charges';
import type { GenerationAdapter, OutputContext } from '../../pipeline/generation';
import {
	describeModel,
	readExtraBody,
	readPrompt,
	requireHost,
	resolveModel,
} from '../../pipeline/prepare';
import { itemsPerUrl } from '../../pipeline/taskOutput';
import { gatewayCredentials, nodeOf } from '../../transport/context';
import { originsFrom, type GatewayHost } from '../../transport/urls';
import { postImageJob } from '../../api/images';
import type { UploadedImage } from '../../api/uploads';
import { mergeBody } from '../../params/additionalBody';
import type { ValueRefusal } from '../../params/registryRules';
import { readRegistryValues } from '../../params/registryValues';
import { refuse } from '../../pipeline/refusals';
import { IMAGE_MODELS, UNKNOWN_IMAGE_MODEL } from '../../registry/imageModels';
import type { ModelSpec } from '../../registry/models';
import { IMAGE_FIELD_SETS, type ImageOperation } from './imageFields';
import { readReferences, uploadReferences, type ReferenceInput } from './imageReferences';

/** The model one item runs on: its registry row (or the unknown-model row), its host, where its tasks are read. */
interface ImageModel {
	id: string;
	spec: Omit<ModelSpec, 'id'>;
	host: GatewayHost;
	route: QueryRoute;
}

/** One item's checked request: built in `prepare`, before anything is sent for any item. */
interface ImageJob {
	operation: ImageOperation;
	model: ImageModel;
	/** Everything but the reference URLs, which exist only once binaries are uploaded. */
	body: IDataObject;
	references?: ReferenceInput;
}

interface ImageSubmitted extends Submitted {
	/** The body as sent, reference URLs included. */
	request: IDataObject;
	uploads: UploadedImage[];
}

/** Models of the registry that have an edit variant, for messages. */
function editModelIds(): string {
	return [...new Set(IMAGE_MODELS.filter((m) => m.fields?.edit).map((m) => m.id))].join(', ');
}

/** An image value refusal: "Size (size) '512x512' is not accepted by model 'x': it takes …". */
function imageRefusal(
	ctx: IExecuteFunctions,
	itemIndex: number,
	model: ImageModel,
	r: ValueRefusal,
): NodeOperationError {
	const who = describeModel(model);
	if (r.reason === 'range') {
		return refuse(
			ctx,
			itemIndex,
			`${r.field} ${JSON.stringify(r.given)} is out of range for ${who}: it takes ${r.accepts}`,
		);
	}
	const given = `${r.field} '${String(r.given).trim()}' is not accepted by ${who}`;
	if (r.reason === 'pattern')
		return refuse(ctx, itemIndex, `${given}: ${r.rule.description ?? `it takes ${r.accepts}`}`);
	return refuse(ctx, itemIndex, `${given}: it takes ${r.accepts}`, r.hint ?? r.rule.description);
}

async function prepare(
	ctx: IExecuteFunctions,
	itemIndex: number,
	operation: ImageOperation,
): Promise<ImageJob> {
	const chosen = resolveModel(ctx, itemIndex, 'image');
	const spec = chosen.row ?? UNKNOWN_IMAGE_MODEL;
	const model: ImageModel = {
		id: chosen.id,
		spec,
		host: chosen.host,
		route: spec.queryRoute ?? (chosen.host === 'alt' ? 'alt' : 'image'),
	};
	if (operation === 'edit' && !spec.fields?.edit) {
		throw refuse(
			ctx,
			itemIndex,
			`Model '${model.id}' has no edit variant`,
			`Edits take one of: ${editModelIds()}.`,
		);
	}
	const prompt = readPrompt(
		ctx,
		itemIndex,
		'every image model needs a text prompt',
		operation === 'edit'
			? 'Describe the change to make to the reference images.'
			: 'Describe the image to create.',
	);
	await requireHost(ctx, itemIndex, chosen);
	const fields = readRegistryValues(
		ctx,
		itemIndex,
		IMAGE_FIELD_SETS[operation],
		model.id,
		spec,
		(refusal) => imageRefusal(ctx, itemIndex, model, refusal),
	);
	// The body the fields make, with the model's reference and mask keys (filled in at submit).
	const limits = spec.limits ?? {};
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
		rules: spec.fields?.[operation] ?? {},
		labels,
	});
	const references = operation === 'edit' ? await readReferences(ctx, itemIndex, model) : undefined;
	return {
		operation,
		model,
		body: mergeBody({ model: model.id, prompt, ...fields }, extra),
		references,
	};
}

/** Uploads the item's binary references (edits), then sends the one billed call. Never repeated. */
async function submit(
	ctx: IExecuteFunctions,
	job: ImageJob,
	itemIndex: number,
): Promise<ImageSubmitted> {
	const { model, references } = job;
	const uploads = references
		? await uploadReferences(ctx, itemIndex, references.binaryProperties)
		: [];
	const limits = model.spec.limits ?? {};
	const request: IDataObject = references
		? {
				model: job.body.model,
				prompt: job.body.prompt,
				[limits.referenceField ?? 'images']: [...references.urls, ...uploads.map((u) => u.url)],
				...(references.mask ? { [limits.maskField ?? 'mask_url']: references.mask } : {}),
				...job.body,
			}
		: job.body;
	const startedAt = Date.now();
	const body = await postImageJob(ctx, {
		endpoint: job.operation,
		host: model.host,
		body: request,
		model: model.id,
		sync: model.spec.mode !== 'task',
		itemIndex,
	});
	// The answer decides: image URLs (or inline images) mean a finished sync call, else a task id means a task.
	const urls = extractResultUrls(body, await resultUrlOptions(ctx, job.model, request));
	const taskId =
		urls.length > 0
			? undefined
			: submittedTaskId(
					nodeOf(ctx),
					itemIndex,
					`image ${job.operation === 'edit' ? 'edit' : 'job'}`,
					body,
					taskIdOf(body),
				);
	return {
		taskId,
		route: taskId ? model.route : undefined,
		startedAt,
		raw: body,
		request,
		uploads,
		...(taskId ? {} : { receiptUrls: urls }),
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

/** One output item per image: its URL, what was sent, the cost estimate and, by default, the file. */
async function output(
	ctx: IExecuteFunctions,
	job: ImageJob,
	submitted: ImageSubmitted,
	itemIndex: number,
	{ snapshot, estimate, files }: OutputContext,
): Promise<INodeExecutionData[]> {
	const urls = snapshot
		? snapshot.urls
		: (submitted.receiptUrls ??
			extractResultUrls(submitted.raw, await resultUrlOptions(ctx, job.model, submitted.request)));
	if (urls.length === 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The gateway answered ${describeModel(job.model)} without image URLs or a task ID`,
			{
				itemIndex,
				description: `Answer: ${JSON.stringify(submitted.raw).slice(0, 500)}`,
			},
		);
	}
	const revised = revisedPrompts(snapshot?.raw ?? submitted.raw);
	const estimatedCost = imageCostJson(job.model.spec, submitted.request, urls.length, estimate);
	const charge = await chargeJson(ctx, snapshot, urls.length, itemIndex);
	const taskId = snapshot?.taskId ?? submitted.taskId;
	const json = (url: string, index: number): IDataObject => ({
		url,
		...(revised.has(url) ? { revised_prompt: revised.get(url) } : {}),
		...(taskId ? { taskId } : {}),
		model: job.model.id,
		...(job.model.host === 'alt' ? { host: 'alt' } : {}),
		operation: job.operation,
		imageIndex: index,
		imageCount: urls.length,
		request: deepCopy(submitted.request),
		estimatedCost: deepCopy(estimatedCost),
		charge: deepCopy(charge),
		...(submitted.uploads.length > 0 ? { uploadedReferences: deepCopy(submitted.uploads) } : {}),
		// The task's own query route did not know it: which one answered (api/tasks/routes.ts fallbacks).
		...(snapshot?.answeredBy ? { answeredBy: snapshot.answeredBy } : {}),
	});
	const format = submitted.request.output_format;
	return await itemsPerUrl(
		ctx,
		urls,
		json,
		files('image', {
			baseName: taskId ?? `${job.model.id}-${itemIndex + 1}`,
			defaultMimeType: typeof format === 'string' ? `image/${format}` : 'image/png',
			paid: { taskId, expiresAt: snapshot?.expiresAt },
		}),
	);
}

/** The image adapter of the generation pipeline (pipeline/generation.ts), for Generate or Edit. */
export function imageAdapter(
	operation: ImageOperation,
): GenerationAdapter<ImageJob, ImageSubmitted> {
	return {
		noun: operation === 'edit' ? 'image edit' : 'image job',
		prepare: async (ctx, i) => await prepare(ctx, i, operation),
		submit,
		estimate: (job, _settings, prices) => imageEstimate(job.model, job.body, prices),
		output,
		describePending: (job, submitted, estimate) => ({
			model: job.model.id,
			request: deepCopy(submitted.request),
			estimatedCost: imageCostJson(
				job.model.spec,
				submitted.request,
				Number(submitted.request.n ?? 1),
				estimate,
				1,
			),
		}),
	};
}
