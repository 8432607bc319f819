'use strict';
// In real n8n, a unified video on a relay build without the /v1/tasks extension (it answers 404
// "Invalid URL" there, and the OpenAI video object at submit) is read through
// GET /v1/video/generations/{id} and finishes with its file.
const assert = require('node:assert/strict');
const { nodeItems } = require('../run-e2e');

module.exports = async function (run, sim) {
	const items = nodeItems(run, 'Generate Video');
	assert.equal(items.length, 1, `expected 1 video item, got ${items.length}`);
	const { json, binary } = items[0];
	assert.equal(json.state, 'succeeded', `not succeeded: ${JSON.stringify(json)}`);
	assert.equal(json.answeredBy, 'GET /v1/video/generations/{id}');
	assert.ok(sim.count('GET', `/v1/video/generations/${json.taskId}`) >= 1);
	assert.equal(sim.count('POST', '/v1/video/generations'), 1);
	assert.ok(binary && binary.data, 'no binary "data" on the item');
	assert.equal(binary.data.mimeType, 'video/mp4');
};

module.exports.before = (sim) => {
	sim.scenario('*', { durationMs: 1500, tasksRoute: 'none', videoSubmit: 'openai' });
};
