'use strict';
// n8n's own Retry On Fail (node settings, n8n-core's retry loop in a real n8n): 3 videos, the
// gateway fails every 2nd task. Try 1 creates 3 tasks (one fails), try 2 takes up the two finished
// ones and submits the failed item again (fails), try 3 submits it once more: 5 submits, not 9.
const assert = require('node:assert/strict');
const { nodeOutput } = require('../run-e2e');

module.exports = async function (run, sim) {
	const items = nodeOutput(run, 'Generate Videos');
	const submits = sim.find('POST', '/v1/video/generations');
	assert.equal(submits.length, 5, `expected 3 + 2 submits, the simulator saw ${submits.length}: ${submits.map((r) => r.body.prompt).join(', ')}`);
	assert.equal(items.length, 3, `expected 3 items, got ${items.length}`);
	for (const json of items) assert.equal(json.state, 'succeeded', JSON.stringify(json));
	assert.equal(new Set(items.map((json) => json.taskId)).size, 3);
	// Each prompt was billed once, but the failing one once per try.
	const perPrompt = {};
	for (const r of submits) perPrompt[r.body.prompt] = (perPrompt[r.body.prompt] ?? 0) + 1;
	assert.deepEqual(Object.values(perPrompt).sort(), [1, 1, 3], JSON.stringify(perPrompt));
};

module.exports.before = (sim) => sim.scenario('sora-2', { durationMs: 1500, failEvery: 2 });
