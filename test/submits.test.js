'use strict';
// Failed submits say whether a job was created (docs/gateway-contract.md §7), a 429 is ridden out by the
// node run's pacer (§10.5), and a result download cut mid-file is fetched again.
const { runNode, binaryBuffer } = require('./harness');
const { useSimulator, createTask } = require('./support');

const ctx = useSimulator({ scenario: { durationMs: 50 } });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const image = (model, extra = {}) => ({
	resource: 'image',
	operation: 'generate',
	modelId: { __rl: true, mode: 'id', value: model },
	prompt: '={{ $json.prompt }}',
	download: false,
	...extra, options: { concurrency: 1, ...extra?.options }, waiting: { pollIntervalSeconds: 0.1, ...extra?.waiting },
});
const prompts = (n, tag = 'p') => Array.from({ length: n }, (_, i) => ({ json: { prompt: `${tag} ${i}` } }));
const submitted = () => ctx.sim.find('POST', '/v1/images/generations').map((r) => r.body.prompt);

describe('every failed submit says created yes / no / unknown', () => {
	const rows = [
		['400', 'no', { status: 400 }],
		['401', 'no', { status: 401 }],
		['403 quota', 'no', { status: 403 }],
		['429 longer than the node waits', 'no', { status: 429, headers: { 'Retry-After': '3600' }, body: '' }],
		['503 No available channel', 'no', { status: 503, body: { error: { message: 'No available channel for model gpt-image-2-async under group default', code: 'model_not_found' } } }],
		['500', 'unknown', { status: 500 }],
		['502 empty', 'unknown', { status: 502, body: '' }],
		['a reset after sending', 'unknown', { kind: 'drop' }],
		['200 without an id', 'yes', { status: 200, body: { code: 200, msg: 'success', data: {} } }],
		['200 with a truncated body', 'yes', { kind: 'malformed' }],
	];

	test.each(rows)('%s → created: %s, in the item and in its message', async (_name, created, fault) => {
		ctx.sim.inject({ method: 'POST', path: '/v1/images/generations', ...fault });
		const result = await runNode({ parameters: image('gpt-image-2-async'), credentials: ctx.creds, items: prompts(1), continueOnFail: true });
		const [json] = result.items.map((i) => i.json);
		expect(json.created).toBe(created);
		expect(json.error).toContain(`(created: ${created}`);
		expect(json.description).toMatch(new RegExp(`Created: ${created}\\.`));
		expect(ctx.sim.count('POST', '/v1/images/generations')).toBe(1);
		if (created === 'no') expect(JSON.stringify(json)).not.toMatch(/may have been|billed/);
	});

	test('without Continue On Fail the node error carries it too', async () => {
		ctx.sim.inject({ method: 'POST', path: '/v1/video/generations', status: 200, body: { code: 'success', data: null } });
		const result = await runNode({
			parameters: { resource: 'video', operation: 'generate', modelId: { __rl: true, mode: 'id', value: 'sora-2' }, prompt: 'waves', waiting: { pollIntervalSeconds: 0.1 } },
			credentials: ctx.creds,
		});
		expect(result.error.message).toBe('The gateway accepted the video job but its answer has no task ID (created: yes, task ID unknown)');
		expect(result.error.context.created).toBe('yes');
		expect(result.error.description).toMatch(/Do not run the item again/);
	});

	test('a workflow that re-submits only the "no" items never pays twice', async () => {
		for (const fault of [{ status: 400 }, { status: 200, body: { data: {} } }, { status: 500 }, { status: 403 }, { kind: 'drop' }]) {
			ctx.sim.inject({ method: 'POST', path: '/v1/images/generations', ...fault });
		}
		const first = await runNode({ parameters: image('gpt-image-2-async'), credentials: ctx.creds, items: prompts(6), continueOnFail: true });
		const byCreated = (value) => first.items.filter((i) => i.json.created === value).map((i) => `p ${i.pairedItem.item}`);
		expect(byCreated('no')).toEqual(['p 0', 'p 3']);
		expect([...byCreated('yes'), ...byCreated('unknown')].sort()).toEqual(['p 1', 'p 2', 'p 4']);

		const again = first.items.filter((i) => i.json.created === 'no').map((i) => ({ json: { prompt: `p ${i.pairedItem.item}` } }));
		const second = await runNode({ parameters: image('gpt-image-2-async'), credentials: ctx.creds, items: again, continueOnFail: true });
		expect(second.items.every((i) => i.json.taskId)).toBe(true);
		const sent = submitted();
		for (const maybeBilled of ['p 1', 'p 2', 'p 4', 'p 5']) expect(sent.filter((p) => p === maybeBilled)).toHaveLength(1);
		expect(sent.filter((p) => p === 'p 0')).toHaveLength(2);
	});
});

describe('a 429 on a submit is ridden out', () => {
	test('it is sent again after the Retry-After it was given, and creates one job', async () => {
		ctx.sim.inject({ method: 'POST', path: '/v1/images/generations', status: 429, headers: { 'Retry-After': '1' }, body: '' });
		const result = await runNode({ parameters: image('gpt-image-2-async'), credentials: ctx.creds, items: prompts(1) });
		expect(result.error).toBeUndefined();
		const [first, second] = ctx.sim.find('POST', '/v1/images/generations');
		expect(second.at - first.at).toBeGreaterThanOrEqual(950);
		expect(result.items[0].json.taskId).toMatch(/^task_/);
	});

	test('without Retry-After it backs off with jitter and tries again', async () => {
		ctx.sim.inject({ method: 'POST', path: '/v1/video/generations', status: 429, body: '', times: 2 });
		const result = await runNode({
			parameters: { resource: 'video', operation: 'generate', modelId: { __rl: true, mode: 'id', value: 'sora-2' }, prompt: 'waves', waitForCompletion: false },
			credentials: ctx.creds,
		});
		expect(result.error).toBeUndefined();
		expect(ctx.sim.count('POST', '/v1/video/generations')).toBe(3);
		expect(result.items[0].json.taskId).toBeDefined();
	});

	test('behind a 5 requests/s limit, 30 items all get through once, paced by one shared pacer', async () => {
		// A limit well under what even a loaded machine sends, so the first burst always meets it.
		const limit = ctx.sim.rateLimit({ method: 'POST', path: '/v1/images/generations', perSecond: 5 });
		const result = await runNode({ parameters: image('gpt-image-2-async', { options: { concurrency: 10 }, waitForCompletion: false }), credentials: ctx.creds, items: prompts(30) });
		expect(result.error).toBeUndefined();
		expect(result.items.filter((i) => i.json.taskId)).toHaveLength(30);
		expect(limit.passed).toBe(30);
		expect(limit.limited).toBeGreaterThan(0);
		// AIMD: after the first burst, far fewer refusals than items.
		expect(limit.limited).toBeLessThan(20);
	});
});

describe('a result download cut mid-file', () => {
	async function finishedImage() {
		const taskId = await createTask(ctx.sim, { model: 'gpt-image-2-async' });
		await sleep(150);
		return taskId;
	}
	const download = (taskId) => ({ resource: 'task', operation: 'downloadResult', taskId, queryRoute: 'image' });

	test('is fetched again (a GET is safe) and the file arrives whole', async () => {
		const taskId = await finishedImage();
		const path = new URL(ctx.sim.task(taskId).urls[0]).pathname;
		ctx.sim.inject({ method: 'GET', path, origin: 'files', kind: 'breakStream' });
		const result = await runNode({ parameters: download(taskId), credentials: ctx.creds });
		expect(result.error).toBeUndefined();
		expect(ctx.sim.count('GET', path, 'files')).toBe(2);
		const png = await binaryBuffer(result.items[0].binary.data);
		expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
		expect(png.subarray(-8, -4).toString('ascii')).toBe('IEND');
	});

	test('cut every time, it fails saying "download interrupted", not "aborted"', async () => {
		const taskId = await finishedImage();
		const path = new URL(ctx.sim.task(taskId).urls[0]).pathname;
		ctx.sim.inject({ method: 'GET', path, origin: 'files', kind: 'breakStream', times: Infinity });
		const result = await runNode({ parameters: download(taskId), credentials: ctx.creds });
		expect(result.error.message).toMatch(/\(download interrupted\)$/);
		expect(result.error.message).not.toMatch(/aborted/i);
		expect(result.error.description).toMatch(/Task → Download Result/);
		expect(ctx.sim.count('GET', path, 'files')).toBe(3);
	});
});

describe('the pacer', () => {
	const { Pacer } = require('../dist/nodes/UnifiedAiGateway/transport/pacer');

	test('slows down once per burst of 429s and speeds up again with successes', async () => {
		const pacer = new Pacer();
		expect(pacer.requestsPerSecond).toBe(Infinity);
		const burst = [];
		for (let i = 0; i < 20; i++) {
			burst.push(await pacer.acquire());
			pacer.succeeded();
		}
		pacer.limited(burst[19], 1000);
		const slowed = pacer.requestsPerSecond;
		expect(slowed).toBeCloseTo(16, 0);
		for (const ticket of burst.slice(0, 5)) pacer.limited(ticket, 1000);
		expect(pacer.requestsPerSecond).toBe(slowed);
		for (let i = 0; i < 32; i++) pacer.succeeded();
		expect(pacer.requestsPerSecond).toBeGreaterThan(slowed + 1.5);
	});
});
