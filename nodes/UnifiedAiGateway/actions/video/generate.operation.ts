import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { submittedTaskId } from '../../engine/submitAnswer';
import { readDownloadLimits } from '../../params/downloadOptions';
import type { Submitted } from '../../engine/jobPlan';
import { runJobs } from '../../engine/jobRunner';
import { createSpendGuard } from '../../engine/spend/guard';
import { readSpendSettings } from '../../params/spendGuardOptions';
import { taskIdOf, type TaskSnapshot } from '../../engine/snapshot';
import { readConcurrency, readWaitForCompletion } from '../../params/commonFields';
import type { RunOptions } from '../../engine/perItem';
import { ALLOW_UNUSUAL_LABEL, registryFieldLabel, type ValueRefusal } from '../../params/registryRules';
import { checkPrompt, readNumber } from '../../params/inputs';
import { readRegistryValues } from '../../params/registryValues';
import { downloadDeadline, itemsPerUrl, taskJson } from '../../pipeline/taskOutput';
import { findModel } from '../../registry/models';
import { VIDEO_MODELS } from '../../registry/videoModels';
import { gatewayRequest } from '../../transport/request';
import { jsonBody, multipartBody, readAdditionalBody, referenceKey, type PreparedVideo } from './videoBody';
import { DEFAULT_DEADLINE_MINUTES, VIDEO_FIELD_SET } from './videoFields';
import { readVideoReferences, referenceUrls } from './videoReferences';
import { contentPath, VIDEO_POLL_INTERVAL_MS, VIDEO_ROUTES, type VideoRoute } from './submitRoutes';
import { modelNotes, videoFacts } from './videoOutput';
import { videoCostJson, videoSpendEstimate } from './videoCost';

export { description } from './videoFields';

function refusal(ctx: IExecuteFunctions, itemIndex: number, message: string, hint?: string): NodeOperationError {
	const description = [hint, 'Nothing was sent. Correct the field and run again.'].filter(Boolean).join(' ');
	return new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}

function refuse(ctx: IExecuteFunctions, itemIndex: number, message: string): never {
	throw refusal(ctx, itemIndex, message);
}

/** A video value refusal: 'Seconds (seconds): "10" is not accepted by sora-2; allowed values are 8, 12'. */
function valueRefusal(ctx: IExecuteFunctions, itemIndex: number, modelId: string, r: ValueRefusal): NodeOperationError {
	if (r.reason === 'unusual') {
		return refusal(ctx, itemIndex, `${r.field}: ${JSON.stringify(r.given)} is far beyond any video model's range; without ${ALLOW_UNUSUAL_LABEL} it takes ${r.accepts}`, r.hint);
	}
	const need = r.reason === 'values' ? `allowed values are ${r.accepts}` : `use ${r.accepts}`;
	return refusal(ctx, itemIndex, `${r.field}: ${JSON.stringify(r.given)} is not accepted by ${modelId}; ${need}`, r.hint);
}

/** Reads and checks everything of one item; sends nothing (runJobs runs this for all items first). */
async function prepare(ctx: IExecuteFunctions, i: number): Promise<PreparedVideo> {
	const modelId = String(ctx.getNodeParameter('modelId', i, '', { extractValue: true }) ?? '').trim();
	if (!modelId) refuse(ctx, i, 'Model is empty: pick a video model');
	const model = findModel(modelId);
	// The download's own numbers are checked now, not after the paid answer arrives.
	if (ctx.getNodeParameter('download', i, true) as boolean) readDownloadLimits(ctx, i);
	if (model && model.group !== 'video') refuse(ctx, i, `Model '${modelId}' is not a video model (it is listed as ${model.group}); pick a video model`);
	const checkedPrompt = checkPrompt(ctx.getNodeParameter('prompt', i, ''));
	if ('problem' in checkedPrompt) {
		refuse(ctx, i, / is empty$/.test(checkedPrompt.problem) ? `${checkedPrompt.problem}: describe the video to generate` : checkedPrompt.problem);
	}
	const prompt = checkedPrompt.value;

	const route = ctx.getNodeParameter('videoRoute', i, 'unified') as VideoRoute;
	if (!VIDEO_ROUTES[route]) refuse(ctx, i, `Route '${route}' is unknown; use one of ${Object.keys(VIDEO_ROUTES).join(', ')}`);
	if (VIDEO_ROUTES[route].multipart && !model?.limits?.fileReferenceField) {
		const takers = VIDEO_MODELS.filter((m) => m.limits?.fileReferenceField).map((m) => m.id);
		refuse(ctx, i, `Route: the Grok Multipart route is only for ${takers.join(', ')}; use Unified or Compatibility for ${modelId}`);
	}

	const values = readRegistryValues(ctx, i, VIDEO_FIELD_SET, model?.fields?.video, (r) => valueRefusal(ctx, i, modelId, r), route);
	const refs = await readVideoReferences(ctx, i, modelId, model, VIDEO_ROUTES[route].multipart);
	const refKey = VIDEO_ROUTES[route].multipart ? model!.limits!.fileReferenceField! : referenceKey(model);
	const template: IDataObject = { model: modelId, prompt, ...values, ...(refs.urls.length + refs.files.length > 0 ? { [refKey]: [] } : {}) };
	const rules = model?.fields?.video ?? {};
	const extra = readAdditionalBody(ctx, i, template, (key) => {
		if (rules[key]) return registryFieldLabel(key, rules[key]);
		if (key === refKey) return 'Reference Images';
		return key === 'model' ? 'Model' : key === 'prompt' ? 'Prompt' : key;
	});
	const timeoutS = readNumber(ctx, 'videoSubmitTimeoutSeconds', i, { name: 'videoSubmitTimeoutSeconds', fallback: 180 });
	return { modelId, model, route, prompt, values, extra, refs, timeoutMs: timeoutS * 1000 };
}

/** One POST per item, never repeated: a video is pre-charged when the gateway accepts it. */
async function submit(ctx: IExecuteFunctions, p: PreparedVideo, i: number): Promise<Submitted> {
	const route = VIDEO_ROUTES[p.route];
	const body = route.multipart ? multipartBody(p) : jsonBody(p, await referenceUrls(ctx, p.refs, i));
	const startedAt = Date.now();
	const response = await gatewayRequest.call(ctx, {
		method: 'POST',
		path: route.path,
		body,
		action: 'submitting the video job',
		billed: true,
		charge: 'the video pre-charge',
		model: p.modelId,
		timeoutMs: p.timeoutMs,
		itemIndex: i,
	});
	const taskId = submittedTaskId(ctx.getNode(), i, 'video job', response.body, taskIdOf(response.body));
	const language = route.queryRoute === 'generic' ? (ctx.getNodeParameter('videoLanguage', i, 'en') as string) : undefined;
	return { taskId, route: route.queryRoute, language, startedAt, raw: response.body };
}

async function succeed(ctx: IExecuteFunctions, p: PreparedVideo, submitted: Submitted, i: number, snapshot: TaskSnapshot, cost: IDataObject, continueOnFail: boolean): Promise<INodeExecutionData[]> {
	const json: IDataObject = {
		...taskJson(snapshot),
		...videoFacts(p, snapshot),
		queryRoute: submitted.route,
		...modelNotes(p.modelId, p.model),
		...cost,
	};
	if (!(ctx.getNodeParameter('download', i, true) as boolean)) return [{ json }];
	const viaContent = VIDEO_ROUTES[p.route].contentDownload;
	// The grok route serves the file itself (with the key); other routes' URLs are fetched without it.
	const urls = viaContent ? [contentPath(snapshot.taskId)] : snapshot.urls;
	const wait = readWaitForCompletion(ctx, DEFAULT_DEADLINE_MINUTES, VIDEO_POLL_INTERVAL_MS);
	return await itemsPerUrl(ctx, urls, (url) => (viaContent ? json : { ...json, url }), {
		itemIndex: i,
		binaryProperty: ctx.getNodeParameter('binaryPropertyOutput', i, 'data') as string,
		baseName: snapshot.taskId,
		defaultMimeType: 'video/mp4',
		kind: 'video',
		...downloadDeadline('video', submitted.startedAt, wait ? wait.deadlineMs : undefined),
		receipt: { taskId: snapshot.taskId, expiresAt: snapshot.expiresAt },
		continueOnFail,
	});
}

export async function execute(this: IExecuteFunctions, run: RunOptions): Promise<INodeExecutionData[]> {
	const spendGuard = createSpendGuard<PreparedVideo>(this, () => readSpendSettings(this), (p, settings) => videoSpendEstimate(p, settings.videoUsdPerSecond));
	return await runJobs(this, run.items.length, {
		noun: 'video job',
		continueOnFail: run.continueOnFail,
		concurrency: readConcurrency(this),
		wait: readWaitForCompletion(this, DEFAULT_DEADLINE_MINUTES, VIDEO_POLL_INTERVAL_MS),
		prepare: async (i) => await prepare(this, i),
		submit: async (p, i) => await submit(this, p, i),
		succeed: async (p, submitted, i, snapshot) => await succeed(this, p, submitted, i, snapshot!, videoCostJson(spendGuard.estimateOf(p)), run.continueOnFail),
		// Pending items (not waited for, or still running) also say which model and price apply.
		describePending: (p) => ({ model: p.modelId, ...modelNotes(p.modelId, p.model), ...videoCostJson(spendGuard.estimateOf(p)) }),
		spendGuard,
	});
}
