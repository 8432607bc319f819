import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import {
	checkSpend,
	estimateOf,
	outputItems,
	readItems,
	submitItems,
	waitForResults,
} from '../../engine/running/batch';
import type { RunOptions } from '../../engine/running/perItem';
import type { RunDefaults } from '../../params/runDefaults';
import { readSpendSettings } from '../../params/spendGuardOptions';
import {
	readRecordingJob,
	recordingEstimate,
	recordingFieldSet,
	recordingProperties,
	recordingSettings,
	sendRecording,
	transcriptItem,
	type RecordingOperation,
} from './recording';

/*
 * Audio → Translate a Recording: the words of a recording in English, whatever it is spoken in (POST
 * /v1/audio/translations; OpenAI serves it with whisper-1), as text, JSON or SRT/VTT subtitles.
 * One billed call per item, answered at once: no task, nothing to wait for.
 */

/** How Translate runs with its Options left out (params/runDefaults.ts): no wait, 5 at once. */
export const DEFAULTS: Pick<RunDefaults, 'concurrency'> = { concurrency: 5 };

const OPERATION: RecordingOperation = {
	defaults: DEFAULTS,
	noun: 'translation call',
	route: 'translations',
	set: recordingFieldSet('translate'),
	example: '{"user": "campaign-42"}',
};

export const description = updateDisplayOptions(
	{ show: OPERATION.set.show },
	recordingProperties(OPERATION),
);

/** Every item read and checked, the run's cost checked, each recording sent, its transcript in English. */
export async function execute(
	this: IExecuteFunctions,
	run: RunOptions,
): Promise<INodeExecutionData[]> {
	const settings = recordingSettings(this, OPERATION);
	const batch = await readItems(this, run, settings, (i) => readRecordingJob(this, i, OPERATION));
	await checkSpend(
		batch,
		() => readSpendSettings(this),
		(job, _spend, prices) => recordingEstimate(job, prices),
	);
	const submits = submitItems(batch, async (job, i) => await sendRecording(this, job, i));
	const results = await waitForResults(batch, submits, async (job, answer) => [
		transcriptItem(job, answer, estimateOf(batch, job)),
	]);
	return await outputItems(results);
}
