import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { nodeErrorOf } from '../../transport/nodeError';
import { checkPlanJson, seedCheckPlan } from '../waiting/checkPlan';
import type { WaitOutcome } from '../waiting/waiter';
import { bodyCopy } from './bodyCopy';
import { describeResults, otherResults } from './partialResults';
import type { ItemError, ItemState, Submitted } from './types';

/*
 * What a batch's item becomes when it is not a finished result (batch.ts outputItems): a pending
 * item for a task still running, an error item, and the error that stops the node naming the
 * other items' results.
 */

/** What a pending item also says about its request (model, parameters, cost): the operation's. */
export type PendingFacts<P, S extends Submitted> = (prepared: P, answer: S) => IDataObject;

/** The items a run submitted without waiting: when their submits began (epoch ms), how many. */
export interface Round {
	at: number;
	items: number;
}

/** The item of a task still running: enough to resume it without paying again. */
export function pendingItem<P, S extends Submitted>(
	state: ItemState<P, Submitted>,
	itemIndex: number,
	waited: boolean,
	round: Round | undefined,
	facts: PendingFacts<P, S> | undefined,
): INodeExecutionData {
	const submitted = state.submitted!;
	const extra = facts?.(state.prepared as P, submitted as S) ?? {};
	const outcome = state.outcome;
	if (!waited || !outcome) {
		const seed = round
			? { checkPlan: checkPlanJson(seedCheckPlan(round.at, itemIndex, round.items)) }
			: {};
		return { json: { ...pendingJson(submitted, undefined, 'submitted'), ...extra, ...seed } };
	}
	return { json: { ...pendingJson(submitted, outcome, 'timeout'), ...extra } };
}

/** The item a user gets for a task still running: enough to resume it without paying again. */
export function pendingJson(
	submitted: Submitted,
	outcome: WaitOutcome | undefined,
	why: 'submitted' | 'timeout',
): IDataObject {
	const snapshot = outcome?.snapshot;
	return {
		taskId: submitted.taskId,
		status:
			snapshot?.status ??
			String(submitted.raw.status ?? (submitted.raw.data as IDataObject)?.status ?? 'submitted'),
		progress: snapshot?.progress,
		pending: true,
		queryRoute: submitted.route,
		message:
			why === 'timeout'
				? (outcome as { message: string }).message
				: 'Submitted without waiting. Feed this item to Task → Wait for Completion, ' +
					'or use the Unified AI Gateway Trigger, to get the result.',
		waitedMs: outcome?.waitedMs,
		...(Object.keys(submitted.raw).length > 0 ? { submitResponse: bodyCopy(submitted.raw) } : {}),
	};
}

/** The gateway read the task and its status said failed or cancelled: nothing was made. */
export function reportedFailed(outcome: WaitOutcome): boolean {
	return (
		outcome.kind === 'failed' && outcome.error === undefined && outcome.snapshot?.phase === 'failed'
	);
}

/**
 * The item's result is complete: a sync answer or a finished task, every file in. A pending item
 * (its task still running) or one with a failed file is read or fetched again by a retry.
 */
export function finished(state: ItemState<unknown, Submitted>): boolean {
	if (!state.output || state.error || !state.submitted) return false;
	if (state.submitted.taskId && state.outcome?.kind !== 'succeeded') return false;
	return state.output.every(
		(item) => !item.error && item.json.error === undefined && item.json.pending !== true,
	);
}

/** A task that failed, or timed out with On Timeout = Fail: the item's error, naming the task. */
export function taskError(
	ctx: IExecuteFunctions,
	outcome: WaitOutcome,
	itemIndex: number,
): ItemError {
	const message = outcome.kind === 'succeeded' ? '' : outcome.message;
	const prefix = outcome.kind === 'failed' ? `Task ${outcome.task.taskId} failed: ` : '';
	const error = new NodeOperationError(ctx.getNode(), `${prefix}${message}`, {
		itemIndex,
		description:
			outcome.kind === 'failed'
				? `Status '${outcome.snapshot?.status ?? 'unknown'}'. ` +
					'The task id is kept in the output so you can check it with Task → Get.'
				: undefined,
	});
	error.context.taskId = outcome.task.taskId;
	return error;
}

/** An error item's json: the message, the task (if any) and whether something was created. */
export function errorJson(state: ItemState<unknown, Submitted>): IDataObject {
	const error = state.error as ItemError;
	const taskId = state.submitted?.taskId ?? (error.context?.taskId as string | undefined);
	return {
		error: error.message,
		...(error.description ? { description: error.description } : {}),
		...(taskId ? { taskId } : {}),
		created: taskId ? 'yes' : (state.created ?? 'no'),
		...(state.outcome?.snapshot ? { status: state.outcome.snapshot.status } : {}),
	};
}

/** The thrown error names this item's task and every task the other items created. */
export function failure(
	ctx: IExecuteFunctions,
	states: Array<ItemState<unknown, Submitted>>,
	index: number,
	noun: string,
): Error {
	const state = states[index];
	const error = nodeErrorOf(ctx.getNode(), state.error, index) as ItemError;
	const taskId = state.submitted?.taskId ?? (error.context?.taskId as string | undefined);
	if (taskId && !error.message.includes(taskId))
		error.message = `${error.message} (task ${taskId})`;
	if (taskId && error.context) error.context.taskId = taskId;
	if (state.created === 'unknown' && !error.context?.created) {
		error.description = [
			error.description,
			`The ${noun} may have been created although its answer was lost: ` +
				"check the account's task list before running this item again.",
		]
			.filter(Boolean)
			.join('\n');
	}
	const others = otherResults(states, index);
	if (others.length > 0) {
		error.description = [error.description, describeResults(others, noun)]
			.filter(Boolean)
			.join('\n');
		if (error.context) error.context.results = others;
		ctx.logger?.info(
			`Unified AI Gateway: execution ${ctx.getExecutionId()} stopped on item ${index}; ` +
				`the other items' results: ${JSON.stringify(others)}`,
		);
	}
	return error;
}
