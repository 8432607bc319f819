'use strict';
// A key's state said as it is (issue 55 item 2): plain new-api answers a used-up, expired or
// disabled key with the same bare `401 Invalid token` as a wrong one. The node tells them apart by
// the key's own usage route (GET /api/usage/token/, read once per run) and by whether the key
// worked earlier in the run; a wrong key is still called wrong. Through n8n's execution code
// against the simulator's plain new-api profile (test/simulator sim.setKeyState).
const { API_KEY, useSimulator } = require('../support');
const { runNode } = require('../harness');

const ctx = useSimulator({ profile: 'plainNewApi' });
const rl = (value) => ({ __rl: true, mode: 'id', value });
const image = {
	resource: 'image',
	operation: 'generate',
	modelId: rl('gpt-image-2'),
	prompt: '={{ $json.prompt }}',
	download: false,
	options: { concurrency: 1 },
};
const chat = {
	resource: 'text',
	operation: 'message',
	modelId: rl('gpt-5.6-sol'),
	messages: { values: [{ role: 'user', content: 'hello' }] },
};
const prompts = (n) =>
	Array.from({ length: n }, (_, i) => ({ json: { prompt: `poster ${i + 1}` } }));
const usageReads = () => ctx.sim.count('GET', '/api/usage/token/');

async function run(parameters, options = {}) {
	const result = await runNode({
		parameters,
		credentials: ctx.creds,
		continueOnFail: true,
		...options,
	});
	expect(JSON.stringify(result.items.map((i) => i.json))).not.toContain(API_KEY);
	return result;
}

describe('a bare 401 told as what the key is', () => {
	test('a key used up after two images of five: the rest say "used up", the usage route read once, nothing charged', async () => {
		ctx.sim.setKeyState('exhausted', { afterCalls: 2 });
		const result = await run(image, { items: prompts(5) });
		const [ok, refused] = [
			result.items.filter((i) => !i.json.error),
			result.items.filter((i) => i.json.error),
		];
		expect(ok).toHaveLength(2);
		expect(refused).toHaveLength(3);
		for (const item of refused) {
			expect(item.json.error).toBe(
				"This API key's own quota at the gateway is used up (401) while submitting the image generation (created: no)",
			);
			expect(item.json.created).toBe('no');
			expect(item.json.description).toMatch(
				/Its usage route shows -0\.0001 USD left\. Raise the key's remaining quota/,
			);
			expect(item.json.description).toMatch(/It was accepted for an earlier call of this run\./);
			expect(item.json.description).not.toMatch(/copy it again/);
		}
		expect(usageReads()).toBe(1);
		expect(ctx.sim.count('POST', '/v1/images/generations')).toBe(5);
	});

	test.each([
		[
			'disabled',
			/^This API key is disabled at the gateway \(401\) while asking model 'gpt-5\.6-sol' \(created: no\)$/,
			/Enable the key/,
		],
		[
			'expired',
			/^This API key has expired at the gateway \(401\) while asking model 'gpt-5\.6-sol' \(created: no\)$/,
			/Extend its expiry/,
		],
	])('a %s key from the first call: said so', async (state, message, advice) => {
		ctx.sim.setKeyState(state);
		const result = await run(chat);
		expect(result.items[0].json.error).toMatch(message);
		expect(result.items[0].json.description).toMatch(advice);
		expect(result.items[0].json.description).not.toMatch(/earlier call of this run/);
	});

	test('a wrong key is still called wrong: copy it again (its usage route refuses it too)', async () => {
		const result = await run(chat, { credentials: { ...ctx.creds, apiKey: 'sk-not-the-key' } });
		expect(result.items[0].json.error).toMatch(/^The gateway rejected the API key \(401\)/);
		expect(result.items[0].json.description).toMatch(/copy it again/);
	});
});
