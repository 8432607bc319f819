'use strict';
// The relay's overload guard (new-api middleware/performance.go, issue 55 item 1): while the
// server is above its CPU, memory or disk limit, every relay call is answered 503
// `system_<kind>_overloaded` before the key is checked, so nothing reached an upstream and nothing
// was billed (docs/gateway-contract.md §7). Through n8n's execution code against the simulator in
// its plain new-api profile, whose consume log has one row per billed synchronous call: a refused
// call is waited out and sent again as a 429 is, one charge in the end; given up on, it says
// "overloaded", created: no, and Retry On Fail may send it again. Then the predicate on its own.
const path = require('node:path');
const { API_KEY, useSimulator } = require('./support');
const { runNode } = require('./harness');

const TRANSPORT = path.resolve(__dirname, '../dist/nodes/UnifiedAiGateway/transport');
const { refusedBeforeBilling } = require(path.join(TRANSPORT, 'created.js'));
const { explainGatewayError } = require(path.join(TRANSPORT, 'errors.js'));
// The very object request.ts reads (the harness loads the node from the same dist files).
const { RATE_LIMIT } = require(path.join(TRANSPORT, 'retry.js'));

const ctx = useSimulator({ profile: 'plainNewApi' });
const rl = (value) => ({ __rl: true, mode: 'id', value });
const RETRY = { retryOnFail: true, maxTries: 2, waitBetweenTries: 1 };
const OVERLOADED =
	/^The gateway is overloaded \(its CPU use is above its limit\) and refused the request before billing it \(503\) while .+ \(created: no\)$/;

const image = (extra = {}) => ({
	resource: 'image',
	operation: 'generate',
	modelId: rl('gpt-image-2'),
	prompt: 'a red fox',
	download: false,
	...extra,
});
const chat = (extra = {}) => ({
	resource: 'text',
	operation: 'message',
	modelId: rl('gpt-5.6-sol'),
	messages: { values: [{ role: 'user', content: 'hello' }] },
	...extra,
});
const imageSubmits = () => ctx.sim.count('POST', '/v1/images/generations');
const chatCalls = () => ctx.sim.count('POST', '/v1/chat/completions');
/** What the relay billed: its consume log (GET /api/log/token), a row per settled synchronous call. */
async function charges() {
	const answer = await fetch(`${ctx.sim.mainUrl}/api/log/token`, { headers: { Authorization: `Bearer ${API_KEY}` } });
	const { data } = await answer.json();
	return data.map((row) => row.model_name);
}

let executions = 0;
async function run(parameters, options = {}) {
	const result = await runNode({ parameters, credentials: ctx.creds, executionId: `overload-${++executions}`, ...options });
	const error = result.error ? { message: result.error.message, description: result.error.description } : {};
	expect(JSON.stringify({ items: result.items.map((i) => i.json), error })).not.toContain(API_KEY);
	return result;
}

describe('an overload refusal is waited out and sent again, as a 429 is', () => {
	test('Image → Generate (sync gpt-image-2), its first 2 calls overloaded: 3 submits, one charge, no error', async () => {
		const guard = ctx.sim.overload(2);
		const result = await run(image());
		expect(result.error).toBeUndefined();
		expect(guard.refused).toBe(2);
		expect(imageSubmits()).toBe(3);
		const [item] = result.items;
		expect(item.json.error).toBeUndefined();
		expect(item.json.url).toMatch(/^http/);
		expect(ctx.sim.syncResults()).toHaveLength(1);
		expect(await charges()).toEqual(['gpt-image-2']);
	});

	test('Text → Message a Model, its first 2 calls overloaded (memory): 3 calls, one answer', async () => {
		const guard = ctx.sim.overload(2, 'memory');
		const result = await run(chat());
		expect(result.error).toBeUndefined();
		expect(guard.refused).toBe(2);
		expect(chatCalls()).toBe(3);
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json.error).toBeUndefined();
		expect(JSON.stringify(result.items[0].json)).toMatch(/Echo: hello/);
		expect(await charges()).toEqual(['gpt-5.6-sol']);
	});
});

describe('an overload longer than the node waits', () => {
	// Three sends per request instead of the two minutes' worth a real run waits: the cap of
	// refusals without a Retry-After (the guard sends none) ends the wait after the third.
	const saved = { ...RATE_LIMIT };
	beforeEach(() => {
		RATE_LIMIT.maxAttempts = 3;
	});
	afterEach(() => Object.assign(RATE_LIMIT, saved));

	test('Image → Generate: the item says overloaded, created: no, nothing charged', async () => {
		ctx.sim.overload(Infinity);
		const result = await run(image(), { continueOnFail: true });
		const [item] = result.items;
		expect(item.json.error).toMatch(OVERLOADED);
		expect(item.json.created).toBe('no');
		expect(item.json.description).toMatch(/Gateway said: system cpu overloaded \(current: 95\.0%, threshold: 90%\)/);
		expect(item.json.description).toMatch(/HTTP status: 503, code: system_cpu_overloaded/);
		expect(item.json.description).toMatch(/Nothing was charged/);
		expect(item.json.description).toMatch(/Created: no\./);
		expect(JSON.stringify(item.json)).not.toMatch(/may have been|billed and|task list/);
		expect(imageSubmits()).toBe(3);
		expect(ctx.sim.syncResults()).toHaveLength(0);
		expect(await charges()).toEqual([]);
	});

	test('Image → Generate with Retry On Fail: the refused item is sent again by the next try, and succeeds once', async () => {
		// Try 1: three refusals. Try 2: one more, then the image.
		const guard = ctx.sim.overload(4);
		const result = await run(image(), { nodeSettings: RETRY });
		expect(result.error).toBeUndefined();
		expect(guard.refused).toBe(4);
		expect(imageSubmits()).toBe(5);
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json.url).toMatch(/^http/);
		expect(await charges()).toEqual(['gpt-image-2']);
	});

	test('Text → Message a Model: the error says overloaded, created: no; Retry On Fail asks again', async () => {
		ctx.sim.overload(Infinity);
		const failed = await run(chat());
		expect(failed.error.message).toMatch(OVERLOADED);
		expect(failed.error.context.created).toBe('no');
		expect(chatCalls()).toBe(3);
		expect(await charges()).toEqual([]);
		ctx.fresh();
		ctx.sim.overload(4);
		const retried = await run(chat(), { nodeSettings: RETRY });
		expect(retried.error).toBeUndefined();
		expect(chatCalls()).toBe(5);
		expect(JSON.stringify(retried.items[0].json)).toMatch(/Echo: hello/);
		expect(await charges()).toEqual(['gpt-5.6-sol']);
	});
});

describe('refusedBeforeBilling: the one place that knows which answers billed nothing', () => {
	const guard = (kind) => ({ error: { message: `system ${kind} overloaded`, type: 'new_api_error', param: '', code: `system_${kind}_overloaded` } });

	test.each(['cpu', 'memory', 'disk'])('a 503 system_%s_overloaded: refused before billing, created: no', (kind) => {
		expect(refusedBeforeBilling(503, guard(kind))).toBe(true);
		const explained = explainGatewayError({ action: 'submitting the image', billed: true, status: 503, body: guard(kind) });
		expect(explained.rule).toBe('gateway-overloaded');
		expect(explained.created).toBe('no');
		expect(explained.code).toBe(`system_${kind}_overloaded`);
		const named = kind === 'cpu' ? 'CPU' : kind;
		expect(explained.message).toMatch(new RegExp(`^The gateway is overloaded \\(its ${named} use is above its limit\\)`));
	});

	test('the code in a flat envelope (a proxy that flattened it) counts too', () => {
		expect(refusedBeforeBilling(503, { code: 'system_disk_overloaded', message: 'system disk overloaded', data: null })).toBe(true);
	});

	test.each([
		['a 503 without a code', 503, { error: { message: 'Service Unavailable', type: 'new_api_error', param: '', code: '' } }],
		['a 503 with an empty body', 503, ''],
		['a 503 with another code', 503, { error: { message: 'x', code: 'model_not_found' } }],
		['a 503 whose text only says overloaded', 503, { error: { message: 'system cpu overloaded' } }],
		['the code on a 500', 500, { error: { code: 'system_cpu_overloaded' } }],
		['the code on a 200', 200, { error: { code: 'system_cpu_overloaded' } }],
		['a code that only looks like it', 503, { error: { code: 'system_cpu_overloaded_x' } }],
	])('%s: not known to be refused', (_name, status, body) => {
		expect(refusedBeforeBilling(status, body)).toBe(false);
	});

	test('a 503 without the code stays created: unknown', () => {
		const explained = explainGatewayError({ action: 'submitting the image', billed: true, status: 503, body: { error: { message: 'Service Unavailable', code: '' } } });
		expect(explained.created).toBe('unknown');
		expect(explained.rule).not.toBe('gateway-overloaded');
	});
});
