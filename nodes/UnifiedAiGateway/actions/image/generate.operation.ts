import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import type { RunOptions } from '../../engine/running/perItem';
import { promptField, type WaitDefaults } from '../../params/commonFields';
import { runGeneration } from '../../pipeline/generation';
import { imageAdapter } from './imageAdapter';
import { modelFieldProperties } from './imageFields';

/**
 * How Generate runs with Waiting and Options left out (also the defaults its fields show):
 * docs/gateway-contract.md §8 has an async image polled every 3-5 s and waited for up to 10
 * minutes; the poll interval is each query route's advice (image 3 s, alt host 5 s).
 */
export const WAIT: WaitDefaults = { maxWaitMinutes: 10, concurrency: 5 };

const displayOptions = { show: { resource: ['image'], operation: ['generate'] } };

/** Generate's own fields; the model, the waiting and the Options are the Image resource's (imageFields.ts). */
const properties: INodeProperties[] = [
	promptField(
		displayOptions.show,
		'A watercolor fox in a snowy forest, soft morning light',
		'What the image should show: subject, style, composition and any text to render',
	),
	...modelFieldProperties('generate'),
];

export const description = updateDisplayOptions(displayOptions, properties);

/** Every item through the one generation pipeline: all checked, then submitted, waited for, output. */
export async function execute(
	this: IExecuteFunctions,
	run: RunOptions,
): Promise<INodeExecutionData[]> {
	return await runGeneration(this, run, imageAdapter('generate'), WAIT);
}
