import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type NodeOperationError,
} from 'n8n-workflow';

import { chargeJson } from '../../api/charges';
import { videoContentPath } from '../../api/tasks/routes';
import { taskIdOf, type TaskSnapshot } from '../../api/tasks/snapshot';
import { postVideoJob } from '../../api/videos';
import {
	checkSpend,
	estimateOf,
	outputItems,
	readItems,
	submitItems,
	waitForResults,
	type Batch,
} from '../../engine/running/batch';
import type { RunOptions } from '../../engine/running/perItem';
import { submittedTaskId } from '../../engine/running/submitAnswer';
import type { Submitted } from '../../engine/running/types';
import { additionalBodyField, mergeBody } from '../../params/additionalBody';
import { checkDownloads, downloadLimitOptions } from '../../params/downloadOptions';
import {
	binaryOutputOption,
	downloadField,
	modelLocator,
	optionsField,
	promptField,
} from '../../params/fields';
import { readNumber } from '../../params/inputs';
import { registryProperties } from '../../params/registryProperties';
import {
	ALLOW_UNUSUAL_LABEL,
	type RegistryFieldSet,
	type ValueRefusal,
} from '../../params/registryRules';
import { readRegistryValues } from '../../params/registryValues';
import type { RunDefaults } from '../../params/runDefaults';
import { concurrencyOption, submitTimeoutOption, waitFields } from '../../params/runFields';
import { readBatchSettings } from '../../params/runSettings';
import { readSpendSettings, spendGuardOptions } from '../../params/spendGuardOptions';
import { videoCostJson, videoEstimate } from '../../pipeline/cost';
import { readExtraBody, readPrompt, resolveModel } from '../../pipeline/prepare';
import { refuse } from '../../pipeline/refusals';
import { itemsPerUrl, resultDownload, taskJson } from '../../pipeline/taskOutput';
import type { ModelSpec } from '../../registry/models';
import {
	PLAUSIBLE_MAX_SECONDS,
	UNKNOWN_VIDEO_MODEL,
	VIDEO_MODELS,
} from '../../registry/videoModels';
import { nodeOf } from '../../transport/context';
import { TASK_LANGUAGE } from '../task/taskFields';
import { VIDEO_ROUTES, type VideoRoute } from './submitRoutes';
import { readVideoReferences, referenceUrls, type VideoReferences } from './videoReferences';

/**
 * How Generate runs with Waiting and Options left out, and what its fields say of it (one object,
 * params/runDefaults.ts): video waits long, docs/gateway-contract.md §8 advises a polling window of
 * at least 30 minutes and a read every 5 s, whichever query route reads the task (the unified
 * route's generic query too); the gateway may take a while to accept a job.
 */
export const DEFAULTS: RunDefaults & { submitTimeoutSeconds: number } = {
	maxWaitMinutes: 30,
	pollIntervalSeconds: 5,
	routes: [...new Set(Object.values(VIDEO_ROUTES).map((route) => route.queryRoute))],
	concurrency: 5,
	submitTimeoutSeconds: 180,
};
/** A plain name for the field's default (n8n's lint reads a default as a literal or a name). */
const { submitTimeoutSeconds } = DEFAULTS;

const show = { resource: ['video'], operation: ['generate'] };
const displayOptions = { show };

/**
 * The per-model fields of registry/videoModels.ts (`fields.video`); an id without a row gets the
 * unified request's own fields (UNKNOWN_VIDEO_MODEL).
 */
export const VIDEO_FIELD_SET: RegistryFieldSet = {
	operation: 'video',
	models: VIDEO_MODELS,
	show,
	prefix: 'video',
	routeParameter: 'videoRoute',
	allowUnusualParameter: 'videoAllowUnusualValues',
	unknownModel: UNKNOWN_VIDEO_MODEL,
	// Grok's seconds and size on the JSON routes were videoSeconds and videoSize until each rule of a
	// key got a name of its own; saved workflows still hold those names (docs/DEVELOPMENT.md,
	// "Parameter names").
	formerNames: [
		{ name: 'videoSeconds', key: 'seconds', id: 'grok-imagine-video-1.5', route: 'unified' },
		{ name: 'videoSize', key: 'size', id: 'grok-imagine-video-1.5', route: 'unified' },
	],
};

const properties: INodeProperties[] = [
	modelLocator('video', show, 'seedance-2.0'),
	promptField(
		show,
		'A paper boat drifting down a rainy street, close-up, slow camera pan',
		'Content, motion, camera and style of the video',
	),
	{
		displayName: 'Route',
		name: 'videoRoute',
		type: 'options',
		default: 'unified',
		options: Object.entries(VIDEO_ROUTES).map(([value, route]) => ({
			name: route.name,
			value,
			description: route.description,
		})),
		description:
			'Which gateway route submits the video. Task → Get and Wait read it on the matching query ' +
			'route.',
	},
	{
		displayName: 'Reference Image URLs',
		name: 'videoReferenceUrls',
		type: 'string',
		default: '',
		placeholder: 'https://example.com/first-frame.png',
		description:
			'Public http(s) image URLs, one per line or comma-separated (a comma splits only before another ' +
			'URL, so signed URLs keep theirs), or a list from an expression; they make it image-to-video. ' +
			'How many a model reads depends on the channel. Not for the Grok Multipart route (use binary ' +
			'properties there).',
	},
	{
		displayName: 'Reference Image Binary Properties',
		name: 'videoReferenceBinaryProperties',
		type: 'string',
		default: '',
		placeholder: 'data, image_2',
		description:
			'Binary properties of the input item holding reference images (JPEG, PNG or WebP, at most 20 MB ' +
			'each). They are uploaded to the gateway first, or sent as files on the Grok Multipart route.',
	},
	...registryProperties(VIDEO_FIELD_SET),
	{
		displayName: ALLOW_UNUSUAL_LABEL,
		name: 'videoAllowUnusualValues',
		type: 'boolean',
		default: false,
		description:
			`Whether to send a duration above ${PLAUSIBLE_MAX_SECONDS} seconds. Video is charged in advance ` +
			'by duration, so such values are refused as likely typos unless this is on.',
	},
	additionalBodyField(
		'videoAdditionalBody',
		'Channel-specific keys added to the request body, e.g. {"metadata": {"fps": 24}}. ' +
			'They cannot replace a key the fields above already set.',
		show,
	),
	// The unified route's task is read on the generic query, which takes a language (docs/gateway-contract.md §4.10).
	...waitFields(show, DEFAULTS, [
		{
			...TASK_LANGUAGE,
			displayName: 'Status Language',
			description: `${TASK_LANGUAGE.description}, used while waiting on the Unified route. Left out: English.`,
			displayOptions: { show: { '/videoRoute': ['unified'] } },
		},
	]),
	downloadField(show, true, 'video'),
	optionsField(show, [
		binaryOutputOption(),
		concurrencyOption(DEFAULTS),
		...downloadLimitOptions('video'),
		submitTimeoutOption(
			submitTimeoutSeconds,
			'the job may exist, so check the account before retrying.',
		),
	]),
	spendGuardOptions(show, 'video'),
];

export const description = updateDisplayOptions(displayOptions, properties);

/** One item's video request, checked and complete except for uploads (done at submit). */
interface VideoJob {
	modelId: string;
	model?: ModelSpec;
	route: VideoRoute;
	prompt: string;
	/** The registry fields, already at their body keys (metadata nested). */
	values: IDataObject;
	/** Additional Body Fields (JSON), checked not to replace anything above. */
	extra: IDataObject;
	refs: VideoReferences;
	timeoutMs: number;
}

/** Every item read and checked, the run's cost checked, then submitted, waited for and output. */
export async function execute(
	this: IExecuteFunctions,
	run: RunOptions,
): Promise<INodeExecutionData[]> {
	const settings = readBatchSettings(this, 'video job', DEFAULTS);
	const batch = await readItems(this, run, settings, async (i) => await readJob(this, i));
	await checkSpend(
		batch,
		() => readSpendSettings(this),
		(job, spend, prices) => videoEstimate(job, spend.videoUsdPerSecond, prices),
	);
	const submits = submitItems(batch, async (job, i) => await submitJob(this, job, i));
	const results = await waitForResults(batch, submits, async (job, answer, i, task) =>
		videoItems(this, batch, job, answer, i, task!),
	);
	// Pending items (not waited for, or still running) also say which model and price apply.
	return await outputItems(results, (job) => ({
		model: job.modelId,
		...modelNotes(job.modelId, job.model),
		...videoCostJson(estimateOf(batch, job)),
	}));
}

/** Reads and checks everything of one item; sends nothing. */
async function readJob(ctx: IExecuteFunctions, i: number): Promise<VideoJob> {
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
			`Route: the Grok Multipart route is only for ${takers.join(', ')}; ` +
				`use Unified or Compatibility for ${modelId}`,
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
		fallback: DEFAULTS.submitTimeoutSeconds,
	});
	checkDownloads(ctx, i, true);
	return { modelId, model, route, prompt, values, extra, refs, timeoutMs: timeoutS * 1000 };
}

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
			`${r.field}: ${JSON.stringify(r.given)} is far beyond any video model's range; ` +
				`without ${ALLOW_UNUSUAL_LABEL} it takes ${r.accepts}`,
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

/** One POST per item, never repeated: a video is pre-charged when the gateway accepts it. */
async function submitJob(ctx: IExecuteFunctions, job: VideoJob, i: number): Promise<Submitted> {
	const route = VIDEO_ROUTES[job.route];
	const body = route.multipart
		? multipartBody(job)
		: jsonBody(job, await referenceUrls(ctx, job.refs, i));
	const startedAt = Date.now();
	const answer = await postVideoJob(ctx, {
		path: route.path,
		body,
		model: job.modelId,
		timeoutMs: job.timeoutMs,
		itemIndex: i,
	});
	const taskId = submittedTaskId(nodeOf(ctx), i, 'video job', answer, taskIdOf(answer));
	const language =
		route.queryRoute === 'generic'
			? (ctx.getNodeParameter('waiting.language', i, 'en') as string)
			: undefined;
	return { taskId, route: route.queryRoute, language, startedAt, raw: answer };
}

/** Body key the reference URLs go in: the row's, else `images` (what most channels read). */
function referenceKey(model: ModelSpec | undefined): string {
	return model?.limits?.referenceField ?? 'images';
}

/** The JSON body of the unified and compatibility routes (docs/gateway-contract.md §4.8). */
function jsonBody(job: VideoJob, urls: string[]): IDataObject {
	const body: IDataObject = { model: job.modelId, prompt: job.prompt, ...job.values };
	if (urls.length > 0) {
		const key = referenceKey(job.model);
		// `image` holds one reference (docs/gateway-contract.md §4.8); several go in `images`, as
		// every other key takes them.
		if (key === 'image' && urls.length > 1) body.images = urls;
		else body[key] = key === 'image' ? urls[0] : urls;
	}
	return mergeBody(body, job.extra);
}

/** The grok multipart body (docs/gateway-contract.md §4.9): text fields, then one `input_reference` part per file. */
function multipartBody(job: VideoJob): FormData {
	const form = new FormData();
	const fields = mergeBody({ model: job.modelId, prompt: job.prompt, ...job.values }, job.extra);
	for (const [key, value] of Object.entries(fields)) {
		if (value === undefined || value === null) continue;
		form.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
	}
	const fileField = job.model?.limits?.fileReferenceField ?? 'input_reference';
	for (const file of job.refs.files) {
		// No Content-Type header is set anywhere: FormData picks the multipart boundary itself.
		form.append(
			fileField,
			new Blob([file.buffer as unknown as BlobPart], { type: file.mimeType }),
			file.fileName,
		);
	}
	return form;
}

/** A video is always a task: the output is the finished task, its facts, its cost and, by default, the file. */
async function videoItems(
	ctx: IExecuteFunctions,
	batch: Batch<VideoJob>,
	job: VideoJob,
	answer: Submitted,
	itemIndex: number,
	task: TaskSnapshot,
): Promise<INodeExecutionData[]> {
	const json: IDataObject = {
		...taskJson(task),
		...videoFacts(job, task),
		queryRoute: answer.route,
		...modelNotes(job.modelId, job.model),
		...videoCostJson(estimateOf(batch, job)),
		charge: await chargeJson(ctx, task, 1, itemIndex),
	};
	const viaContent = VIDEO_ROUTES[job.route].contentDownload;
	const download = resultDownload(ctx, batch, answer, itemIndex, {
		kind: 'video',
		baseName: task.taskId,
		paid: { taskId: task.taskId, expiresAt: task.expiresAt },
	});
	if (!download) return [{ json }];
	// The grok route serves the file itself (with the key); other routes' URLs are fetched without it.
	const urls = viaContent ? [videoContentPath(task.taskId)] : task.urls;
	return await itemsPerUrl(ctx, urls, (url) => (viaContent ? json : { ...json, url }), download);
}

/** docs/gateway-contract.md §2.8 gives no video price: the site price applies, charged in advance by duration. */
const VIDEO_PRICE_NOTE = 'site price applies; video is pre-charged by duration';
/** An id without a row: no length or price is assumed for it. */
const UNKNOWN_PRICE_NOTE =
	"unknown price: this model is not in the node's model table; the site price applies, " +
	'pre-charged by duration';

/** Price and id advice that follow from the model's row. */
function modelNotes(modelId: string, model: ModelSpec | undefined): IDataObject {
	const notes: IDataObject = {
		estimatedCost: model?.price
			? `${model.price.baseUsd} USD per ${model.price.per} (base price; the site price applies)`
			: model
				? VIDEO_PRICE_NOTE
				: UNKNOWN_PRICE_NOTE,
	};
	// A retired model says so (docs/gateway-contract.md §10.9).
	if (model?.description) notes.note = model.description;
	if (model?.recommendedId) {
		notes.recommendedModelId = model.recommendedId;
		notes.note =
			`'${modelId}' is a legacy alias kept for existing clients; ` +
			`use '${model.recommendedId}' in new workflows`;
	}
	if (!model)
		notes.note =
			`'${modelId}' is not in this node's model table: only the prompt, reference images, the ` +
			"unified request's fields you set and Additional Body Fields were sent";
	return notes;
}

/** Length and picture of the video: what the gateway reports, else what was asked for. */
function videoFacts(job: VideoJob, snapshot: TaskSnapshot): IDataObject {
	const raw = snapshot.raw;
	const data = (raw.data && typeof raw.data === 'object' ? raw.data : {}) as IDataObject;
	const metadata = (job.values.metadata ?? {}) as IDataObject;
	const facts: IDataObject = {
		model: firstText(raw.model, job.modelId),
		seconds: firstText(
			raw.seconds,
			data.seconds,
			job.values.seconds,
			job.values.duration,
			metadata.durationSeconds,
		),
		size: firstText(raw.size, data.size, job.values.size),
		aspectRatio: firstText(job.values.aspect_ratio, metadata.aspectRatio),
		resolution: firstText(job.values.resolution, metadata.resolution),
		route: job.route,
	};
	return Object.fromEntries(Object.entries(facts).filter(([, v]) => v !== undefined));
}

/** The first value given (not empty), as text. */
function firstText(...values: unknown[]): string | undefined {
	const found = values.find((v) => v !== undefined && v !== null && v !== '');
	return found === undefined ? undefined : String(found);
}
