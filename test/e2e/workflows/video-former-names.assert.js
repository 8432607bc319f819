'use strict';
// Saved before grok's JSON-route fields got names of their own (videoSeconds_grokImagineVideo15Unified,
// videoSize_grokImagineVideo15Unified): in real n8n the values saved as videoSeconds and videoSize
// still reach the gateway (n8n keeps a saved value only under a name a shown field has).
const assert = require('node:assert/strict');
const { nodeItems } = require('../run-e2e');

module.exports = async function (run, sim) {
	const submits = sim.find('POST', '/v1/video/generations');
	assert.equal(submits.length, 1, `expected exactly 1 submit, simulator saw ${submits.length}`);
	assert.deepEqual(submits[0].body, {
		model: 'grok-imagine-video-1.5',
		prompt: 'A paper boat drifting down a rainy street, close-up',
		seconds: '10',
		size: '720x1280',
	});
	const items = nodeItems(run, 'Generate Video');
	assert.equal(items.length, 1, `expected 1 item, got ${items.length}`);
	assert.match(String(items[0].json.taskId), /^task_/, `no task id: ${JSON.stringify(items[0].json)}`);
};
