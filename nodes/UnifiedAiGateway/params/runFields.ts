import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { DEFAULT_CONCURRENCY } from '../engine/concurrency';
import { STREAMED_DOWNLOADS_AT_ONCE } from '../engine/files/downloads';
import { NUMBER_LIMITS } from '../registry/limits';
import { WAITING_PARAMETER } from './fields';
import { pollIntervalWords, type RunDefaults } from './runDefaults';

/*
 * The fields of how a run goes, built from the operation's RunDefaults (runDefaults.ts): Wait for
 * Result, the Waiting collection (Max Wait, Poll Interval, On Timeout) and Options → Concurrency.
 * Each field's default and its "Left out: …" words come from the object the run reads too.
 */

/**
 * Wait for Result (waitForCompletion): whether the node waits for its tasks (its knobs are in the Waiting collection).
 */
export function waitForCompletionField(show: Record<string, string[]>): INodeProperties {
	return {
		displayName: 'Wait for Result',
		name: 'waitForCompletion',
		type: 'boolean',
		default: true,
		description: [
			'Whether to wait inside this node until the task finishes. Off returns the task ID at once',
			'(resume later with Task → Wait for Completion or the trigger). In queue mode, a worker that dies',
			'mid-wait loses the wait: n8n 1.x runs the execution again from the start (every item submitted',
			'and billed again), 2.x marks it failed. For big batches there, turn this off, store the task IDs,',
			'and collect them in a second workflow. With the node setting Retry On Fail, a retry does not pay',
			'again for what an earlier try created: finished tasks are output, running ones waited for, and',
			'only items whose task failed or was surely not created are submitted again.',
		].join(' '),
		displayOptions: { show },
	};
}

/** The options of the Waiting collection: Max Wait, Poll Interval and On Timeout, as `defaults` has them. */
export function waitingOptions(defaults: RunDefaults): INodeProperties[] {
	// A plain name, not defaults.maxWaitMinutes: n8n's lint reads a field's default only as a
	// literal or a name (node-param-default-missing), as its own nodes write it.
	const { maxWaitMinutes } = defaults;
	return [
		{
			displayName: 'Max Wait (Minutes)',
			name: 'maxWaitMinutes',
			type: 'number',
			typeOptions: { minValue: 0.05, numberPrecision: 2 },
			default: maxWaitMinutes,
			description:
				'How long to wait for each task before giving up on waiting (the task itself keeps running). ' +
				`Left out: ${maxWaitMinutes} minutes. The wait also ends before the execution's time ` +
				"limit (the workflow's Timeout Workflow setting), so unfinished tasks are output as pending " +
				'items instead of being cancelled.',
		},
		{
			displayName: 'On Timeout',
			name: 'onTimeout',
			type: 'options',
			default: 'pending',
			options: [
				{
					name: 'Return Pending Item',
					value: 'pending',
					description:
						'Output the task ID with pending: true, to resume later without paying again',
				},
				{
					name: 'Fail',
					value: 'fail',
					description: 'Treat the item as failed (the task ID is in the error)',
				},
			],
			description:
				'What to do when Max Wait passes before the task finishes. Left out: Return Pending Item.',
		},
		{
			displayName: 'Poll Interval (Seconds)',
			name: 'pollIntervalSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description:
				`Seconds between status checks of one task. 0 (or left out): ${pollIntervalWords(defaults)}. ` +
				"A shorter interval is raised to the route's advised one.",
		},
	];
}

/** The Waiting collection, its options sorted by name as n8n lists them. */
export function waitingField(
	show: IDisplayOptions['show'],
	options: INodeProperties[],
): INodeProperties {
	return {
		displayName: 'Waiting',
		name: WAITING_PARAMETER,
		type: 'collection',
		placeholder: 'Add Waiting Option',
		default: {},
		description:
			'How the node waits for its tasks: how long, how often it checks, and what a timeout does. ' +
			'An option left out keeps its default.',
		options: [...options].sort((a, b) => a.displayName.localeCompare(b.displayName)),
		displayOptions: { show },
	};
}

/** Wait for Result, and its Waiting collection shown while it is on (one definition for all). */
export function waitFields(
	show: Record<string, string[]>,
	defaults: RunDefaults,
	extra: INodeProperties[] = [],
): INodeProperties[] {
	return [
		waitForCompletionField(show),
		waitingField({ ...show, waitForCompletion: [true] }, [...waitingOptions(defaults), ...extra]),
	];
}

/**
 * Concurrency, as an entry of Options: its default the operation's own. An operation that stores
 * result files says how many are fetched at once (engine/files/downloads.ts downloadsAtOnce); text
 * has none to fetch.
 */
export function concurrencyOption(
	{ concurrency }: Pick<RunDefaults, 'concurrency'> = { concurrency: DEFAULT_CONCURRENCY },
	{ files = true }: { files?: boolean } = {},
): INodeProperties {
	const sent = `How many items are sent to the gateway at the same time. Left out: ${concurrency}.`;
	return {
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'number',
		typeOptions: {
			minValue: NUMBER_LIMITS.concurrency.min,
			maxValue: NUMBER_LIMITS.concurrency.max,
		},
		default: concurrency,
		description: files
			? `${sent} Finished results are downloaded as many at a time, or up to ` +
				`${STREAMED_DOWNLOADS_AT_ONCE} where n8n stores files on disk or in S3.`
			: sent,
	};
}

/**
 * Options → Submit Timeout (Seconds) of a billed task submit, left out: `seconds` (the operation's
 * DEFAULTS); `advice` ends its description (what to do about a submit that timed out).
 */
export function submitTimeoutOption(
	seconds: number,
	advice = 'the job may exist.',
): INodeProperties {
	return {
		displayName: 'Submit Timeout (Seconds)',
		name: 'submitTimeoutSeconds',
		type: 'number',
		typeOptions: { minValue: 0.1, numberPrecision: 1 },
		default: seconds,
		description:
			`How long to wait for the gateway to accept the job. Left out: ${seconds} ` +
			`seconds. A submit that times out is never sent again: ${advice}`,
	};
}
