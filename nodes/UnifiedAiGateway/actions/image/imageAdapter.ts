import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { deepCopy, NodeOperationError } from 'n8n-workflow';

import { submittedTaskId } from '../../engine/submitAnswer';
import type { Submitted } from '../../engine/jobPlan';
import { extractResultUrls, type ResultUrlOptions } from '../../engine/results';
import { taskIdOf } from '../../engine/snapshot';
import type { RunOptions } from '../../engine/perItem';
import { runGeneration, type GenerationAdapter, type OutputContext } from '../../pipeline/generation';
import { downloadDeadline, itemsPerUrl } from '../../pipeline/taskOutput';
import { gatewayCredentials } from '../../transport/context';
import { originsFrom } from '../../transport/urls';
import { postImageJob } from '../../api/images';
import type { UploadedImage } from '../../api/uploads';
import { mergeBody } from '../../params/additionalBody';
import { refuse } from '../../pipeline/refusals';
import { readAdditionalFields, readModelFields, readPrompt, requireHost } from './imageBody';
import { estimateCost, imageSpendEstimate } from './imageCost';
import { describeModel, editModelIds, resolveImageModel, type ImageModel, type ImageOperation } from './imageModel';
import { readReferences, uploadReferences, type ReferenceInput } from './imageReferences';

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

/** Image tasks finish in seconds to minutes: the Max Wait default of the Image fields. */
export const DEFAULT_WAIT_MINUTES = 10;

async function prepare(ctx: IExecuteFunctions, itemIndex: number, operation: ImageOperation): Promise<ImageJob> {
	const model = resolveImageModel(ctx, itemIndex);
	if (operation === 'edit' && !model.spec.fields?.edit) {
		throw refuse(ctx, itemIndex, `Model '${model.id}' has no edit variant`, `Edits take one of: ${editModelIds()}.`);
	}
	const prompt = readPrompt(ctx, itemIndex, operation);
	await requireHost(ctx, itemIndex, model);
	const fields = readModelFields(ctx, itemIndex, model, operation);
	const extra = readAdditionalFields(ctx, itemIndex, model, operation, fields);
	const references = operation === 'edit' ? await readReferences(ctx, itemIndex, model) : undefined;
	return { operation, model, body: mergeBody({ model: model.id, prompt, ...fields }, extra), references };
}

/** Uploads the item's binary references (edits), then sends the one billed call. Never repeated. */
async function submit(ctx: IExecuteFunctions, job: ImageJob, itemIndex: number): Promise<ImageSubmitted> {
	const { model, references } = job;
	const uploads = references ? await uploadReferences(ctx, itemIndex, references.binaryProperties) : [];
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
	const taskId = urls.length > 0 ? undefined : submittedTaskId(ctx.getNode(), itemIndex, `image ${job.operation === 'edit' ? 'edit' : 'job'}`, body, taskIdOf(body));
	return { taskId, route: taskId ? model.route : undefined, startedAt, raw: body, request, uploads, ...(taskId ? {} : { receiptUrls: urls }) };
}

/** How result URLs of this model's answers are read: relative to its host, inline as its format. */
async function resultUrlOptions(ctx: IExecuteFunctions, model: ImageModel, request: IDataObject): Promise<ResultUrlOptions> {
	const format = request.output_format;
	return {
		origin: originsFrom(await gatewayCredentials(ctx))[model.host],
		inlineMimeType: typeof format === 'string' ? `image/${format === 'jpg' ? 'jpeg' : format}` : 'image/png',
	};
}

/** data[].revised_prompt of a sync answer (or a finished task), by image URL. */
function revisedPrompts(body: IDataObject | undefined): Map<string, string> {
	const found = new Map<string, string>();
	const data = body?.data;
	if (!Array.isArray(data)) return found;
	for (const entry of data as IDataObject[]) {
		if (typeof entry?.url === 'string' && typeof entry.revised_prompt === 'string') found.set(entry.url, entry.revised_prompt);
	}
	return found;
}

/** One output item per image: its URL, what was sent, the cost estimate and, by default, the file. */
async function output(
	ctx: IExecuteFunctions,
	job: ImageJob,
	submitted: ImageSubmitted,
	itemIndex: number,
	{ snapshot, wait, continueOnFail }: OutputContext,
): Promise<INodeExecutionData[]> {
	const urls = snapshot ? snapshot.urls : (submitted.receiptUrls ?? extractResultUrls(submitted.raw, await resultUrlOptions(ctx, job.model, submitted.request)));
	if (urls.length === 0) {
		throw new NodeOperationError(ctx.getNode(), `The gateway answered ${describeModel(job.model)} without image URLs or a task ID`, {
			itemIndex,
			description: `Answer: ${JSON.stringify(submitted.raw).slice(0, 500)}`,
		});
	}
	const revised = revisedPrompts(snapshot?.raw ?? submitted.raw);
	const estimatedCost = estimateCost(job.model.spec, submitted.request, urls.length);
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
		...(submitted.uploads.length > 0 ? { uploadedReferences: deepCopy(submitted.uploads) } : {}),
	});
	const download = ctx.getNodeParameter('download', itemIndex, true) as boolean;
	const format = submitted.request.output_format;
	return await itemsPerUrl(
		ctx,
		urls,
		json,
		download
			? {
					itemIndex,
					binaryProperty: ctx.getNodeParameter('options.binaryPropertyOutput', itemIndex, 'data') as string,
					baseName: taskId ?? `${job.model.id}-${itemIndex + 1}`,
					defaultMimeType: typeof format === 'string' ? `image/${format}` : 'image/png',
					kind: 'image',
					...downloadDeadline('image', submitted.startedAt, wait ? (wait.deadlineMs ?? undefined) : undefined),
					receipt: { taskId, expiresAt: snapshot?.expiresAt },
					continueOnFail,
				}
			: undefined,
	);
}

/** The image adapter of the generation pipeline (pipeline/generation.ts), for Generate or Edit. */
function imageAdapter(operation: ImageOperation): GenerationAdapter<ImageJob, ImageSubmitted> {
	return {
		noun: operation === 'edit' ? 'image edit' : 'image job',
		waitDefaults: { minutes: DEFAULT_WAIT_MINUTES },
		prepare: async (ctx, i) => await prepare(ctx, i, operation),
		submit,
		estimate: (job) => imageSpendEstimate(job.model, job.body),
		output,
		describePending: (job, submitted) => ({
			model: job.model.id,
			request: deepCopy(submitted.request),
			estimatedCost: deepCopy(estimateCost(job.model.spec, submitted.request, Number(submitted.request.n ?? 1), 1)),
		}),
	};
}

/** Generate or Edit over all input items: check all, submit under the cap, wait, output. */
export async function runImageOperation(ctx: IExecuteFunctions, run: RunOptions, operation: ImageOperation): Promise<INodeExecutionData[]> {
	return await runGeneration(ctx, run, imageAdapter(operation));
}
