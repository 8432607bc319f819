import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DEFAULT_CONCURRENCY } from '../engine/concurrency';
import type { BatchSettings } from '../engine/running/batch';
import type { WaitSettings } from '../engine/running/types';
import { OPTIONS_PARAMETER, WAITING_PARAMETER } from './fields';
import { checkChoice, readBoolean, readNumber } from './inputs';
import type { RunDefaults } from './runDefaults';

/*
 * The readers of how a run goes: the Waiting and Options collections as the node holds them, read
 * against the operation's RunDefaults (runDefaults.ts), the same object its fields show
 * (runFields.ts). What the engine gets (engine/running/batch.ts BatchSettings) is read here: the
 * engine reads no node parameter.
 */

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
 * What the Waiting collection holds, read once for the run (item 0), what is left out taken from
 * `defaults`: Max Wait its minutes, a Poll Interval of 0 its interval (none: the engine's route
 * interval). `deadlineLimit` names the bounds Max Wait is checked against (registry/limits.ts).
 */
export function readWaitSettings(
	ctx: IExecuteFunctions,
	defaults: Pick<RunDefaults, 'maxWaitMinutes' | 'pollIntervalSeconds'>,
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
			: defaults.maxWaitMinutes;
	// Added, it is read like the others: an expression that gives nothing is refused, not taken as
	// left out (a wait that should fail its items would return them pending).
	const onTimeout = checkChoice(
		'onTimeout' in waiting ? waiting.onTimeout : 'pending',
		'On Timeout',
		['pending', 'fail'] as const,
	);
	if ('problem' in onTimeout)
		throw new NodeOperationError(ctx.getNode(), onTimeout.problem, { itemIndex: 0 });
	const advised = defaults.pollIntervalSeconds;
	return {
		deadlineMs: minutes * 60_000,
		intervalMs: seconds > 0 ? seconds * 1000 : advised ? advised * 1000 : undefined,
		onTimeout: onTimeout.value,
	};
}

/**
 * Concurrency of the run (item 0's Options value), checked: a text or 0 would stall or break the
 * run. Left out: the operation's own default.
 */
export function readConcurrency(
	ctx: IExecuteFunctions,
	{ concurrency }: Pick<RunDefaults, 'concurrency'> = { concurrency: DEFAULT_CONCURRENCY },
): number {
	const options = readOptions(ctx, 0);
	return 'concurrency' in options
		? readNumber(ctx, 'concurrency', 0, { value: options.concurrency })
		: concurrency;
}

/** readWaitSettings, or false when Wait for Result is off (the task ids come back at once). */
export function readWaitForCompletion(
	ctx: IExecuteFunctions,
	defaults: RunDefaults,
): false | WaitSettings {
	if (!readBoolean(ctx, 'waitForCompletion', 0, true, 'Wait for Result')) return false;
	return readWaitSettings(ctx, defaults);
}

/** How a billed batch runs (engine/running/batch.ts): its Concurrency and its wait, against `defaults`. */
export function readBatchSettings(
	ctx: IExecuteFunctions,
	noun: string,
	defaults: RunDefaults,
): BatchSettings {
	return {
		noun,
		concurrency: readConcurrency(ctx, defaults),
		wait: readWaitForCompletion(ctx, defaults),
		work: 'billed',
	};
}
