'use strict';
// docs/gateway-contract.md §4.5: "poll until items[0].status is success, then read items[0].data[0].url" — the answer
// has items[] at the top level and no top-level status. The paid image reaches the user as a file.
const assert = require('node:assert/strict');
const { nodeItems } = require('../run-e2e');

module.exports = async function (run, sim) {
	const items = nodeItems(run, 'Generate Image');
	assert.equal(items.length, 1, `expected 1 image item, got ${items.length}`);
	const { json, binary } = items[0];
	assert.equal(sim.find('POST', '/v1/images/generations').length, 1, 'expected exactly one submit');
	assert.ok(sim.count('GET', `/v1/images/generations/${json.taskId}`) >= 1, 'the task was never read on the image route');
	assert.equal(json.url, sim.task(json.taskId).urls[0], `unexpected url: ${json.url}`);
	assert.ok(binary && binary.data, 'no binary "data" on the item');
	assert.equal(binary.data.mimeType, 'image/png');
};
module.exports.before = (sim) => sim.scenario('*', { durationMs: 1500, imageShape: 'items' });
