'use strict';
// The same batch under its cap in real n8n: the balance is read once before the first submit
// and once after the last, the three images are submitted, and the run's summary is in the
// first item and in the execution's custom data (what the executions list shows).
const assert = require('node:assert/strict');
const { nodeOutput } = require('../run-e2e');

module.exports = async function (run, sim) {
	const items = nodeOutput(run, 'Generate Images');
	assert.equal(items.length, 3, `expected 3 image items, got ${items.length}`);
	const submits = sim.find('POST', '/v1/images/generations');
	assert.equal(submits.length, 3, `expected 3 submits, simulator saw ${submits.length}`);
	const reads = sim.find('GET', '/v1/balance').map((r) => r.at);
	assert.equal(reads.length, 2, `expected a balance read before and after, saw ${reads.length}`);
	assert.ok(reads[0] <= Math.min(...submits.map((r) => r.at)), 'the balance was not read before the first submit');
	assert.ok(reads[1] >= Math.max(...submits.map((r) => r.at)), 'the balance was not read after the last submit');

	const summary = items[0].spendSummary;
	assert.ok(summary, `no spendSummary on the first item: ${JSON.stringify(items[0])}`);
	assert.equal(summary.itemsSubmitted, 3);
	assert.equal(summary.estimatedTotalUsd, 0.0675);
	assert.deepEqual(summary.items, ['3 × gpt-image-2 (1:1, 2K) = 0.0675 USD (0.0225 USD per call)']);
	assert.equal(summary.maxRunCostUsd, 0.1);
	assert.equal(summary.balanceType, 'token');
	assert.equal(typeof summary.balanceBefore, 'number');
	assert.equal(typeof summary.balanceAfter, 'number');
	assert.equal(items[1].spendSummary, undefined, 'the summary is on more than the first item');
	for (const item of items) assert.equal(item.estimatedCost?.callAmount, 0.0225, `estimate: ${JSON.stringify(item.estimatedCost)}`);

	const custom = run.data.resultData.metadata ?? {};
	assert.equal(custom.gateway_Generate_Images_spend, `3 items submitted, about 0.0675 USD; token balance ${summary.balanceBefore} → ${summary.balanceAfter}`);
};
