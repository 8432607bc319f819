import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import type { RunOptions } from '../../engine/running/perItem';
import { promptField, type WaitDefaults } from '../../params/commonFields';
import { runGeneration } from '../../pipeline/generation';
import { IMAGE_MODELS } from '../../registry/imageModels';
import { imageAdapter } from './imageAdapter';
import { modelFieldProperties } from './imageFields';

/**
 * How Edit runs with Waiting and Options left out (also the defaults its fields show): an edit
 * task is an async image (docs/gateway-contract.md §8: polled every 3-5 s, waited for up to 10
 * minutes); the poll interval is each query route's advice (image 3 s, alt host 5 s).
 */
export const WAIT: WaitDefaults = { maxWaitMinutes: 10, concurrency: 5 };

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
		placeholder: 'https://example.com/photo.png',
		description: `Public image URLs, one per line or comma-separated, or an expression giving an array. With several, the model combines them. Counts per model: ${referenceLimitsText()}.`,
		displayOptions: { show: { referenceSource: ['urls'] } },
	},
	{
		displayName: 'Reference Binary Properties',
		name: 'referenceBinaryProperties',
		type: 'string',
		default: 'data',
		placeholder: 'data, image_2',
		description:
			'Names of the binary properties of the input item that hold the images (JPEG, PNG, WebP or GIF, at most 20 MB each), comma-separated. Each is checked, then uploaded, and its URL used.',
		displayOptions: { show: { referenceSource: ['binary'] } },
	},
	{
		displayName: 'Mask URL',
		name: 'maskUrl',
		type: 'string',
		default: '',
		placeholder: 'https://example.com/mask.png',
		description:
			'Optional mask image URL for repainting only part of the first reference image (same size as it). Leave empty to edit the whole image.',
		displayOptions: { show: { '/modelId': MASK_IDS } },
	},
	...modelFieldProperties('edit'),
];

export const description = updateDisplayOptions(displayOptions, properties);

/** Every item through the one generation pipeline: all checked, then submitted, waited for, output. */
export async function execute(
	this: IExecuteFunctions,
	run: RunOptions,
): Promise<INodeExecutionData[]> {
	return await runGeneration(this, run, imageAdapter('edit'), WAIT);
}
