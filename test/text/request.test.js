'use strict';
// Text → Message a Model (POST /v1/chat/completions) through n8n-core's execution engine against
// the gateway simulator: the body sent, the output, and bad options refused before any request.
const { MODEL, answerOf, answerFields, useTextSuite } = require('./suite');

const { ctx, chat } = useTextSuite();

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
		expect(answerFields(json)).toEqual({
			text: JSON.stringify({ echo: 'give JSON', model: MODEL }),
			model: MODEL,
			finishReason: 'stop',
			usage: expect.objectContaining({ total_tokens: expect.any(Number) }),
		});
		expect(Object.keys(json).sort()).toEqual(['estimatedCost', 'finishReason', 'model', 'spendSummary', 'text', 'usage']);
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
