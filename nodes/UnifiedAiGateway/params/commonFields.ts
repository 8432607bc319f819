import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DEFAULT_CONCURRENCY } from '../engine/concurrency';
import { STREAMED_DOWNLOADS_AT_ONCE } from '../engine/files/downloads';
import type { WaitSettings } from '../engine/running/jobPlan';
import { NUMBER_LIMITS } from '../registry/limits';
import type { ModelGroup } from '../registry/models';
import { checkChoice, readBoolean, readNumber } from './inputs';

const SEARCH_METHODS: Record<ModelGroup, string> = {
	text: 'searchTextModels',
	image: 'searchImageModels',
	video: 'searchVideoModels',
};

/** The model picker: a searchable list from /v1/models, or any id typed by hand. */
export function modelLocator(
	group: ModelGroup,
	show: Record<string, string[]>,
	defaultId: string,
): INodeProperties {
	return {
		displayName: 'Model',
		name: 'modelId',
		type: 'resourceLocator',
		default: { mode: 'list', value: defaultId },
		required: true,
		description: `The ${group} model. The list shows the ${group} models this API key can use.`,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: SEARCH_METHODS[group], searchable: true },
			},
			{
				displayName: 'ID',
				name: 'id',
				type: 'string',
				placeholder: defaultId,
			},
		],
		displayOptions: { show },
	};
}

/** The prompt of a generation (image or video): required text, with its own example and help. */
export function promptField(
	show: Record<string, string[]>,
	placeholder: string,
	description: string,
): INodeProperties {
	return {
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		placeholder,
		description,
		displayOptions: { show },
	};
}

/**
 * How an operation runs with its Waiting and Options entries left out: each billed operation
 * declares its own (its `WAIT`), hands it to waitFields / concurrencyOption for its fields and to
 * the pipeline for its run, so the form and the run cannot disagree.
 */
export interface WaitDefaults {
	/** Max Wait (Minutes) left out. */
	maxWaitMinutes: number;
	/**
	 * Poll Interval left out or 0. Undefined: each query route's advised interval
	 * (api/tasks/routes.ts), which is also the floor a user's interval is raised to.
	 */
	pollIntervalSeconds?: number;
	/** Options → Concurrency left out. */
	concurrency: number;
}

/** The parameter of the Waiting collection: how a wait runs (its deadline, interval and timeout). */
export const WAITING_PARAMETER = 'waiting';
/** The parameter of the Options collection: operational knobs (concurrency, output field, limits). */
export const OPTIONS_PARAMETER = 'options';

/** Wait for Result (waitForCompletion): whether the node waits for its tasks (its knobs are in the Waiting collection). */
export function waitForCompletionField(show: Record<string, string[]>): INodeProperties {
	return {
		displayName: 'Wait for Result',
		name: 'waitForCompletion',
		type: 'boolean',
		default: true,
		description:
			'Whether to wait inside this node until the task finishes. Off returns the task ID at once (resume later with Task → Wait for Completion or the trigger). In queue mode, a worker that dies mid-wait loses the wait: n8n 1.x runs the execution again from the start (every item submitted and billed again), 2.x marks it failed. For big batches there, turn this off, store the task IDs, and collect them in a second workflow. With the node setting Retry On Fail, a retry does not pay again for what an earlier try created: finished tasks are output, running ones waited for, and only items whose task failed or was surely not created are submitted again.',
		displayOptions: { show },
	};
}

/** The options of the Waiting collection: Max Wait, Poll Interval and On Timeout. */
export function waitingOptions(defaultMaxWaitMinutes: number): INodeProperties[] {
	return [
		{
			displayName: 'Max Wait (Minutes)',
			name: 'maxWaitMinutes',
			type: 'number',
			typeOptions: { minValue: 0.05, numberPrecision: 2 },
			default: defaultMaxWaitMinutes,
			description: `How long to wait for each task before giving up on waiting (the task itself keeps running). Left out: ${defaultMaxWaitMinutes} minutes. The wait also ends before the execution's time limit (the workflow's Timeout Workflow setting), so unfinished tasks are output as pending items instead of being cancelled.`,
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
				"Seconds between status checks of one task. 0 (or left out) uses the gateway's advised interval for the route (3-5 s for images, 5 s for video).",
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
			'How the node waits for its tasks: how long, how often it checks, and what a timeout does. An option left out keeps its default.',
		options: [...options].sort((a, b) => a.displayName.localeCompare(b.displayName)),
		displayOptions: { show },
	};
}

/** Wait for Result, and its Waiting collection shown while it is on (one definition for all). */
export function waitFields(
	show: Record<string, string[]>,
	wait: WaitDefaults,
	extra: INodeProperties[] = [],
): INodeProperties[] {
	return [
		waitForCompletionField(show),
		waitingField({ ...show, waitForCompletion: [true] }, [
			...waitingOptions(wait.maxWaitMinutes),
			...extra,
		]),
	];
}

/** The Waiting collection as the node holds it (an object; anything else reads as empty). */
export function readWaiting(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const raw = ctx.getNodeParameter(WAITING_PARAMETER, itemIndex, {}) as unknown;
	return raw && typeof raw === 'object' ? (raw as IDataObject) : {};
}

/** The Options collection as the node holds it (an object; anything else reads as empty). */
export function readOptions(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const raw = ctx.getNodeParameter(OPTIONS_PARAMETER, itemIndex, {}) as unknown;
	return raw && typeof raw === 'object' ? (raw as IDataObject) : {};
}

/**
 * What the Waiting collection holds, read once for the run (item 0). `defaultMaxWaitMinutes` is the
 * one given to waitFields; a Poll Interval of 0 means `advisedIntervalMs`, else the engine's route interval.
 */
export function readWaitSettings(
	ctx: IExecuteFunctions,
	defaultMaxWaitMinutes: number,
	advisedIntervalMs?: number,
	deadlineLimit: 'maxWaitMinutes' | 'taskMaxWaitMinutes' = 'maxWaitMinutes',
): WaitSettings {
	const waiting = readWaiting(ctx, 0);
	// An option left out is its default; one added is checked like every number, also when its
	// expression gives nothing (the key is there, its value undefined).
	const seconds =
		'pollIntervalSeconds' in waiting
			? readNumber(ctx, 'pollIntervalSeconds', 0, { value: waiting.pollIntervalSeconds })
			: 0;
	const minutes =
		'maxWaitMinutes' in waiting
			? readNumber(ctx, deadlineLimit, 0, { value: waiting.maxWaitMinutes })
			: defaultMaxWaitMinutes;
	// Added, it is read like the others: an expression that gives nothing is refused, not taken as
	// left out (a wait that should fail its items would return them pending).
	const onTimeout = checkChoice(
		'onTimeout' in waiting ? waiting.onTimeout : 'pending',
		'On Timeout',
		['pending', 'fail'] as const,
	);
	if ('problem' in onTimeout)
		throw new NodeOperationError(ctx.getNode(), onTimeout.problem, { itemIndex: 0 });
	return {
		deadlineMs: minutes * 60_000,
		intervalMs: seconds > 0 ? seconds * 1000 : advisedIntervalMs,
		onTimeout: onTimeout.value,
	};
}

/**
 * Concurrency of the run (item 0's Options value), checked: a text or 0 would stall or break the
 * run. Left out: the operation's own default (its WAIT), else DEFAULT_CONCURRENCY.
 */
export function readConcurrency(
	ctx: IExecuteFunctions,
	defaultConcurrency = DEFAULT_CONCURRENCY,
): number {
	const options = readOptions(ctx, 0);
	return 'concurrency' in options
		? readNumber(ctx, 'concurrency', 0, { value: options.concurrency })
		: defaultConcurrency;
}

/** readWaitSettings with the operation's defaults, or false when Wait for Result is off (the task ids come back at once). */
export function readWaitForCompletion(
	ctx: IExecuteFunctions,
	wait: WaitDefaults,
): false | WaitSettings {
	if (!readBoolean(ctx, 'waitForCompletion', 0, true, 'Wait for Result')) return false;
	const seconds = wait.pollIntervalSeconds;
	return readWaitSettings(ctx, wait.maxWaitMinutes, seconds ? seconds * 1000 : undefined);
}

/** Download Files (download): whether the result files become binary data (their limits are in Options). */
export function downloadField(
	show: Record<string, string[]>,
	defaultOn: boolean,
	what: string,
): INodeProperties {
	const download: INodeProperties = {
		displayName: 'Download Files',
		name: 'download',
		type: 'boolean',
		default: false,
		description: `Whether to download the ${what} into binary data. Result URLs expire, so downloading keeps the file. Where the file goes and its limits are in Options.`,
		displayOptions: { show },
	};
	// Spelled as literals: n8n's scan (node-param-default-wrong-for-boolean) reads only `true` / `false`.
	return defaultOn ? { ...download, default: true } : download;
}

/** The output field of a downloaded file, as an entry of Options. */
export function binaryOutputOption(
	hint = 'The name of the output binary field to put the file in (with Download Files on)',
): INodeProperties {
	return {
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyOutput',
		type: 'string',
		default: 'data',
		description: `${hint}. Left out: data.`,
	};
}

/**
 * Concurrency, as an entry of Options: its default the operation's own (its WAIT), else
 * DEFAULT_CONCURRENCY. An operation that stores result files says how many are fetched at once
 * (engine/files/downloads.ts downloadsAtOnce); text has none to fetch.
 */
export function concurrencyOption(
	defaultConcurrency = DEFAULT_CONCURRENCY,
	{ files = true }: { files?: boolean } = {},
): INodeProperties {
	return {
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'number',
		typeOptions: {
			minValue: NUMBER_LIMITS.concurrency.min,
			maxValue: NUMBER_LIMITS.concurrency.max,
		},
		default: defaultConcurrency,
		description: files
			? `How many items are sent to the gateway at the same time. Left out: ${defaultConcurrency}. Finished results are downloaded as many at a time, or up to ${STREAMED_DOWNLOADS_AT_ONCE} where n8n stores files on disk or in S3.`
			: `How many items are sent to the gateway at the same time. Left out: ${defaultConcurrency}.`,
	};
}

/**
 * The Options collection of an operation (operational knobs, as HTTP Request keeps them): its
 * entries sorted by name as n8n lists them. An entry left out keeps its default.
 */
export function optionsField(
	show: Record<string, string[]>,
	options: INodeProperties[],
): INodeProperties {
	return {
		displayName: 'Options',
		name: OPTIONS_PARAMETER,
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [...options].sort((a, b) => a.displayName.localeCompare(b.displayName)),
		displayOptions: { show },
	};
}
