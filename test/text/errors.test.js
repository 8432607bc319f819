'use strict';
// Text → Message a Model: gateway errors named for the user, a POST never resent, the key never shown.
const { runNode } = require('../harness');
const { MODEL, params, useTextSuite } = require('./suite');

const { ctx, chat } = useTextSuite();

describe('gateway errors', () => {
	const NOT_OFFERED =
		"Model 'model-outside-group' is not available to this API key's group (No available channel): the gateway does not offer it to this key (retired upstream, or not in the key's group 'default') (created: no)";

	test('503 No available channel names the model, the key group and the text models the key can use', async () => {
		const result = await chat({ modelId: { __rl: true, mode: 'id', value: 'model-outside-group' } });
		expect(result.error?.message).toBe(NOT_OFFERED);
		expect(result.error.description).toMatch(new RegExp('^Text models this key can use \\(GET /v1/models\\): claude-sonnet-4, claude-sonnet-4-5, deepseek-chat, deepseek-reasoner, deepseek-v3, gemini-2\\.5-flash, ' +
			'gemini-2\\.5-pro, gpt-4\\.1, gpt-4o, gpt-4o-audio-preview, gpt-4o-mini, gpt-5, gpt-5-mini, gpt-5\\.6-sol\\.\\n'));
		expect(result.error.description).toMatch(/No available channel for model model-outside-group/);
		expect(ctx.sim.count('POST', '/v1/chat/completions')).toBe(1);
		expect(ctx.sim.count('GET', '/v1/models')).toBe(1);
	});

	test('503 No available channel on a streamed request gives the same message', async () => {
		const result = await chat({ modelId: { __rl: true, mode: 'id', value: 'model-outside-group' }, options: { stream: true } });
		expect(result.error?.message).toBe(NOT_OFFERED);
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

	test('a 200 answer that is an error object is a refusal with the gateway text: nothing was created', async () => {
		ctx.sim.inject({ path: '/v1/chat/completions', status: 200, body: { error: { message: 'upstream refused the prompt' } } });
		const result = await chat();
		expect(result.error?.message).toBe(`The gateway refused the request while asking model '${MODEL}': upstream refused the prompt (created: no)`);
	});

	test('a 200 answer without choices (and no refusal in it) is an error with the gateway text', async () => {
		ctx.sim.inject({ path: '/v1/chat/completions', status: 200, body: { id: 'chatcmpl-1', message: 'upstream refused the prompt' } });
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
