'use strict';
// docs/gateway-contract.md §2.7 ("result_url, video_url, url: present on completion, possibly absent") + §4.9: a finished
// task on the compatibility route without any URL is downloaded from GET /v1/videos/{id}/content
// with the key, not reported as failed.
const assert = require('node:assert/strict');
const { nodeItems } = require('../run-e2e');

module.exports = async function (run, sim) {
	const items = nodeItems(run, 'Generate Video');
	assert.equal(items.length, 1, `expected 1 video item, got ${items.length}`);
	const { json, binary } = items[0];
	assert.equal(json.state, 'succeeded', `task not succeeded: ${JSON.stringify(json)}`);
	assert.equal(sim.find('POST', '/v1/videos').length, 1, 'expected exactly one submit');
	const content = sim.find('GET', `/v1/videos/${json.taskId}/content`);
	assert.equal(content.length, 1, `expected one /content download, saw ${content.length}`);
	assert.equal(content[0].authValid, true, '/content was fetched without the key');
	assert.ok(binary && binary.data, 'no binary "data" on the item');
	assert.equal(binary.data.mimeType, 'video/mp4');
};
module.exports.before = (sim) => sim.scenario('*', { durationMs: 1500, urlField: 'none' });
