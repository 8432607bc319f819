'use strict';
// Paid results the contract shows but an earlier reading lost: docs/gateway-contract.md §4.5's
// async GPT image answer with items[] and no status, §2.7 + §4.9's finished video without a URL on
// the /v1/videos routes (file at /content, with the key), §5 rule 5's result URLs on the gateway host.
const { API_KEY, useSimulator, createTask, visibleText } = require('./support');
const { runNode, binaryBuffer } = require('./harness');

const ctx = useSimulator({ scenario: { durationMs: 200 } });
const rl = (value) => ({ __rl: true, mode: 'id', value });

async function image(model, extra = {}, options = {}) {
	return await runNode({
		parameters: { resource: 'image', operation: 'generate', modelId: rl(model), prompt: 'a red fox', ...extra, waiting: { pollIntervalSeconds: 0.05, ...extra?.waiting } },
		credentials: ctx.creds,
		...options,
	});
}

async function video(model, extra = {}, options = {}) {
	return await runNode({
		parameters: { resource: 'video', operation: 'generate', modelId: rl(model), prompt: 'a paper boat', ...extra, waiting: { pollIntervalSeconds: 0.05, ...extra?.waiting } },
		credentials: ctx.creds,
		...options,
	});
}

function ok(result) {
	if (result.error) throw new Error(`node failed: ${result.error.message} | ${result.error.description}`);
	expect(visibleText(result)).not.toContain(API_KEY);
	return result.items;
}

describe('§4.5: async GPT image query', () => {
	test('items[] at the top level and no top-level status: the image is read and downloaded', async () => {
		ctx.sim.scenario('*', { durationMs: 200, imageShape: 'items' });
		const [item] = ok(await image('gpt-image-2-async'));
		const task = ctx.sim.task(item.json.taskId);
		expect(item.json.url).toBe(task.urls[0]);
		expect((await binaryBuffer(item.binary.data)).subarray(1, 4).toString()).toBe('PNG');
		const poll = ctx.sim.find('GET', `/v1/images/generations/${task.id}`).pop();
		expect(poll).toBeDefined();
	});

	test('the upload example: top-level status, url and fail_reason', async () => {
		ctx.sim.scenario('*', { durationMs: 200, imageShape: 'upload' });
		const [item] = ok(await image('gpt-image-2.5-async'));
		expect(item.json.url).toBe(ctx.sim.task(item.json.taskId).urls[0]);

		ctx.sim.scenario('*', { durationMs: 200, imageShape: 'upload', outcome: 'fail', failMessage: 'prompt refused by the provider' });
		const failed = await image('gpt-image-2.5-async', {}, { continueOnFail: true });
		expect(failed.items[0].json.error).toMatch(/prompt refused by the provider/);
	});

	test('Task → Get reads an items[] answer as succeeded with its URL', async () => {
		ctx.sim.scenario('*', { durationMs: 0, imageShape: 'items' });
		const id = await createTask(ctx.sim, { model: 'gpt-image-2-async' });
		const result = await runNode({ parameters: { resource: 'task', operation: 'get', taskId: id, queryRoute: 'image' }, credentials: ctx.creds });
		expect(ok(result)[0].json).toMatchObject({ status: 'success', state: 'succeeded', url: ctx.sim.task(id).urls[0] });
	});
});

describe('§2.7 + §4.9: a finished video without a URL on the /v1/videos routes', () => {
	test('compatibility route: downloaded from /v1/videos/{id}/content with the key', async () => {
		ctx.sim.scenario('*', { durationMs: 200, urlField: 'none' });
		const [item] = ok(await video('veo-3.1-flash', { videoRoute: 'compatibility' }));
		const id = item.json.taskId;
		expect(item.json).toMatchObject({ status: 'completed', state: 'succeeded', url: `${ctx.sim.mainUrl}/v1/videos/${id}/content` });
		const content = ctx.sim.find('GET', `/v1/videos/${id}/content`);
		expect(content).toHaveLength(1);
		expect(content[0].authValid).toBe(true);
		expect(item.binary.data.mimeType).toBe('video/mp4');
		expect((await binaryBuffer(item.binary.data)).toString('ascii', 4, 8)).toBe('ftyp');
	});

	test('Task → Wait for Completion on the video query route does the same', async () => {
		ctx.sim.scenario('*', { durationMs: 100, urlField: 'none' });
		const id = await createTask(ctx.sim, { model: 'sora-2', path: '/v1/videos' });
		const result = await runNode({
			parameters: { resource: 'task', operation: 'waitForCompletion', taskId: id, queryRoute: 'video', waiting: { pollIntervalSeconds: 0.05 }, download: true },
			credentials: ctx.creds,
		});
		const [item] = ok(result);
		expect(item.json.state).toBe('succeeded');
		expect(ctx.sim.find('GET', `/v1/videos/${id}/content`)[0].authValid).toBe(true);
		expect(item.binary.data.mimeType).toBe('video/mp4');
	});

	test('unified route, generic query: completed without a URL stays a failure that says so (§3 rule 2)', async () => {
		ctx.sim.scenario('*', { durationMs: 200, outcome: 'noUrl', shape: 'A' });
		const result = await video('sora-2', {}, { continueOnFail: true });
		expect(result.items[0].json.error).toMatch(/completed but the gateway gave no result URL/);
		expect(ctx.sim.requests.filter((r) => r.path.endsWith('/content'))).toHaveLength(0);
	});
});

describe('§5 rule 5: result URLs on the gateway host', () => {
	test('an image result on the Base URL host is fetched with the key; the files host never gets it', async () => {
		ctx.sim.scenario('*', { durationMs: 100, resultHost: 'main', imageShape: 'full' });
		const [item] = ok(await image('gpt-image-2-async'));
		expect(item.json.url.startsWith(`${ctx.sim.mainUrl}/v1/results/`)).toBe(true);
		const fetched = ctx.sim.find('GET', /^\/v1\/results\//);
		expect(fetched).toHaveLength(1);
		expect(fetched[0].authValid).toBe(true);
		expect((await binaryBuffer(item.binary.data)).subarray(1, 4).toString()).toBe('PNG');
	});

	test('a result URL on another host is fetched without the key', async () => {
		ctx.sim.scenario('*', { durationMs: 100, imageShape: 'full' });
		ok(await image('gpt-image-2-async'));
		const fetched = ctx.sim.find('GET', /^\/files\//, 'files');
		expect(fetched).toHaveLength(1);
		expect(fetched[0].hasAuth).toBe(false);
	});
});
