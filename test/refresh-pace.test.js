'use strict';
// What a wait learns of a gateway's refresh from the records it reads (engine/waiting/refreshPace.ts),
// on a clock of its own: every read names when it was sent and answered, so nothing here depends
// on the machine's speed. A relay that refreshes in rounds returns the same record between two
// refreshes; a read before the next refresh can come is skipped, and nothing later than that.
const built = require('./fresh-modules').freshEachTest();
const paces = built(() => require('../dist/nodes/UnifiedAiGateway/engine/waiting/refreshPace.js'));

const T = 1_000_000;
let pace;
beforeEach(() => (pace = new paces.RefreshPace()));
/** A task of the wait, created `createdMs` after T, added in creation order. */
const task = (route = 'videos', createdMs = 0) => {
	const t = { route, startedAt: T + createdMs, intervalMs: 5000 };
	pace.add(t);
	return t;
};
const record = (status, progress, extra = {}) => {
	const phase = status === 'queued' ? 'waiting' : 'running';
	return { taskId: 't', status, phase, state: 'pending', progress, urls: [], raw: {}, ...extra };
};
/** Two other tasks of the route read unchanged for `spanMs` at 10 % and 20 %: the route shows a pace. */
function paceShown(route, spanMs) {
	for (const progress of [10, 20]) {
		const t = task(route);
		read(pace, t, 0, record('in_progress', progress));
		read(pace, t, spanMs + 10, record('in_progress', progress));
	}
}
/** A read sent at `at` ms after T, answered 10 ms later. */
const read = (_pace, t, at, rec) => {
	pace.sent(t);
	pace.read(t, rec, T + at, T + at + 10);
	t.lastReadAt = T + at + 10;
};

test('a live gateway (progress moves at every read) sets no pace: no read is held back', () => {
	const t = task();
	for (let i = 1; i <= 6; i++) read(pace, t, i * 5000, record('in_progress', i * 5));
	expect(pace.notBefore(t)).toBe(0);
});

test('the submit’s record (queued, no progress) says nothing of when the task is refreshed', () => {
	const t = task();
	for (let i = 1; i <= 4; i++) read(pace, t, i * 5000, record('queued', 0));
	expect(pace.notBefore(t)).toBe(0);
});

test('the same record read again: the next read waits for the earliest its next refresh can come', () => {
	paceShown('videos', 2000);
	const t = task();
	read(pace, t, 5000, record('queued', 0));
	// Changed between the read sent at 5 s and the one answered at 10.01 s.
	read(pace, t, 10_000, record('in_progress', 30));
	read(pace, t, 15_000, record('in_progress', 30));
	read(pace, t, 20_000, record('in_progress', 30));
	// Unchanged from 10.01 s to a read sent at 20 s: the refreshes are more than 9.99 s apart, and the
	// last came after 5 s: the next cannot come before 14.99 s... and that is already past, so a read
	// is due as the interval says; each read that still finds the record moves the bound on.
	expect(pace.notBefore(t)).toBe(T + 5000 + 9990);
	expect(pace.dueAt(t)).toBe(T + 20_010 + 5000);
	read(pace, t, 30_000, record('in_progress', 60));
	// Refreshed between 20 s and 30.01 s; its refreshes are more than 9.99 s apart: not before 29.99 s.
	expect(pace.notBefore(t)).toBe(T + 20_000 + 9990);
});

test('a task not yet read twice takes the median pace of its route; another route is its own', () => {
	paceShown('videos', 12_000);
	paceShown('images', 2000);
	const spans = [4000, 20_000];
	const tasks = spans.map(() => task());
	tasks.forEach((t, i) => {
		read(pace, t, 0, record('in_progress', 10));
		read(pace, t, spans[i] + 10, record('in_progress', 10));
	});
	const fresh = task();
	read(pace, fresh, 40_000, record('in_progress', 50));
	// Refreshed after it began (T) and by 40.01 s; the median span is 12 s.
	expect(pace.notBefore(fresh)).toBe(T + 12_000);
	const other = task('images');
	read(pace, other, 40_000, record('in_progress', 50));
	expect(pace.notBefore(other)).toBe(T + 2000);
});

test('a task done with is forgotten; spans of a second or less are the time reads take', () => {
	paceShown('videos', 2000);
	const t = task();
	read(pace, t, 0, record('in_progress', 10));
	read(pace, t, 1000, record('in_progress', 10));
	// Its own 0.99 s is no pace: the route's 2 s is taken.
	expect(pace.notBefore(t)).toBe(T + 2000);
	read(pace, t, 9000, record('in_progress', 10));
	expect(pace.notBefore(t)).toBe(T + 8990);
	pace.done(t);
	expect(pace.notBefore(t)).toBe(0);
});

test('behind a relay, the not yet refreshed are read in creation order up to the first still unrefreshed', () => {
	const tasks = Array.from({ length: 12 }, (_, i) => task('images', i));
	// The pace shows: the first two tasks refreshed after 1 s, then read unchanged 6 s on.
	for (const [i, progress] of [[0, 20], [1, 30]]) {
		read(pace, tasks[i], 1000, record('queued', 0));
		read(pace, tasks[i], 5000, record('in_progress', progress));
		read(pace, tasks[i], 11_000, record('in_progress', progress));
	}
	// Never read: the next few at once (the earliest first), the rest held.
	const due = () => tasks.map((t) => pace.dueAt(t));
	expect(due().slice(2, 7)).toEqual([2, 3, 4, 5].map((i) => T + i).concat(Infinity));
	// Task 1 done, task 2 not refreshed: task 2 is the front, read again at the interval; all after it wait.
	read(pace, tasks[1], 12_000, record('completed', 100, { urls: ['u'] }));
	pace.done(tasks[1]);
	read(pace, tasks[2], 12_000, record('queued', 0));
	expect(due().slice(2)).toEqual([T + 17_010, ...Array(9).fill(Infinity)]);
	// A task refreshed in this round is not read again while the sweep has not passed the front.
	expect(pace.dueAt(tasks[0])).toBe(Infinity);
	read(pace, tasks[2], 17_010, record('in_progress', 40));
	expect(due().slice(3, 8)).toEqual([3, 4, 5, 6].map((i) => T + i).concat(Infinity));
});

test('a gateway that shows no pace leaves every due time to the schedule', () => {
	const t = task();
	read(pace, t, 5000, record('in_progress', 20));
	read(pace, t, 10_000, record('in_progress', 40));
	expect(pace.dueAt(t)).toBeUndefined();
	// Records at one progress figure only (none named, a fixed one, tasks stuck at 99 %) show no pace.
	const stuck = [task(), task()];
	for (const s of stuck) for (const at of [0, 5000, 10_000]) read(pace, s, at, record('in_progress', 40));
	expect([pace.dueAt(stuck[0]), pace.notBefore(stuck[0]), pace.version('videos')]).toEqual([undefined, 0, 0]);
});

test('the pace one route shows holds for the wait’s other routes (one gateway, one relay)', () => {
	paceShown('images', 3000);
	const t = task('videos');
	read(pace, t, 1000, record('queued', 0));
	read(pace, t, 6000, record('in_progress', 30));
	// No span of its own, none on its route: read at the interval, not the schedule's share.
	expect([pace.notBefore(t), pace.dueAt(t)]).toEqual([0, T + 6010 + 5000]);
});
