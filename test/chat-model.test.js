'use strict';
// The Unified AI Gateway Chat Model sub-node: its supplyData as n8n-core calls it for an AI Agent.
// On the n8n 2.x line (npm run test:unit:n8n-2: n8n-core, n8n-workflow and @n8n/ai-node-sdk 0.31.1 of
// n8n 2.41.1) the model it supplies (a subclass of the SDK's BaseChatModel) sends each chat call
// through the package's transport to the simulator: a tool call, then the answer, the exact bodies
// the gateway received; its refusals in the table's words, never the key. On the 1.x line (plain
// jest) n8n has no SDK: the sub-node says it needs n8n 2.x. The root's node_modules holds an older
// SDK (0.29.3, a dependency of @n8n/node-cli) that n8n 1.123.81 does not have, so it is made missing
// here; the e2e runs the real 1.123.81 (test/e2e/workflows/ai-agent-gateway).
const { supplyData } = require('./harness');
const path = require('node:path');
const { useSimulator } = require('./support');

// The very object request.ts reads (the harness loads the node from the same dist files).
const { RATE_LIMIT } = require(path.resolve(__dirname, '../dist/nodes/UnifiedAiGateway/transport/retry.js'));

const LINE_2 = require('n8n-workflow/package.json').version.startsWith('2.');
const KEY = 'sk-sim-good';

const rl = (value) => ({ __rl: true, mode: 'list', value });
const CALCULATOR = {
	type: 'function',
	function: {
		name: 'calculator',
		description: 'Useful for getting the result of a math expression.',
		parameters: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
	},
};
const overloaded = { error: { message: 'system cpu overloaded (current: 95.0%, threshold: 90%)', type: 'new_api_error', param: '', code: 'system_cpu_overloaded' } };
const quota = { error: { message: 'user quota is not enough (request id: r1)', type: 'new_api_error', param: '', code: 'insufficient_user_quota' } };
const group = { error: { message: '无权访问 vip 分组 (request id: r1)', type: 'new_api_error', param: '', code: '' } };

(LINE_2 ? describe : describe.skip)('n8n 2.x: the model it supplies, against the gateway', () => {
	const ctx = useSimulator();
	const chats = () => ctx.sim.find('POST', '/v1/chat/completions');
	let supplied;
	const model = async (options = {}, credentials = ctx.creds, modelId = 'gpt-5.6-sol') => {
		supplied = await supplyData({ parameters: { modelId: rl(modelId), options }, credentials });
		return supplied.response;
	};
	/** The error an agent would report (the model's call rejected), with what a user could read of it. */
	const failure = async (credentials = ctx.creds) => {
		const error = await (await model({}, credentials)).invoke('What is 12 * 7?').then(
			() => undefined,
			(e) => e,
		);
		expect(error).toBeDefined();
		return { error, seen: JSON.stringify({ message: error.message, description: error.description, context: error.context }) };
	};
	/** Every chat call reached the gateway with exactly `Bearer <key>`. */
	const sentWithKey = () => chats().forEach((call) => expect(call.authExact).toBe(true));

	test('a tool call, then the final answer: the exact bodies, one POST each, the key exact and nowhere else', async () => {
		const chat = (await model({ temperature: 0.2, maxTokens: 300, topP: 0.9, frequencyPenalty: 0.5 })).bindTools([CALCULATOR]);
		const first = await chat.invoke([
			['system', 'You are a careful assistant.'],
			['human', 'What is 12 * 7?'],
		]);
		expect(first.tool_calls).toEqual([expect.objectContaining({ name: 'calculator', args: { input: '12 * 7' } })]);
		const [call] = first.tool_calls;
		const final = await chat.invoke([
			['system', 'You are a careful assistant.'],
			['human', 'What is 12 * 7?'],
			first,
			{ role: 'tool', content: '84', tool_call_id: call.id },
		]);
		expect(final.text).toBe('Done. Here is what the tools returned:\ncalculator: 84');

		expect(chats()).toHaveLength(2);
		sentWithKey();
		const [one, two] = chats();
		const system = { role: 'system', content: 'You are a careful assistant.' };
		const user = { role: 'user', content: 'What is 12 * 7?' };
		const sampling = { temperature: 0.2, max_tokens: 300, top_p: 0.9, frequency_penalty: 0.5 };
		expect(one.body).toEqual({ model: 'gpt-5.6-sol', messages: [system, user], tools: [CALCULATOR], ...sampling });
		expect(two.body).toEqual({
			model: 'gpt-5.6-sol',
			messages: [
				system,
				user,
				{ role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: { name: 'calculator', arguments: '{"input":"12 * 7"}' } }] },
				{ role: 'tool', tool_call_id: call.id, content: '84' },
			],
			tools: [CALCULATOR],
			...sampling,
		});
		// What n8n logs of the calls (the sub-node's run data: messages, options, tokens) holds the
		// gateway's token counts and no key.
		const logged = JSON.stringify(supplied.runExecutionData);
		expect(logged).toContain('"tokenUsage"');
		expect(logged).not.toContain('"tokenUsageEstimate"');
		expect(logged).not.toContain(KEY);
	});

	test('a gpt-5 id keeps role system and max_tokens as the user set them (no client rewrites it)', async () => {
		await (await model({ maxTokens: 50 })).invoke([
			['system', 'Be brief.'],
			['human', 'Hello'],
		]);
		const [sent] = chats();
		expect(sent.body.messages).toEqual([
			{ role: 'system', content: 'Be brief.' },
			{ role: 'user', content: 'Hello' },
		]);
		expect(sent.body.max_tokens).toBe(50);
		expect(sent.body).not.toHaveProperty('max_completion_tokens');
	});

	test('left out: temperature 0.7, no penalties; JSON answers ask for response_format json_object', async () => {
		await (await model()).invoke('Hello');
		await (await model({ responseFormat: 'json_object' })).invoke('Answer in JSON: hello');
		const [plain, json] = chats();
		expect(plain.body).toEqual({ model: 'gpt-5.6-sol', messages: [{ role: 'user', content: 'Hello' }], temperature: 0.7 });
		expect(json.body.response_format).toEqual({ type: 'json_object' });
	});

	test('streamed (a chat trigger that streams): the one call told as chunks, the same text', async () => {
		let text = '';
		const stream = await (await model()).stream('Hello');
		for await (const chunk of stream) text += chunk.text;
		expect(text).toMatch(/Hello/);
		expect(chats()).toHaveLength(1);
	});

	test("a wrong key: the gateway's 401 in the table's words, the key nowhere", async () => {
		const wrong = 'sk-sim-wrong-0123456789';
		const { error, seen } = await failure({ ...ctx.creds, apiKey: wrong });
		expect(error.message).toMatch(/API key/i);
		expect(error.message).not.toBe('Authorization failed - please check your credentials');
		expect(error.httpCode).toBe('401');
		expect(seen).not.toContain(wrong);
		expect(seen).not.toContain(KEY);
		expect(chats()).toHaveLength(1);
	});

	test.each([
		['403 insufficient_user_quota', 403, quota, /^Your gateway balance is too low for this request \(insufficient_user_quota\) while asking model 'gpt-5\.6-sol' \(created: no\)$/],
		['403 group', 403, group, /^The gateway refused this API key's group \(403\)/],
	])('%s: told by the error table; sent once (a billed call is never repeated)', async (_name, status, body, message) => {
		ctx.sim.inject({ method: 'POST', path: '/v1/chat/completions', status, body, times: 3 });
		const { error, seen } = await failure();
		expect(error.message).toMatch(message);
		expect(seen).not.toContain(KEY);
		expect(chats()).toHaveLength(1);
	});

	test.each([
		['a 403', 403],
		['a 200', 200],
	])("%s {success:false, message}: the gateway's words kept, sent once", async (_name, status) => {
		const words = 'This token has been disabled by the administrator';
		ctx.sim.inject({ method: 'POST', path: '/v1/chat/completions', status, body: { success: false, message: words }, times: 3 });
		const { error, seen } = await failure();
		expect(seen).toContain(words);
		expect(seen).not.toContain(KEY);
		expect(chats()).toHaveLength(1);
	});

	test("the relay's overload refusal (503 system_cpu_overloaded) is sent again, as Text → Message a Model is", async () => {
		ctx.sim.inject({ method: 'POST', path: '/v1/chat/completions', status: 503, body: overloaded, times: 1 });
		const answer = await (await model()).invoke('Hello');
		expect(answer.text).toMatch(/Hello/);
		expect(chats()).toHaveLength(2);
	});

	test("an overload longer than the transport waits: the table's words, created: no, after its sends", async () => {
		// Three sends instead of the two minutes' worth a real run waits (the cap of refusals without a Retry-After).
		const cap = RATE_LIMIT.maxAttempts;
		RATE_LIMIT.maxAttempts = 3;
		ctx.sim.inject({ method: 'POST', path: '/v1/chat/completions', status: 503, body: overloaded, times: Infinity });
		const { error, seen } = await failure().finally(() => {
			RATE_LIMIT.maxAttempts = cap;
		});
		expect(error.message).toMatch(/^The gateway is overloaded \(its CPU use is above its limit\) and refused the request before billing it \(503\) while asking model 'gpt-5\.6-sol'/);
		expect(error.context.created).toBe('no');
		expect(seen).not.toContain(KEY);
		expect(chats()).toHaveLength(3);
	});

	test('a tool call whose arguments are not JSON: a clear error, created: yes, sent once', async () => {
		const completion = {
			id: 'chatcmpl-bad',
			object: 'chat.completion',
			model: 'gpt-5.6-sol',
			choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'calculator', arguments: '{"input": 12 *' } }] } }],
			usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
		};
		ctx.sim.inject({ method: 'POST', path: '/v1/chat/completions', status: 200, body: completion });
		const error = await (await model()).bindTools([CALCULATOR]).invoke('What is 12 * 7?').then(
			() => undefined,
			(e) => e,
		);
		expect(error.message).toBe("Model 'gpt-5.6-sol' answered with a tool call to 'calculator' whose arguments are not a JSON object (created: yes)");
		expect(error.context.created).toBe('yes');
		expect(chats()).toHaveLength(1);
	});

	test('a key with a character no key has: refused before anything is sent', async () => {
		const error = await supplyData({ parameters: { modelId: rl('gpt-5.6-sol') }, credentials: { ...ctx.creds, apiKey: 'sk-sim-gö' } }).then(
			() => undefined,
			(e) => e,
		);
		expect(error.message).toMatch(/in the Unified AI Gateway API credential/);
		expect(ctx.sim.requests).toHaveLength(0);
	});

	test('an option out of range is refused by its NUMBER_LIMITS row, nothing sent', async () => {
		const error = await model({ presencePenalty: 3 }).then(
			() => undefined,
			(e) => e,
		);
		expect(error.message).toBe('Presence Penalty: 3 is out of range; it takes a number from -2 to 2');
		expect(ctx.sim.requests).toHaveLength(0);
	});
});

(LINE_2 ? describe.skip : describe)('n8n 1.x: no AI Node SDK', () => {
	beforeEach(() => {
		jest.resetModules();
		jest.doMock('@n8n/ai-node-sdk', () => {
			const error = new Error("Cannot find module '@n8n/ai-node-sdk'");
			error.code = 'MODULE_NOT_FOUND';
			throw error;
		});
	});
	afterEach(() => jest.dontMock('@n8n/ai-node-sdk'));

	test('the sub-node says plainly that it needs n8n 2.x, before reading anything', async () => {
		const { supplyData: supply } = require('./harness');
		const error = await supply({
			parameters: { modelId: rl('gpt-5.6-sol') },
			credentials: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: KEY },
		}).then(
			() => undefined,
			(e) => e,
		);
		expect(error.constructor.name).toBe('NodeOperationError');
		expect(error.message).toBe(
			"The Unified AI Gateway Chat Model needs n8n 2.x (n8n's AI Node SDK, @n8n/ai-node-sdk, is not in this n8n)",
		);
		expect(error.description).toMatch(/^It could not be loaded: Cannot find module '@n8n\/ai-node-sdk'\nUpdate n8n to 2\.x/);
	});
});
