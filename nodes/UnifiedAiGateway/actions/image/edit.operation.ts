import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import type { UploadedImage } from '../../api/uploads';
import {
	checkSpend,
	fitItems,
	outputItems,
	readItems,
	submitItems,
	waitForResults,
} from '../../engine/running/batch';
import type { RunOptions } from '../../engine/running/perItem';
import { parsePropertyList, readInputImage } from '../../params/binaryInput';
import { checkDownloads } from '../../params/downloadOptions';
import { promptField } from '../../params/fields';
import type { RunDefaults } from '../../params/runDefaults';
import { readBatchSettings } from '../../params/runSettings';
import { readSpendSettings } from '../../params/spendGuardOptions';
import { imageEstimate } from '../../pipeline/cost';
import { describeModel, readPrompt } from '../../pipeline/prepare';
import {
	checkReferenceUrls,
	isHttpUrl,
	parseReferenceUrls,
	UPLOAD_TYPES,
	uploadReferenceFiles,
} from '../../pipeline/references';
import { refuse } from '../../pipeline/refusals';
import { IMAGE_MODELS } from '../../registry/imageModels';
import { IMAGE_ROUTES, modelFieldProperties } from './imageFields';
import {
	fitImageJob,
	imageItems,
	pendingImage,
	readImageBody,
	readImageModel,
	sendImageJob,
	type ImageJob,
	type ImageModel,
} from './imageJob';

/**
 * How Edit runs with Waiting and Options left out, and what its fields say of it (one object,
 * params/runDefaults.ts): an edit task is an async image (docs/gateway-contract.md §8: polled every
 * 3-5 s, waited for up to 10 minutes); the poll interval is each query route's advice.
 */
export const DEFAULTS: RunDefaults = { maxWaitMinutes: 10, routes: IMAGE_ROUTES, concurrency: 5 };

const displayOptions = { show: { resource: ['image'], operation: ['edit'] } };

/** "gpt-image-2: 1 to 16; …" from the registry limits, for the field help. */
function referenceLimitsText(): string {
	const groups = new Map<string, string[]>();
	for (const model of IMAGE_MODELS) {
		if (!model.fields?.edit) continue;
		const { minReferences = 1, maxReferences } = model.limits ?? {};
		const range =
			maxReferences === undefined
				? `at least ${minReferences}`
				: `${minReferences} to ${maxReferences}`;
		const ids = groups.get(range) ?? [];
		if (!ids.includes(model.id)) ids.push(model.id);
		groups.set(range, ids);
	}
	return [...groups.entries()].map(([range, ids]) => `${ids.join(', ')}: ${range}`).join('; ');
}

const MASK_IDS = IMAGE_MODELS.filter((m) => m.fields?.edit && m.limits?.maskField).map((m) => m.id);

/** Edit's own fields; the model, the waiting and the Options are the Image resource's (imageFields.ts). */
const properties: INodeProperties[] = [
	promptField(
		displayOptions.show,
		'Replace the sky with a sunset and keep everything else',
		'The edit instruction: what to change in the reference images, or how to combine them',
	),
	{
		displayName: 'Reference Images From',
		name: 'referenceSource',
		type: 'options',
		default: 'urls',
		options: [
			{
				name: 'Binary Data',
				value: 'binary',
				description:
					'Files on the input item; they are uploaded to the gateway first (free, URLs valid 72 hours)',
			},
			{
				name: 'Image URLs',
				value: 'urls',
				description: 'Public http(s) URLs the gateway can fetch',
			},
		],
		description: 'Where the images to edit come from',
	},
	{
		displayName: 'Reference Image URLs',
		name: 'referenceUrls',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
		placeholder: 'https://example.com/photo.png',
		description:
			`Public image URLs, one per line or comma-separated, or an expression ` +
			`giving an array. With several, the model combines them. Counts per ` +
			`model: ${referenceLimitsText()}.`,
		displayOptions: { show: { referenceSource: ['urls'] } },
	},
	{
		displayName: 'Reference Binary Properties',
		name: 'referenceBinaryProperties',
		type: 'string',
		default: 'data',
		placeholder: 'data, image_2',
		description:
			'Names of the binary properties of the input item that hold the images ' +
			'(JPEG, PNG, WebP or GIF, at most 20 MB each), comma-separated. Each is ' +
			'checked, then uploaded, and its URL used.',
		displayOptions: { show: { referenceSource: ['binary'] } },
	},
	{
		displayName: 'Mask URL',
		name: 'maskUrl',
		type: 'string',
		default: '',
		placeholder: 'https://example.com/mask.png',
		description:
			'Optional mask image URL for repainting only part of the first reference ' +
			'image (same size as it). Leave empty to edit the whole image.',
		displayOptions: { show: { '/modelId': MASK_IDS } },
	},
	...modelFieldProperties('edit'),
];

export const description = updateDisplayOptions(displayOptions, properties);

/** An edit's request: the image job, and its references (URLs as given, binaries still to upload). */
interface EditJob extends ImageJob {
	references: ReferenceInput;
}

/** Every item read and checked, the run's cost checked, then submitted, waited for and output. */
export async function execute(
	this: IExecuteFunctions,
	run: RunOptions,
): Promise<INodeExecutionData[]> {
	const settings = readBatchSettings(this, 'image edit', DEFAULTS);
	const batch = await readItems(this, run, settings, async (i) => await readJob(this, i));
	await checkSpend(
		batch,
		() => readSpendSettings(this),
		(job, _spend, prices) => imageEstimate(job.model, job.body, prices),
	);
	await fitItems(batch, async (job, i) => await fitImageJob(this, job, i));
	const submits = submitItems(batch, async (job, i) => await submitJob(this, job, i));
	const results = await waitForResults(batch, submits, async (job, answer, i, task) =>
		imageItems(this, batch, job, answer, i, task),
	);
	return await outputItems(results, (job, answer) => pendingImage(batch, job, answer));
}

/** Models of the registry that have an edit variant, for messages. */
function editModelIds(): string {
	return [...new Set(IMAGE_MODELS.filter((m) => m.fields?.edit).map((m) => m.id))].join(', ');
}

/** One item's request: the model (one with an edit variant), the prompt, its fields, the references. */
async function readJob(ctx: IExecuteFunctions, i: number): Promise<EditJob> {
	const model = readImageModel(ctx, i);
	if (!model.spec.fields?.edit) {
		throw refuse(
			ctx,
			i,
			`Model '${model.id}' has no edit variant`,
			`Edits take one of: ${editModelIds()}.`,
		);
	}
	const prompt = readPrompt(
		ctx,
		i,
		'every image model needs a text prompt',
		'Describe the change to make to the reference images.',
	);
	const body = await readImageBody(ctx, i, 'edit', model, prompt);
	const references = await readReferences(ctx, i, model);
	checkDownloads(ctx, i, true);
	return { operation: 'edit', model, body, references };
}

/** The item's binary references uploaded (free), then the one billed call with every reference. */
async function submitJob(ctx: IExecuteFunctions, job: EditJob, i: number) {
	const { model, references } = job;
	const uploads = await uploadReferences(ctx, i, references.binaryProperties);
	const limits = model.spec.limits ?? {};
	const request: IDataObject = {
		model: job.body.model,
		prompt: job.body.prompt,
		[limits.referenceField ?? 'images']: [...references.urls, ...uploads.map((u) => u.url)],
		...(references.mask ? { [limits.maskField ?? 'mask_url']: references.mask } : {}),
		...job.body,
	};
	return await sendImageJob(ctx, job, request, uploads, i);
}

const LABEL = 'Reference Images';

/** An edit's reference images as checked in `prepare`: URLs as given, binaries still to upload. */
interface ReferenceInput {
	urls: string[];
	binaryProperties: string[];
	mask?: string;
}

/** Reads and checks an item's references and mask against the model's limits; sends nothing. */
async function readReferences(
	ctx: IExecuteFunctions,
	itemIndex: number,
	model: ImageModel,
): Promise<ReferenceInput> {
	const limits = model.spec.limits ?? {};
	const who = describeModel(model);
	const source = ctx.getNodeParameter('referenceSource', itemIndex, 'urls') as string;
	const urls =
		source === 'urls'
			? parseReferenceUrls(ctx.getNodeParameter('referenceUrls', itemIndex, ''))
			: [];
	const binaryProperties =
		source === 'binary'
			? parsePropertyList(ctx.getNodeParameter('referenceBinaryProperties', itemIndex, 'data'))
			: [];
	checkReferenceUrls(
		ctx,
		itemIndex,
		urls,
		LABEL,
		`${who} takes public image URLs only: the gateway fetches references ` +
			`itself, so base64 data and local paths do not work. For files, set ` +
			`Reference Images From to Binary Data: they are uploaded first.`,
	);
	for (const property of binaryProperties)
		await readInputImage(ctx, itemIndex, property, UPLOAD_TYPES, LABEL);

	const count = urls.length + binaryProperties.length;
	const mask = limits.maskField
		? String(ctx.getNodeParameter('maskUrl', itemIndex, '') ?? '').trim()
		: '';
	if (mask && count === 0) {
		throw refuse(
			ctx,
			itemIndex,
			`Mask URL '${mask.slice(0, 100)}' was given without reference images: ${who} ` +
				`applies the mask to the first reference image`,
			'Add the image to repaint as a reference image.',
		);
	}
	if (mask && !isHttpUrl(mask)) {
		throw refuse(
			ctx,
			itemIndex,
			`Mask URL '${mask.slice(0, 100)}' is not an http(s) URL; ${who} takes the mask as a public image URL`,
		);
	}
	const min = limits.minReferences ?? 1;
	const max = limits.maxReferences;
	if (count < min || (max !== undefined && count > max)) {
		const range =
			max === undefined ? `at least ${min}` : min === max ? `exactly ${min}` : `${min} to ${max}`;
		throw refuse(
			ctx,
			itemIndex,
			`${LABEL}: ${count} given, but ${who} takes ${range} reference image${max === 1 ? '' : 's'}`,
			count === 0
				? source === 'binary'
					? 'Name the binary properties that hold the images, for example data.'
					: 'Give the image URLs, one per line or as an array expression.'
				: undefined,
		);
	}
	return { urls, binaryProperties, mask: mask || undefined };
}

/**
 * Uploads an item's binary references, in order, just before its edit is submitted; the files
 * are read again here rather than held since `prepare`.
 */
async function uploadReferences(
	ctx: IExecuteFunctions,
	itemIndex: number,
	properties: string[],
): Promise<UploadedImage[]> {
	const files = [];
	for (const property of properties)
		files.push(await readInputImage(ctx, itemIndex, property, UPLOAD_TYPES, LABEL));
	return await uploadReferenceFiles(ctx, itemIndex, files, 'edit');
}
