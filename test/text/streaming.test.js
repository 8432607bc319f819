'use strict';
// Text → Message a Model with Stream on: the same answer as without, broken streams named as
// errors, and, for stream shapes the simulator cannot make, a raw SSE server.
const http = require('node:http');
const { API_KEY } = require('../support');
const { runNode } = require('../harness');
const { MODEL, params, expectNoKey, answerOf, answerFields, firstPiece, useTextSuite } = require('./suite');

const { ctx, chat } = useTextSuite();

describe('streaming', () => {
	test('the streamed answer equals the plain one (simplified output)', async () => {
		const plain = await chat({ messages: { values: [{ role: 'user', content: 'stream me, ünïcödé 世界 🎉' }] } });
		const streamed = await chat({
			messages: { values: [{ role: 'user', content: 'stream me, ünïcödé 世界 🎉' }] },
			options: { stream: true },
		});
		expect(plain.error).toBeUndefined();
		expect(streamed.error).toBeUndefined();
		expect(streamed.items.map((i) => answerFields(i.json))).toEqual(plain.items.map((i) => answerFields(i.json)));
		expect(streamed.items[0].json.text).toBe(answerOf('stream me, ünïcödé 世界 🎉'));
		expect(streamed.items[0].json.usage.total_tokens).toBeGreaterThan(0);

		const [plainCall, streamCall] = ctx.sim.find('POST', '/v1/chat/completions');
		expect(plainCall.body.stream).toBeUndefined();
		expect(streamCall.body).toEqual({ ...plainCall.body, stream: true, stream_options: { include_usage: true } });
	});

	test('the streamed full completion equals the plain one apart from id and time', async () => {
		const plain = await chat({ simplifyOutput: false });
		const streamed = await chat({ simplifyOutput: false, options: { stream: true } });
		const strip = (json) => {
			const { id, created, ...rest } = answerFields(json);
			return rest;
		};
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
		expect(answerFields(result.items[0].json)).toEqual({
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
		expect(answerFields(result.items[0].json)).toEqual({ text: 'plain', model: 'm', finishReason: 'stop', usage: null });
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
