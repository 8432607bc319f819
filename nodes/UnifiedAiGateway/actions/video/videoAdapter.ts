import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeOperationError,
} from 'n8n-workflow';

import { postVideoJob } from '../../api/videos';
import type { Submitted } from '../../engine/running/jobPlan';
import { videoContentPath } from '../../api/tasks/routes';
import { taskIdOf } from '../../api/tasks/snapshot';
import { submittedTaskId } from '../../engine/running/submitAnswer';
import { readNumber } from '../../params/inputs';
import { ALLOW_UNUSUAL_LABEL, type ValueRefusal } from '../../params/registryRules';
import { readRegistryValues } from '../../params/registryValues';
import type { GenerationAdapter, OutputContext } from '../../pipeline/generation';
import { videoCostJson, videoEstimate } from '../../pipeline/cost';
import { chargeJson } from '../../api/charges';
import { readExtraBody, readPrompt, resolveModel } from '../../pipeline/prepare';
import { refuse } from '../../pipeline/refusals';
import { itemsPerUrl, taskJson } from '../../pipeline/taskOutput';
import { nodeOf } from '../../transport/context';
import { UNKNOWN_VIDEO_MODEL, VIDEO_MODELS } from '../../registry/videoModels';
import { jsonBody, multipartBody, referenceKey, type PreparedVideo } from './videoBody';
import { VIDEO_FIELD_SET } from './videoFields';
import { modelNotes, videoFacts } from './videoOutput';
import { readVideoReferences, referenceUrls } from './videoReferences';
import { VIDEO_ROUTES, type VideoRoute } from './submitRoutes';

/** A video value refusal: 'Seconds (seconds): "10" is not accepted by sora-2; allowed values are 8, 12'. */
function valueRefusal(
	ctx: IExecuteFunctions,
	itemIndex: number,
	modelId: string,
	r: ValueRefusal,
): NodeOperationError {
	if (r.reason === 'unusual') {
		return refuse(
			ctx,
			itemIndex,
			`${r.field}: ${JSON.stringify(r.given)} is far beyond any video model's range; without ${ALLOW_UNUSUAL_LABEL} it takes ${r.accepts}`,
			r.hint,
		);
	}
	if (r.reason === 'required') {
		return refuse(
			ctx,
			itemIndex,
			`${r.field}: ${modelId} must be sent a value (${r.accepts})`,
			r.rule.description,
		);
	}
	const need = r.reason === 'values' ? `allowed values are ${r.accepts}` : `use ${r.accepts}`;
	return refuse(
		ctx,
		itemIndex,
		`${r.field}: ${JSON.stringify(r.given)} is not accepted by ${modelId}; ${need}`,
		r.hint,
	);
}

/** Reads and checks everything of one item; sends nothing (the engine runs this for all items first). */
async function prepare(ctx: IExecuteFunctions, i: number): Promise<PreparedVideo> {
	const { id: modelId, row: model } = resolveModel(ctx, i, 'video');
	const prompt = readPrompt(ctx, i, 'describe the video to generate');

	const route = ctx.getNodeParameter('videoRoute', i, 'unified') as VideoRoute;
	if (!VIDEO_ROUTES[route])
		throw refuse(
			ctx,
			i,
			`Route '${route}' is unknown; use one of ${Object.keys(VIDEO_ROUTES).join(', ')}`,
		);
	if (VIDEO_ROUTES[route].multipart && !model?.limits?.fileReferenceField) {
		const takers = VIDEO_MODELS.filter((m) => m.limits?.fileReferenceField).map((m) => m.id);
		throw refuse(
			ctx,
			i,
			`Route: the Grok Multipart route is only for ${takers.join(', ')}; use Unified or Compatibility for ${modelId}`,
		);
	}

	// An id without a row gets the unified request's own fields (registry UNKNOWN_VIDEO_MODEL).
	const rules = model ?? UNKNOWN_VIDEO_MODEL;
	const values = readRegistryValues(
		ctx,
		i,
		VIDEO_FIELD_SET,
		modelId,
		rules,
		(r) => valueRefusal(ctx, i, modelId, r),
		route,
	);
	const refs = await readVideoReferences(ctx, i, modelId, model, VIDEO_ROUTES[route].multipart);
	const refKey = VIDEO_ROUTES[route].multipart
		? model!.limits!.fileReferenceField!
		: referenceKey(model);
	const hasRefs = refs.urls.length + refs.files.length > 0;
	const extra = readExtraBody(ctx, i, {
		value: ctx.getNodeParameter('videoAdditionalBody', i, '{}'),
		example: '{"metadata": {"fps": 24}}',
		template: { model: modelId, prompt, ...values, ...(hasRefs ? { [refKey]: [] } : {}) },
		rules: rules.fields?.video ?? {},
		labels: { [refKey]: 'Reference Images' },
	});
	const timeoutS = readNumber(ctx, 'submitTimeoutSeconds', i, {
		name: 'options.submitTimeoutSeconds',
		fallback: 180,
	});
	return { modelId, model, route, prompt, values, extra, refs, timeoutMs: timeoutS * 1000 };
}

/** One POST per item, never repeated: a video is pre-charged when the gateway accepts it. */
async function submit(ctx: IExecuteFunctions, p: PreparedVideo, i: number): Promise<Submitted> {
	const route = VIDEO_ROUTES[p.route];
	const body = route.multipart
		? multipartBody(p)
		: jsonBody(p, await referenceUrls(ctx, p.refs, i));
	const startedAt = Date.now();
	const answer = await postVideoJob(ctx, {
		path: route.path,
		body,
		model: p.modelId,
		timeoutMs: p.timeoutMs,
		itemIndex: i,
	});
	const taskId = submittedTaskId(nodeOf(ctx), i, 'video job', answer, taskIdOf(answer));
	const language =
		route.queryRoute === 'generic'
			? (ctx.getNodeParameter('waiting.language', i, 'en') as string)
			: undefined;
	return { taskId, route: route.queryRoute, language, startedAt, raw: answer };
}

/** A video is always a task: the output is the finished task, its facts, its cost and, by default, the file. */
async function output(
	ctx: IExecuteFunctions,
	p: PreparedVideo,
	submitted: Submitted,
	itemIndex: number,
	{ snapshot, estimate, files }: OutputContext,
): Promise<INodeExecutionData[]> {
	const task = snapshot!;
	const json: IDataObject = {
		...taskJson(task),
		...videoFacts(p, task),
		queryRoute: submitted.route,
		...modelNotes(p.modelId, p.model),
		...videoCostJson(estimate),
		charge: await chargeJson(ctx, task, 1, itemIndex),
	};
	const viaContent = VIDEO_ROUTES[p.route].contentDownload;
	const download = files('video', {
		baseName: task.taskId,
		paid: { taskId: task.taskId, expiresAt: task.expiresAt },
	});
	if (!download) return [{ json }];
	// The grok route serves the file itself (with the key); other routes' URLs are fetched without it.
	const urls = viaContent ? [videoContentPath(task.taskId)] : task.urls;
	return await itemsPerUrl(ctx, urls, (url) => (viaContent ? json : { ...json, url }), download);
}

/** The video adapter of the generation pipeline (pipeline/generation.ts). */
export const VIDEO_ADAPTER: GenerationAdapter<PreparedVideo, Submitted> = {
	noun: 'video job',
	prepare,
	submit,
	estimate: (p, settings, prices) => videoEstimate(p, settings.videoUsdPerSecond, prices),
	output,
	// Pending items (not waited for, or still running) also say which model and price apply.
	describePending: (p, _submitted, estimate) => ({
		model: p.modelId,
		...modelNotes(p.modelId, p.model),
		...videoCostJson(estimate),
	}),
};
