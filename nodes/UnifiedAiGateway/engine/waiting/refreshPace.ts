import type { QueryRoute } from '../../api/tasks/routes';
import type { TaskSnapshot } from '../../api/tasks/snapshot';

/*
 * How often the gateway's record of a task can change, learnt from what the reads return. A
 * new-api relay does not ask the provider when it is read: a system task refreshes every
 * unfinished task in rounds (every 15 s, in creation order, 1 s per task inside a channel; only
 * Gemini and Vertex video are read live), and between two refreshes every read returns the same
 * record (new-api `service/task_polling.go`; the spec's gateway notes, "Task refresh").
 *
 * What a read tells: a record that differs from the task's last one was refreshed between the
 * two reads (after the earlier was sent, before the later answered); one that is the same, read
 * `s` ms after the read that first showed it, says the record was not refreshed for at least
 * that long, so its refreshes are more than `s` apart. Each task keeps the longest such span of
 * its own; a task that has none yet takes the median of its group's (tasks read through one route
 * in one wait share the relay's rounds). A gateway that reads the provider live changes a running
 * task's progress between reads and shows no such span, and one that names no progress shows the
 * same record until the end either way: a wait is read at the relay's pace only once two
 * different records were each read unchanged (`paced`); until then it is read as the
 * schedule says (pollSchedule.ts), and nothing here holds a read back.
 *
 * A group that shows a span is read at the relay's pace instead of the schedule's, whose leaders
 * tell how long tasks take, which a relay hides behind its rounds:
 * - a task whose record was refreshed is read again not before (the earliest its record can have
 *   been refreshed) + (the span): the earliest its next refresh can come; a poll at the interval
 *   would find nothing new sooner, so nothing is found later than such a poll finds it;
 * - a task not yet refreshed (the submit's record: waiting, no progress, no file) is refreshed in
 *   creation order: the round sweeps the group's tasks from the earliest. The wait follows the
 *   sweep: it reads the earliest tasks not yet seen refreshed, a few at a time, up to the first
 *   one still found unrefreshed (the front); that one is read again at the interval, and those
 *   created after it wait until it is seen refreshed. Each task is read about once, just after
 *   the sweep passed it, and a round costs a few reads of the front, not one per task per interval.
 */

/** What the rule needs of a task (pollSchedule.ts Paced has it). */
export interface PaceTask {
	route: QueryRoute;
	startedAt: number;
	intervalMs: number;
	lastReadAt?: number;
}

/** What the rule keeps of one task. */
interface RecordPace {
	/** The record as the last read returned it (its status, progress, files and error); unset: never read. */
	fingerprint?: string;
	/** When it was last refreshed, at the earliest and at the latest (epoch ms); unset: never seen refreshed. */
	changedAfter?: number;
	changedBy?: number;
	/** When the last read was sent. */
	lastSentAt?: number;
	/** The longest span it was read unchanged: its refreshes are more than this apart. */
	staleMs: number;
	/** A read of it is on its way. */
	reading: boolean;
}

interface Group<T> {
	/** The group's open tasks in creation order: the order a relay's round refreshes them. */
	order: T[];
	/** Every task's longest unchanged span (> MIN_PACE_MS), and their median (NaN: work it out again). */
	spans: Map<T, number>;
	median: number;
	/** Bumped by every read and task done with once the group is paced: what a held task waits for changed. */
	version: number;
	/** The sweep as worked out at `sweptAt` (a version): the unrefreshed tasks that may be read now. */
	sweptAt: number;
	readable: Set<T>;
	/** The earliest task not yet seen refreshed: where the round's sweep is (or has not yet come). */
	front?: T;
}

/** Below this a span is the time two reads take, not a relay's pace. */
export const MIN_PACE_MS = 1000;
/** Tasks never read that the sweep reads at once past the last one seen refreshed: a few, so few are read too early. */
export const SWEEP_AHEAD = 4;

/** The record's own words: two reads that return the same are the same record. */
export function recordFingerprint(snapshot: TaskSnapshot): string {
	return JSON.stringify([
		snapshot.status,
		snapshot.progress ?? null,
		snapshot.urls,
		snapshot.error ?? null,
		snapshot.state,
	]);
}

/** The record a relay writes at the submit (waiting, no progress, no file): not yet refreshed. */
function unrefreshed(snapshot: TaskSnapshot): boolean {
	return snapshot.phase === 'waiting' && !snapshot.progress && snapshot.urls.length === 0;
}

export class RefreshPace<T extends PaceTask> {
	private readonly records = new Map<T, RecordPace>();
	private readonly groups = new Map<QueryRoute, Group<T>>();
	/**
	 * The records (fingerprints: no task id in them) read unchanged for more than MIN_PACE_MS, over
	 * every route of the wait: one gateway, one relay, whose rounds refresh every route's tasks.
	 */
	private readonly staleRecords = new Set<string>();

	/** A task of the wait, in creation order (the order its submit answered). */
	add(task: T): void {
		this.records.set(task, { staleMs: 0, reading: false });
		this.groupOf(task.route).order.push(task);
	}

	sent(task: T): void {
		const known = this.records.get(task);
		if (known) known.reading = true;
	}

	/** A read failed: it told nothing of the record. */
	faulted(task: T): void {
		const known = this.records.get(task);
		if (!known) return;
		known.reading = false;
		this.changed(task.route);
	}

	/** A read sent at `sentAt`, answered at `answeredAt`, returned this record of a task still open. */
	read(task: T, snapshot: TaskSnapshot, sentAt: number, answeredAt: number): void {
		const known = this.records.get(task);
		if (!known) return;
		const group = this.groupOf(task.route);
		known.reading = false;
		const fingerprint = recordFingerprint(snapshot);
		if (known.fingerprint === undefined) {
			// Not the submit's record: refreshed since the task began.
			if (!unrefreshed(snapshot)) {
				known.changedAfter = task.startedAt;
				known.changedBy = answeredAt;
			}
		} else if (known.fingerprint !== fingerprint) {
			known.changedAfter = known.lastSentAt;
			known.changedBy = answeredAt;
		} else if (known.changedBy !== undefined && sentAt - known.changedBy > known.staleMs) {
			known.staleMs = sentAt - known.changedBy;
			if (known.staleMs > MIN_PACE_MS) {
				group.spans.set(task, known.staleMs);
				group.median = NaN;
				const before = this.staleRecords.size;
				this.staleRecords.add(fingerprint);
				// The wait turns to the relay's pace: every route's held due times are asked again.
				if (before < 2 && this.staleRecords.size >= 2)
					for (const g of this.groups.values()) g.version++;
			}
		}
		known.fingerprint = fingerprint;
		known.lastSentAt = sentAt;
		this.changed(task.route);
	}

	/** The task is done with: its span stays for the others, it leaves the sweep. */
	done(task: T): void {
		if (!this.records.delete(task)) return;
		const group = this.groupOf(task.route);
		group.order = group.order.filter((t) => t !== task);
		this.changed(task.route);
	}

	/**
	 * Only a group read at the relay's pace has held tasks: a live one's due times stay the
	 * schedule's, worked out again only when it says (PollSchedule.version).
	 */
	private changed(route: QueryRoute): void {
		if (this.paced(route)) this.groupOf(route).version++;
	}

	/**
	 * Whether the wait shows a relay's pace: two different records or more (their status and
	 * progress) read unchanged for more than MIN_PACE_MS, on any of its routes (a route with few
	 * tasks running across a refresh learns it from the others). One is no pace: a gateway that
	 * names no progress, or a fixed one, or tasks stuck at one figure, answer the same running record
	 * until the end, refreshed live or not.
	 */
	private paced(route: QueryRoute): boolean {
		return this.groups.has(route) && this.staleRecords.size >= 2;
	}

	/** What a held task waits for: when it changes, its due time is asked again. */
	version(route: QueryRoute): number {
		return this.groups.get(route)?.version ?? 0;
	}

	/** Not before this (epoch ms) can a read of the task return a record it has not seen; 0: any time. */
	notBefore(task: T): number {
		const known = this.records.get(task);
		if (!known || known.changedAfter === undefined || !this.paced(task.route)) return 0;
		const span = known.staleMs > MIN_PACE_MS ? known.staleMs : this.groupSpan(task.route);
		return span > MIN_PACE_MS ? known.changedAfter + span : 0;
	}

	/**
	 * When the task is read next at the relay's pace (epoch ms; Infinity: when the front it waits for
	 * is seen refreshed), or undefined while its group shows no relay pace (the schedule's then).
	 */
	dueAt(task: T): number | undefined {
		const known = this.records.get(task);
		if (!known || !this.paced(task.route)) return undefined;
		const soonest = (task.lastReadAt ?? task.startedAt) + task.intervalMs;
		const group = this.groupOf(task.route);
		const readable = this.sweep(group);
		if (known.changedAfter !== undefined) {
			// Refreshed in a round whose sweep has not yet reached a task created before that refresh:
			// the round is still on, and the next refresh comes in the next one.
			if (group.front && group.front.startedAt <= known.changedAfter) return Infinity;
			return Math.max(soonest, this.notBefore(task));
		}
		if (!readable.has(task)) return Infinity;
		// The front again at the interval; the tasks before it at once, the earliest first.
		return known.fingerprint === undefined ? task.startedAt : soonest;
	}

	/**
	 * The unrefreshed tasks the sweep reads now: in creation order, every one up to the first found
	 * unrefreshed at its last read (the front, itself included), and at most SWEEP_AHEAD never read.
	 */
	private sweep(group: Group<T>): Set<T> {
		if (group.sweptAt === group.version) return group.readable;
		const readable = new Set<T>();
		let ahead = 0;
		group.front = undefined;
		for (const task of group.order) {
			const known = this.records.get(task)!;
			if (known.changedAfter !== undefined) continue;
			group.front ??= task;
			if (known.fingerprint !== undefined) {
				readable.add(task);
				break;
			}
			if (ahead++ >= SWEEP_AHEAD) break;
			readable.add(task);
		}
		group.readable = readable;
		group.sweptAt = group.version;
		return readable;
	}

	/** The median of the group's spans: one task read rarely (or once by chance late) does not set the pace. */
	private groupSpan(route: QueryRoute): number {
		const group = this.groups.get(route);
		if (!group) return 0;
		if (Number.isNaN(group.median)) {
			const spans = [...group.spans.values()].sort((a, b) => a - b);
			group.median = spans.length === 0 ? 0 : spans[(spans.length - 1) >> 1];
		}
		return group.median;
	}

	private groupOf(route: QueryRoute): Group<T> {
		let group = this.groups.get(route);
		if (!group)
			this.groups.set(
				route,
				(group = {
					order: [],
					spans: new Map(),
					median: 0,
					version: 0,
					sweptAt: -1,
					readable: new Set(),
				}),
			);
		return group;
	}
}
