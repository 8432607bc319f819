'use strict';
// Words that fit the call (issue 55 item 5): a call answered at once (a chat, a synchronous image,
// speech) has no task, so its errors never send the user to a task list. A relay's error answer to
// such a call cost nothing (new-api charges it only when it succeeds and returns its pre-charge
// otherwise): created: no, and Retry On Fail may send it again. An answer lost after sending may
// have been billed: the key's usage log is where to look. A 429 given up on says how often and how
// long it was sent. Through n8n's execution code against the simulator's plain new-api profile.
const path = require('node:path');
const { API_KEY, useSimulator } = require('./support');
const { runNode } = require('./harness');

// The very object request.ts reads (the harness loads the node from the same dist files).
const { RATE_LIMIT } = require(path.resolve(__dirname, '../dist/nodes/UnifiedAiGateway/transport/retry.js'));

const ctx = useSimulator({ profile: 'plainNewApi' });
const rl = (value) => ({ __rl: true, mode: 'id', value });
const chat = {
	resource: 'text',
	operation: 'message',
	modelId: rl('gpt-5.6-sol'),
	messages: { values: [{ role: 'user', content: 'hello' }] },
};
const image = { resource: 'image', operation: 'generate', modelId: rl('gpt-image-2'), prompt: 'a red fox', download: false };
const speech = { resource: 'audio', operation: 'speech', modelId: rl('tts-1'), input: 'Hello there.' };
const UPSTREAM_500 = { status: 500, body: { error: { message: 'The server had an error while processing your request', type: 'upstream_error', code: 'server_error' } } };

let executions = 0;
async function run(parameters, options = {}) {
	const result = await runNode({ parameters, credentials: ctx.creds, executionId: `at-once-${++executions}`, ...options });
	const error = result.error ? { message: result.error.message, description: result.error.description } : {};
	expect(JSON.stringify({ items: result.items.map((i) => i.json), error })).not.toContain(API_KEY);
	return { result, error };
}

describe("an upstream's failure of a call answered at once cost nothing", () => {
	test.each([
		['a chat', chat, '/v1/chat/completions'],
		['a synchronous image', image, '/v1/images/generations'],
		['a speech call', speech, '/v1/audio/speech'],
	])('%s: the provider failed, created: no, no task list; Retry On Fail sends it again and it succeeds', async (_what, parameters, route) => {
		ctx.sim.inject({ method: 'POST', path: route, ...UPSTREAM_500 });
		const { result, error } = await run(parameters, { continueOnFail: true });
		expect(result.items[0].json.error).toMatch(/^The model's provider failed \(HTTP 500\) while .+: The server had an error while processing your request .*\(created: no\)$/);
		expect(result.items[0].json.created).toBe('no');
		expect(JSON.stringify(result.items[0].json)).toMatch(/nothing was charged/);
		expect(JSON.stringify({ items: result.items.map((i) => i.json), error })).not.toMatch(/task list/);

		ctx.sim.inject({ method: 'POST', path: route, ...UPSTREAM_500 });
		const retried = await run(parameters, { nodeSettings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 } });
		expect(retried.result.error).toBeUndefined();
		expect(ctx.sim.count('POST', route)).toBe(3);
	});

	test('a task submit (a video) keeps its caution: an upstream 500 may have left a task behind', async () => {
		ctx.sim.inject({ method: 'POST', path: /^\/v1\/(videos|video\/generations)$/, ...UPSTREAM_500 });
		const { result } = await run({ resource: 'video', operation: 'generate', modelId: rl('sora-2'), prompt: 'waves' }, { continueOnFail: true });
		expect(result.items[0].json.created).toBe('unknown');
		expect(result.items[0].json.error).not.toMatch(/provider failed/);
	});
});

describe('an answer lost after the call was sent', () => {
	test.each([
		['a chat', chat, '/v1/chat/completions'],
		['a speech call', speech, '/v1/audio/speech'],
	])("%s: may have been billed; the key's usage log, never the task list", async (_what, parameters, route) => {
		ctx.sim.inject({ method: 'POST', path: route, kind: 'drop' });
		const { result, error } = await run(parameters, { continueOnFail: true });
		const said = JSON.stringify({ items: result.items.map((i) => i.json), error });
		expect(result.items[0].json.created).toBe('unknown');
		expect(said).toMatch(/usage log/);
		expect(said).not.toMatch(/task list/);
		expect(ctx.sim.count('POST', route)).toBe(1);
	});
});

describe('a 429 given up on says how often and how long', () => {
	const saved = RATE_LIMIT.maxAttempts;
	afterEach(() => {
		RATE_LIMIT.maxAttempts = saved;
	});

	test('three sends a second apart, then the words: sent 3 times over 2 s', async () => {
		// Three sends instead of forty: the same path, seconds instead of two minutes.
		RATE_LIMIT.maxAttempts = 3;
		ctx.sim.inject({ method: 'POST', path: '/v1/chat/completions', status: 429, headers: { 'Retry-After': '1' }, body: '', times: 5 });
		const { result } = await run(chat, { continueOnFail: true });
		expect(ctx.sim.count('POST', '/v1/chat/completions')).toBe(3);
		expect(result.items[0].json.error).toMatch(/^The gateway is rate limiting requests \(429\) while asking model 'gpt-5\.6-sol'; the node sent it 3 times over [23] s before giving up \(created: no\)$/);
	});

	test('refused once and never sent again (a Retry-After past the wait): no count of tries', async () => {
		ctx.sim.inject({ method: 'POST', path: '/v1/chat/completions', status: 429, headers: { 'Retry-After': '3600' }, body: '' });
		const { result } = await run(chat, { continueOnFail: true });
		expect(result.items[0].json.error).toMatch(/^The gateway is rate limiting requests \(429\) while asking model 'gpt-5\.6-sol' \(created: no\)$/);
	});
});
