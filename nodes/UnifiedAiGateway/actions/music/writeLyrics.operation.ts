import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { chargeJson } from '../../api/charges';
import type { TaskSnapshot } from '../../api/tasks/snapshot';
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
import type { Submitted } from '../../engine/running/types';
import { optionsField } from '../../params/fields';
import { checkPrompt } from '../../params/inputs';
import type { RunDefaults } from '../../params/runDefaults';
import { concurrencyOption, submitTimeoutOption, waitFields } from '../../params/runFields';
import { readBatchSettings } from '../../params/runSettings';
import { readSpendSettings, spendGuardOptions } from '../../params/spendGuardOptions';
import { perCallEstimate } from '../../pipeline/cost';
import { refuse } from '../../pipeline/refusals';
import { taskJson } from '../../pipeline/taskOutput';
import { SUNO_PRICE_NAMES } from '../../registry/musicModels';
import { readSubmitTimeoutMs, submitSuno, sunoCostJson } from './sunoSubmit';

/*
 * Music → Write Lyrics: Suno writes lyrics and a title from a short idea (POST
 * /suno/submit/lyrics, docs/gateway-contract.md §10.15), a task of seconds. The item is the words;
 * no file. Billed per submit (`suno_lyrics`); feed the lyrics to Generate → From Lyrics.
 */

/** How Write Lyrics runs with Waiting and Options left out: lyrics take seconds, 2 minutes at most. */
export const DEFAULTS: RunDefaults & { submitTimeoutSeconds: number } = {
	maxWaitMinutes: 2,
	pollIntervalSeconds: 5,
	routes: ['suno'],
	concurrency: 5,
	submitTimeoutSeconds: 60,
};

/** Suno's description prompt limit, which its lyrics route shares. */
const MAX_IDEA_CHARS = 500;

const show = { resource: ['music'], operation: ['writeLyrics'] };
const displayOptions = { show };

const properties: INodeProperties[] = [
	{
		displayName: 'Idea',
		name: 'lyricsIdea',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
		placeholder: 'A song about a cat who automates chores',
		description: `What the lyrics are about, at most ${MAX_IDEA_CHARS} characters`,
	},
	...waitFields(show, DEFAULTS),
	optionsField(show, [
		concurrencyOption(DEFAULTS, { files: false }),
		submitTimeoutOption(DEFAULTS.submitTimeoutSeconds),
	]),
	spendGuardOptions(show, 'music'),
];

export const description = updateDisplayOptions(displayOptions, properties);

interface LyricsJob {
	idea: string;
	timeoutMs: number;
}

/** Every item read and checked, the run's cost checked, then submitted, waited for and output. */
export async function execute(
	this: IExecuteFunctions,
	run: RunOptions,
): Promise<INodeExecutionData[]> {
	const settings = readBatchSettings(this, 'lyrics job', DEFAULTS);
	const batch = await readItems(this, run, settings, (i) => readJob(this, i));
	await checkSpend(
		batch,
		() => readSpendSettings(this),
		(_job, _spend, prices) => perCallEstimate(SUNO_PRICE_NAMES.lyrics, 'lyrics', prices),
	);
	const submits = submitItems(
		batch,
		async (job, i) => await submitSuno(this, 'lyrics', { prompt: job.idea }, job.timeoutMs, i),
	);
	const results = await waitForResults(batch, submits, async (job, answer, i, task) => [
		await lyricsItem(this, batch, job, answer, i, task!),
	]);
	return await outputItems(results, (job) => costJson(batch, job));
}

function readJob(ctx: IExecuteFunctions, i: number): LyricsJob {
	const given = checkPrompt(ctx.getNodeParameter('lyricsIdea', i, ''), 'Idea');
	if ('problem' in given) throw refuse(ctx, i, `${given.problem}: say what the lyrics are about`);
	if (given.value.length > MAX_IDEA_CHARS)
		throw refuse(
			ctx,
			i,
			`Idea has ${given.value.length} characters; Suno takes at most ${MAX_IDEA_CHARS}`,
		);
	const timeoutMs = readSubmitTimeoutMs(ctx, i, DEFAULTS.submitTimeoutSeconds);
	return { idea: given.value, timeoutMs };
}

function costJson(batch: Batch<LyricsJob>, job: LyricsJob): IDataObject {
	return sunoCostJson(estimateOf(batch, job), 'submit');
}

/** The finished task's words: title and lyrics, with the task and its charge. */
async function lyricsItem(
	ctx: IExecuteFunctions,
	batch: Batch<LyricsJob>,
	job: LyricsJob,
	answer: Submitted,
	itemIndex: number,
	task: TaskSnapshot,
): Promise<INodeExecutionData> {
	// Words, no file: the task's facts without its (empty) URLs.
	const taskFacts = taskJson(task);
	delete taskFacts.url;
	delete taskFacts.urls;
	return {
		json: {
			...taskFacts,
			queryRoute: answer.route,
			title: task.lyrics?.title ?? null,
			lyrics: task.lyrics?.text ?? null,
			idea: job.idea,
			...costJson(batch, job),
			charge: await chargeJson(ctx, task, 1, itemIndex),
		},
	};
}
