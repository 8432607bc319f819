'use strict';
// In real n8n 2.x: the gateway refuses the AI Agent's chat call (the key's quota is used up, new-api's
// 403 insufficient_user_quota in OpenAI's envelope). The agent's error is the gateway's, in the
// package's words (transport/errorRules.ts) — not n8n's "Forbidden - perhaps check your
// credentials?" — with nothing billed and no key anywhere in the run. Sent once: a billed call
// that may have been processed is never repeated (the transport resends only a 429 or an overload).
const assert = require('node:assert/strict');

const QUOTA = { error: { message: 'user quota is not enough (request id: r1)', type: 'new_api_error', param: '', code: 'insufficient_user_quota' } };

module.exports = async function (run, sim) {
	const text = JSON.stringify(run.data.resultData);
	assert.match(
		text,
		/Your gateway balance is too low for this request \(insufficient_user_quota\) while asking model 'gpt-5\.6-sol' \(created: no\)/,
		`the run's error: ${JSON.stringify(run.data.resultData.error && run.data.resultData.error.message)}`,
	);
	assert.ok(!/perhaps check your credentials/i.test(text), "n8n's generic words replaced the gateway's");
	assert.equal(sim.find('POST', '/v1/chat/completions').length, 1, 'the refused chat call was sent more than once');
	assert.ok(!text.includes('sk-sim-good'), 'the API key appears in the run data');
};

module.exports.before = (sim) => sim.inject({ method: 'POST', path: '/v1/chat/completions', status: 403, body: QUOTA, times: 5 });
module.exports.expectError = true;
module.exports.minMajor = 2;
