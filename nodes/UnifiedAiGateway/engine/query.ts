import type { GatewayContext } from '../transport/context';
import { gatewayCredentials } from '../transport/context';
import { gatewayRequest, GatewayRequestError } from '../transport/request';
import { originsFrom } from '../transport/urls';
import { settleLimited } from './concurrency';
import { isAccountRefusal, POLL_POLICY, pollFaultOf, type PollFault } from './pollPolicy';
import { QUERY_ROUTES, type QueryRoute, type RouteInfo } from './routes';
import { nodeErrorOf } from './nodeError';
import { readTask, type TaskSnapshot } from './snapshot';

export interface QueryOptions {
	language?: string;
	itemIndex?: number;
	timeoutMs?: number;
	/** Off for the waiter, which reschedules a failed poll instead of blocking its loop. */
	retries?: boolean;
	/** Epoch ms by which the query and its retries are over (a trigger poll's budget). */
	deadlineAt?: number;
}

/** A way to read a task: the route itself, or one of its fallbacks. */
interface Reading {
	path: (taskId: string) => string;
	contentPath?: (taskId: string) => string;
	/** `GET /v1/video/generations/{id}`, named in the output when a fallback answered. */
	label?: string;
}

/**
 * Which reading of each route answered in this node run or poll (per context object): once a
 * gateway showed it lacks a route, the run goes on with the one that answered.
 */
const chosenReadings = new WeakMap<object, Map<QueryRoute, number>>();

function readingsOf(route: RouteInfo): Reading[] {
	return [{ path: route.path, contentPath: route.contentPath }, ...(route.fallbacks ?? [])];
}

/**
 * Whether an answer sends the read on to the route's next reading: 404 `Invalid URL`, the relay's
 * answer for a path it does not serve (docs/gateway-contract.md §10.2); on a route that knows only some of its
 * tasks (`fallbackOn: 'notFound'`) also a 404 or 400 `task_not_exist` (docs/gateway-contract.md §10.9).
 */
function routeMissing(error: unknown, on: RouteInfo['fallbackOn']): boolean {
	if (!(error instanceof GatewayRequestError)) return false;
	const status = String(error.httpCode);
	if (status === '404' && /invalid url/i.test(error.gatewaySaid ?? '')) return true;
	return on === 'notFound' && (status === '404' || (status === '400' && error.gatewayCode === 'task_not_exist'));
}

/** One reading of a task through the route that created it (docs/gateway-contract.md §4.5, §4.7, §4.9, §4.10; fallbacks §10.2). */
export async function queryTask(
	ctx: GatewayContext,
	routeName: QueryRoute,
	taskId: string,
	options: QueryOptions = {},
): Promise<TaskSnapshot> {
	const route = QUERY_ROUTES[routeName];
	const readings = readingsOf(route);
	const chosen = chosenReadings.get(ctx) ?? new Map<QueryRoute, number>();
	chosenReadings.set(ctx, chosen);
	const origin = originsFrom(await gatewayCredentials(ctx))[route.host];
	const first = chosen.get(routeName) ?? 0;
	// From the reading that answered last, on round the others once: on a route that knows only
	// some of its tasks, the reading one task needs is not every task's.
	let firstMissing: unknown;
	for (let step = 0; ; step++) {
		const index = (first + step) % readings.length;
		const reading = readings[index];
		try {
			const { body } = await gatewayRequest.call(ctx, {
				method: 'GET',
				host: route.host,
				path: reading.path(taskId),
				// `language` is the generic query's own parameter (docs/gateway-contract.md §4.10).
				qs: options.language && index === 0 ? { language: options.language } : undefined,
				action: `checking task ${taskId}`,
				itemIndex: options.itemIndex,
				timeoutMs: options.timeoutMs,
				retries: options.retries,
				deadlineAt: options.deadlineAt,
			});
			if (chosen.get(routeName) !== index && (index > 0 || chosen.has(routeName))) chosen.set(routeName, index);
			return readTask(body, taskId, {
				contentUrl: reading.contentPath && origin ? `${origin}${reading.contentPath(taskId)}` : undefined,
				origin,
				answeredBy: reading.label,
			});
		} catch (error) {
			if (!routeMissing(error, route.fallbackOn)) throw nodeErrorOf(ctx.getNode(), error);
			firstMissing ??= error;
			// Every reading missed: the answer of the first one tried tells the user the most.
			if (step + 1 >= readings.length) throw nodeErrorOf(ctx.getNode(), firstMissing);
		}
	}
}

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
		const snapshot = await queryTask(ctx, task.route, task.taskId, { ...options, language: task.language });
		return { kind: 'read', snapshot, doubtful: 0 };
	} catch (error) {
		const fault = pollFaultOf(error);
		if (fault === 'stop') throw nodeErrorOf(ctx.getNode(), error);
		const doubtful = fault === 'doubtful' ? doubtfulSoFar + 1 : doubtfulSoFar;
		return { kind: 'fault', fault, error: error as GatewayRequestError, doubtful, report: doubtful >= POLL_POLICY.doubtfulAnswersToReport };
	}
}

/** One task's part of a pass: not read (out of time), read, or the error that ends the pass. */
export type PassRead =
	| { kind: 'skipped' }
	| (TaskRead & {
			checkedAt: number;
			/** A transient fault after the deadline was reached: the deadline cut a slow answer short, the gateway is not failing. */
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
	const reads = await settleLimited(tasks, options.concurrency, async (task): Promise<PassRead> => {
		if (remaining() < options.minReadMs) return { kind: 'skipped' };
		const checkedAt = Date.now();
		try {
			return { ...(await readTaskOnce(ctx, task, task.doubtful ?? 0, { deadlineAt: options.deadlineAt })), checkedAt };
		} catch (error) {
			return { kind: 'stop', error, checkedAt };
		}
	});
	const spent = remaining() < options.minReadMs;
	return reads.map((settled) => {
		const read = settled.ok ? settled.value : ({ kind: 'stop', error: settled.error, checkedAt: Date.now() } as const);
		return spent && read.kind === 'fault' && read.fault === 'transient' ? { ...read, cut: true } : read;
	});
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
		(read) => read.kind === 'fault' && (read.fault === 'transient' || (isAccountRefusal(read.error) && read.report)),
	);
	return gatewayWide && gatewayWide.kind === 'fault' ? gatewayWide.error : undefined;
}
