import type { GatewayContext } from '../../transport/context';
import type { GatewayRequestError } from '../../transport/request';
import { settleLimited } from '../concurrency';
import { nodeErrorOf } from '../../transport/nodeError';
import { abortableSleep } from '../../transport/sleep';
import { POLL_FLOOR_MS } from '../../registry/limits';
import { pollIntervals } from './interval';
import { isAccountRefusal, POLL_POLICY, pollFaultOf, type PollFault } from './pollPolicy';
import { queryTask, type QueryOptions } from '../../api/tasks/query';
import { QUERY_ROUTES, type QueryRoute } from '../../api/tasks/routes';
import { querySunoTasks, SUNO_BATCH_IDS } from '../../api/suno';
import type { TaskSnapshot } from '../../api/tasks/snapshot';

/*
 * Reading tasks that exist under the one fault policy (pollPolicy.ts): one read of one task (the
 * poll loop's step, waiter.ts), and one bounded pass over many (a trigger poll: each task read at
 * most once, within a deadline, nothing slept).
 */

export interface TaskToRead {
	taskId: string;
	route: QueryRoute;
	language?: string;
}

/** What one read told: the task as it stands, or a failed read that leaves the task alive. */
export type TaskRead =
	| { kind: 'read'; snapshot: TaskSnapshot; doubtful: 0 }
	| {
			kind: 'fault';
			fault: Exclude<PollFault, 'stop'>;
			error: GatewayRequestError;
			/** Doubtful answers in a row, this one counted (a transient fault leaves the count as it was). */
			doubtful: number;
			/** As many doubtful answers in a row as the policy allows: the task is reported unreadable. */
			report: boolean;
	  };

/**
 * One read of one task. A failure that is not a gateway answer (Stop, missing settings) is thrown:
 * it ends every read. `doubtfulSoFar`: doubtful answers in a row before this read.
 */
export async function readTaskOnce(
	ctx: GatewayContext,
	task: TaskToRead,
	doubtfulSoFar: number,
	options: Omit<QueryOptions, 'language'> = {},
): Promise<TaskRead> {
	try {
		const snapshot = await queryTask(ctx, task.route, task.taskId, {
			...options,
			language: task.language,
		});
		return { kind: 'read', snapshot, doubtful: 0 };
	} catch (error) {
		const fault = pollFaultOf(error);
		if (fault === 'stop') throw nodeErrorOf(ctx.getNode(), error, options.itemIndex);
		const doubtful = fault === 'doubtful' ? doubtfulSoFar + 1 : doubtfulSoFar;
		return {
			kind: 'fault',
			fault,
			error: error as GatewayRequestError,
			doubtful,
			report: doubtful >= POLL_POLICY.doubtfulAnswersToReport,
		};
	}
}

/**
 * A task read as finished without its file, read again within this run: a gateway may flag it
 * completed one read before it writes the URL. Up to POLL_POLICY.readsWithoutUrl reads in all,
 * each after the route's advised interval (on a loopback gateway, the floor); every wait ends the
 * moment the execution's cancel signal fires. A read that fails ends the re-reading with what
 * was read before it. `withoutUrl`: the reads in a row that said finished without a file.
 */
export async function rereadWithoutUrl(
	ctx: GatewayContext,
	task: TaskToRead,
	snapshot: TaskSnapshot,
	itemIndex?: number,
): Promise<{ snapshot: TaskSnapshot; withoutUrl: number }> {
	if (!snapshot.urlMissing) return { snapshot, withoutUrl: 0 };
	const intervalMs = (await pollIntervals(ctx, [task.route], POLL_FLOOR_MS)).of(task.route);
	let withoutUrl = 1;
	while (withoutUrl < POLL_POLICY.readsWithoutUrl) {
		await abortableSleep(intervalMs, ctx, itemIndex);
		const read = await readTaskOnce(ctx, task, 0, { itemIndex });
		if (read.kind !== 'read') break;
		snapshot = read.snapshot;
		if (!snapshot.urlMissing) return { snapshot, withoutUrl: 0 };
		withoutUrl++;
	}
	return { snapshot, withoutUrl };
}

/** One task's part of a pass: not read (out of time), read, or the error that ends the pass. */
export type PassRead =
	| { kind: 'skipped' }
	| (TaskRead & {
			checkedAt: number;
			/**
			 * A transient fault after the deadline was reached: the deadline cut a slow answer short, the gateway is not
			 * failing.
			 */
			cut?: boolean;
	  })
	| { kind: 'stop'; error: unknown; checkedAt: number };

export interface PassOptions {
	/** Epoch ms by which the pass and every read's retries are over. */
	deadlineAt: number;
	/** A read is not started with less time than this left: the task is left for the next pass. */
	minReadMs: number;
	/** Reads in flight at once (each GET retries 429/5xx/drops inside the transport). */
	concurrency: number;
}

/**
 * One bounded pass: every task read at most once, in the order given, as many as the deadline
 * allows. Nothing throws: a stop error is the read's own result, so the caller can keep what the
 * other reads told before failing (passFault).
 */
export async function readTasksOnce(
	ctx: GatewayContext,
	tasks: ReadonlyArray<TaskToRead & { doubtful?: number }>,
	options: PassOptions,
): Promise<PassRead[]> {
	const remaining = () => options.deadlineAt - Date.now();
	const batched = await readInBatches(ctx, tasks, options);
	const reads = await settleLimited(tasks, options.concurrency, async (task): Promise<PassRead> => {
		const inBatch = batched.get(task);
		if (inBatch) return inBatch;
		if (remaining() < options.minReadMs) return { kind: 'skipped' };
		const checkedAt = Date.now();
		try {
			return {
				...(await readTaskOnce(ctx, task, task.doubtful ?? 0, { deadlineAt: options.deadlineAt })),
				checkedAt,
			};
		} catch (error) {
			return { kind: 'stop', error, checkedAt };
		}
	});
	const spent = remaining() < options.minReadMs;
	return reads.map((settled) => {
		const read = settled.ok
			? settled.value
			: ({ kind: 'stop', error: settled.error, checkedAt: Date.now() } as const);
		return spent && read.kind === 'fault' && read.fault === 'transient'
			? { ...read, cut: true }
			: read;
	});
}

/**
 * The tasks of a route that has a batch read (the relay's `POST /suno/fetch {ids}`,
 * docs/gateway-contract.md §10.15), read a batch at a time: what each answer told, by task. A task
 * the answer leaves out, or a batch whose read failed, is read alone as ever (its own fault count).
 */
async function readInBatches(
	ctx: GatewayContext,
	tasks: ReadonlyArray<TaskToRead>,
	options: PassOptions,
): Promise<Map<TaskToRead, PassRead>> {
	const found = new Map<TaskToRead, PassRead>();
	const music = tasks.filter((task) => QUERY_ROUTES[task.route].songs);
	for (let at = 0; at < music.length; at += SUNO_BATCH_IDS) {
		if (options.deadlineAt - Date.now() < options.minReadMs) break;
		const batch = music.slice(at, at + SUNO_BATCH_IDS);
		const checkedAt = Date.now();
		try {
			const snapshots = await querySunoTasks(
				ctx,
				batch.map((task) => task.taskId),
				{ deadlineAt: options.deadlineAt },
			);
			for (const task of batch) {
				const snapshot = snapshots.get(task.taskId);
				if (snapshot) found.set(task, { kind: 'read', snapshot, doubtful: 0, checkedAt });
			}
		} catch {
			// Read alone below: each task's own read says what is wrong, under the fault policy.
		}
	}
	return found;
}

/**
 * The error a whole pass fails with, for the user to see: a stop error (settings, no Alt Base URL),
 * or a gateway-wide failure — every task read failed, and one of them transiently (5xx for every
 * task) or as a refusal of the key reported as often as the policy allows (a revoked key).
 * Reads the deadline cut short do not count.
 */
export function passFault(reads: readonly PassRead[]): unknown {
	const asked = reads.filter((read) => read.kind !== 'skipped' && !('cut' in read && read.cut));
	const stop = asked.find((read) => read.kind === 'stop');
	if (stop) return (stop as { error: unknown }).error;
	if (asked.length === 0 || asked.some((read) => read.kind === 'read')) return undefined;
	const gatewayWide = asked.find(
		(read) =>
			read.kind === 'fault' &&
			(read.fault === 'transient' || (isAccountRefusal(read.error) && read.report)),
	);
	return gatewayWide && gatewayWide.kind === 'fault' ? gatewayWide.error : undefined;
}
