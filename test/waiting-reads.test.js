'use strict';
// Reading tasks that exist (engine/waiting/taskReads.ts) against a fake gateway (the context's
// request helper answers from a table; no HTTP): one read of one task and what a failed one
// counts, the re-reads of a task said finished without its file, and a trigger poll's bounded pass
// (what the deadline leaves unread, cuts short, and hands the transport), on jest's clock.
// trigger.test.js, check-once.test.js and faults/poll.test.js run the same reads through n8n
// against the simulator.
//
// The modules are loaded afresh in each test (fresh-modules.js says why).
const { Readable } = require('node:stream');
const built = require('./fresh-modules').freshEachTest();
const reads = built(() => require('../dist/nodes/UnifiedAiGateway/engine/waiting/taskReads.js'));
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
 * number), each `{ status, json }` or an Error to throw; records each request's path, qs and
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
				const a = answer(request, sent.length);
				if (a instanceof Error) throw a;
				return { statusCode: a.status, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from(JSON.stringify(a.json))]) };
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
