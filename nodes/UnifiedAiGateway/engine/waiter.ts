import { NodeOperationError } from 'n8n-workflow';

import { abortableSleep } from '../transport/sleep';
import { cancelSignalOf, type GatewayContext } from '../transport/context';
import { GatewayRequestError } from '../transport/request';
import { backoffDelay } from '../transport/retry';
import { mapLimited } from './concurrency';
import { QUERY_ROUTES, type QueryRoute } from './routes';
import { queryTask } from './query';
import type { TaskSnapshot } from './snapshot';

export interface PendingTask {
	taskId: string;
	route: QueryRoute;
	/** When the task was created; its first poll and its deadline count from here. */
	startedAt?: number;
	/** The gateway's own estimate (estimated_time): the first poll waits that long. */
	estimatedTimeS?: number;
	language?: string;
}

export interface WaitOptions {
	deadlineMs?: number;
	intervalMs?: number;
	/** Polls in flight at once. */
	concurrency?: number;
}

interface Common {
	task: PendingTask;
	polls: number;
	waitedMs: number;
	snapshot?: TaskSnapshot;
}

export type WaitOutcome =
	| (Common & { kind: 'succeeded'; snapshot: TaskSnapshot })
	| (Common & { kind: 'failed'; message: string; error?: GatewayRequestError })
	| (Common & { kind: 'timeout'; message: string; lastError?: string });

interface Watch {
	index: number;
	task: PendingTask;
	startedAt: number;
	nextAt: number;
	deadlineAt: number;
	polls: number;
	errors: number;
	snapshot?: TaskSnapshot;
	lastError?: string;
}

const POLL_TIMEOUT_MS = 30_000;

/**
 * The one polling loop. All tasks of a node run share it: each is polled on its route's
 * interval, due polls go out together under a cap, and every sleep ends on Stop.
 */
export async function waitForTasks(
	ctx: GatewayContext,
	tasks: readonly PendingTask[],
	options: WaitOptions = {},
): Promise<WaitOutcome[]> {
	const signal = cancelSignalOf(ctx);
	const outcomes = new Array<WaitOutcome>(tasks.length);
	const now = Date.now();
	let open: Watch[] = tasks.map((task, index) => {
		const route = QUERY_ROUTES[task.route];
		const startedAt = task.startedAt ?? now;
		const interval = options.intervalMs ?? route.intervalMs;
		const firstWait = task.estimatedTimeS ? Math.max(task.estimatedTimeS * 1000, 1000) : interval;
		const deadlineAt = startedAt + (options.deadlineMs ?? route.deadlineMs);
		return { index, task, startedAt, nextAt: Math.min(startedAt + firstWait, deadlineAt), deadlineAt, polls: 0, errors: 0 };
	});

	const finish = (watch: Watch, outcome: WaitOutcome) => {
		outcomes[watch.index] = outcome;
	};

	const pollOne = async (watch: Watch) => {
		const route = QUERY_ROUTES[watch.task.route];
		const interval = options.intervalMs ?? route.intervalMs;
		watch.polls++;
		try {
			const snapshot = await queryTask(ctx, watch.task.route, watch.task.taskId, {
				language: watch.task.language,
				timeoutMs: POLL_TIMEOUT_MS,
				retries: false,
			});
			watch.snapshot = snapshot;
			watch.errors = 0;
			const common = { task: watch.task, polls: watch.polls, waitedMs: Date.now() - watch.startedAt, snapshot };
			if (snapshot.state === 'succeeded') return finish(watch, { ...common, kind: 'succeeded', snapshot });
			if (snapshot.state === 'failed') {
				return finish(watch, { ...common, kind: 'failed', message: snapshot.error ?? 'The task failed' });
			}
			watch.nextAt = Math.min(Date.now() + interval, watch.deadlineAt);
		} catch (error) {
			// Anything but a gateway answer (a pressed Stop, above all) ends the wait for every task.
			if (!(error instanceof GatewayRequestError)) {
				throw error instanceof NodeOperationError ? error : new NodeOperationError(ctx.getNode(), error as Error);
			}
			watch.lastError = error.message;
			if (!error.transient) {
				return finish(watch, {
					task: watch.task,
					polls: watch.polls,
					waitedMs: Date.now() - watch.startedAt,
					snapshot: watch.snapshot,
					kind: 'failed',
					message: error.message,
					error,
				});
			}
			// A passing fault: ask again later, backing off, as the gateway asked if it did.
			watch.errors++;
			const delay = Math.max(error.retryAfterMs ?? 0, interval, backoffDelay(watch.errors));
			watch.nextAt = Math.min(Date.now() + delay, watch.deadlineAt);
		}
		if (Date.now() >= watch.deadlineAt) finish(watch, timeoutOutcome(watch));
	};

	while (open.length > 0) {
		const due = open.filter((watch) => watch.nextAt <= Date.now());
		if (due.length === 0) {
			const wake = Math.min(...open.map((watch) => watch.nextAt));
			await abortableSleep(Math.max(0, wake - Date.now()), signal);
			continue;
		}
		await mapLimited(due, options.concurrency ?? 10, pollOne);
		open = open.filter((watch) => outcomes[watch.index] === undefined);
	}
	return outcomes;
}

function timeoutOutcome(watch: Watch): WaitOutcome {
	const window = watch.deadlineAt - watch.startedAt;
	const within = window < 60_000 ? `${Math.round(window / 100) / 10} s` : `${Math.round((window / 60_000) * 10) / 10} min`;
	const last = watch.snapshot
		? `last status '${watch.snapshot.status}'${watch.snapshot.progress !== undefined ? ` at ${watch.snapshot.progress}%` : ''}${watch.snapshot.phase === 'unknown' ? ' (a status this node does not know, so it kept waiting)' : ''}`
		: `no answer read${watch.lastError ? `; last error: ${watch.lastError}` : ''}`;
	return {
		kind: 'timeout',
		task: watch.task,
		polls: watch.polls,
		waitedMs: Date.now() - watch.startedAt,
		snapshot: watch.snapshot,
		lastError: watch.lastError,
		message: `Task ${watch.task.taskId} did not finish within ${within} (${last}). It may still finish: resume it with Task → Wait for Completion; do not submit it again.`,
	};
}
