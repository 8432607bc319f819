'use strict';
// When a wait reads each task (engine/waiting/pollSchedule.ts), on a clock of its own: every due
// time is asked with an explicit `now` and every task's age is set through the schedule's own
// calls (running, finished), so no assertion here depends on how fast the machine is. Which tasks
// lead, what a leader's news changes (the group's version), the share of its age a task waits,
// the estimate, the tail, the count that holds a follower back, the read past the longest leader,
// and Check Once's rounds (readThisRound). poll-schedule.test.js runs the schedule through n8n
// against the simulator, where the gateway counts the reads.
//
// The modules are loaded afresh in each test (fresh-modules.js says why).
const built = require('./fresh-modules').freshEachTest();
const schedules = built(() => require('../dist/nodes/UnifiedAiGateway/engine/waiting/pollSchedule.js'));

/** Tasks start here, not at 0: a rule that drops the start from a due time shows. */
const T = 1_000_000;
const paced = (extra = {}) => ({ route: 'images', intervalMs: 500, startedAt: T, runningMs: 0, ...extra });
/** `n` tasks submitted together, added to a schedule that expects `expected` of them. */
function group(n, { expected = n, ...extra } = {}) {
	const schedule = new schedules.PollSchedule([], expected);
	const tasks = Array.from({ length: n }, () => paced(extra));
	for (const task of tasks) schedule.add(task);
	return { schedule, tasks };
}
/** Read at `ageMs` and found running (answered at once). */
const seen = (schedule, task, ageMs) => schedule.running(task, task.startedAt + ageMs, task.startedAt + ageMs);
/** Last seen running at half its time, then found done, the gateway saying it took `ms`. */
function done(schedule, task, ms) {
	seen(schedule, task, ms / 2);
	schedule.finished(task, task.startedAt + ms, ms / 1000);
}
/** Whether each task leads: a leader is read at its interval, a follower waits for the leaders' news. */
const leads = (schedule, tasks) => tasks.map((task) => schedule.dueAt(task, T) !== Infinity);

describe('who leads: the first √n of each route', () => {
	test.each([
		[0, 0],
		[-4, 0],
		[1, 1],
		[2, 2],
		[4, 2],
		[5, 3],
		[9, 3],
		[20, 5],
		[500, 23],
	])('leaderCount(%p) is %p', (n, count) => {
		expect(schedules.leaderCount(n)).toBe(count);
	});

	test('tasks known at the start: the earliest submitted lead, counted per route', () => {
		const images = [5, 1, 3, 4].map((s) => paced({ startedAt: T + s }));
		const videos = Array.from({ length: 9 }, (_, i) => paced({ route: 'videos', startedAt: T + 9 - i }));
		const schedule = new schedules.PollSchedule([...images, ...videos]);
		// 4 images: 2 lead (submitted at +1 and +3); 9 videos: 3 lead, the last three given.
		expect(leads(schedule, images)).toEqual([false, true, true, false]);
		expect(leads(schedule, videos)).toEqual([false, false, false, false, false, false, true, true, true]);
		expect(schedule.version(images[0])).toBe(2);
		expect(schedule.version(videos[0])).toBe(3);
		// A route the schedule has never seen has no version yet.
		expect(schedule.version(paced({ route: 'music' }))).toBe(0);
	});

	test('a feed: the first √n of the count the wait expects lead, in the order they arrive', () => {
		const { schedule, tasks } = group(5, { expected: 9 });
		expect(leads(schedule, tasks)).toEqual([true, true, true, false, false]);
		expect(schedule.version(tasks[0])).toBe(3);
	});

	test('a feed with no count leads with its first task only; the constructor\'s default is no task', () => {
		const schedule = new schedules.PollSchedule();
		const tasks = [paced(), paced()];
		for (const task of tasks) schedule.add(task);
		expect(leads(schedule, tasks)).toEqual([true, false]);
	});

	test('a leader gone is not replaced: of the tasks that arrive after, only as many lead as the count left', () => {
		const { schedule, tasks } = group(2, { expected: 9 });
		schedule.gone(tasks[0]);
		const [late, third] = [paced(), paced()];
		schedule.add(late);
		schedule.add(third);
		expect(leads(schedule, [tasks[1], late, third])).toEqual([true, true, false]);
	});
});

describe("what a read tells the schedule, and the group's version", () => {
	test('a running read: not reading, not faulting, last read at its answer, known to run since its send (never less than before)', () => {
		const { schedule, tasks: [task] } = group(1);
		Object.assign(task, { reading: true, faulting: true });
		schedule.running(task, T + 3000, T + 3400);
		expect(task).toMatchObject({ reading: false, faulting: false, lastReadAt: T + 3400, runningMs: 3000 });
		expect(task.estimatedTimeS).toBeUndefined();
		// An answer to an earlier send arriving late does not make the task younger.
		schedule.running(task, T + 2000, T + 3600);
		expect(task).toMatchObject({ lastReadAt: T + 3600, runningMs: 3000 });
	});

	test.each([
		[7, 7],
		[0.5, 0.5],
		[0, 4],
		[-3, 4],
		[undefined, 4],
	])('a running read with estimated_time %p leaves the estimate at %p', (estimate, kept) => {
		const { schedule, tasks: [task] } = group(1, { estimatedTimeS: 4 });
		schedule.running(task, T + 1000, T + 1000, estimate);
		expect(task.estimatedTimeS).toBe(kept);
	});

	test.each([
		// [last running age, answered at age, actual_time s, counted time]
		[3000, 5000, undefined, 4000],
		[3000, 5000, 0, 4000],
		[3000, 5000, -1, 4000],
		[3000, 5000, 4.5, 4500],
		[3000, 5000, 2, 3000],
		[3000, 5000, 9, 5000],
		// An answer stamped before the last running age (clocks apart): the running age bounds it.
		[3000, 2000, undefined, 3000],
		[3000, 2000, 1, 3000],
	])('found done: last running at %p ms, answered at %p ms, actual_time %p: counted as %p ms', (runningAt, answeredAt, actual, took) => {
		const { schedule, tasks: [task] } = group(1);
		seen(schedule, task, runningAt);
		Object.assign(task, { reading: true, faulting: true });
		schedule.finished(task, T + answeredAt, actual);
		expect(task).toMatchObject({ tookMs: took, reading: false, faulting: false });
	});

	test('a read sent, a fault: the flags the leaders\' count reads', () => {
		const { schedule, tasks: [task] } = group(1);
		schedule.sent(task);
		expect(task.reading).toBe(true);
		schedule.faulted(task);
		expect(task).toMatchObject({ reading: false, faulting: true });
	});

	test("every change of a leader is a new version; a follower's own reads and leaving are not", () => {
		const { schedule, tasks } = group(4);
		const [leader, , follower] = tasks;
		const version = () => schedule.version(follower);
		const steps = [
			['sent', () => schedule.sent(follower), 0],
			['running', () => schedule.running(follower, T + 10, T + 10), 0],
			['faulted', () => schedule.faulted(follower), 0],
			['finished', () => schedule.finished(follower, T + 20), 0],
			['gone', () => schedule.gone(follower), 0],
			['leader sent', () => schedule.sent(leader), 1],
			['leader running', () => schedule.running(leader, T + 10, T + 10), 1],
			['leader faulted', () => schedule.faulted(leader), 1],
			['leader finished', () => schedule.finished(leader, T + 20), 1],
			['leader gone', () => schedule.gone(leader), 1],
			['leader gone again', () => schedule.gone(leader), 0],
		];
		const moved = steps.map(([name, step]) => {
			const before = version();
			step();
			return [name, version() - before];
		});
		expect(moved).toEqual(steps.map(([name, , by]) => [name, by]));
	});
});

describe('a leader, or a task alone: read after a share of its age', () => {
	test('first read at its interval, then after 15 % of its age (never sooner than the interval): found at most that late', () => {
		const { schedule, tasks: [task] } = group(1);
		expect(schedule.dueAt(task, T)).toBe(T + 500);
		// Seen running at 1 s (answered 10 ms later): 15 % of 1 s is under the interval.
		schedule.running(task, T + 1000, T + 1010);
		expect(schedule.dueAt(task, T + 1010)).toBe(T + 1510);
		// Seen running at 8 s: read again 1.2 s later.
		schedule.running(task, T + 8000, T + 8010);
		expect(schedule.dueAt(task, T + 8010)).toBe(T + 8010 + 1200);
	});

	test('a task an earlier try created is read at once, the first time only', () => {
		const { schedule, tasks: [task] } = group(1, { pollNow: true, estimatedTimeS: 30 });
		expect(schedule.dueAt(task, T + 5)).toBe(T);
		seen(schedule, task, 100);
		expect(schedule.dueAt(task, T + 100)).toBe(T + 30_000);
	});

	test.each([
		// [estimated_time s, last running age or none, interval, due age]
		[3, undefined, 500, 3000],
		// An estimate under a second waits a second.
		[0.4, undefined, 500, 1000],
		// Still the interval after the last read.
		[3, 2800, 500, 3300],
		// Its estimate reached: the share of its age again (15 % of 3 s is 450 ms).
		[3, 3000, 100, 3450],
		[3, 3500, 100, 3500 + 525],
	])('estimated_time %p s, last seen running at %p ms, interval %p ms: read at %p ms', (estimate, at, intervalMs, due) => {
		const { schedule, tasks: [task] } = group(1, { estimatedTimeS: estimate, intervalMs });
		if (at !== undefined) seen(schedule, task, at);
		expect(schedule.dueAt(task, T)).toBe(T + due);
	});

	test('every leader gone: a follower is read as a task alone', () => {
		const { schedule, tasks } = group(4, { intervalMs: 1000 });
		schedule.gone(tasks[0]);
		schedule.gone(tasks[1]);
		expect(schedule.dueAt(tasks[2], T)).toBe(T + 1000);
		seen(schedule, tasks[2], 10_000);
		expect(schedule.dueAt(tasks[2], T)).toBe(T + 10_000 + 1500);
	});
});

describe('a follower: read when enough leaders that ran as long have finished', () => {
	/**
	 * 81 tasks, 9 leaders: 8 done at 1-8 s (finished out of their order, so the times must be
	 * sorted), the ninth open, last seen running at 9 s. Interval 100 ms unless given.
	 */
	function nineLeaders(intervalMs = 100) {
		const { schedule, tasks } = group(81, { intervalMs });
		[5, 1, 8, 3, 7, 2, 6, 4].forEach((s, i) => done(schedule, tasks[i], s * 1000));
		seen(schedule, tasks[8], 9000);
		return { schedule, leaders: tasks.slice(0, 9), follower: tasks[9] };
	}

	test.each([
		// [last seen running at (ms, or none), due age]: by the leaders still open at its age (the
		// one open, and those done later than it), it is due once half of them are done.
		[undefined, 5000],
		[2500, 6000],
		[4000, 7000],
		[5000, 7000],
		[6000, 8000],
		[7500, 8000],
		// Past every finished leader, one open: the tail, a tenth of its age later.
		[8000, 8800],
		[8500, 9350],
	])('last seen running at %p ms: read at %p ms', (age, due) => {
		const { schedule, follower } = nineLeaders();
		if (age !== undefined) seen(schedule, follower, age);
		expect(schedule.dueAt(follower, T)).toBe(T + due);
	});

	test("the leaders' own tail: the last one open is read after a tenth of its age, not 15 %", () => {
		const { schedule, leaders } = nineLeaders(500);
		expect(schedule.dueAt(leaders[8], T)).toBe(T + 9000 + 900);
	});

	test('the tail starts where at most 15 % of the leaders are still open (3 of 20 is)', () => {
		const { schedule, tasks } = group(25, { expected: 400, intervalMs: 500 });
		for (let i = 0; i < 17; i++) done(schedule, tasks[i], 1000 + i * 100);
		for (let i = 17; i < 20; i++) seen(schedule, tasks[i], 10_000);
		expect(schedule.dueAt(tasks[17], T)).toBe(T + 10_000 + 1000);
		// 4 of 20 open: a leader's 15 %.
		const more = group(25, { expected: 400, intervalMs: 500 });
		for (let i = 0; i < 16; i++) done(more.schedule, more.tasks[i], 1000 + i * 100);
		for (let i = 16; i < 20; i++) seen(more.schedule, more.tasks[i], 10_000);
		expect(more.schedule.dueAt(more.tasks[16], T)).toBe(T + 10_000 + 1500);
	});

	test('no leader done yet, or too few: the follower waits (Infinity)', () => {
		const { schedule, tasks } = group(16, { intervalMs: 1000 });
		expect(schedule.dueAt(tasks[4], T)).toBe(Infinity);
		done(schedule, tasks[0], 5000);
		for (const leader of tasks.slice(1, 4)) seen(schedule, leader, 6000);
		expect(schedule.dueAt(tasks[4], T)).toBe(Infinity);
	});

	test('never sooner than its interval after its last read, nor than one interval of age', () => {
		const { schedule, tasks } = group(16, { intervalMs: 1000 });
		[100, 200, 300, 400].forEach((ms, i) => done(schedule, tasks[i], ms));
		// Half the leaders were done by 0.2 s: still one interval of age first.
		expect(schedule.dueAt(tasks[4], T)).toBe(T + 1000);
		const later = group(16, { intervalMs: 1000 });
		[4000, 5000, 7500, 12_000].forEach((ms, i) => done(later.schedule, later.tasks[i], ms));
		// Seen running at 7 s: by the leaders due at 7.5 s, but not before 8 s.
		seen(later.schedule, later.tasks[4], 7000);
		expect(later.schedule.dueAt(later.tasks[4], T)).toBe(T + 8000);
	});

	describe('an open leader known to have run less than the count holds the follower back', () => {
		/** 16 tasks, 4 leaders: two done at 5 and 6 s, two open, last seen at `third` and 7 s. */
		function twoOpen(third) {
			const { schedule, tasks } = group(16, { intervalMs: 100 });
			done(schedule, tasks[0], 5000);
			done(schedule, tasks[1], 6000);
			seen(schedule, tasks[2], third);
			seen(schedule, tasks[3], 7000);
			return { schedule, tasks, follower: tasks[4] };
		}

		test('known to have run 5.5 s, under the 6 s the count reaches: the follower waits for its news', () => {
			const { schedule, follower } = twoOpen(5500);
			expect(schedule.dueAt(follower, T)).toBe(Infinity);
		});

		test('known to have run exactly 6 s: the count is final', () => {
			const { schedule, follower } = twoOpen(6000);
			expect(schedule.dueAt(follower, T)).toBe(T + 6000);
		});

		test.each(['sent', 'faulted'])('its read %s: its answer may be late, so it is left out', (change) => {
			const { schedule, tasks, follower } = twoOpen(5500);
			schedule[change](tasks[2]);
			expect(schedule.dueAt(follower, T)).toBe(T + 6000);
		});

		test('a done leader\'s last running age is not what an open one is known to have run', () => {
			// The leaders done at 5 and 6 s were last seen running at 2.5 and 3 s.
			const { schedule, follower } = twoOpen(6500);
			expect(schedule.dueAt(follower, T)).toBe(T + 6000);
		});
	});

	test('a done leader that leaves takes its time with it', () => {
		const { schedule, tasks } = group(16, { intervalMs: 100 });
		[4000, 5000, 6000, 8000].forEach((ms, i) => done(schedule, tasks[i], ms));
		expect(schedule.dueAt(tasks[4], T)).toBe(T + 5000);
		schedule.gone(tasks[0]);
		// Three leaders, all done (5, 6, 8 s): half of three is due at the 6 s one.
		expect(schedule.dueAt(tasks[4], T)).toBe(T + 6000);
	});
});

describe('past the longest leader: a few leader spacings on (at most one interval), not in the burst of their news', () => {
	/** 16 tasks, 4 leaders done at 4, 5, 6 and 8 s (spacing 4 s ÷ 3; three spacings 4 s). */
	function fourDone(intervalMs, times = [4000, 5000, 6000, 8000]) {
		const { schedule, tasks } = group(16, { intervalMs });
		times.forEach((ms, i) => done(schedule, tasks[i], ms));
		return { schedule, tasks, follower: tasks[4] };
	}

	test.each([
		// [interval, now (age), due age]
		// Due at 5 s by the leaders, asked before the longest leader's 8 s: as the leaders say.
		[1000, 0, 5000],
		[1000, 7999, 5000],
		// Asked once it has run as long as the longest leader: one interval (under 3 spacings) past it.
		[1000, 8000, 9000],
		[1000, 8500, 9000],
		// Three spacings (4 s) under the interval.
		[5000, 8500, 12_000],
		// Asked past that: its own due time.
		[5000, 12_000, 5000],
		[1000, 9000, 5000],
	])('interval %p ms, asked at age %p ms: read at %p ms', (intervalMs, nowAge, due) => {
		const { schedule, follower } = fourDone(intervalMs);
		expect(schedule.dueAt(follower, T + nowAge)).toBe(T + due);
	});

	test('a follower in the tail with an open leader longer than every done one: past the open one', () => {
		// 49 tasks, 7 leaders: 6 done at 2-7 s, one open seen at 8 s; interval 1 s.
		const { schedule, tasks } = group(49, { intervalMs: 1000 });
		[2000, 3000, 4000, 5000, 6000, 7000].forEach((ms, i) => done(schedule, tasks[i], ms));
		seen(schedule, tasks[6], 8000);
		// Seen at 7.5 s, past every done leader: the tail's 7.5 s + 1 s falls before 8 s + one interval.
		seen(schedule, tasks[7], 7500);
		expect(schedule.dueAt(tasks[7], T)).toBe(T + 9000);
		// Seen at 9.5 s: the tail's own time, past the open leader's 9 s.
		seen(schedule, tasks[8], 9500);
		expect(schedule.dueAt(tasks[8], T)).toBe(T + 10_500);
	});

	test('two leaders done: one spacing is theirs (3 of them, at most one interval)', () => {
		const { schedule, tasks } = group(4, { intervalMs: 1000 });
		done(schedule, tasks[0], 4000);
		done(schedule, tasks[1], 5000);
		// Due at 4 s by the leaders; asked at 5.2 s, past the longest: 5 s + min(3 × 1 s, 1 s).
		expect(schedule.dueAt(tasks[2], T + 3000)).toBe(T + 4000);
		expect(schedule.dueAt(tasks[2], T + 5200)).toBe(T + 6000);
	});

	test('the longest leader may be an open one, whichever of them is listed first', () => {
		// 4 leaders: two done at 2 and 3 s, two open, seen at 6 s (the first) and 5 s (the last).
		const { schedule, tasks } = group(16, { intervalMs: 1000 });
		done(schedule, tasks[0], 2000);
		done(schedule, tasks[1], 3000);
		seen(schedule, tasks[2], 6000);
		seen(schedule, tasks[3], 5000);
		// Due at 3 s; asked at 6.5 s, past the open 6 s one: read one interval past it.
		expect(schedule.dueAt(tasks[4], T + 6500)).toBe(T + 7000);
	});

	test('a follower that ran exactly as long as a done leader counts that one as not longer', () => {
		const { schedule, follower } = fourDone(100);
		// Seen at 6 s: only the 8 s leader ran longer, so it waits for that one (8 s) and then reads
		// just past it (one 0.1 s interval).
		seen(schedule, follower, 6000);
		expect(schedule.dueAt(follower, T)).toBe(T + 8100);
	});

	test('a longest leader found done without actual_time: the follower is read no sooner than the age that found it', () => {
		// 16 tasks, interval 5 s, 4 leaders done at 4, 4.5 and 5 s (the gateway said) and one last
		// seen running at 3.5 s, found done at 7.5 s without actual_time: it counts as 5.5 s. The
		// spacing is 0.5 s, three of them 1.5 s; the last leader is known done only by 7.5 s.
		const { schedule, tasks } = group(16, { intervalMs: 5000 });
		[4000, 4500, 5000].forEach((ms, i) => done(schedule, tasks[i], ms));
		seen(schedule, tasks[3], 3500);
		schedule.finished(tasks[3], T + 7500);
		expect(tasks[3].tookMs).toBe(5500);
		// Asked at 5.5 s and 7.4 s (past the 5.5 s estimate): read at 7.5 s, not at 5.5 s + 1.5 s.
		expect(schedule.dueAt(tasks[4], T + 5500)).toBe(T + 7500);
		expect(schedule.dueAt(tasks[4], T + 7400)).toBe(T + 7500);
		// Asked at 7.5 s: its own due time (5 s by the leaders).
		expect(schedule.dueAt(tasks[4], T + 7500)).toBe(T + 5000);
	});

	test('the age that found a leader done counts only when later than the spacings, and at most one interval on', () => {
		// Interval 1 s; 4 leaders done at 4, 5 and 6 s (the gateway said) and one seen running at 2 s,
		// found done at 10 s without actual_time: it counts as 6 s, known done only by 10 s.
		const { schedule, tasks } = group(16, { intervalMs: 1000 });
		[4000, 5000, 6000].forEach((ms, i) => done(schedule, tasks[i], ms));
		seen(schedule, tasks[3], 2000);
		schedule.finished(tasks[3], T + 10_000);
		// Asked at 6 s: one interval past the 6 s longest (7 s), not the 10 s that found it.
		expect(schedule.dueAt(tasks[4], T + 6000)).toBe(T + 7000);
		// A leader the gateway gave actual_time is known done at that time: the spacings decide.
		const other = group(16, { intervalMs: 5000 });
		[4000, 4500, 5000].forEach((ms, i) => done(other.schedule, other.tasks[i], ms));
		seen(other.schedule, other.tasks[3], 3500);
		other.schedule.finished(other.tasks[3], T + 7500, 5.5);
		expect(other.schedule.dueAt(other.tasks[4], T + 5500)).toBe(T + 7000);
	});

	test('a leader that leaves takes its age found done with it', () => {
		const { schedule, tasks } = group(16, { intervalMs: 5000 });
		[4000, 4500, 5000].forEach((ms, i) => done(schedule, tasks[i], ms));
		seen(schedule, tasks[3], 3500);
		schedule.finished(tasks[3], T + 7500);
		schedule.gone(tasks[3]);
		// Three leaders left, done at 4-5 s (spacing 0.5 s): asked at 5.2 s, read at 5 s + 1.5 s.
		expect(schedule.dueAt(tasks[4], T + 5200)).toBe(T + 6500);
	});

	test('one leader done: no spacing to go by, a follower past it is read at its tail time', () => {
		const schedule = new schedules.PollSchedule();
		const [leader, follower] = [paced({ intervalMs: 1000 }), paced({ intervalMs: 1000 })];
		schedule.add(leader);
		schedule.add(follower);
		done(schedule, leader, 2000);
		seen(schedule, follower, 2500);
		expect(schedule.dueAt(follower, T + 2500)).toBe(T + 3500);
	});
});

describe("Check Once's rounds: readThisRound", () => {
	const task = (extra = {}) => ({ leader: false, skipped: 0, ...extra });

	test.each([
		// [task, leaders, done now, find chance (default 0.5), read?]
		['a leader, nothing new', task({ leader: true, leadersDone: 0 }), 10, 0, undefined, true],
		['left unread 3 rounds', task({ skipped: 3, leadersDone: 0 }), 10, 0, undefined, true],
		['left unread 2 rounds', task({ skipped: 2, leadersDone: 0 }), 10, 0, undefined, false],
		['one of 10 leaders open (the tail)', task({ leadersDone: 9 }), 10, 9, undefined, true],
		['3 of 20 open: the tail', task({ leadersDone: 17 }), 20, 17, undefined, true],
		['4 of 20 open, none done since', task({ leadersDone: 16 }), 20, 16, undefined, false],
		['half of those open then are done since', task({ leadersDone: 2 }), 10, 6, undefined, true],
		['fewer than half', task({ leadersDone: 2 }), 10, 5, undefined, false],
		['never read: half of all leaders done', task(), 10, 5, undefined, true],
		['never read: fewer', task(), 10, 4, undefined, false],
		['a count from a larger batch than now', task({ leadersDone: 15 }), 10, 5, undefined, false],
		['the trigger: any leader done since', task({ leadersDone: 3 }), 10, 4, 0, true],
		['the trigger: none done since', task({ leadersDone: 3 }), 10, 3, 0, false],
	])('%s', (_name, t, leaders, doneNow, findChance, read) => {
		expect(schedules.readThisRound(t, leaders, doneNow, findChance)).toBe(read);
	});

	test.each([
		[5, 2, 3],
		[5, 0, 5],
		[5, 7, 0],
		[5, -1, 5],
	])('leadersDoneCount(%p leaders, %p open) is %p', (leaders, open, count) => {
		expect(schedules.leadersDoneCount(leaders, open)).toBe(count);
	});
});

describe('as bench:n8n found it (tasks started at 0)', () => {
	test('a follower that has outrun every leader is first read a few leader spacings past the longest (at most one interval), not in the burst of their news', () => {
		const { schedule, tasks } = group(9, { startedAt: 0 });
		// Three leaders, done at 1, 2 and 3 s (each last seen running at that age): their spacing is 1 s.
		[1000, 2000, 3000].forEach((ms, i) => {
			schedule.running(tasks[i], ms, ms);
			schedule.finished(tasks[i], ms);
		});
		// Read at 2.9 s, still running: by the leaders it is due at 3.4 s (its interval), when it has
		// run longer than every leader; it is read at 3 s + min(3 spacings, one 0.5 s interval).
		schedule.running(tasks[3], 2900, 2900);
		expect(schedule.dueAt(tasks[3], 0)).toBe(3500);
		// Not past the longest leader: read when the leaders say (at 2 s, by which two thirds of the
		// leaders still running at 1.5 s had finished).
		schedule.running(tasks[4], 1500, 1500);
		expect(schedule.dueAt(tasks[4], 0)).toBe(2000);
		// Far past it (read at 4 s and running): the tail rule, a tenth of its age but at least the interval.
		schedule.running(tasks[5], 4000, 4000);
		expect(schedule.dueAt(tasks[5], 0)).toBe(4500);
	});

	test("a wait may keep a due time until the group's version changes: every change of a leader changes it, a follower's own read does not, and the due times follow the leaders at once", () => {
		const { schedule, tasks } = group(9, { startedAt: 0, intervalMs: 5000 });
		const versions = [];
		const note = () => versions.push(schedule.version(tasks[0]));
		note();
		// A follower read and found running: its own due time changes, not its group's.
		schedule.sent(tasks[5]);
		schedule.running(tasks[5], 5000, 5010);
		note();
		expect(versions[1]).toBe(versions[0]);
		// The leaders read at 5 s, all running: a follower waits for their news.
		for (const leader of tasks.slice(0, 3)) {
			schedule.sent(leader);
			note();
			schedule.running(leader, 5000, 5010);
			note();
		}
		expect(schedule.dueAt(tasks[3], 5020)).toBe(Infinity);
		// Two of them found done at 10 s (each counted done at 7.51 s), the third read again.
		schedule.finished(tasks[0], 10_020);
		note();
		schedule.finished(tasks[1], 10_020);
		note();
		// The third, known to have run only 5 s, holds the count (7.51 s) back…
		expect(schedule.dueAt(tasks[3], 10_030)).toBe(Infinity);
		// …until its read goes out: its answer may be late, so it is left out.
		schedule.sent(tasks[2]);
		note();
		expect(schedule.dueAt(tasks[3], 10_030)).toBe(7510);
		schedule.faulted(tasks[2]);
		note();
		schedule.gone(tasks[2]);
		note();
		expect(schedule.dueAt(tasks[3], 10_030)).toBe(7510);
		// Every change of a leader gave a new version.
		expect(new Set(versions.slice(1)).size).toBe(versions.length - 1);
	});

	test('a leader found done counts as done midway since it was last seen running: the followers are read after the round of reads that found half the leaders done, not a round later', () => {
		const { schedule, tasks } = group(9, { startedAt: 0, intervalMs: 5000 });
		// A round of leader reads at 5 s finds all three running; the next at 10 s finds two done
		// (answered 20 ms later) and the third still running.
		for (const leader of tasks.slice(0, 3)) schedule.running(leader, 5000, 5010);
		schedule.finished(tasks[0], 10_020);
		schedule.finished(tasks[1], 10_020);
		schedule.running(tasks[2], 10_000, 10_010);
		// Two of three leaders took 5-10 s (counted 7.51 s); the third has run 10 s. A follower is
		// due now, at 7.51 s of its age. Counted at the answer (10.02 s), past the 10 s the open
		// leader is known to have run, it waited for that leader's next read at 15 s.
		expect(tasks[0].tookMs).toBe(7510);
		expect(schedule.dueAt(tasks[3], 10_030)).toBe(7510);
	});
});
