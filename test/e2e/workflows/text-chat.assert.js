'use strict';
// The packed node chats in real n8n: the request body it sends, the simplified output, and
// the streamed run (SSE read through n8n's own HTTP stack) giving the very same output.
const assert = require('node:assert/strict');
const { nodeOutput } = require('../run-e2e');

const QUESTION = 'What is a lighthouse for?';

module.exports = async function (run, sim) {
	const plain = nodeOutput(run, 'Message Model');
	const streamed = nodeOutput(run, 'Message Model Streamed');
	assert.equal(plain.length, 1, `expected 1 plain item, got ${plain.length}`);
	assert.equal(plain[0].text, `Echo: ${QUESTION}`, `plain answer: ${JSON.stringify(plain[0])}`);
	assert.equal(plain[0].model, 'gpt-5.6-sol');
	assert.equal(plain[0].finishReason, 'stop');
	assert.equal(typeof plain[0].usage?.total_tokens, 'number', `usage: ${JSON.stringify(plain[0].usage)}`);
	assert.deepEqual(streamed, plain, 'the streamed output differs from the plain one');

	const calls = sim.find('POST', '/v1/chat/completions');
	assert.equal(calls.length, 2, `expected 2 chat calls, simulator saw ${calls.length}`);
	const expected = {
		model: 'gpt-5.6-sol',
		messages: [
			{ role: 'system', content: 'Answer in one sentence.' },
			{ role: 'user', content: QUESTION },
		],
		temperature: 0.2,
	};
	const byStream = (c) => (c.body.stream === true ? 1 : 0);
	const [plainCall, streamCall] = [...calls].sort((a, b) => byStream(a) - byStream(b));
	assert.deepEqual(plainCall.body, expected);
	assert.deepEqual(streamCall.body, { ...expected, stream: true, stream_options: { include_usage: true } });
	for (const call of calls) assert.equal(call.authValid, true, 'a chat call carried a wrong key');
	assert.ok(!JSON.stringify(run).includes('sk-sim-good'), 'the API key appears in the run data');
};
