'use strict';
// A gateway is a stranger (docs/gateway-contract.md §10.12): every answer is read within a limit of
// its kind, counted after decompression as it streams, and refused past it (a compression bomb of
// 2 GB costs n8n at most its limit: the bomb rows run in a jest of their own under
// --max-old-space-size=256, five bombs at once, and it stays alive); an answer nested past 64
// levels is refused before it is parsed; a task read naming another task's id is a bad read of the
// user's task, never its state. Whatever an answer does, the item keeps its task id.
const path = require('node:path');
const v8 = require('node:v8');
const { spawnSync } = require('node:child_process');
const { runNode, listSearch } = require('../harness');
const { useSimulator, createTask } = require('../support');

const ctx = useSimulator({ scenario: { durationMs: 100 } });
const rl = (value) => ({ __rl: true, mode: 'id', value });
const wait = (extra = {}) => ({ resource: 'task', operation: 'waitForCompletion', taskId: '={{ $json.taskId }}', queryRoute: 'image', waiting: { pollIntervalSeconds: 0.1 }, ...extra });
const queryOf = (id) => new RegExp(`/v1/images/generations/${id}$`);

/** The heap this process may grow to: the bomb rows run only under the cap (a child jest below). */
const CAPPED = v8.getHeapStatistics().heap_size_limit <= 320 * 1024 * 1024;
// A bomb row inflates and counts megabytes: slow on a loaded machine, whatever the code does (not a time budget).
if (CAPPED) jest.setTimeout(120_000);

describe('compression bombs', () => {
	if (!CAPPED) {
		test('the bomb rows run again in a jest under --max-old-space-size=256, which stays alive', () => {
			// The line this suite runs on (the 2.x config maps n8n-core to test/lines/n8n-2).
			const line2 = require.resolve('n8n-core').includes(`${path.sep}lines${path.sep}n8n-2${path.sep}`);
			const root = path.resolve(__dirname, '../..');
			const env = { ...process.env };
			for (const name of ['N8N_USER_FOLDER', 'UAG_TEST_DIR', 'JEST_WORKER_ID']) delete env[name];
			const child = spawnSync(
				process.execPath,
				['--max-old-space-size=256', path.join(root, 'node_modules/jest/bin/jest.js'), '-i', '--ci', ...(line2 ? ['-c', 'test/lines/jest.n8n-2.config.js'] : []), '--testNamePattern', 'bomb', path.relative(root, __filename)],
				{ cwd: root, env, encoding: 'utf8', timeout: 600_000 },
			);
			const out = `${child.stdout}\n${child.stderr}`;
			expect(out).not.toMatch(/heap out of memory|Cannot create a string longer/);
			expect(out).toMatch(/Tests:\s+(\d+ skipped, )?7 passed, \d+ total/);
			expect(out).not.toMatch(/failed/);
			expect(child.status).toBe(0);
		}, 660_000);
		return;
	}

	test('the heap is capped at 256 MB (the rows below would prove nothing otherwise)', () => {
		expect(v8.getHeapStatistics().heap_size_limit).toBeLessThanOrEqual(320 * 1024 * 1024);
	});

	test('bomb: five task reads at once, each answered by 2 GB of gzip: each task reported with its id, n8n alive', async () => {
		const ids = [];
		for (let i = 0; i < 5; i++) ids.push(await createTask(ctx.sim));
		for (const id of ids) ctx.sim.inject({ path: queryOf(id), kind: 'gzipBomb', times: Infinity });
		const result = await runNode({ parameters: wait(), credentials: ctx.creds, items: ids.map((taskId) => ({ json: { taskId } })), continueOnFail: true });
		expect(result.items).toHaveLength(5);
		result.items.forEach((item, i) => {
			expect(item.json.taskId).toBe(ids[i]);
			expect(item.json.error).toContain(`Task ${ids[i]} could not be read: 3 checks in a row`);
			expect(item.json.error).toContain(`The gateway's answer was larger than 1 MB (more arrived, counted after decompression) while checking task ${ids[i]}: refused unread`);
			expect(item.binary).toBeUndefined();
		});
		// Every bomb was read (three per task), none to its end: each stopped a small part of the way in.
		const bombs = ctx.sim.requests.filter((r) => r.inflatesTo);
		expect(bombs).toHaveLength(15);
		for (const bomb of bombs) expect(bomb.bytesSent).toBeLessThan(bomb.inflatesTo / 100);
	});

	test('bomb: Account → List Models refuses a model list past 8 MB', async () => {
		ctx.sim.inject({ path: '/v1/models', kind: 'gzipBomb', times: Infinity });
		const result = await runNode({ parameters: { resource: 'account', operation: 'listModels', modelGroup: 'all' }, credentials: ctx.creds });
		expect(result.error.message).toBe("The gateway's answer was larger than 8 MB (more arrived, counted after decompression) while listing the models of this key: refused unread");
	});

	test("bomb: the editor's model picker refuses it too", async () => {
		ctx.sim.inject({ path: '/v1/models', kind: 'gzipBomb', encoding: 'br', times: Infinity });
		await expect(listSearch('searchVideoModels', { credentials: ctx.creds })).rejects.toThrow(/^The gateway's answer was larger than 8 MB .* while listing the models of this key: refused unread$/);
	});

	test('bomb: a balance read past 1 MB (deflate)', async () => {
		ctx.sim.inject({ path: '/v1/balance', kind: 'gzipBomb', encoding: 'deflate', times: Infinity });
		const result = await runNode({ parameters: { resource: 'account', operation: 'getTokenBalance' }, credentials: ctx.creds });
		expect(result.error.message).toBe("The gateway's answer was larger than 1 MB (more arrived, counted after decompression) while checking the token balance: refused unread");
	});

	test('bomb: a billed sync image answer past 64 MB is refused, created: yes, sent once', async () => {
		ctx.sim.inject({ method: 'POST', path: '/v1/images/generations', kind: 'gzipBomb', times: Infinity });
		const result = await runNode({ parameters: { resource: 'image', operation: 'generate', modelId: rl('gpt-image-2'), prompt: 'a bicycle' }, credentials: ctx.creds, continueOnFail: true });
		expect(result.items[0].json.error).toBe("The gateway's answer was larger than 64 MB (more arrived, counted after decompression) while submitting the image generation: refused unread (created: yes)");
		expect(result.items[0].json.created).toBe('yes');
		expect(ctx.sim.count('POST', '/v1/images/generations')).toBe(1);
	});

	test('bomb: a streamed chat answer (one endless event) stops at its limit', async () => {
		ctx.sim.inject({ method: 'POST', path: '/v1/chat/completions', kind: 'gzipBomb', contentType: 'text/event-stream', times: Infinity });
		const result = await runNode({ parameters: { resource: 'text', operation: 'message', modelId: rl('gpt-5.6-sol'), messages: { values: [{ role: 'user', content: 'hi' }] }, options: { stream: true } }, credentials: ctx.creds, continueOnFail: true });
		expect(result.items[0].json.error).toMatch(/^The answer from model 'gpt-5\.6-sol' was cut off after 0 characters: (one line of the event stream passed 4 million characters|more than 64 MB arrived)/);
	});
});

describe('answers nested deeper than any gateway sends', () => {
	test('Task → Get: a 40 KB answer 20,000 levels deep is refused before it is parsed, naming the task; the item keeps its id', async () => {
		const id = await createTask(ctx.sim);
		ctx.sim.inject({ path: queryOf(id), kind: 'deepJson', body: { id, status: 'completed' } });
		const result = await runNode({ parameters: { resource: 'task', operation: 'get', taskId: id, queryRoute: 'image' }, credentials: ctx.creds, continueOnFail: true });
		expect(result.items[0].json).toEqual({
			error: `The gateway's answer nests lists and objects more than 64 levels deep while checking task ${id}: refused unread`,
			description: expect.stringContaining('deeply nested bomb'),
			taskId: id,
		});
	});

	test('Task → Wait: one deep answer is a bad read; the next reads finish the paid task and fetch its file', async () => {
		const id = await createTask(ctx.sim);
		ctx.sim.inject({ path: queryOf(id), kind: 'deepJson', body: { id, status: 'completed' } });
		const result = await runNode({ parameters: wait({ download: true }), credentials: ctx.creds, items: [{ json: { taskId: id } }] });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ taskId: id, state: 'succeeded' });
		expect(result.items[0].binary.data.mimeType).toBe('image/png');
	});

	test('Task → Wait: deep answer after deep answer: reported with the task id, the state last seen and what to do', async () => {
		const id = await createTask(ctx.sim);
		ctx.sim.inject({ path: queryOf(id), status: 200, body: { id, status: 'in_progress', progress: '40%' } });
		ctx.sim.inject({ path: queryOf(id), kind: 'deepJson', body: { id, status: 'completed' }, times: Infinity });
		const result = await runNode({ parameters: wait(), credentials: ctx.creds, items: [{ json: { taskId: id } }], continueOnFail: true });
		const json = result.items[0].json;
		expect(json.taskId).toBe(id);
		expect(json.status).toBe('in_progress');
		expect(json.error).toContain(`Task ${id} could not be read: 3 checks in a row got no reading of the task (last answer: The gateway's answer nests lists and objects more than 64 levels deep`);
		expect(json.error).toContain("it was last seen 'in_progress' at 40%. The task may still be running or finished: check it later with Task → Get or Task → Wait for Completion; do not submit it again.");
	});
});

describe("the user's task id is the id", () => {
	test('Task → Wait for t_mine answered "task_SOMEONE_ELSE completed": bad reads, then reported with both ids; the other file is never fetched', async () => {
		const id = await createTask(ctx.sim);
		const theirs = `${ctx.sim.filesUrl}/files/someone-else.png`;
		ctx.sim.inject({ path: queryOf(id), status: 200, body: { id: 'task_SOMEONE_ELSE', status: 'completed', progress: '100%', url: theirs }, times: Infinity });
		const result = await runNode({ parameters: wait({ download: true }), credentials: ctx.creds, items: [{ json: { taskId: id } }], continueOnFail: true });
		const json = result.items[0].json;
		expect(json.taskId).toBe(id);
		expect(json.error).toContain(`Task ${id} could not be read: 3 checks in a row`);
		expect(json.error).toContain(`The gateway answered the read of task ${id} with another task, task_SOMEONE_ELSE: not taken as the state of ${id}`);
		expect(result.items[0].binary).toBeUndefined();
		expect(ctx.sim.requests.filter((r) => r.origin === 'files')).toHaveLength(0);
	});

	test('one answer naming another task between good ones: the wait goes on and ends with its own file', async () => {
		const id = await createTask(ctx.sim);
		ctx.sim.inject({ path: queryOf(id), status: 200, body: { task_id: 'task_SOMEONE_ELSE', status: 'completed', result_url: `${ctx.sim.filesUrl}/files/someone-else.png` } });
		const result = await runNode({ parameters: wait({ download: true }), credentials: ctx.creds, items: [{ json: { taskId: id } }] });
		expect(result.items[0].json.taskId).toBe(id);
		expect(result.items[0].json.url).toContain(`/files/${id}-1.png`);
		expect(ctx.sim.requests.filter((r) => r.origin === 'files').map((r) => r.path)).toEqual([`/files/${id}-1.png`]);
	});

	test('Task → Get: the answer naming another task is an error of the user\'s task', async () => {
		const id = await createTask(ctx.sim);
		ctx.sim.inject({ path: queryOf(id), status: 200, body: { data: { task_id: 'task_SOMEONE_ELSE', status: 'completed' } } });
		const result = await runNode({ parameters: { resource: 'task', operation: 'get', taskId: id, queryRoute: 'image' }, credentials: ctx.creds, continueOnFail: true });
		expect(result.items[0].json).toMatchObject({ taskId: id, error: `The gateway answered the read of task ${id} with another task, task_SOMEONE_ELSE: not taken as the state of ${id}` });
	});

	test('an answer naming no id at all (a Veo task on /v1/videos) is still read as the task', async () => {
		const id = await createTask(ctx.sim);
		ctx.sim.inject({ path: queryOf(id), status: 200, body: { status: 'in_progress', progress: 30 } });
		const result = await runNode({ parameters: { resource: 'task', operation: 'get', taskId: id, queryRoute: 'image' }, credentials: ctx.creds });
		expect(result.items[0].json).toMatchObject({ taskId: id, status: 'in_progress', progress: 30 });
	});
});
