'use strict';
// Text → Message a Model (POST /v1/chat/completions) through n8n-core's execution engine,
// against the gateway simulator and, for stream shapes the simulator cannot make, a raw SSE server.
const http = require('node:http');
const { API_KEY, useSimulator } = require('./support');
const { runNode } = require('./harness');

const MODEL = 'gpt-5.6-sol';

const ctx = useSimulator();

function params(overrides = {}) {
	return {
		resource: 'text',
		operation: 'message',
		modelId: { __rl: true, mode: 'id', value: MODEL },
		messages: { values: [{ role: 'user', content: 'hello world' }] },
		simplifyOutput: true,
		options: {},
		...overrides,
	};
}

async function chat(overrides = {}, run = {}) {
	const result = await runNode({ parameters: params(overrides), credentials: ctx.creds, ...run });
	expectNoKey(result);
	return result;
}

/** Everything a user can see of a run must be free of the API key. */
function expectNoKey(result) {
	const error = result.error
		? { message: result.error.message, description: result.error.description, context: result.error.context }
		: {};
	const text = JSON.stringify({ items: result.items.map((i) => i.json), error });
	expect(text).not.toContain(API_KEY);
}

// The simulator's answer for a user text, split into the five stream pieces it sends.
const answerOf = (text) => `Echo: ${text}`;
const firstPiece = (content) => Array.from(content).slice(0, Math.ceil(Array.from(content).length / 5)).join('');

describe('request body', () => {
	test('sends model, system shortcut, messages, options and additional body fields', async () => {
		const result = await chat({
			messages: {
				values: [
					{ role: 'user', content: 'first question' },
					{ role: 'assistant', content: 'first answer' },
					{ role: 'user', content: 'give JSON' },
				],
			},
			options: {
				systemMessage: 'Answer briefly.',
				temperature: 0.3,
				maxTokens: 50,
				topP: 0.9,
				jsonOutput: true,
				additionalBodyFields: '{"seed": 7, "presence_penalty": 0.5}',
			},
		});
		expect(result.error).toBeUndefined();
		const calls = ctx.sim.find('POST', '/v1/chat/completions');
		expect(calls).toHaveLength(1);
		expect(calls[0].body).toEqual({
			model: MODEL,
			messages: [
				{ role: 'system', content: 'Answer briefly.' },
				{ role: 'user', content: 'first question' },
				{ role: 'assistant', content: 'first answer' },
				{ role: 'user', content: 'give JSON' },
			],
			temperature: 0.3,
			max_tokens: 50,
			top_p: 0.9,
			response_format: { type: 'json_object' },
			seed: 7,
			presence_penalty: 0.5,
		});
		expect(calls[0].headers['content-type']).toMatch(/^application\/json/);
		expect(calls[0].authValid).toBe(true);
		expect(result.items).toHaveLength(1);
		const { json } = result.items[0];
		expect(json).toEqual({
			text: JSON.stringify({ echo: 'give JSON', model: MODEL }),
			model: MODEL,
			finishReason: 'stop',
			usage: expect.objectContaining({ total_tokens: expect.any(Number) }),
		});
		expect(Object.keys(json).sort()).toEqual(['finishReason', 'model', 'text', 'usage']);
	});

	test('without options the body is only model and messages', async () => {
		const result = await chat();
		expect(result.error).toBeUndefined();
		expect(ctx.sim.find('POST', '/v1/chat/completions')[0].body).toEqual({
			model: MODEL,
			messages: [{ role: 'user', content: 'hello world' }],
		});
		expect(result.items[0].json.text).toBe(answerOf('hello world'));
	});

	test('Simplify Output off returns the full chat completion', async () => {
		const result = await chat({ simplifyOutput: false });
		const { json } = result.items[0];
		expect(json.object).toBe('chat.completion');
		expect(json.id).toMatch(/^chatcmpl-/);
		expect(json.choices).toEqual([
			{ index: 0, message: { role: 'assistant', content: answerOf('hello world') }, finish_reason: 'stop' },
		]);
		expect(json.usage.total_tokens).toBeGreaterThan(0);
	});

	test.each([
		['not JSON', '{seed: 7', /Additional Body Fields \(JSON\) is not valid JSON/],
		['an array', '[1, 2]', /Additional Body Fields \(JSON\) must be a JSON object, not an array/],
		['a number', '42', /Additional Body Fields \(JSON\) must be a JSON object, not a number/],
		['a field with its own option', '{"stream": true}', /Additional Body Fields \(JSON\) sets 'stream', which comes from the Stream option/],
	])('Additional Body Fields as %s is refused with zero requests', async (_what, value, message) => {
		const result = await chat({ options: { additionalBodyFields: value } });
		expect(result.error?.message).toMatch(message);
		expect(result.items).toHaveLength(0);
		expect(ctx.sim.requests).toHaveLength(0);
	});

	test('messages without any user text are refused with zero requests', async () => {
		const result = await chat({ messages: { values: [{ role: 'user', content: '   ' }] }, options: { systemMessage: 'Be brief.' } });
		expect(result.error?.message).toMatch(/Messages has no user or assistant message with text/);
		expect(ctx.sim.requests).toHaveLength(0);
	});
});

describe('streaming', () => {
	test('the streamed answer equals the plain one (simplified output)', async () => {
		const plain = await chat({ messages: { values: [{ role: 'user', content: 'stream me, ünïcödé 世界 🎉' }] } });
		const streamed = await chat({
			messages: { values: [{ role: 'user', content: 'stream me, ünïcödé 世界 🎉' }] },
			options: { stream: true },
		});
		expect(plain.error).toBeUndefined();
		expect(streamed.error).toBeUndefined();
		expect(streamed.items.map((i) => i.json)).toEqual(plain.items.map((i) => i.json));
		expect(streamed.items[0].json.text).toBe(answerOf('stream me, ünïcödé 世界 🎉'));
		expect(streamed.items[0].json.usage.total_tokens).toBeGreaterThan(0);

		const [plainCall, streamCall] = ctx.sim.find('POST', '/v1/chat/completions');
		expect(plainCall.body.stream).toBeUndefined();
		expect(streamCall.body).toEqual({ ...plainCall.body, stream: true, stream_options: { include_usage: true } });
	});

	test('the streamed full completion equals the plain one apart from id and time', async () => {
		const plain = await chat({ simplifyOutput: false });
		const streamed = await chat({ simplifyOutput: false, options: { stream: true } });
		const strip = ({ id, created, ...rest }) => rest;
		expect(strip(streamed.items[0].json)).toEqual(strip(plain.items[0].json));
		expect(streamed.items[0].json.id).toMatch(/^chatcmpl-/);
		expect(typeof streamed.items[0].json.created).toBe('number');
	});

	test('a stream broken halfway is an error naming how much arrived, never a partial answer', async () => {
		ctx.sim.inject({ path: '/v1/chat/completions', kind: 'breakStream' });
		const result = await chat({ options: { stream: true } });
		const sent = firstPiece(answerOf('hello world')).length;
		expect(result.items).toHaveLength(0);
		expect(result.error?.message).toBe(
			`The answer from model '${MODEL}' was cut off after ${sent} characters: the connection closed before the end`,
		);
		expect(result.error.description).toMatch(/^Connection error: ECONNRESET\.\nNo partial answer is returned/);
		expect(ctx.sim.count('POST', '/v1/chat/completions')).toBe(1);
	});

	test('with Continue On Fail the broken stream becomes an error item, not a text', async () => {
		ctx.sim.inject({ path: '/v1/chat/completions', kind: 'breakStream' });
		const result = await chat({ options: { stream: true } }, { continueOnFail: true });
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json.text).toBeUndefined();
		expect(result.items[0].json.error).toMatch(/was cut off after \d+ characters/);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});
});

describe('gateway errors', () => {
	test('503 No available channel names the model and the key group', async () => {
		const result = await chat({ modelId: { __rl: true, mode: 'id', value: 'model-outside-group' } });
		expect(result.error?.message).toBe(
			"Model 'model-outside-group' is not available to this API key's group (No available channel) (created: no)",
		);
		expect(result.error.description).toMatch(/No available channel for model model-outside-group/);
		expect(ctx.sim.count('POST', '/v1/chat/completions')).toBe(1);
	});

	test('503 No available channel on a streamed request gives the same message', async () => {
		const result = await chat({ modelId: { __rl: true, mode: 'id', value: 'model-outside-group' }, options: { stream: true } });
		expect(result.error?.message).toBe(
			"Model 'model-outside-group' is not available to this API key's group (No available channel) (created: no)",
		);
	});

	test('a 500 on the POST is not retried', async () => {
		ctx.sim.inject({ path: '/v1/chat/completions', status: 500 });
		const result = await chat();
		expect(result.error?.message).toMatch(/do request failed/);
		expect(ctx.sim.count('POST', '/v1/chat/completions')).toBe(1);
	});

	test('a dropped connection is reported as lost and not resent', async () => {
		ctx.sim.inject({ path: '/v1/chat/completions', kind: 'drop' });
		const result = await chat();
		expect(result.error?.message).toMatch(/^Could not reach the gateway while asking model 'gpt-5.6-sol' \(ECONNRESET\)/);
		expect(ctx.sim.count('POST', '/v1/chat/completions')).toBe(1);
	});

	test('a 200 answer without choices is an error with the gateway text', async () => {
		ctx.sim.inject({ path: '/v1/chat/completions', status: 200, body: { error: { message: 'upstream refused the prompt' } } });
		const result = await chat();
		expect(result.error?.message).toBe(
			`The gateway's answer from model '${MODEL}' holds no chat completion: upstream refused the prompt (created: unknown)`,
		);
	});

	test('a wrong key is reported without the key', async () => {
		const result = await runNode({ parameters: params(), credentials: { ...ctx.creds, apiKey: 'sk-wrong-secret-key' } });
		expect(result.error?.message).toMatch(/rejected the API key \(401\)/);
		expect(JSON.stringify({ m: result.error.message, d: result.error.description })).not.toContain('sk-wrong-secret-key');
	});
});

describe('several items', () => {
	const items = [0, 1, 2, 3].map((n) => ({ json: { q: `question ${n}` } }));
	const byExpression = { messages: { values: [{ role: 'user', content: '={{ $json.q }}' }] } };

	test('run concurrently, come out in input order with pairedItem', async () => {
		ctx.sim.inject({ path: '/v1/chat/completions', delayMs: 400, times: 4 });
		const result = await chat({ ...byExpression, concurrency: 5 }, { items });
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.text)).toEqual(items.map((i) => answerOf(i.json.q)));
		expect(result.items.map((i) => i.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		const arrivals = ctx.sim.find('POST', '/v1/chat/completions').map((r) => r.at);
		expect(arrivals).toHaveLength(4);
		// All four were sent before the first 400 ms answer could have come back.
		expect(Math.max(...arrivals) - Math.min(...arrivals)).toBeLessThan(300);
		expect(result.durationMs).toBeLessThan(4 * 400);
	});

	test('the concurrency cap holds: 2 at a time', async () => {
		ctx.sim.inject({ path: '/v1/chat/completions', delayMs: 300, times: 4 });
		const result = await chat({ ...byExpression, concurrency: 2, options: { stream: true } }, { items });
		expect(result.items.map((i) => i.json.text)).toEqual(items.map((i) => answerOf(i.json.q)));
		const arrivals = ctx.sim.find('POST', '/v1/chat/completions').map((r) => r.at).sort((a, b) => a - b);
		expect(arrivals[2] - arrivals[0]).toBeGreaterThanOrEqual(250);
		expect(result.durationMs).toBeGreaterThanOrEqual(600);
	});

	test('one failing item does not hide the others (Continue On Fail)', async () => {
		ctx.sim.inject({ path: '/v1/chat/completions', kind: 'breakStream' });
		const one = [{ json: { q: 'a' } }];
		const result = await chat({ ...byExpression, concurrency: 1, options: { stream: true } }, { items: [...one, ...items.slice(1, 3)], continueOnFail: true });
		expect(result.items).toHaveLength(3);
		expect(result.items[0].json.error).toMatch(/cut off/);
		expect(result.items[1].json.text).toBe(answerOf('question 1'));
		expect(result.items[2].json.text).toBe(answerOf('question 2'));
		expect(result.items.map((i) => i.pairedItem.item)).toEqual([0, 1, 2]);
	});
});

describe('stream shapes from a raw SSE server', () => {
	let server;
	let respond;
	let rawCreds;
	beforeAll(async () => {
		server = http.createServer((req, res) => {
			req.resume();
			req.on('end', () => respond(res));
		});
		await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
		rawCreds = { baseUrl: `http://127.0.0.1:${server.address().port}/v1`, apiKey: API_KEY };
	});
	afterAll(async () => {
		// n8n's HTTP agent keeps connections alive; close them or the server never stops.
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	});

	const chunk = (delta, finish = null, extra = {}) =>
		JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }], ...extra });

	/** Writes the pieces one by one with a pause, so each arrives as its own chunk. */
	function sse(pieces, { end = true, type = 'text/event-stream' } = {}) {
		return async (res) => {
			res.writeHead(200, { 'Content-Type': type });
			for (const piece of pieces) {
				res.write(piece);
				await new Promise((r) => setTimeout(r, 5));
			}
			if (end) res.end();
			else res.destroy();
		};
	}

	const streamed = async (extra = {}) => {
		const result = await runNode({ parameters: params({ options: { stream: true }, ...extra }), credentials: rawCreds });
		expectNoKey(result);
		return result;
	};

	test('comments, CRLF, split UTF-8 and a missing [DONE] after finish_reason still give the whole answer', async () => {
		const euro = Buffer.from(`data: ${chunk({ content: 'x€y' })}\r\n\r\n`);
		const cut = euro.indexOf(Buffer.from('€')) + 1; // inside the three bytes of €
		respond = sse([
			': keep-alive\n\n',
			`data: ${chunk({ role: 'assistant', content: '' })}\r\n\r`,
			'\n',
			euro.subarray(0, cut),
			euro.subarray(cut),
			`event: message\nid: 3\ndata: ${chunk({ content: ' 世界' })}\n\n`,
			`data: ${chunk({}, 'stop', { usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } })}`,
		]);
		const result = await streamed();
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toEqual({
			text: 'x€y 世界',
			model: 'm',
			finishReason: 'stop',
			usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
		});
	});

	test('a data event that is not JSON is an error', async () => {
		respond = sse([`data: ${chunk({ content: 'Hello' })}\n\n`, 'data: {"choices": [oops\n\n', 'data: [DONE]\n\n']);
		const result = await streamed();
		expect(result.items).toHaveLength(0);
		expect(result.error?.message).toBe(
			`The gateway sent a stream event that is not a JSON object after 5 characters of the answer from model '${MODEL}'`,
		);
	});

	test('a stream that ends cleanly without [DONE] or finish_reason is cut off', async () => {
		respond = sse([`data: ${chunk({ content: 'Hello' })}\n\n`, `data: ${chunk({ content: ', wor' })}\n\n`]);
		const result = await streamed();
		expect(result.error?.message).toBe(
			`The answer from model '${MODEL}' was cut off after 10 characters: the stream ended without [DONE] or a finish reason`,
		);
	});

	test('an error event in the middle of the stream is an error with its text', async () => {
		respond = sse([`data: ${chunk({ content: 'Hel' })}\n\n`, 'data: {"error":{"message":"upstream overloaded","code":"busy"}}\n\n']);
		const result = await streamed();
		expect(result.error?.message).toBe(
			`The gateway reported an error in the middle of the answer from model '${MODEL}' (after 3 characters): upstream overloaded`,
		);
	});

	test('a relay that ignores stream: true and answers JSON gives the normal output', async () => {
		const completion = { id: 'c2', object: 'chat.completion', created: 2, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'plain' }, finish_reason: 'stop' }] };
		respond = sse([JSON.stringify(completion)], { type: 'application/json' });
		const result = await streamed();
		expect(result.items[0].json).toEqual({ text: 'plain', model: 'm', finishReason: 'stop', usage: null });
	});

	test('an HTML page instead of an event stream is named as such', async () => {
		respond = sse(['<html><body>Welcome to my site</body></html>'], { type: 'text/html' });
		const result = await streamed();
		expect(result.error?.message).toBe(
			`The gateway answered the streamed request from model '${MODEL}' with something that is not an event stream`,
		);
		expect(result.error.description).toMatch(/Welcome to my site/);
	});
});
