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
 * Audio → Transcribe a Recording: the words of a recording in its own language (POST
 * /v1/audio/transcriptions), as text, JSON with timed segments, or SRT/VTT subtitles (also a file).
 * One billed call per item, answered at once: no task, nothing to wait for.
 */

/** How Transcribe runs with its Options left out (params/runDefaults.ts): no wait, 5 at once. */
export const DEFAULTS: Pick<RunDefaults, 'concurrency'> = { concurrency: 5 };

const OPERATION: RecordingOperation = {
	defaults: DEFAULTS,
	noun: 'transcription call',
	route: 'transcriptions',
	set: recordingFieldSet('transcribe'),
	example: '{"timestamp_granularities": ["word"]} with verbose_json',
};

export const description = updateDisplayOptions(
	{ show: OPERATION.set.show },
	recordingProperties(OPERATION),
);

/** Every item read and checked, the run's cost checked, each recording sent, its transcript output. */
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
