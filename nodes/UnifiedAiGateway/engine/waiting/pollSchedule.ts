import type { QueryRoute } from '../../api/tasks/routes';

/**
 * When each task of one wait is read next. Tasks read through the same route in one wait are a
 * group (one node run is one operation, so mostly one model): a few of them, the leaders (the
 * earliest submitted, √n of n), are read on a schedule of their own that needs no history; the
 * others are read when enough leaders have finished since their last reading that the read is
 * likely to find them done. A batch thus costs about two reads per task while the leaders find out
 * how long the model takes, and the last task is still found within a small share of its time.
 * Measured by `npm run bench` (bench/run.js); docs/ARCHITECTURE.md describes the rules.
 */
export const SCHEDULE = {
	/**
	 * A leader (or a task alone in its wait) is read after this share of the time it has run (never
	 * sooner than the interval): the reads grow with the log of a task's time, and a task taking T
	 * is found at most ~15 % after it ends.
	 */
	leaderShare: 0.15,
	/**
	 * A task is read again once the leaders show it has at least this chance of having finished since
	 * its last reading (half of the leaders still running then have finished since).
	 */
	findChance: 0.5,
	/**
	 * Fewer than this share of the leaders ran as long as the task already has (itself included,
	 * so a task alone never is): it is among the slowest, the ones the run waits for, and is read
	 * after `tailShare` of its time.
	 */
	tailSurvival: 0.15,
	tailShare: 0.1,
	/**
	 * How far past the longest leader (in leader spacings, at most one interval) the tasks that
	 * outrun every leader are first read (`pastTheLeaders`): 2 missed the slowest of 500 images by
	 * 0.04 s in one run of five; the spacing between the longest leader and the longest task varies.
	 */
	pastLeaderSpacings: 3,
};

/** What the schedule knows of one task. */
export interface Paced {
	route: QueryRoute;
	/** The task's own minimum gap between reads: the Poll Interval, raised as interval.ts says. */
	intervalMs: number;
	startedAt: number;
	/** Read at once (a task an earlier try created may be finished already). */
	pollNow?: boolean;
	/** The gateway's estimate (estimated_time, seconds): the first read waits that long. */
	estimatedTimeS?: number;
	/** When the last read was answered; the answer said the task was still running. */
	lastReadAt?: number;
	/** Its age then: the task is known to run at least this long. */
	runningMs: number;
	/**
	 * How long it took, once a read found it finished (or failed): the gateway's actual_time, or an
	 * estimate between its last running read and the read that found it done (`finished`).
	 */
	tookMs?: number;
	/**
	 * The age by which it is known to have finished: its tookMs when the gateway said
	 * (actual_time), else the answer of the read that found it done.
	 */
	doneByMs?: number;
	/** A read of it failed and the fault policy is backing off: its readings are not current. */
	faulting?: boolean;
	/** A read of it is on its way: a slow answer must not hold up the tasks waiting for its news. */
	reading?: boolean;
}

interface Group {
	leaders: Paced[];
	/** How many may still be chosen to lead: √n of the n tasks the group has (or is expected to have). */
	quota: number;
	/** Finished leaders' times, ascending; rebuilt when one finishes. */
	took: number[];
	/** The latest age by which a finished leader is known to have finished (their `doneByMs`). */
	doneByMs: number;
	/** Bumped by every change of a leader (added, sent, read, faulted, gone): see `version`. */
	version: number;
	/**
	 * What every task of the group is compared with, worked out from the leaders once per version
	 * (`leaderFacts`) instead of once per task and pass: the least time an open leader is known to
	 * have run (one neither being read nor faulting), the longest an open leader has run, and the
	 * version they were worked out at.
	 */
	knownMs: number;
	openLongestMs: number;
	factsVersion: number;
}

export class PollSchedule {
	private readonly groups = new Map<QueryRoute, Group>();
	private readonly leaders = new Set<Paced>();

	/**
	 * `tasks`: a wait's tasks, all known at its start. A wait whose tasks arrive as their submits
	 * answer starts empty with the count it expects, and each is `add`ed in the order it arrives.
	 */
	constructor(
		tasks: readonly Paced[] = [],
		private readonly expected?: number,
	) {
		const counts = new Map<QueryRoute, number>();
		for (const task of tasks) counts.set(task.route, (counts.get(task.route) ?? 0) + 1);
		// The earliest submitted lead: their readings run ahead of the tasks submitted after them.
		for (const task of [...tasks].sort((a, b) => a.startedAt - b.startedAt))
			this.add(task, counts.get(task.route));
	}

	/** One more task of the wait; the first √n of each route lead. */
	add(task: Paced, groupSize = this.expected ?? 1): void {
		let group = this.groups.get(task.route);
		if (!group)
			this.groups.set(
				task.route,
				(group = {
					leaders: [],
					quota: leaderCount(groupSize),
					took: [],
					doneByMs: -Infinity,
					version: 0,
					knownMs: Infinity,
					openLongestMs: -Infinity,
					factsVersion: -1,
				}),
			);
		// A leader gone (timed out, unreadable) is not replaced: the later tasks follow the rest.
		if (group.quota === 0) return;
		group.quota--;
		group.leaders.push(task);
		this.leaders.add(task);
		group.version++;
	}

	/**
	 * What the due times of the task's group were computed from. `dueAt(task, t)` gives the same
	 * for every later `t` before it, until this changes or the task itself is sent, read or
	 * faulted: a wait keeps each task's due time and asks again only then (or once it has come),
	 * instead of on every pass over hundreds of tasks.
	 */
	version(task: Paced): number {
		return this.groups.get(task.route)?.version ?? 0;
	}

	/** Whatever changed of a leader changes what its group's tasks wait for. */
	private changed(task: Paced): void {
		if (this.leaders.has(task)) this.groups.get(task.route)!.version++;
	}

	/** A read of the task goes out. */
	sent(task: Paced): void {
		task.reading = true;
		this.changed(task);
	}

	/** A read sent at `sentAt` found the task still running; the next keeps the interval from its answer. */
	running(task: Paced, sentAt: number, answeredAt: number, estimatedTimeS?: number): void {
		task.reading = false;
		task.lastReadAt = answeredAt;
		task.runningMs = Math.max(task.runningMs, sentAt - task.startedAt);
		task.faulting = false;
		if (estimatedTimeS !== undefined && estimatedTimeS > 0) task.estimatedTimeS = estimatedTimeS;
		this.changed(task);
	}

	/**
	 * A read answered at `answeredAt` found the task done. It took between its last running age and
	 * this answer: the gateway's `actual_time` (docs/gateway-contract.md §2.3) says where, and
	 * without it the middle of that span counts. Counting the answer itself put every leader found
	 * in one round of reads at the round's end, a few milliseconds past the running age the same
	 * round gave the leaders still open, so the followers waited for the round after (bench:n8n
	 * measured every follower first read at the age of the slowest leaders, its download queued
	 * behind hundreds more).
	 */
	finished(task: Paced, answeredAt: number, actualTimeS?: number): void {
		const upper = Math.max(task.runningMs, answeredAt - task.startedAt);
		const actual = actualTimeS !== undefined && actualTimeS > 0 ? actualTimeS * 1000 : undefined;
		task.tookMs =
			actual !== undefined
				? Math.min(Math.max(actual, task.runningMs), upper)
				: (task.runningMs + upper) / 2;
		task.doneByMs = actual !== undefined ? task.tookMs : upper;
		task.faulting = false;
		task.reading = false;
		if (this.leaders.has(task)) sortTook(this.groups.get(task.route)!);
		this.changed(task);
	}

	/**
	 * The task is done with but nothing says how long it took (it timed out, or could not be read):
	 * it leaves the leaders, so the others stop waiting for its news.
	 */
	gone(task: Paced): void {
		if (!this.leaders.delete(task)) return;
		const group = this.groups.get(task.route)!;
		group.leaders = group.leaders.filter((l) => l !== task);
		sortTook(group);
		group.version++;
	}

	/** A read failed; the fault policy sets its own pause (pollPolicy.ts), this only stops trusting it. */
	faulted(task: Paced): void {
		task.faulting = true;
		task.reading = false;
		this.changed(task);
	}

	/**
	 * When the task should be read next (epoch ms); Infinity while it waits for its leaders. `now`
	 * matters only to a follower whose read would fall at the end of the leaders' times
	 * (`pastTheLeaders`).
	 */
	dueAt(task: Paced, now = Date.now()): number {
		const soonest =
			task.lastReadAt === undefined ? task.startedAt : task.lastReadAt + task.intervalMs;
		if (task.lastReadAt === undefined && task.pollNow) return task.startedAt;
		// The gateway's own estimate, while the task has not yet run that long.
		const estimateMs = (task.estimatedTimeS ?? 0) * 1000;
		if (estimateMs > task.runningMs)
			return Math.max(soonest, task.startedAt + Math.max(estimateMs, 1000));
		const group = this.groups.get(task.route)!;
		const k = group.leaders.length;
		if (k === 0) return afterShare(task, SCHEDULE.leaderShare);
		// Called for hundreds of waiting tasks each time a leader changes: counted without building
		// arrays, the leaders' own facts taken once per change (leaderFacts).
		leaderFacts(group);
		const openLeaders = k - group.took.length;
		const survival = (openLeaders + finishedLongerThan(group.took, task.runningMs)) / k;
		const leader = this.leaders.has(task);
		// Leaders too: the last of them to finish may be the task the run waits for.
		if (survival <= SCHEDULE.tailSurvival)
			return leader
				? afterShare(task, SCHEDULE.tailShare)
				: pastTheLeaders(group, task, afterShare(task, SCHEDULE.tailShare), now);
		if (leader) return afterShare(task, SCHEDULE.leaderShare);
		// Read again at the age by which enough leaders that ran this long have finished.
		const allowed = Math.floor((1 - SCHEDULE.findChance) * survival * k) - openLeaders;
		if (allowed < 0) return Infinity;
		const at =
			allowed >= group.took.length ? task.runningMs : group.took[group.took.length - allowed - 1];
		// Only where every open leader is known to have run that long is the count final (a leader
		// whose answer is late or failed is left out: one slow answer delays only its own task).
		if (at > group.knownMs) return Infinity;
		return pastTheLeaders(
			group,
			task,
			Math.max(soonest, task.startedAt + Math.max(at, task.intervalMs)),
			now,
		);
	}
}

/**
 * A follower whose read would come once it has run longer than every leader, but by less than
 * `pastLeaderSpacings` leader spacings (the leaders' range ÷ their count), is read that far past
 * the longest leader instead. Of n tasks about n ÷ √n run longer than every one of the √n
 * leaders, most of them by less than that; they are released together when the last leaders'
 * news comes, which for the tasks submitted after the leaders is a little before their own end:
 * read then, they are found running and read again only an interval later, and the run waits for
 * them (bench:n8n measured it; docs/ARCHITECTURE.md). The longest leader is the longest finished
 * one, or an open one that has run longer still (its time so far).
 *
 * A leader found done without actual_time counts as done midway since its last running read, up
 * to half an interval before its real end; so the read also comes no sooner than the age by which
 * the finished leaders are known done (the group's `doneByMs`). Without that, bench:n8n read the
 * slowest images at one age, 19.6 s, a little before their 19.7-20 s ends, in two runs of three:
 * each was found an interval later and the run missed its target.
 */
function pastTheLeaders(group: Group, task: Paced, due: number, now: number): number {
	const { took } = group;
	if (took.length < 2) return due;
	const longest = Math.max(took[took.length - 1], group.openLongestMs);
	const spacings =
		(SCHEDULE.pastLeaderSpacings * (took[took.length - 1] - took[0])) / (took.length - 1);
	// Never more than an interval past it: a read that finds the task running costs no more than that.
	const beyond = longest + Math.min(Math.max(spacings, group.doneByMs - longest), task.intervalMs);
	const readAge = Math.max(due, now) - task.startedAt;
	return readAge >= longest && readAge < beyond ? task.startedAt + beyond : due;
}

/** The group's `knownMs` and `openLongestMs`, worked out again when a leader has changed. */
function leaderFacts(group: Group): void {
	if (group.factsVersion === group.version) return;
	let known = Infinity;
	let longest = -Infinity;
	const { leaders } = group;
	for (let i = 0; i < leaders.length; i++) {
		const leader = leaders[i];
		if (leader.tookMs !== undefined) continue;
		if (leader.runningMs > longest) longest = leader.runningMs;
		if (!leader.faulting && !leader.reading && leader.runningMs < known) known = leader.runningMs;
	}
	group.knownMs = known;
	group.openLongestMs = longest;
	group.factsVersion = group.version;
}

/**
 * The group's finished leaders' times, ascending, and the latest age by which they are known done,
 * worked out again when a leader finishes or leaves.
 */
function sortTook(group: Group): void {
	const took: number[] = [];
	let doneBy = -Infinity;
	for (const leader of group.leaders) {
		if (leader.tookMs === undefined) continue;
		took.push(leader.tookMs);
		doneBy = Math.max(doneBy, leader.doneByMs ?? leader.tookMs);
	}
	group.took = took.sort((a, b) => a - b);
	group.doneByMs = doneBy;
}

/** Read after `part` of the time the task has run (never sooner than its interval). */
function afterShare(task: Paced, part: number): number {
	return task.lastReadAt === undefined
		? task.startedAt + task.intervalMs
		: task.lastReadAt + Math.max(task.intervalMs, part * task.runningMs);
}

/** How many of the finished leaders' times (ascending) are longer than `ageMs`: a binary search. */
function finishedLongerThan(took: readonly number[], ageMs: number): number {
	let low = 0;
	let high = took.length;
	while (low < high) {
		const mid = (low + high) >>> 1;
		if (took[mid] > ageMs) high = mid;
		else low = mid + 1;
	}
	return took.length - low;
}

/** How many of n tasks lead: √n, so the leaders' reads stay a small share of a batch's. */
export function leaderCount(n: number): number {
	return Math.ceil(Math.sqrt(Math.max(0, n)));
}

/*
 * Reading in rounds. A loop that reads only when it runs (Task → Check Once behind n8n's Wait
 * node, a trigger's polls) cannot read a task at the moment the schedule above names; at each
 * round it reads the batch's leaders first (tasks submitted or first seen together are a batch;
 * √n of them lead, as above), and each other task only if the leaders found finished since its
 * last reading make it likely done by now. What a task needs from one round to the next is small:
 * whether it leads, how many leaders its batch has, how many of them had finished at its last
 * reading and the rounds it was left unread (docs/ARCHITECTURE.md, Check Once and the trigger).
 */
export const ROUNDS = {
	/** A task left unread this many rounds in a row is read in the next, whatever its leaders say. */
	maxSkipped: 3,
};

/** What one task carries between rounds. */
export interface RoundTask {
	leader: boolean;
	/** How many of its batch's leaders had finished when it was last read; undefined: never read. */
	leadersDone?: number;
	/** Rounds in a row it was not read. */
	skipped: number;
}

/** How many of a batch's `leaders` have finished, `open` of them being still open. */
export function leadersDoneCount(leaders: number, open: number): number {
	return Math.min(leaders, Math.max(0, leaders - open));
}

/**
 * Whether a task is read this round, once its batch's `leaders` have been (`doneNow` of them
 * finished now). A leader always is, and so is a task among the slowest of its batch (no more than
 * `tailSurvival` of the leaders still open, as the wait reads its tail), a task left unread
 * `maxSkipped` rounds, and a task whose chance of having finished since its last reading (the
 * leaders that finished since, among those still open then) reaches `findChance`: the wait's half
 * for Check Once, where a task found a round later delays only the batch's end if it is the last;
 * any leader's news for the trigger (`findChance` 0), where each task's own lateness counts.
 */
export function readThisRound(
	task: RoundTask,
	leaders: number,
	doneNow: number,
	findChance: number = SCHEDULE.findChance,
): boolean {
	if (
		task.leader ||
		task.skipped >= ROUNDS.maxSkipped ||
		leaders - doneNow <= SCHEDULE.tailSurvival * leaders
	)
		return true;
	const then = Math.min(task.leadersDone ?? 0, leaders);
	const chance = (doneNow - then) / (leaders - then);
	return chance > 0 && chance >= findChance;
}
