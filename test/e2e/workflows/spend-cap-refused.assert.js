'use strict';
// A nightly batch over its cap in real n8n: the run fails before the first request (the
// simulator records none but the free read of the gateway's price list, not even a balance read),
// the error names the total, the cap and the items, and the execution's custom data says nothing
// was submitted.
const assert = require('node:assert/strict');
const { nodeError } = require('../run-e2e');

module.exports = async function (run, sim) {
	const sent = sim.requests.filter((r) => r.path !== '/api/pricing');
	assert.equal(sent.length, 0, `the gateway got requests: ${sent.map((r) => `${r.method} ${r.path}`).join(', ')}`);
	const error = nodeError(run, 'Generate Images') ?? run.data.resultData.error;
	assert.ok(error, 'the run did not fail');
	assert.equal(error.message, 'Estimated cost 0.0675 USD is over the Max Estimated Cost per Run of 0.05 USD: nothing was sent.');
	assert.match(String(error.description), /The run's 3 items: 3 × gpt-image-2 \(1:1, 2K\) = 0\.0675 USD \(0\.0225 USD per call\)\./);
	const custom = run.data.resultData.metadata ?? {};
	assert.match(String(custom.gateway_Generate_Images_spend), /^Nothing submitted: Estimated cost 0\.0675 USD is over/, `custom data: ${JSON.stringify(custom)}`);
};

module.exports.expectError = true;
