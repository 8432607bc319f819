'use strict';
// The packed credential loads in real n8n and its `authenticate` block puts
// the Bearer key on a request made by n8n's own HTTP Request node.
const assert = require('node:assert/strict');
const { nodeOutput } = require('../run-e2e');

module.exports = async function (run, sim) {
	const items = nodeOutput(run, 'Get Balance');
	assert.equal(items.length, 1, `expected 1 output item, got ${items.length}`);
	const body = items[0];
	assert.equal(body.success, true, `balance success is not true: ${JSON.stringify(body)}`);
	assert.equal(typeof body.remain_balance, 'number', `remain_balance missing: ${JSON.stringify(body)}`);

	const calls = sim.requests.filter((r) => r.method === 'GET' && r.path === '/v1/balance');
	assert.equal(calls.length, 1, `expected exactly 1 GET /v1/balance, simulator saw ${calls.length}`);
	assert.equal(sim.count('GET', '/v1/balance'), 1);
	assert.equal(calls[0].hasAuth, true, 'GET /v1/balance had no Authorization header');
	assert.equal(calls[0].authValid, true, 'GET /v1/balance carried a wrong key');
};
