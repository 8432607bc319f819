'use strict';
// Fault matrix: a model the gateway no longer offers (Sora 2, switched off upstream on 2026-09-24),
// in each of the relay's envelopes and languages. The error names the model, says it is not offered
// to this key, says created: no, and lists the models of the same kind the key can use (GET
// /v1/models, read once per run, best effort).
const { runNode } = require('../harness');
const { useSimulator } = require('../support');
const { everythingVisible, captureLogs } = require('./pollMatrix');
const { API_KEY } = require('../support');
const { registryModels } = require('../simulator/catalog');

const rl = (value) => ({ __rl: true, mode: 'id', value });
const video = (model, extra = {}) => ({ resource: 'video', operation: 'generate', modelId: rl(model), prompt: 'waves', waitForCompletion: false, ...extra });
const image = (model) => ({ resource: 'image', operation: 'generate', modelId: rl(model), prompt: 'a red bicycle', waitForCompletion: false });
const NOT_OFFERED = /^Model 'sora-2' is not available to this API key's group \((No available channel|model does not exist)\): the gateway does not offer it to this key \(retired upstream, or not in the key's group( 'default')?\) \(created: no\)$/;
// Every video model of the simulator's catalogue (the registry's video rows) but the retired one, in the node's order.
const VIDEO_IDS = registryModels()
	.filter((row) => row.group === 'video' && row.id !== 'sora-2')
	.map((row) => row.id)
	.sort((a, b) => a.localeCompare(b))
	.join(', ');
const VIDEO_MODELS = new RegExp(`^Video models this key can use \\(GET /v1/models\\): ${VIDEO_IDS.replace(/[.]/g, '\\.')}\\.\n`);

describe('a simulator whose sora-2 is retired (English)', () => {
	const ctx = useSimulator({ retiredModels: ['sora-2'] });
	const run = async (parameters, options = {}) => await runNode({ parameters, credentials: ctx.creds, continueOnFail: true, ...options });

	test.each([
		['unified', {}, '/v1/video/generations'],
		['compatibility', { videoRoute: 'compatibility' }, '/v1/videos'],
	])('Video → Generate sora-2 on the %s route: named, not offered, created: no, the video models listed', async (_route, extra, path) => {
		const logs = captureLogs();
		let result;
		try {
			result = await run(video('sora-2', extra));
		} finally {
			logs.restore();
		}
		const [item] = result.items;
		expect(item.json.error).toMatch(NOT_OFFERED);
		expect(item.json.created).toBe('no');
		expect(item.json.description).toMatch(VIDEO_MODELS);
		expect(item.json.description).toMatch(/Gateway said: No available channel for model sora-2 under group default/);
		expect(item.json.description).toMatch(/Sora 2 off on 2026-09-24/);
		expect(item.json.description).not.toMatch(/can use[^\n]*sora-2/);
		expect(ctx.sim.count('POST', path)).toBe(1);
		expect(ctx.sim.count('GET', '/v1/models')).toBe(1);
		expect(everythingVisible(result, logs.lines)).not.toContain(API_KEY);
	});

	test('three items on the retired model: three refusals, one read of /v1/models', async () => {
		const result = await run(video('sora-2'), { items: [{ json: {} }, { json: {} }, { json: {} }] });
		expect(result.items.map((i) => i.json.created)).toEqual(['no', 'no', 'no']);
		for (const item of result.items) expect(item.json.description).toMatch(VIDEO_MODELS);
		expect(ctx.sim.count('POST', '/v1/video/generations')).toBe(3);
		expect(ctx.sim.count('GET', '/v1/models')).toBe(1);
	});

	test('the model list cannot be read: the refusal stands, without a list, after one GET', async () => {
		ctx.sim.inject({ method: 'GET', path: '/v1/models', status: 500, times: Infinity });
		const result = await run(video('sora-2'));
		expect(result.items[0].json.error).toMatch(NOT_OFFERED);
		expect(result.items[0].json.created).toBe('no');
		expect(result.items[0].json.description).not.toMatch(/models this key can use/);
		expect(ctx.sim.count('GET', '/v1/models')).toBe(1);
	});

	test('the other video models still run', async () => {
		const result = await run(video('veo-3.1-flash'));
		expect(result.items[0].json.error).toBeUndefined();
		expect(result.items[0].json.taskId).toMatch(/^task_/);
	});

	test('the flat task envelope {code, message, data: null} is read the same', async () => {
		ctx.sim.inject({ method: 'POST', path: '/v1/video/generations', status: 503, body: { code: 'model_not_found', message: 'No available channel for model sora-2 under group default', data: null } });
		const result = await run(video('sora-2'));
		expect(result.items[0].json.error).toMatch(NOT_OFFERED);
		expect(result.items[0].json.description).toMatch(VIDEO_MODELS);
	});

	test("the upstream's \"model does not exist\" inside a task error is read the same", async () => {
		const upstream = '{"error":{"message":"The model `sora-2` does not exist or you do not have access to it.","type":"invalid_request_error","code":"model_not_found"}}';
		ctx.sim.inject({ method: 'POST', path: '/v1/video/generations', status: 404, body: { code: 'fail_to_fetch_task', message: upstream, data: null } });
		const result = await run(video('sora-2'));
		expect(result.items[0].json.error).toMatch(NOT_OFFERED);
		expect(result.items[0].json.error).toMatch(/model does not exist/);
		expect(result.items[0].json.created).toBe('no');
	});

	test('an image model the gateway does not offer lists the image models', async () => {
		ctx.sim.setModels([{ id: 'gpt-image-2', supported_endpoint_types: ['openai'] }, { id: 'nano-banana-2', supported_endpoint_types: ['image-generation'] }, { id: 'veo-3.1-flash', supported_endpoint_types: ['openai-video'] }]);
		const result = await run(image('gpt-image-2-async'));
		expect(result.items[0].json.error).toMatch(/^Model 'gpt-image-2-async' is not available to this API key's group \(No available channel\)/);
		expect(result.items[0].json.description).toMatch(/^Image models this key can use \(GET \/v1\/models\): gpt-image-2, nano-banana-2\.\n/);
	});
});

describe('a simulator whose sora-2 is retired, answering in Chinese', () => {
	const ctx = useSimulator({ retiredModels: ['sora-2'], retiredLanguage: 'zh' });

	test('the relay\'s Chinese text: named, not offered, created: no (not "unknown"), the video models listed', async () => {
		const result = await runNode({ parameters: video('sora-2'), credentials: ctx.creds, continueOnFail: true });
		const [item] = result.items;
		expect(item.json.error).toMatch(NOT_OFFERED);
		expect(item.json.created).toBe('no');
		expect(item.json.description).toMatch(VIDEO_MODELS);
		expect(item.json.description).toMatch(/Gateway said: "当前分组 default 下对于模型 sora-2 无可用渠道/);
	});
});
