import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import {
	checkSpend,
	fitItems,
	outputItems,
	readItems,
	submitItems,
	waitForResults,
} from '../../engine/running/batch';
import type { RunOptions } from '../../engine/running/perItem';
import { promptField } from '../../params/fields';
import { checkDownloads } from '../../params/downloadOptions';
import type { RunDefaults } from '../../params/runDefaults';
import { readBatchSettings } from '../../params/runSettings';
import { readSpendSettings } from '../../params/spendGuardOptions';
import { imageEstimate } from '../../pipeline/cost';
import { readPrompt } from '../../pipeline/prepare';
import { IMAGE_ROUTES, modelFieldProperties } from './imageFields';
import {
	fitImageJob,
	imageItems,
	pendingImage,
	readImageBody,
	readImageModel,
	sendImageJob,
	type ImageJob,
} from './imageJob';

/**
 * How Generate runs with Waiting and Options left out, and what its fields say of it (one object,
 * params/runDefaults.ts): docs/gateway-contract.md §8 has an async image polled every 3-5 s and
 * waited for up to 10 minutes; the poll interval is each query route's advice (image 3 s, alt 5 s).
 */
export const DEFAULTS: RunDefaults = { maxWaitMinutes: 10, routes: IMAGE_ROUTES, concurrency: 5 };

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

/** Every item read and checked, the run's cost checked, then submitted, waited for and output. */
export async function execute(
	this: IExecuteFunctions,
	run: RunOptions,
): Promise<INodeExecutionData[]> {
	const settings = readBatchSettings(this, 'image job', DEFAULTS);
	const batch = await readItems(this, run, settings, async (i) => await readJob(this, i));
	await checkSpend(
		batch,
		() => readSpendSettings(this),
		(job, _spend, prices) => imageEstimate(job.model, job.body, prices),
	);
	await fitItems(batch, async (job, i) => await fitImageJob(this, job, i));
	const submits = submitItems(
		batch,
		async (job, i) => await sendImageJob(this, job, job.body, [], i),
	);
	const results = await waitForResults(batch, submits, async (job, answer, i, task) =>
		imageItems(this, batch, job, answer, i, task),
	);
	return await outputItems(results, (job, answer) => pendingImage(batch, job, answer));
}

/** One item's request: the model, the prompt, the model's fields; nothing is sent. */
async function readJob(ctx: IExecuteFunctions, i: number): Promise<ImageJob> {
	const model = readImageModel(ctx, i);
	const prompt = readPrompt(
		ctx,
		i,
		'every image model needs a text prompt',
		'Describe the image to create.',
	);
	const body = await readImageBody(ctx, i, 'generate', model, prompt);
	checkDownloads(ctx, i, true);
	return { operation: 'generate', model, body };
}
