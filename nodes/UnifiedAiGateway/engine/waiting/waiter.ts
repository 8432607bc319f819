import { relayWords } from '../../transport/relayWords';
import { nodeErrorOf } from '../../transport/nodeError';
import { abortableSleep, unlessStopped } from '../../transport/sleep';
import type { GatewayContext } from '../../transport/context';
import type { GatewayRequestError } from '../../transport/request';
import { announce, pollIntervals } from './interval';
import { doubtfulVerdict, failedPollDelay, POLL_POLICY } from './pollPolicy';
import { PollSchedule, type Paced } from './pollSchedule';
import { RefreshPace } from './refreshPace';
import { QUERY_ROUTES, type QueryRoute } from '../../api/tasks/routes';
import { readTaskOnce, type TaskRead } from './taskReads';
import { TaskFeed } from './taskFeed';
import { executionLimit } from './timeLimit';
import { POLL_FLOOR_MS, WAIT_CEILING_MS } from '../../registry/limits';
import type { TaskSnapshot } from '../../api/tasks/snapshot';

export interface PendingTask {
	taskId: string;
	route: QueryRoute;
	/**
	 * When the task was created (at the latest: when its submit answered); its first poll and its
	 * deadline count from here.
	 */
	startedAt?: number;
	/** The gateway's own estimate (estimated_time, seconds): the first poll waits that long. */
	estimatedTimeS?: number;
	/** Read at once (a task an earlier try created may be finished already). */
	pollNow?: boolean;
	language?: string;
}

export interface WaitOptions {
	deadlineMs?: number;
	/** The user's Poll Interval; raised to the route's advised floor unless the gateway is on loopback. */
	intervalMs?: number;
	/** Polls in flight at once. */
	concurrency?: number;
	/** Told the moment each task is done with (its index in `tasks`), while the others are still waited for. */
	onOutcome?: (index: number, outcome: WaitOutcome) => void;
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
	/**
	 * Its schedule (pollSchedule.ts): its interval and start, when it is read next, learnt from the other tasks of the
	 * wait.
	 */
	paced: Paced;
	/** After a failed poll: not before this (the fault policy's backoff, any Retry-After). */
	notBefore: number;
	deadlineAt: number;
	/** The deadline is the execution's time limit (n8n would cancel the wait), not Max Wait. */
	cutByExecution: boolean;
	polls: number;
	/** Failed polls in a row (any kind), for the backoff. */
	failures: number;
	/** Doubtful answers in a row (no reading of the task), for the report. */
	doubtful: number;
	/** Reads in a row that said finished with no file yet (POLL_POLICY.readsWithoutUrl). */
	withoutUrl: number;
	busy: boolean;
	/**
	 * When it is due, as a pass over the wait last worked it out (0: work it out again), and the
	 * schedule's version of its group then (PollSchedule.version).
	 */
	dueAt: number;
	seen: number;
	/** The relay pace's version of its group then (RefreshPace.version). */
	paceSeen: number;
	snapshot?: TaskSnapshot;
	lastError?: string;
}

/**
 * The one polling loop. All tasks of a node run share it, but each task keeps its own schedule
 * (pollSchedule.ts: learnt from how long the other tasks of the wait take): a poll goes out when
 * its task is due and a slot is free (at most `concurrency` in flight), so a slow answer delays
 * only its own task. Every wait ends on Stop.
 */
export async function waitForTasks(
	ctx: GatewayContext,
	source: readonly PendingTask[] | TaskFeed<PendingTask>,
	options: WaitOptions = {},
): Promise<WaitOutcome[]> {
	const feed = source instanceof TaskFeed ? source : undefined;
	const tasks = feed ? feed.tasks : (source as readonly PendingTask[]);
	const outcomes: WaitOutcome[] = [];
	const intervalOf = new Map<QueryRoute, number>();
	const limit = executionLimit(ctx, Date.now());
	const watches: Watch[] = [];
	const pace = new RefreshPace<Paced>();
	// All tasks known at the start: leaders by submit time; a feed's: the first to arrive.
	const feedSchedule = feed ? new PollSchedule([], feed.expected) : undefined;
	const admit = async (): Promise<PollSchedule> => {
		const fresh = tasks.slice(watches.length);
		const routes = [...new Set(fresh.map((task) => task.route))].filter(
			(route) => !intervalOf.has(route),
		);
		if (routes.length > 0) {
			const intervals = await pollIntervals(ctx, routes, options.intervalMs);
			announce(ctx, intervals.notices);
			for (const route of routes) intervalOf.set(route, safeInterval(intervals.of(route), route));
		}
		const now = Date.now();
		for (const task of fresh) {
			const intervalMs = intervalOf.get(task.route)!;
			const startedAt = task.startedAt ?? now;
			const paced: Paced = {
				route: task.route,
				intervalMs,
				startedAt,
				pollNow: task.pollNow,
				estimatedTimeS: task.pollNow ? undefined : task.estimatedTimeS,
				runningMs: 0,
			};
			const ownDeadline = startedAt + safeDeadline(options.deadlineMs, task.route);
			const cutByExecution = limit !== undefined && limit.waitEndsAt < ownDeadline;
			const deadlineAt = cutByExecution ? Math.max(now, limit.waitEndsAt) : ownDeadline;
			feedSchedule?.add(paced);
			pace.add(paced);
			watches.push({
				index: watches.length,
				task,
				paced,
				notBefore: 0,
				deadlineAt,
				cutByExecution,
				polls: 0,
				failures: 0,
				doubtful: 0,
				withoutUrl: 0,
				busy: false,
				dueAt: 0,
				seen: 0,
				paceSeen: 0,
			});
		}
		return feedSchedule ?? new PollSchedule(watches.map((watch) => watch.paced));
	};
	const fixedSchedule = feed ? undefined : await admit();
	// The deadline is kept whatever the schedule says: a task waiting for its leaders is read then.
	// Behind a relay that refreshes in rounds, its pace decides instead (refreshPace.ts).
	const dueAt = (schedule: PollSchedule, watch: Watch, now: number) =>
		Math.min(
			Math.max(
				pace.dueAt(watch.paced) ?? schedule.dueAt(watch.paced, now),
				watch.notBefore,
				pace.notBefore(watch.paced),
			),
			watch.deadlineAt,
		);
	const maxInFlight = Math.max(1, options.concurrency ?? POLL_POLICY.inFlight);
	const inFlight = new Set<Promise<void>>();
	const due: Watch[] = [];
	let stopped: unknown;

	const launch = (schedule: PollSchedule, watch: Watch) => {
		watch.busy = true;
		schedule.sent(watch.paced);
		pace.sent(watch.paced);
		const poll: Promise<void> = pollOnce(ctx, watch, schedule, pace)
			.then((outcome) => {
				if (!outcome) return;
				pace.done(watch.paced);
				if (outcome.kind === 'timeout' || (outcome.kind === 'failed' && outcome.error))
					schedule.gone(watch.paced);
				outcomes[watch.index] = outcome;
				options.onOutcome?.(watch.index, outcome);
			})
			.catch((error: unknown) => {
				stopped ??= error;
			})
			.finally(() => {
				watch.busy = false;
				// Its own reading changed: its due time is worked out again.
				watch.dueAt = 0;
				inFlight.delete(poll);
			});
		inFlight.add(poll);
	};

	for (;;) {
		if (stopped) throw nodeErrorOf(ctx.getNode(), stopped, undefined);
		// Stop pressed while no task had arrived yet: the Stop error.
		await unlessStopped(ctx);
		// Read before admitting: a task pushed just before the close is then admitted, not missed.
		const closed = !feed || feed.closed;
		const schedule =
			fixedSchedule ??
			(tasks.length > watches.length || !feedSchedule ? await admit() : feedSchedule);
		// One pass over the open tasks, building nothing but the list of those due now: it runs on
		// every answer, so with hundreds of tasks whatever it allocates is multiplied by thousands.
		// A task's due time is worked out again only once it has come, or when its own reading or
		// one of its group's leaders changed (PollSchedule.version): until then it is what it was.
		const now = Date.now();
		let open = 0;
		let dueNext = Infinity;
		due.length = 0;
		for (const watch of watches) {
			if (outcomes[watch.index] !== undefined) continue;
			open++;
			if (watch.busy) continue;
			const version = schedule.version(watch.paced);
			const paceVersion = pace.version(watch.task.route);
			if (watch.dueAt <= now || watch.seen !== version || watch.paceSeen !== paceVersion) {
				watch.dueAt = dueAt(schedule, watch, now);
				watch.seen = version;
				watch.paceSeen = paceVersion;
			}
			const at = watch.dueAt;
			if (at <= now) due.push(watch);
			else if (at < dueNext) dueNext = at;
		}
		if (open === 0 && closed && watches.length === tasks.length) return outcomes;
		// The most overdue first when there are more than free slots.
		if (due.length > maxInFlight - inFlight.size) due.sort((a, b) => a.dueAt - b.dueAt);
		for (const watch of due) {
			if (inFlight.size >= maxInFlight) break;
			launch(schedule, watch);
		}
		// Every slot taken: the next pass comes with the first answer.
		if (inFlight.size >= maxInFlight) dueNext = Infinity;
		// While submits are still answering, new tasks are taken in every RACE_NAP_MS (not one wake-up
		// per task: with hundreds of items that is hundreds of passes over the wait): none of them is
		// due before its first interval, except one an earlier try created, which is there from the start.
		const wakeAt = feed && !feed.closed ? Math.min(dueNext, Date.now() + RACE_NAP_MS) : dueNext;
		await untilWakeOrAnswer(ctx, wakeAt, [...inFlight]);
	}
}

/*
 * The floor and the deadline no input removes: whatever reached the loop (a setting read without
 * its check, NaN from arithmetic), each task pauses between reads and stops waiting.
 */
function safeInterval(ms: number, route: QueryRoute): number {
	if (!Number.isFinite(ms)) return QUERY_ROUTES[route].intervalMs;
	return Math.min(Math.max(ms, POLL_FLOOR_MS), WAIT_CEILING_MS);
}

function safeDeadline(ms: number | undefined, route: QueryRoute): number {
	if (ms === undefined || !Number.isFinite(ms) || ms <= 0) return QUERY_ROUTES[route].deadlineMs;
	return Math.min(ms, WAIT_CEILING_MS);
}

/**
 * Sleeps until `wakeAt` or until one of the polls in flight answers, whichever comes first.
 * n8n's sleep cannot be cleared, so while polls are in flight the nap is short: a nap cut short
 * by an answer leaves at most RACE_NAP_MS of timer behind.
 */
const RACE_NAP_MS = 250;

async function untilWakeOrAnswer(
	ctx: GatewayContext,
	wakeAt: number,
	polls: Array<Promise<void>>,
): Promise<void> {
	const untilWake = Number.isFinite(wakeAt) ? Math.max(0, wakeAt - Date.now()) : RACE_NAP_MS;
	if (polls.length === 0) {
		await abortableSleep(untilWake, ctx);
		return;
	}
	const nap = abortableSleep(Math.min(untilWake, RACE_NAP_MS), ctx);
	nap.catch(() => undefined); // a Stop after an answer won the race is rethrown below
	await Promise.race([nap, ...polls]);
	// Stop pressed: the Stop error, as every other wait throws it.
	await unlessStopped(ctx);
}

/** One poll of one task; an outcome when the task is done with, undefined to poll again. */
async function pollOnce(
	ctx: GatewayContext,
	watch: Watch,
	schedule: PollSchedule,
	pace: RefreshPace<Paced>,
): Promise<WaitOutcome | undefined> {
	watch.polls++;
	const sentAt = Date.now();
	const common = () => ({
		task: watch.task,
		polls: watch.polls,
		waitedMs: Date.now() - watch.paced.startedAt,
		snapshot: watch.snapshot,
	});
	let read: TaskRead;
	try {
		read = await readTaskOnce(ctx, watch.task, watch.doubtful, {
			timeoutMs: POLL_POLICY.timeoutMs,
			retries: false,
		});
	} catch (error) {
		// Anything but a gateway answer (a pressed Stop, above all) ends the wait for every task.
		throw nodeErrorOf(ctx.getNode(), error, undefined);
	}
	if (read.kind === 'read') {
		const { snapshot } = read;
		watch.snapshot = snapshot;
		watch.failures = 0;
		watch.doubtful = 0;
		watch.notBefore = 0;
		// Finished without its file: read again a few times (at the interval) before it is failed.
		watch.withoutUrl = snapshot.urlMissing ? watch.withoutUrl + 1 : 0;
		if (snapshot.urlMissing && watch.withoutUrl < POLL_POLICY.readsWithoutUrl) {
			watch.notBefore = Date.now() + watch.paced.intervalMs;
			return Date.now() >= watch.deadlineAt ? timeoutOutcome(watch) : undefined;
		}
		if (snapshot.state !== 'pending')
			schedule.finished(watch.paced, Date.now(), snapshot.actualTimeS);
		if (snapshot.state === 'succeeded') return { ...common(), kind: 'succeeded', snapshot };
		if (snapshot.state === 'failed')
			return {
				...common(),
				kind: 'failed',
				// A missing URL is the package's own sentence (snapshot.ts); any other reason is the relay's,
				// English first: quoted when in another language.
				message: snapshot.urlMissing
					? `${snapshot.error ?? 'The task gave no result URL'} (read ${watch.withoutUrl} times)`
					: snapshot.error
						? relayWords(snapshot.error)
						: 'The task failed',
			};
		schedule.running(watch.paced, sentAt, Date.now(), snapshot.estimatedTimeS);
		pace.read(watch.paced, snapshot, sentAt, Date.now());
	} else {
		watch.lastError = read.error.message;
		watch.failures++;
		watch.doubtful = read.doubtful;
		if (read.fault === 'doubtful' && read.report) {
			return {
				...common(),
				kind: 'failed',
				message: doubtfulVerdict(
					watch.task.taskId,
					watch.doubtful,
					read.error.message,
					watch.snapshot ? lastSeen(watch.snapshot) : undefined,
				),
				error: read.error,
			};
		}
		// A Retry-After is capped (failedPollDelay): an absurd one neither holds the task's next read
		// to its deadline nor ends the wait; the task is read again and may well have finished.
		schedule.faulted(watch.paced);
		pace.faulted(watch.paced);
		watch.notBefore =
			Date.now() + failedPollDelay(watch.paced.intervalMs, watch.failures, read.error.retryAfterMs);
	}
	return Date.now() >= watch.deadlineAt ? timeoutOutcome(watch) : undefined;
}

/** The wait of one task ended before the task did: what it saw, and why it ended. */
function timedOut(watch: Watch, message: string): WaitOutcome {
	return {
		kind: 'timeout',
		task: watch.task,
		polls: watch.polls,
		waitedMs: Date.now() - watch.paced.startedAt,
		snapshot: watch.snapshot,
		lastError: watch.lastError,
		message,
	};
}

/** A reading as the wait's reports name it: "'in_progress' at 40%". */
function lastSeen(snapshot: TaskSnapshot): string {
	return `'${snapshot.status}'${snapshot.progress !== undefined ? ` at ${snapshot.progress}%` : ''}`;
}

function timeoutOutcome(watch: Watch): WaitOutcome {
	const window = watch.deadlineAt - watch.paced.startedAt;
	const within =
		window < 60_000
			? `${Math.round(window / 100) / 10} s`
			: `${Math.round((window / 60_000) * 10) / 10} min`;
	const unknown =
		watch.snapshot?.phase === 'unknown'
			? ' (a status this node does not know, so it kept waiting)'
			: '';
	const last = watch.snapshot
		? `last status ${lastSeen(watch.snapshot)}${unknown}`
		: 'no answer read';
	const fault = watch.failures > 0 && watch.lastError ? `; last answer: ${watch.lastError}` : '';
	const message = watch.cutByExecution
		? `Task ${watch.task.taskId} was still running (${last}${fault}) when this ` +
			`execution neared its time limit (the workflow's Timeout Workflow setting ` +
			`or the instance's EXECUTIONS_TIMEOUT): the wait stopped early so this ` +
			`item is output instead of being cancelled. It may still finish: resume ` +
			`it with Task → Wait for Completion (this item has its taskId and ` +
			`queryRoute); do not submit it again.`
		: `Task ${watch.task.taskId} did not finish within ${within} (${last}${fault}). ` +
			`It may still finish: resume it with Task → Wait for Completion; do not ` +
			`submit it again.`;
	return timedOut(watch, message);
}
