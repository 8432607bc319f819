'use strict';
// Smaller gaps between the contract and an earlier reading of it: model classification, route-following wait deadline, the
// generic query's language wherever it is used, Base URL with or without /v1, reference lists.
const { useSimulator, createTask } = require('./support');
const { runNode, pollTrigger, loadNode } = require('./harness');

const ctx = useSimulator({ scenario: { durationMs: 100 } });
const rl = (value) => ({ __rl: true, mode: 'id', value });

test('model picker: spec table, then name, then endpoint type; ["openai"] alone is not "text"', async () => {
	ctx.sim.setModels([
		{ id: 'nano-banana', supported_endpoint_types: ['openai'] },
		{ id: 'flux-kontext-pro', supported_endpoint_types: ['openai'] },
		{ id: 'kling-v2-master', supported_endpoint_types: ['openai'] },
		{ id: 'mystery-model', supported_endpoint_types: ['image-generation'] },
		{ id: 'gpt-5.6-sol', supported_endpoint_types: ['openai'] },
	]);
	const result = await runNode({ parameters: { resource: 'account', operation: 'listModels' }, credentials: ctx.creds });
	const types = Object.fromEntries(result.items.map((i) => [i.json.id, i.json.type]));
	expect(types).toEqual({
		'nano-banana': 'image',
		'flux-kontext-pro': 'image',
		'kling-v2-master': 'video',
		'mystery-model': 'image',
		'gpt-5.6-sol': 'text',
	});
});

describe('Task → Wait for Completion: Max Wait follows the route by default (§8)', () => {
	test('the default is 0 = by route, and the help names each window', () => {
		const node = loadNode('unifiedAiGateway');
		const waiting = node.description.properties.find((p) => p.name === 'waiting' && p.displayOptions?.show?.resource?.includes('task'));
		const field = waiting.options.find((p) => p.name === 'maxWaitMinutes');
		expect(field.default).toBe(0);
		expect(field.description).toMatch(/30 min for video tasks and the generic query .*10 min for image tasks/);
	});

	test('with the default, tasks still finish (no zero deadline)', async () => {
		const id = await createTask(ctx.sim, { model: 'gpt-image-2-async' });
		const result = await runNode({ parameters: { resource: 'task', operation: 'waitForCompletion', taskId: id, queryRoute: 'image', waiting: { pollIntervalSeconds: 0.05 } }, credentials: ctx.creds });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.state).toBe('succeeded');
	});
});

describe('§4.10 language wherever the generic query is used', () => {
	test('Task → Get and Wait send it', async () => {
		const id = await createTask(ctx.sim, { model: 'gpt-image-2-async' });
		await runNode({ parameters: { resource: 'task', operation: 'get', taskId: id, queryRoute: 'generic', language: 'ja' }, credentials: ctx.creds });
		await runNode({ parameters: { resource: 'task', operation: 'waitForCompletion', taskId: id, queryRoute: 'generic', language: 'ko', waiting: { pollIntervalSeconds: 0.05 } }, credentials: ctx.creds });
		expect(ctx.sim.find('GET', `/v1/tasks/${id}`).map((r) => r.query.language)).toEqual(expect.arrayContaining(['ja', 'ko']));
	});

	test('Video → Generate on the unified route waits with it', async () => {
		ctx.sim.scenario('*', { durationMs: 100, shape: 'A' });
		const result = await runNode({
			parameters: { resource: 'video', operation: 'generate', modelId: rl('sora-2'), prompt: 'p', download: false, waiting: { pollIntervalSeconds: 0.05, language: 'zh' } },
			credentials: ctx.creds,
		});
		expect(result.error).toBeUndefined();
		const polls = ctx.sim.find('GET', `/v1/tasks/${result.items[0].json.taskId}`);
		expect(polls.length).toBeGreaterThan(0);
		expect(polls.every((r) => r.query.language === 'zh')).toBe(true);
	});

	test('the trigger sends it, and a failure reason comes back in that language', async () => {
		ctx.sim.scenario('*', { durationMs: 0, outcome: 'fail', shape: 'B' });
		const id = await createTask(ctx.sim, { model: 'gpt-image-2-async' });
		const { result } = await pollTrigger({
			parameters: { event: 'taskFinished', taskIds: id, queryRoute: 'generic', language: 'zh', includeFailures: true },
			credentials: ctx.creds,
			mode: 'manual',
		});
		expect(ctx.sim.find('GET', `/v1/tasks/${id}`)[0].query.language).toBe('zh');
		expect(result[0][0].json.error).toMatch(/生成失败/);
	});
});

test.each([
	['without /v1', (url) => url],
	['with /v1', (url) => `${url}/v1`],
	['with /v1/', (url) => `${url}/v1/`],
])('§9: Base URL %s reaches /v1/... once', async (_name, form) => {
	const id = await createTask(ctx.sim, { model: 'gpt-image-2-async' });
	const result = await runNode({ parameters: { resource: 'task', operation: 'get', taskId: id, queryRoute: 'image' }, credentials: { ...ctx.creds, baseUrl: form(ctx.sim.mainUrl) } });
	expect(result.error).toBeUndefined();
	expect(ctx.sim.find('GET', `/v1/images/generations/${id}`)).toHaveLength(1);
});

test('video reference URLs from an expression list are sent as that list', async () => {
	const urls = ['https://example.com/a.png?sig=1,2', 'https://example.com/b.png'];
	const result = await runNode({
		parameters: { resource: 'video', operation: 'generate', modelId: rl('seedance-2.0'), prompt: 'p', waitForCompletion: false, videoReferenceUrls: '={{ $json.refs }}' },
		credentials: ctx.creds,
		items: [{ json: { refs: urls } }],
	});
	expect(result.error).toBeUndefined();
	expect(ctx.sim.find('POST', '/v1/video/generations')[0].body.images).toEqual(urls);
});
