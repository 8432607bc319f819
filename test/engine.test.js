'use strict';
const { runNode, binaryBuffer } = require('./harness');
const { API_KEY, useSimulator, createTask, visibleText, taskWaitParameters } = require('./support');

const ctx = useSimulator();
const get = (taskId, queryRoute = 'generic') => ({ resource: 'task', operation: 'get', taskId, queryRoute });
const wait = taskWaitParameters({ queryRoute: 'auto', waiting: { maxWaitMinutes: 1 } });
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

/** Task → Get over a body the gateway might send, served for one query. */
async function readBody(body) {
	ctx.sim.inject({ method: 'GET', path: '/v1/tasks/t1', status: 200, body });
	const result = await runNode({ parameters: get('t1'), credentials: ctx.creds });
	expect(result.error).toBeUndefined();
	return result.items[0].json;
}

describe('status families', () => {
	test.each([
		['submitted', 'pending'], ['pending', 'pending'], ['NOT_START', 'pending'], ['queued', 'pending'], ['QUEUED', 'pending'],
		['in_progress', 'pending'], ['IN_PROGRESS', 'pending'], ['processing', 'pending'], ['unknown', 'pending'], ['brand_new_word', 'pending'],
		['failed', 'failed'], ['FAILURE', 'failed'], ['cancelled', 'failed'],
	])('%s reads as %s', async (status, state) => {
		expect((await readBody({ task_id: 't1', status })).state).toBe(state);
	});

	test.each([['completed'], ['succeeded'], ['success'], ['SUCCESS']])('%s with a URL succeeds', async (status) => {
		const json = await readBody({ task_id: 't1', status, result_url: 'https://files.example/a.png' });
		expect(json).toMatchObject({ state: 'succeeded', progress: 100, url: 'https://files.example/a.png' });
	});

	test('completed without a URL is a failure that says so', async () => {
		const json = await readBody({ task_id: 't1', status: 'completed' });
		expect(json.state).toBe('failed');
		expect(json.error).toMatch(/completed but the gateway gave no result URL/);
	});

	test('100 % with in_progress is not success', async () => {
		const json = await readBody({ task_id: 't1', status: 'in_progress', progress: 100, result_url: 'https://x/a.png' });
		expect(json).toMatchObject({ state: 'pending', progress: 100 });
	});

	test.each([[50, 50], ['50%', 50], ['75', 75]])('progress %p reads as %p', async (progress, expected) => {
		expect((await readBody({ task_id: 't1', status: 'in_progress', progress })).progress).toBe(expected);
	});

	test('nano-banana data.state and the failure reason are read', async () => {
		expect((await readBody({ code: 200, msg: 'success', data: { task_id: 't1', state: 'succeeded', data: { images: [{ url: 'https://x/n.png' }] } } })).url).toBe('https://x/n.png');
		expect((await readBody({ code: 'success', data: { task_id: 't1', status: 'FAILURE', fail_reason: 'content policy' } })).error).toBe('content policy');
	});
});

describe('result shapes', () => {
	const u = (n) => `https://files.example/${n}.png`;
	test.each([
		['result_url first', { status: 'completed', result_url: u(1), result: { images: [{ url: u(2) }] } }, [u(1), u(2)]],
		['result.items[].data[].url', { status: 'completed', result: { items: [{ id: 'a', status: 'success', data: [{ url: u(1) }, { url: u(2) }] }] } }, [u(1), u(2)]],
		['data.result.images[].url as string arrays', { code: 200, data: { id: 't1', status: 'completed', result: { images: [{ url: [u(1), u(2)], expires_at: 1 }, { url: [u(3)] }] } } }, [u(1), u(2), u(3)]],
		['data.data.images[].url', { code: 200, data: { task_id: 't1', state: 'succeeded', data: { images: [{ url: u(1) }] } } }, [u(1)]],
		['result.images[].url', { status: 'completed', result: { images: [{ file_name: 'a.png', url: u(1) }] } }, [u(1)]],
		['data[].url', { id: 't1', status: 'completed', progress: '100%', data: [{ url: u(1) }, { url: u(2) }] }, [u(1), u(2)]],
		['video_url', { status: 'completed', video_url: u(1) }, [u(1)]],
		['url', { status: 'completed', url: u(1) }, [u(1)]],
		['metadata.url', { status: 'completed', metadata: { url: u(1) } }, [u(1)]],
	])('%s', async (_name, body, urls) => {
		const json = await readBody({ task_id: 't1', ...body });
		expect(json.urls).toEqual(urls);
		expect(json.state).toBe('succeeded');
	});
});

describe('Task → Get', () => {
	test.each([
		['generic', 'gpt-image-2-async', '/v1/tasks/'],
		['image', 'nano-banana', '/v1/images/generations/'],
	])('reads through the %s route', async (route, model, prefix) => {
		const taskId = await createTask(ctx.sim, { model });
		const result = await runNode({ parameters: { ...get(taskId, route), language: 'ja' }, credentials: ctx.creds });
		expect(result.items[0].json).toMatchObject({ taskId, queryRoute: route, state: 'pending' });
		const [query] = ctx.sim.find('GET', `${prefix}${taskId}`);
		expect(query.query.language).toBe(route === 'generic' ? 'ja' : undefined);
	});

	test('reads an alt-host task on the Alt Base URL', async () => {
		const taskId = await createTask(ctx.sim, { model: 'gemini-2.5-flash-image', origin: 'alt' });
		const result = await runNode({ parameters: get(taskId, 'alt'), credentials: ctx.creds });
		expect(result.items[0].json.taskId).toBe(taskId);
		expect(ctx.sim.count('GET', `/v1/tasks/${taskId}`, 'alt')).toBe(1);
	});

	test('an unknown task id says so', async () => {
		const result = await runNode({ parameters: get('task_missing', 'image'), credentials: ctx.creds });
		expect(result.error.message).toMatch(/does not know this task/);
	});
});

describe('Task → Wait for Completion', () => {
	test('waits for many tasks at once, one item per input item, in order', async () => {
		// Each task is done at its second read (readSteps): the order of the reads, not the clock, says how they were waited for.
		ctx.sim.scenario('*', { readSteps: [{ status: 'in_progress', progress: 50 }, { status: 'completed', progress: 100 }], estimatedTime: 'none' });
		const ids = [];
		for (let i = 0; i < 6; i++) ids.push(await createTask(ctx.sim));
		const result = await runNode({ parameters: wait(), credentials: ctx.creds, items: ids.map((taskId) => ({ json: { taskId, queryRoute: 'image' } })) });
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.taskId)).toEqual(ids);
		expect(result.items.map((i) => i.pairedItem.item)).toEqual([0, 1, 2, 3, 4, 5]);
		expect(result.items.every((i) => i.json.state === 'succeeded' && i.json.url)).toBe(true);
		// One shared loop: the reads of the six interleave. Waited for one after another, they would come
		// in six runs, one task's reads each; here some task's reads have another's between them.
		const readOf = ctx.sim.requests.filter((r) => r.method === 'GET' && /^\/v1\/images\/generations\//.test(r.path)).map((r) => r.path.split('/').pop());
		const runs = readOf.filter((id, i) => id !== readOf[i - 1]).length;
		expect(runs).toBeGreaterThan(ids.length);
		expect(ctx.sim.count('GET', /^\/v1\/images\/generations\//)).toBeLessThanOrEqual(6 * 9);
	});

	test('a 100 % in_progress task keeps waiting until it really completes', async () => {
		ctx.sim.scenario('*', { durationMs: 300, outcome: 'stuck100', stuckMs: 700 });
		const taskId = await createTask(ctx.sim);
		const result = await runNode({ parameters: wait({ queryRoute: 'image' }), credentials: ctx.creds, items: [{ json: { taskId } }] });
		expect(result.items[0].json.state).toBe('succeeded');
		expect(result.durationMs).toBeGreaterThanOrEqual(600);
	});

	test('completed without a URL fails with that message and keeps the task id', async () => {
		ctx.sim.scenario('*', { durationMs: 200, outcome: 'noUrl' });
		const taskId = await createTask(ctx.sim);
		const result = await runNode({ parameters: wait({ queryRoute: 'image' }), credentials: ctx.creds, items: [{ json: { taskId } }] });
		expect(result.error.message).toMatch(new RegExp(`Task ${taskId} failed: .*no result URL`));
	});

	test('with Continue On Fail a failed task is an item carrying its task id and reason', async () => {
		ctx.sim.scenario('*', { durationMs: 200, outcome: 'fail', failMessage: 'content policy violation' });
		const bad = await createTask(ctx.sim);
		ctx.sim.scenario('*', { durationMs: 200 });
		const good = await createTask(ctx.sim);
		const result = await runNode({ parameters: wait({ queryRoute: 'image' }), credentials: ctx.creds, continueOnFail: true, items: [{ json: { taskId: bad } }, { json: { taskId: good } }] });
		expect(result.items[0].json).toMatchObject({ taskId: bad, created: 'yes' });
		expect(result.items[0].json.error).toMatch(/content policy violation/);
		expect(result.items[1].json).toMatchObject({ taskId: good, state: 'succeeded' });
	});

	test('a timeout returns pending items with task ids, and a second wait resumes them', async () => {
		ctx.sim.scenario('*', { durationMs: 1500 });
		const ids = [await createTask(ctx.sim), await createTask(ctx.sim)];
		const first = await runNode({ parameters: wait({ queryRoute: 'image', waiting: { maxWaitMinutes: 0.005 } }), credentials: ctx.creds, items: ids.map((taskId) => ({ json: { taskId } })) });
		expect(first.items.map((i) => i.json)).toEqual([
			expect.objectContaining({ taskId: ids[0], pending: true, message: expect.stringMatching(/did not finish within 0\.3 s.*Wait for Completion/) }),
			expect.objectContaining({ taskId: ids[1], pending: true }),
		]);
		const second = await runNode({ parameters: wait({ queryRoute: 'image' }), credentials: ctx.creds, items: first.items.map((i) => ({ json: i.json })) });
		expect(second.items.map((i) => [i.json.taskId, i.json.state])).toEqual([[ids[0], 'succeeded'], [ids[1], 'succeeded']]);
		expect(ctx.sim.count('POST', '/v1/images/generations')).toBe(2);
	});

	test('On Timeout = Fail names the task and its last status', async () => {
		ctx.sim.scenario('*', { outcome: 'never' });
		const taskId = await createTask(ctx.sim);
		const result = await runNode({ parameters: wait({ queryRoute: 'image', waiting: { maxWaitMinutes: 0.005, onTimeout: 'fail' } }), credentials: ctx.creds, items: [{ json: { taskId } }] });
		expect(result.error.message).toMatch(new RegExp(`Task ${taskId} did not finish within .*last status 'in_progress'`));
	});

	test('pressing Stop ends the wait at once, not at its next read', async () => {
		ctx.sim.scenario('*', { outcome: 'never' });
		const taskId = await createTask(ctx.sim);
		// Stopped 0.3 s into a 60 s sleep before the first read: a wait that ignored Stop would sleep it
		// out (past the test's timeout); ended by Stop, it is over in a fraction of it.
		const result = await runNode({ parameters: wait({ queryRoute: 'image', waiting: { pollIntervalSeconds: 60 } }), credentials: ctx.creds, items: [{ json: { taskId } }], stopAfterMs: 300 });
		expect(result.status).toBe('canceled');
		// Ignoring Stop, it would sleep out the 60 s (past the test's timeout) and read the task.
		expect(ctx.sim.count('GET', `/v1/images/generations/${taskId}`)).toBe(0);
	});

	test('429, 5xx and dropped connections while polling lose no task', async () => {
		ctx.sim.scenario('*', { durationMs: 500 });
		const ids = [await createTask(ctx.sim), await createTask(ctx.sim), await createTask(ctx.sim)];
		ctx.sim.inject({ method: 'GET', path: /^\/v1\/images\/generations\//, status: 429, headers: { 'Retry-After': '0' }, body: '', times: 2 });
		ctx.sim.inject({ method: 'GET', path: /^\/v1\/images\/generations\//, status: 502, times: 2 });
		ctx.sim.inject({ method: 'GET', path: /^\/v1\/images\/generations\//, kind: 'drop', times: 2 });
		const result = await runNode({ parameters: wait({ queryRoute: 'image' }), credentials: ctx.creds, items: ids.map((taskId) => ({ json: { taskId } })) });
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => [i.json.taskId, i.json.state])).toEqual(ids.map((id) => [id, 'succeeded']));
	});

	test('the first poll waits for the estimated_time the gateway gave', async () => {
		ctx.sim.scenario('*', { durationMs: 300, estimatedTime: 1 });
		const taskId = await createTask(ctx.sim);
		await runNode({ parameters: get(taskId), credentials: ctx.creds });
		ctx.sim.reset();
		const result = await runNode({
			parameters: wait({ queryRoute: 'generic' }),
			credentials: ctx.creds,
			items: [{ json: { taskId: await createTask(ctx.sim) } }],
		});
		expect(result.items[0].json.state).toBe('succeeded');
	});

	test('downloads results into binary data without sending the key to the file origin', async () => {
		ctx.sim.scenario('*', { durationMs: 200, images: 2 });
		const taskId = await createTask(ctx.sim, { model: 'nano-banana' });
		const result = await runNode({ parameters: wait({ queryRoute: 'image', download: true, options: { binaryPropertyOutput: 'image' } }), credentials: ctx.creds, items: [{ json: { taskId } }] });
		expect(result.items).toHaveLength(2);
		for (const item of result.items) {
			expect(item.binary.image.mimeType).toBe('image/png');
			expect(item.binary.image.fileName).toMatch(/\.png$/);
			expect((await binaryBuffer(item.binary.image)).subarray(0, 4)).toEqual(PNG);
		}
		const fileRequests = ctx.sim.find('GET', /.*/, 'files');
		expect(fileRequests).toHaveLength(2);
		expect(fileRequests.some((r) => r.hasAuth)).toBe(false);
		expect(visibleText(result)).not.toContain(API_KEY);
	});

	test('a finished task is downloaded while the others still run, and the output keeps the input order', async () => {
		ctx.sim.scenario('*', { durationMs: 2500 });
		const slow = await createTask(ctx.sim, { prompt: 'slow' });
		ctx.sim.scenario('*', { durationMs: 300 });
		const quick = await createTask(ctx.sim, { prompt: 'quick' });
		const result = await runNode({ parameters: wait({ queryRoute: 'image', download: true }), credentials: ctx.creds, items: [{ json: { taskId: slow } }, { json: { taskId: quick } }] });
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => [i.json.taskId, i.pairedItem.item, Boolean(i.binary?.data)])).toEqual([[slow, 0, true], [quick, 1, true]]);
		const quickFile = ctx.sim.find('GET', new RegExp(`/files/${quick}-1\\.png$`), 'files');
		expect(quickFile).toHaveLength(1);
		// Not after the whole batch: a 500-item wait would otherwise end with 500 downloads in a row.
		expect(quickFile[0].answeredAt).toBeLessThan(ctx.sim.task(slow).finishedAt);
	});
});

describe('Task → Download Result', () => {
	test('fetches every file of a finished task', async () => {
		ctx.sim.scenario('*', { durationMs: 50 });
		const taskId = await createTask(ctx.sim, { model: 'nano-banana' });
		await new Promise((r) => setTimeout(r, 120));
		const result = await runNode({ parameters: { resource: 'task', operation: 'downloadResult', taskId, queryRoute: 'image', options: { binaryPropertyOutput: 'data' } }, credentials: ctx.creds });
		expect(result.items).toHaveLength(1);
		expect((await binaryBuffer(result.items[0].binary.data)).subarray(0, 4)).toEqual(PNG);
	});

	test('says a running task has nothing to download yet', async () => {
		ctx.sim.scenario('*', { outcome: 'never' });
		const taskId = await createTask(ctx.sim);
		const result = await runNode({ parameters: { resource: 'task', operation: 'downloadResult', taskId, queryRoute: 'image' }, credentials: ctx.creds });
		expect(result.error.message).toMatch(new RegExp(`Task ${taskId} has no result to download yet: status`));
		expect(ctx.sim.count('GET', /.*/, 'files')).toBe(0);
	});
});
