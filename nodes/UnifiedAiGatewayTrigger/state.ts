import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { BalanceKind } from '../UnifiedAiGateway/api/account';
import type { QueryRoute } from '../UnifiedAiGateway/api/tasks/routes';

/*
 * The trigger's memory, in n8n's workflow static data for this node
 * (`this.getWorkflowStaticData('node')`, stored as `node:<node name>`):
 *
 *   taskFinished: { route, tasks: { [taskId]: WatchedTask } }
 *   balanceBelow: { kind, threshold, below }
 *
 * Both are read as plain copies and written back as whole keys: n8n only saves static data
 * it has seen change, and it sees a change only when a key of this object is assigned.
 */

export interface WatchedTask {
	/** When this trigger first saw the id in its list (ms since epoch); the timeout counts from here. */
	firstSeenAt: number;
	/** Set once the task has been reported (or given up on): it is never queried or emitted again. */
	done?: 'succeeded' | 'failed' | 'timeout';
	doneAt?: number;
	/** Consecutive task-specific query errors (task_not_exist, 400, 404). */
	errors?: number;
	lastError?: string;
	lastStatus?: string;
	lastProgress?: number;
	/**
	 * Polls in a row that read it finished without a result URL (a gateway may flag a task
	 * completed one read before it writes the URL): it is read again at the next polls, and
	 * reported once POLL_POLICY.readsWithoutUrl of them said so.
	 */
	withoutUrl?: number;
	/** When a poll last queried it: the least recently checked go first when a poll runs out of time. */
	checkedAt?: number;
	/**
	 * The reads in rounds (engine/waiting/pollSchedule.ts readThisRound): the ids first seen in one poll are
	 * a batch (firstSeenAt), the first √n of them in the list lead; `leadersDone` is how many of its
	 * batch's leaders had finished when it was last read, `skipped` the polls in a row it was left unread.
	 */
	leader?: boolean;
	leadersDone?: number;
	skipped?: number;
}

export interface TaskFinishedState {
	route: QueryRoute;
	tasks: Record<string, WatchedTask>;
}

export interface BalanceBelowState {
	kind: BalanceKind;
	threshold: number;
	below: boolean;
}

function nodeData(ctx: IPollFunctions): IDataObject {
	return ctx.getWorkflowStaticData('node');
}

function plainCopy<T>(value: unknown): T | undefined {
	return value && typeof value === 'object' ? (JSON.parse(JSON.stringify(value)) as T) : undefined;
}

/** The watched tasks; query error and without-URL counts are dropped when the query route changed. */
export function readTaskState(ctx: IPollFunctions, route: QueryRoute): TaskFinishedState {
	const saved = plainCopy<TaskFinishedState>(nodeData(ctx).taskFinished);
	const tasks = saved?.tasks && typeof saved.tasks === 'object' ? saved.tasks : {};
	if (saved?.route !== route) {
		for (const task of Object.values(tasks)) {
			delete task.errors;
			delete task.lastError;
			delete task.withoutUrl;
		}
	}
	return { route, tasks };
}

export function writeTaskState(ctx: IPollFunctions, state: TaskFinishedState): void {
	nodeData(ctx).taskFinished = plainCopy<IDataObject>(state) ?? {};
}

/** Whether the balance was below the threshold at the last poll; a new kind or threshold starts over. */
export function readBalanceState(
	ctx: IPollFunctions,
	kind: BalanceKind,
	threshold: number,
): BalanceBelowState {
	const saved = plainCopy<BalanceBelowState>(nodeData(ctx).balanceBelow);
	if (saved && saved.kind === kind && saved.threshold === threshold) return saved;
	return { kind, threshold, below: false };
}

export function writeBalanceState(ctx: IPollFunctions, state: BalanceBelowState): void {
	nodeData(ctx).balanceBelow = { ...state };
}
