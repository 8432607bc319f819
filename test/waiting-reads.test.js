'use strict';
// Reading tasks that exist (engine/waiting/taskReads.ts) against a fake gateway (the context's
// request helper answers from a table; no HTTP): one read of one task and what a failed one
// counts, the re-reads of a task said finished without its file, and a trigger poll's bounded pass
// (what the deadline leaves unread, cuts short, and hands the transport), on jest's clock; then the
// one polling loop (engine/waiting/waiter.ts waitForTasks) on jest's timers: each outcome and its
// words, the faults, the slots, a feed of tasks still arriving.
// trigger.test.js, check-once.test.js and faults/poll.test.js run the same reads through n8n
// against the simulator.
//
// The modules are loaded afresh in each test (fresh-modules.js says why).
const { Readable } = require('node:stream');
const built = require('./fresh-modules').freshEachTest();
const { settledOnClock } = require('./fake-clock');
const reads = built(() => require('../dist/nodes/UnifiedAiGateway/engine/waiting/taskReads.js'));
const waiter = built(() => require('../dist/nodes/UnifiedAiGateway/engine/waiting/waiter.js'));
const feeds = built(() => require('../dist/nodes/UnifiedAiGateway/engine/waiting/taskFeed.js'));
const limits = built(() => require('../dist/nodes/UnifiedAiGateway/registry/limits.js'));

const NODE = { id: '1', name: 'Gateway', type: 'n8n-nodes-unified-ai-gateway.unifiedAiGateway', typeVersion: 1, position: [0, 0], parameters: {}, credentials: { unifiedAiGatewayApi: { id: '1', name: 'Gateway' } } };
const NOW = 1_800_000_000_000;

const running = (id) => ({ status: 200, json: { code: 'success', data: { task_id: id, status: 'IN_PROGRESS', progress: '40%' } } });
const doneWithoutFile = (id) => ({ status: 200, json: { code: 'success', data: { task_id: id, status: 'SUCCESS', progress: '100%' } } });
const done = (id) => ({ status: 200, json: { code: 'success', data: { task_id: id, status: 'SUCCESS', progress: '100%', result_url: `https://cdn.example.com/${id}.mp4` } } });
const refused = { status: 400, json: { error: { message: 'bad request', type: 'invalid_request_error' } } };
const down = { status: 503, json: { error: { message: 'upstream overloaded' } } };

/**
 * A context on a gateway at `baseUrl` whose answers are `answer(request, n)` (n: the request's
 * number), each `{ status, json, headers? }` or an Error to throw, or a promise of one (an answer
 * that takes time on jest's clock); records each request's path, qs and
 * timeout. `before(request)` runs first (a test moves the clock there).
 */
function gateway(answer, { baseUrl = 'https://gw.example.com', before = () => {} } = {}) {
	const sent = [];
	const ctx = {
		getNode: () => NODE,
		getCredentials: async () => ({ baseUrl, apiKey: 'sk-test' }),
		getExecutionCancelSignal: () => undefined,
		helpers: {
			httpRequestWithAuthentication: async (_type, options) => {
				const request = { path: new URL(options.url).pathname, qs: options.qs ?? undefined, timeout: options.timeout };
				sent.push(request);
				before(request);
				const a = await answer(request, sent.length);
				if (a instanceof Error) throw a;
				return { statusCode: a.status, headers: { 'content-type': 'application/json', ...a.headers }, body: Readable.from([Buffer.from(JSON.stringify(a.json))]) };
			},
		},
	};
	return { ctx, sent };
}

const idOf = (path) => path.split('/').pop();

describe('readTaskOnce: one read, and what a failed one counts', () => {
	test('the task as it stands; its language goes with the read, the doubtful count starts again', async () => {
		const { ctx, sent } = gateway((r) => running(idOf(r.path)));
		const read = await reads.readTaskOnce(ctx, { taskId: 'task_1', route: 'generic', language: 'zh' }, 2);
		expect(read).toMatchObject({ kind: 'read', doubtful: 0, snapshot: { taskId: 'task_1', phase: 'running', progress: 40 } });
		expect(sent).toEqual([{ path: '/v1/tasks/task_1', qs: { language: 'zh' }, timeout: expect.any(Number) }]);
	});

	test.each([
		[0, 1, false],
		[1, 2, false],
		[2, 3, true],
	])('a doubtful answer (400) after %p in a row: counted %p, reported %p', async (before, counted, report) => {
		const { ctx } = gateway(() => refused);
		const read = await reads.readTaskOnce(ctx, { taskId: 'task_1', route: 'generic' }, before, { retries: false });
		expect(read).toMatchObject({ kind: 'fault', fault: 'doubtful', doubtful: counted, report });
		expect(read.error.httpCode).toBe('400');
	});

	test('a transient answer (503) leaves the count as it was', async () => {
		const { ctx, sent } = gateway(() => down);
		const read = await reads.readTaskOnce(ctx, { taskId: 'task_1', route: 'generic' }, 2, { retries: false });
		expect(read).toMatchObject({ kind: 'fault', fault: 'transient', doubtful: 2, report: false });
		expect(sent).toHaveLength(1);
	});
});

describe('rereadWithoutUrl: a task said finished before its file is written', () => {
	test('read again until the file is there (the wait between reads: the row below)', async () => {
		const { ctx, sent } = gateway((r, n) => (n < 2 ? doneWithoutFile('task_1') : done('task_1')), { baseUrl: 'http://127.0.0.1:9' });
		const first = { taskId: 'task_1', urlMissing: true, status: 'SUCCESS' };
		const out = await reads.rereadWithoutUrl(ctx, { taskId: 'task_1', route: 'generic' }, first, 4);
		expect(sent).toHaveLength(2);
		expect(out.withoutUrl).toBe(0);
		expect(out.snapshot.urls).toEqual(['https://cdn.example.com/task_1.mp4']);
	});

	test('at most POLL_POLICY.readsWithoutUrl reads in all: the last one, counted', async () => {
		const { ctx, sent } = gateway(() => doneWithoutFile('task_1'), { baseUrl: 'http://127.0.0.1:9' });
		const out = await reads.rereadWithoutUrl(ctx, { taskId: 'task_1', route: 'generic' }, { taskId: 'task_1', urlMissing: true }, 0);
		expect(sent).toHaveLength(2);
		expect(out.withoutUrl).toBe(3);
		expect(out.snapshot).toMatchObject({ taskId: 'task_1', urlMissing: true });
	});

	test('a read that fails ends the re-reading with what was read before it', async () => {
		const { ctx } = gateway(() => refused, { baseUrl: 'http://127.0.0.1:9' });
		const first = { taskId: 'task_1', urlMissing: true, mark: 'first' };
		const out = await reads.rereadWithoutUrl(ctx, { taskId: 'task_1', route: 'generic' }, first, 0);
		expect(out).toEqual({ snapshot: first, withoutUrl: 1 });
	});

	test("a failure that is no gateway answer is the node's error for the item", async () => {
		const { ctx } = gateway(() => Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ERR_CANCELED' }), { baseUrl: 'http://127.0.0.1:9' });
		ctx.getExecutionCancelSignal = () => ({ aborted: true, reason: 'stopped', addEventListener() {}, removeEventListener() {} });
		const error = await reads.rereadWithoutUrl(ctx, { taskId: 'task_1', route: 'generic' }, { taskId: 'task_1', urlMissing: true }, 4).catch((e) => e);
		expect(error).toBeInstanceOf(Error);
		expect(error.context?.itemIndex).toBe(4);
	});

	test('each wait between the re-reads is the interval chosen for the task\'s route: the floor on a gateway on this machine, not the route\'s advice', async () => {
		const { ctx } = gateway(() => doneWithoutFile('task_1'), { baseUrl: 'http://127.0.0.1:9' });
		const timers = jest.spyOn(global, 'setTimeout');
		await reads.rereadWithoutUrl(ctx, { taskId: 'task_1', route: 'generic' }, { taskId: 'task_1', urlMissing: true }, 0);
		const waits = timers.mock.calls.map(([, ms]) => ms).filter((ms) => ms > 0);
		timers.mockRestore();
		expect(waits).toEqual([limits.POLL_FLOOR_MS, limits.POLL_FLOOR_MS]);
	});

	test("a re-read stopped after its wait is the node's error for the item", async () => {
		const signal = { aborted: false, reason: 'stopped', addEventListener() {}, removeEventListener() {} };
		const stop = () => Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ERR_CANCELED' });
		const { ctx, sent } = gateway(() => stop(), { baseUrl: 'http://127.0.0.1:9', before: () => (signal.aborted = true) });
		ctx.getExecutionCancelSignal = () => signal;
		const error = await reads.rereadWithoutUrl(ctx, { taskId: 'task_1', route: 'generic' }, { taskId: 'task_1', urlMissing: true }, 4).catch((e) => e);
		expect(sent).toHaveLength(1);
		expect(error).toBeInstanceOf(Error);
		expect(error.context?.itemIndex).toBe(4);
	});

	test('a snapshot with its file is not read again', async () => {
		const { ctx, sent } = gateway(() => done('task_1'));
		const snapshot = { taskId: 'task_1', urlMissing: false };
		expect(await reads.rereadWithoutUrl(ctx, { taskId: 'task_1', route: 'generic' }, snapshot)).toEqual({ snapshot, withoutUrl: 0 });
		expect(sent).toHaveLength(0);
	});
});

describe('readTasksOnce: a bounded pass over many tasks', () => {
	let now;
	beforeEach(() => {
		now = NOW;
		jest.spyOn(Date, 'now').mockImplementation(() => now);
	});
	afterEach(() => jest.restoreAllMocks());

	const tasks = (...ids) => ids.map((taskId) => ({ taskId, route: 'generic' }));

	test('each task read once in order, each read given what is left of the deadline as its timeout', async () => {
		const { ctx, sent } = gateway((r) => running(idOf(r.path)));
		const out = await reads.readTasksOnce(ctx, tasks('a', 'b', 'c'), { deadlineAt: NOW + 4_000, minReadMs: 1_000, concurrency: 2 });
		expect(out.map((r) => [r.kind, r.snapshot?.taskId, r.checkedAt])).toEqual([
			['read', 'a', NOW],
			['read', 'b', NOW],
			['read', 'c', NOW],
		]);
		expect(sent.map((r) => [r.path, r.timeout])).toEqual([
			['/v1/tasks/a', 4_000],
			['/v1/tasks/b', 4_000],
			['/v1/tasks/c', 4_000],
		]);
	});

	test('no read is started with less than minReadMs left: those tasks are skipped, nothing sent for them', async () => {
		const { ctx, sent } = gateway((r) => running(idOf(r.path)), { before: () => (now += 600) });
		const out = await reads.readTasksOnce(ctx, tasks('a', 'b', 'c'), { deadlineAt: NOW + 1_500, minReadMs: 1_000, concurrency: 1 });
		expect(out.map((r) => r.kind)).toEqual(['read', 'skipped', 'skipped']);
		expect(sent).toHaveLength(1);
	});

	test('exactly minReadMs left still starts a read', async () => {
		const { ctx, sent } = gateway((r) => running(idOf(r.path)));
		const out = await reads.readTasksOnce(ctx, tasks('a'), { deadlineAt: NOW + 1_000, minReadMs: 1_000, concurrency: 1 });
		expect(out.map((r) => r.kind)).toEqual(['read']);
		expect(sent).toHaveLength(1);
	});

	test('a transient fault once the deadline is spent is marked cut; not before it, and no other read', async () => {
		const spent = gateway((r) => (r.path.endsWith('/slow') ? down : r.path.endsWith('/gone') ? refused : running('ok')), { before: () => (now += 700) });
		const late = await reads.readTasksOnce(spent.ctx, tasks('slow', 'gone', 'ok'), { deadlineAt: NOW + 3_000, minReadMs: 1_000, concurrency: 3 });
		expect(late.map((r) => [r.kind, r.fault, r.cut])).toEqual([
			['fault', 'transient', true],
			['fault', 'doubtful', undefined],
			['read', undefined, undefined],
		]);

		now = NOW;
		const inTime = gateway(() => down);
		const early = await reads.readTasksOnce(inTime.ctx, tasks('slow'), { deadlineAt: NOW + 1_500, minReadMs: 1_000, concurrency: 1 });
		expect(early.map((r) => [r.kind, r.fault, r.cut])).toEqual([['fault', 'transient', undefined]]);
	});

	test('a transient fault with exactly minReadMs left after the reads is not cut: the deadline is not spent', async () => {
		const { ctx } = gateway(() => down, { before: () => (now += 1_000) });
		const out = await reads.readTasksOnce(ctx, tasks('slow'), { deadlineAt: NOW + 2_000, minReadMs: 1_000, concurrency: 1 });
		expect(out.map((r) => [r.kind, r.fault, r.cut])).toEqual([['fault', 'transient', undefined]]);
	});

	test('a failure that is no gateway answer is that read\'s result; the other reads are kept', async () => {
		const { ctx } = gateway(() => running('ok'));
		ctx.getCredentials = async () => Promise.reject(new Error('Node does not have any credentials set'));
		const out = await reads.readTasksOnce(ctx, tasks('a'), { deadlineAt: NOW + 5_000, minReadMs: 1_000, concurrency: 1 });
		expect(out).toHaveLength(1);
		expect(out[0]).toMatchObject({ kind: 'stop', checkedAt: NOW });
		expect(out[0].error.message).toMatch(/credentials/);
	});
});

describe('waitForTasks: the one polling loop', () => {
	const LOOPBACK = 'http://127.0.0.1:9';
	const failed = (id, reason) => ({ status: 200, json: { code: 'success', data: { task_id: id, status: 'FAILURE', progress: '100%', ...(reason ? { fail_reason: reason } : {}) } } });
	const odd = (id) => ({ status: 200, json: { code: 'success', data: { task_id: id, status: 'WEIRD' } } });
	const task = (taskId, startedAt = NOW) => ({ taskId, route: 'generic', startedAt });

	beforeEach(() => jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
	afterEach(() => jest.useRealTimers());

	/**
	 * The wait's outcomes once jest's timers have run every sleep it sets (100 ms steps); a wait
	 * still going after 10 minutes of jest's clock (no test here waits half as long) fails the test
	 * rather than running until jest's own timeout (a mutant that never ends the wait is then killed
	 * in a second, not timed out).
	 */
	async function waited(promise) {
		const { value, error } = await settledOnClock(promise, { stepMs: 100, limitMs: 600_000 });
		if (error) throw error;
		return value;
	}

	const wait = (ctx, tasks, options) => waited(waiter.waitForTasks(ctx, tasks, { intervalMs: 1_000, deadlineMs: 60_000, ...options }));

	test('a task read at its interval until it finishes: succeeded, with its reads and the time waited; the wait ends with it', async () => {
		const at = [];
		const { ctx, sent } = gateway((r, n) => (n < 3 ? running('task_1') : done('task_1')), { baseUrl: LOOPBACK, before: () => at.push(Date.now() - NOW) });
		let endedAt;
		const [outcome] = await wait(ctx, [task('task_1')], { intervalMs: 1_100 }).finally(() => (endedAt = Date.now() - NOW));
		expect(outcome).toMatchObject({ kind: 'succeeded', polls: 3, waitedMs: 3_300, task: { taskId: 'task_1' }, snapshot: { urls: ['https://cdn.example.com/task_1.mp4'] } });
		expect(at).toEqual([1_100, 2_200, 3_300]);
		expect(endedAt).toBeLessThan(3_400);
		expect(sent.map((r) => r.path)).toEqual(['/v1/tasks/task_1', '/v1/tasks/task_1', '/v1/tasks/task_1']);
	});

	test('up to Concurrency reads at once; a read in flight is not sent again', async () => {
		let inFlight = 0;
		let most = 0;
		// Each read answers 1.5 s after it went out; `most` counts the reads in flight at once.
		const slowly = async (r) => {
			most = Math.max(most, ++inFlight);
			await new Promise((resolve) => setTimeout(resolve, 1_500));
			inFlight--;
			return done(idOf(r.path));
		};
		const { ctx, sent } = gateway(slowly, { baseUrl: LOOPBACK });
		const outcomes = await wait(ctx, ['a', 'b', 'c', 'd'].map((id) => task(id, NOW - 5_000)), { concurrency: 2 });
		expect(outcomes.map((o) => o.kind)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
		expect(most).toBe(2);
		expect(sent.map((r) => idOf(r.path)).sort()).toEqual(['a', 'b', 'c', 'd']);
		const plenty = gateway(slowly, { baseUrl: LOOPBACK });
		most = 0;
		// Concurrency left out: POLL_POLICY.inFlight, 10.
		await wait(plenty.ctx, Array.from({ length: 30 }, (_, i) => task(`t${i}`, NOW - 5_000)), { concurrency: undefined });
		expect(most).toBe(10);
	});

	test('a Max Wait of 0 (or none) is the route\'s own: the task is read until it finishes', async () => {
		const { ctx } = gateway((r, n) => (n < 2 ? running('task_1') : done('task_1')), { baseUrl: LOOPBACK });
		const [outcome] = await wait(ctx, [task('task_1')], { deadlineMs: 0 });
		expect(outcome).toMatchObject({ kind: 'succeeded', polls: 2 });
	});

	test("a read that fails before any answer (the credential's Base URL is empty) ends the whole wait with the node's error", async () => {
		const { ctx, sent } = gateway(() => running('task_1'), { baseUrl: '' });
		const error = await wait(ctx, [task('task_1')]).catch((e) => e);
		expect(error).toBeInstanceOf(Error);
		expect(error.message).toMatch(/Base URL/);
		expect(sent).toHaveLength(0);
	});

	test("a failed task: the gateway's reason, or the status it gave when it gives none", async () => {
		const { ctx } = gateway((r) => (idOf(r.path) === 'a' ? failed('a', 'content policy') : failed('b')), { baseUrl: LOOPBACK });
		const outcomes = await wait(ctx, [task('a'), task('b')]);
		expect(outcomes.map((o) => [o.kind, o.message, o.polls])).toEqual([
			['failed', 'content policy', 1],
			['failed', 'The gateway reported the task as FAILURE without a reason', 1],
		]);
		expect(outcomes[0].error).toBeUndefined();
	});

	test('finished without a file: read again at the interval, then failed, saying how often it was read', async () => {
		const at = [];
		const { ctx, sent } = gateway(() => doneWithoutFile('task_1'), { baseUrl: LOOPBACK, before: () => at.push(Date.now() - NOW) });
		const [outcome] = await wait(ctx, [task('task_1')]);
		expect(outcome).toMatchObject({ kind: 'failed', message: 'The task is SUCCESS but the gateway gave no result URL, so there is nothing to download (read 3 times)', polls: 3 });
		expect(sent).toHaveLength(3);
		expect(at).toEqual([1_000, 2_000, 3_000]);
	});

	test('finished without a file when Max Wait ends: a timeout, with what was read', async () => {
		const { ctx, sent } = gateway(() => doneWithoutFile('task_1'), { baseUrl: LOOPBACK });
		const [outcome] = await wait(ctx, [task('task_1')], { deadlineMs: 1_500 });
		expect(sent).toHaveLength(2);
		expect(outcome).toMatchObject({ kind: 'timeout', polls: 2, waitedMs: 1_500 });
		expect(outcome.message).toMatch(/^Task task_1 did not finish within 1\.5 s \(last status 'SUCCESS' at 100%\)/);
	});

	test('the wait ends at Max Wait: what was last read, in seconds under a minute', async () => {
		const { ctx } = gateway(() => running('task_1'), { baseUrl: LOOPBACK });
		const [outcome] = await wait(ctx, [task('task_1')], { deadlineMs: 2_500 });
		expect(outcome).toMatchObject({ kind: 'timeout', polls: 3, waitedMs: 2_500 });
		expect(outcome.message).toBe("Task task_1 did not finish within 2.5 s (last status 'IN_PROGRESS' at 40%). It may still finish: resume it with Task → Wait for Completion; do not submit it again.");
	});

	test('a minute is said in minutes', async () => {
		const { ctx } = gateway(() => running('task_1'), { baseUrl: LOOPBACK });
		const [outcome] = await wait(ctx, [task('task_1')], { intervalMs: 20_000, deadlineMs: 60_000 });
		expect(outcome.message).toMatch(/^Task task_1 did not finish within 1 min \(/);
	});

	test('in minutes from a minute on; a status the node does not know is said so', async () => {
		const { ctx } = gateway(() => odd('task_1'), { baseUrl: LOOPBACK });
		const [outcome] = await wait(ctx, [task('task_1')], { intervalMs: 20_000, deadlineMs: 90_000 });
		expect(outcome.kind).toBe('timeout');
		expect(outcome.message).toBe("Task task_1 did not finish within 1.5 min (last status 'WEIRD' (a status this node does not know, so it kept waiting)). It may still finish: resume it with Task → Wait for Completion; do not submit it again.");
	});

	test("the execution's time limit before Max Wait: the wait stops early, saying why; a later limit changes nothing", async () => {
		const { ctx } = gateway(() => running('task_1'), { baseUrl: LOOPBACK });
		ctx.additionalData = { executionTimeoutTimestamp: NOW + 20_000 };
		const [outcome] = await wait(ctx, [task('task_1')]);
		// The limit less its margin (a tenth of the time left, 2 s here).
		expect(outcome).toMatchObject({ kind: 'timeout', waitedMs: 18_000 });
		expect(outcome.message).toBe("Task task_1 was still running (last status 'IN_PROGRESS' at 40%) when this execution neared its time limit (the workflow's Timeout Workflow setting or the instance's EXECUTIONS_TIMEOUT): the wait stopped early so this item is output instead of being cancelled. It may still finish: resume it with Task → Wait for Completion (this item has its taskId and queryRoute); do not submit it again.");
		const later = gateway(() => running('task_1'), { baseUrl: LOOPBACK });
		later.ctx.additionalData = { executionTimeoutTimestamp: NOW + 3_600_000 };
		const [own] = await wait(later.ctx, [task('task_1', Date.now())], { deadlineMs: 2_500 });
		expect(own).toMatchObject({ kind: 'timeout', waitedMs: 2_500 });
		expect(own.message).toMatch(/^Task task_1 did not finish within 2\.5 s/);
	});

	test('only failed reads: no answer read, and the last answer', async () => {
		const { ctx, sent } = gateway(() => down, { baseUrl: LOOPBACK });
		const [outcome] = await wait(ctx, [task('task_1')], { deadlineMs: 5_000 });
		expect(outcome.kind).toBe('timeout');
		expect(outcome.message).toMatch(/^Task task_1 did not finish within 5 s \(no answer read; last answer: .*upstream overloaded.*\)\. It may still/);
		expect(outcome.lastError).toMatch(/upstream overloaded/);
		// Each failed read waits at least the interval and backs off: fewer reads than seconds.
		expect(sent.length).toBeGreaterThanOrEqual(2);
		expect(sent.length).toBeLessThan(5);
	});

	test('a failed read, then the task: the read after it waits at least the interval, and the task succeeds', async () => {
		const at = [];
		const { ctx } = gateway((r, n) => (n === 1 ? down : done('task_1')), { baseUrl: LOOPBACK, before: () => at.push(Date.now() - NOW) });
		const [outcome] = await wait(ctx, [task('task_1')]);
		expect(outcome).toMatchObject({ kind: 'succeeded', polls: 2 });
		expect(at[1] - at[0]).toBeGreaterThanOrEqual(1_000);
	});

	test('three answers in a row that are not the task: failed, with the verdict and the error', async () => {
		const { ctx, sent } = gateway((r, n) => (n === 1 ? running('task_1') : refused), { baseUrl: LOOPBACK });
		const [outcome] = await wait(ctx, [task('task_1')]);
		expect(sent).toHaveLength(4);
		expect(outcome.kind).toBe('failed');
		expect(outcome.error.httpCode).toBe('400');
		expect(outcome.message).toContain('task_1');
		expect(outcome.message).toContain("'IN_PROGRESS' at 40%");
	});

	test('a Retry-After of two minutes is capped at a minute: the task read again then, and it succeeds', async () => {
		const at = [];
		const { ctx } = gateway((r, n) => (n === 1 ? { ...down, status: 429, headers: { 'retry-after': '120' } } : done('task_1')), { baseUrl: LOOPBACK, before: () => at.push(Date.now() - NOW) });
		const [outcome] = await wait(ctx, [task('task_1')], { deadlineMs: 10 * 60_000 });
		expect(at).toEqual([1_000, 61_000]);
		expect(outcome.kind).toBe('succeeded');
	});

	test('a Retry-After beyond any date (or an HTTP date in the year 9999): read again after the cap, the wait goes on', async () => {
		for (const hint of ['999999999999999999', 'Fri, 31 Dec 9999 23:59:59 GMT']) {
			const at = [];
			const { ctx } = gateway((r, n) => (n === 1 ? { ...down, status: 429, headers: { 'retry-after': hint } } : done('task_1')), { baseUrl: LOOPBACK, before: () => at.push(Date.now() - NOW) });
			const [outcome] = await wait(ctx, [task('task_1')], { deadlineMs: 10 * 60_000 });
			expect(at[1] - at[0]).toBe(60_000);
			expect(outcome.kind).toBe('succeeded');
		}
	});

	test('a Retry-After ending exactly at the end of the wait is obeyed: read once more then, and the wait ends at Max Wait', async () => {
		const at = [];
		const { ctx } = gateway((r, n) => (n === 1 ? { ...down, status: 429, headers: { 'retry-after': '9' } } : running('task_1')), { baseUrl: LOOPBACK, before: () => at.push(Date.now() - NOW) });
		const [outcome] = await wait(ctx, [task('task_1')], { deadlineMs: 10_000 });
		expect(at).toEqual([1_000, 10_000]);
		expect(outcome.message).toMatch(/^Task task_1 did not finish within 10 s \(last status 'IN_PROGRESS' at 40%\)\./);
	});

	test('a Retry-After past the end of the wait after the task was read: the wait ends at Max Wait, as ever, naming its last status', async () => {
		const { ctx } = gateway((r, n) => (n === 1 ? running('task_1') : { ...down, status: 429, headers: { 'retry-after': '120' } }), { baseUrl: LOOPBACK });
		const [outcome] = await wait(ctx, [task('task_1')], { deadlineMs: 10_000 });
		expect(outcome.kind).toBe('timeout');
		expect(outcome.message).toMatch(/^Task task_1 did not finish within 10 s \(last status 'IN_PROGRESS' at 40%; last answer: The gateway is rate limiting requests \(429\)/);
	});

	test('a failed read followed by readings: the timeout names no last answer', async () => {
		const { ctx } = gateway((r, n) => (n === 1 ? down : running('task_1')), { baseUrl: LOOPBACK });
		const [outcome] = await wait(ctx, [task('task_1')], { deadlineMs: 5_000 });
		expect(outcome.lastError).toMatch(/upstream overloaded/);
		expect(outcome.message).toBe("Task task_1 did not finish within 5 s (last status 'IN_PROGRESS' at 40%). It may still finish: resume it with Task → Wait for Completion; do not submit it again.");
	});

	test('a Retry-After within the wait is obeyed: the next read not before it', async () => {
		const at = [];
		const { ctx } = gateway((r, n) => (n === 1 ? { ...down, status: 429, headers: { 'retry-after': '4' } } : done('task_1')), { baseUrl: LOOPBACK, before: () => at.push(Date.now() - NOW) });
		const [outcome] = await wait(ctx, [task('task_1')]);
		expect(outcome.kind).toBe('succeeded');
		expect(at[1] - at[0]).toBeGreaterThanOrEqual(4_000);
	});

	test('one slot: the reads go out one at a time, the most overdue first', async () => {
		const { ctx, sent } = gateway((r) => done(idOf(r.path)), { baseUrl: LOOPBACK });
		// All three overdue at the first pass (an earlier try's tasks), one slot for them.
		const outcomes = await wait(ctx, [task('a', NOW - 3_000), task('b', NOW - 4_000), task('c', NOW - 5_000)], { concurrency: 1 });
		expect(outcomes.map((o) => o.kind)).toEqual(['succeeded', 'succeeded', 'succeeded']);
		expect(sent.map((r) => idOf(r.path))).toEqual(['c', 'b', 'a']);
	});

	test('nine tasks: the √9 leaders read at the interval, the others once the leaders are found done', async () => {
		const at = [];
		const { ctx } = gateway((r) => (Date.now() - NOW >= 3_000 ? done(idOf(r.path)) : running(idOf(r.path))), { baseUrl: LOOPBACK, before: (r) => at.push([idOf(r.path), Date.now() - NOW]) });
		const outcomes = await wait(ctx, Array.from({ length: 9 }, (_, i) => task(`t${i}`)));
		expect(outcomes.every((o) => o.kind === 'succeeded')).toBe(true);
		const leaders = ['t0', 't1', 't2'];
		expect(at).toEqual([
			...[1_000, 2_000].flatMap((t) => leaders.map((id) => [id, t])),
			...[...leaders, 't3', 't4', 't5', 't6', 't7', 't8'].map((id) => [id, 3_000]),
		]);
	});

	test('leaders told to wait two minutes (Retry-After) hold the others back only to the capped minute', async () => {
		const at = [];
		const answer = (id) => {
			if (id === 't0' || id === 't1') return { ...down, status: 429, headers: { 'retry-after': '120' } };
			return Date.now() - NOW >= 3_000 ? done(id) : running(id);
		};
		const { ctx } = gateway((r) => answer(idOf(r.path)), { baseUrl: LOOPBACK, before: (r) => at.push([idOf(r.path), Date.now() - NOW]) });
		const outcomes = await wait(ctx, Array.from({ length: 9 }, (_, i) => task(`t${i}`)));
		expect(outcomes.map((o) => o.kind)).toEqual(['timeout', 'timeout', ...Array(7).fill('succeeded')]);
		// The key is being rate limited: the followers wait for the leaders' next read, a minute on.
		expect(at.filter(([id]) => !['t0', 't1', 't2'].includes(id))).toEqual(['t3', 't4', 't5', 't6', 't7', 't8'].map((id) => [id, 60_000]));
	});

	test.each([
		['found done', done],
		["failed (the gateway's verdict)", failed],
	])('followers are read once the leaders found done say they likely are, each leader counted once it is: the first %s', async (_, first) => {
		const at = [];
		const doneAt = { t0: 0, t1: 2_000, t2: 5_000 };
		const answer = (id) => (id === 't0' ? first(id) : Date.now() - NOW >= (doneAt[id] ?? 2_000) ? done(id) : running(id));
		const { ctx } = gateway((r) => answer(idOf(r.path)), { baseUrl: LOOPBACK, before: (r) => at.push([idOf(r.path), Date.now() - NOW]) });
		await wait(ctx, Array.from({ length: 9 }, (_, i) => task(`t${i}`)));
		// t0 and t1 found done by 2 s: the others are read at the next round (3 s), not when t2 ends (5 s).
		expect(at.filter(([, t]) => t === 3_000).map(([id]) => id)).toEqual(['t2', 't3', 't4', 't5', 't6', 't7', 't8']);
		expect(at.filter(([id]) => id === 't2').map(([, t]) => t)).toEqual([1_000, 2_000, 3_000, 4_000, 5_000]);
	});

	test('leaders failed for answers that are not the task no longer hold the others back', async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0);
		const at = [];
		const { ctx } = gateway((r) => {
			const id = idOf(r.path);
			if (id === 't0' || id === 't1') return refused;
			return Date.now() - NOW >= (id === 't2' ? 6_000 : 2_000) ? done(id) : running(id);
		}, { baseUrl: LOOPBACK, before: (r) => at.push([idOf(r.path), Date.now() - NOW]) });
		const outcomes = await wait(ctx, Array.from({ length: 9 }, (_, i) => task(`t${i}`)));
		expect(outcomes.map((o) => o.kind)).toEqual(['failed', 'failed', ...Array(7).fill('succeeded')]);
		// t0 and t1 failed at 3 s: the others are read when t2, the one leader left, is found done.
		expect(at.filter(([id]) => !['t0', 't1', 't2'].includes(id))).toEqual(['t3', 't4', 't5', 't6', 't7', 't8'].map((id) => [id, 6_000]));
	});

	test('the wait sleeps until the first task due, not the last one it looked at', async () => {
		const at = [];
		const { ctx } = gateway((r) => done(idOf(r.path)), { baseUrl: LOOPBACK, before: (r) => at.push([idOf(r.path), Date.now() - NOW]) });
		await wait(ctx, [task('a'), task('b', NOW + 2_000)]);
		expect(at).toEqual([
			['a', 1_000],
			['b', 3_000],
		]);
	});

	test('a slot freed while reads are in flight goes to the most overdue task', async () => {
		const { ctx, sent } = gateway(async (r) => {
			const id = idOf(r.path);
			if (id === 's' || id === 'x') await new Promise((resolve) => setTimeout(resolve, id === 's' ? 10_000 : 3_000));
			return done(id);
		}, { baseUrl: LOOPBACK });
		// s and x take both slots at once; a and b come due while they are read (b first).
		await wait(ctx, [task('s', NOW - 5_000), task('x', NOW - 5_000), { ...task('a'), estimatedTimeS: 2 }, { ...task('b'), estimatedTimeS: 1 }], { concurrency: 2 });
		expect(sent.map((r) => idOf(r.path))).toEqual(['s', 'x', 'b', 'a']);
	});

	test('a task due soon after an answer, while another read is in flight, is read on time', async () => {
		const at = [];
		const { ctx } = gateway(async (r) => {
			const id = idOf(r.path);
			if (id !== 'a') await new Promise((resolve) => setTimeout(resolve, id === 'slow' ? 10_000 : 1_000));
			return done(id);
		}, { baseUrl: LOOPBACK, before: (r) => at.push([idOf(r.path), Date.now() - NOW]) });
		await wait(ctx, [task('slow', NOW - 5_000), task('quick', NOW - 5_000), { ...task('a'), estimatedTimeS: 1.1 }]);
		expect(at).toEqual([
			['slow', 0],
			['quick', 0],
			['a', 1_100],
		]);
	});

	test('each outcome is told the moment it is known, by its index, while the others are still waited for', async () => {
		const told = [];
		const { ctx } = gateway((r, n) => (idOf(r.path) === 'slow' && n < 4 ? running('slow') : done(idOf(r.path))), { baseUrl: LOOPBACK });
		const outcomes = await wait(ctx, [task('slow'), task('quick')], { onOutcome: (index, outcome) => told.push([index, outcome.kind, Date.now() - NOW]) });
		expect(told.map(([index]) => index)).toEqual([1, 0]);
		expect(told[0][2]).toBeLessThan(told[1][2]);
		expect(outcomes.map((o) => o.task.taskId)).toEqual(['slow', 'quick']);
	});

	test('a feed: tasks that arrive while the wait runs are read too, and the wait ends once it is closed and all are done', async () => {
		const { ctx, sent } = gateway((r) => done(idOf(r.path)), { baseUrl: LOOPBACK });
		const feed = new feeds.TaskFeed(2);
		feed.push(task('a'));
		const promise = waiter.waitForTasks(ctx, feed, { intervalMs: 1_000, deadlineMs: 60_000 });
		let over = false;
		promise.then(() => (over = true));
		await jest.advanceTimersByTimeAsync(2_000);
		expect(over).toBe(false); // 'a' is done, but the feed is still open
		feed.push(task('b', Date.now()));
		feed.close();
		const outcomes = await waited(promise);
		expect(outcomes.map((o) => [o.task.taskId, o.kind])).toEqual([
			['a', 'succeeded'],
			['b', 'succeeded'],
		]);
		expect(sent.map((r) => idOf(r.path))).toEqual(['a', 'b']);
	});

	test('a feed: a task that arrives to be read at once (an earlier try created it) is read at once, not at the next due time', async () => {
		const at = [];
		const { ctx } = gateway((r) => (idOf(r.path) === 'a' ? running('a') : done(idOf(r.path))), { baseUrl: LOOPBACK, before: (r) => at.push([idOf(r.path), Date.now() - NOW]) });
		const feed = new feeds.TaskFeed(2);
		feed.push(task('a'));
		const promise = waiter.waitForTasks(ctx, feed, { intervalMs: 10_000, deadlineMs: 15_000 });
		await jest.advanceTimersByTimeAsync(1_000);
		feed.push({ ...task('b', Date.now()), pollNow: true });
		feed.close();
		await waited(promise);
		expect(at.find(([id]) => id === 'b')[1]).toBeLessThan(1_500);
	});

	test("a feed's tasks arriving at different times: a raised Poll Interval is told once", async () => {
		const { ctx } = gateway((r) => done(idOf(r.path)));
		const warned = [];
		ctx.logger = { warn: (message) => warned.push(message), info() {}, debug() {} };
		const feed = new feeds.TaskFeed(2);
		feed.push(task('a'));
		const promise = waiter.waitForTasks(ctx, feed, { intervalMs: 1_000, deadlineMs: 600_000 });
		await jest.advanceTimersByTimeAsync(1_000);
		feed.push(task('b', Date.now()));
		feed.close();
		await waited(promise);
		expect(warned.filter((m) => m.startsWith('Poll Interval raised'))).toHaveLength(1);
	});

	test('Stop ends the wait with the Stop error, sending nothing more', async () => {
		const { ctx, sent } = gateway(() => running('task_1'), { baseUrl: LOOPBACK });
		const signal = { aborted: false, reason: undefined, listeners: [], addEventListener(_, fn) { this.listeners.push(fn); }, removeEventListener() {} };
		ctx.getExecutionCancelSignal = () => signal;
		const promise = waiter.waitForTasks(ctx, [task('task_1')], { intervalMs: 1_000, deadlineMs: 60_000 });
		await jest.advanceTimersByTimeAsync(1_500);
		const before = sent.length;
		signal.aborted = true;
		signal.reason = 'stopped';
		for (const fn of signal.listeners) fn();
		const error = await waited(promise).catch((e) => e);
		expect(error).toBeInstanceOf(Error);
		expect(error.message).toMatch(/stop/i);
		expect(sent).toHaveLength(before);
	});
});
