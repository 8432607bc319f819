'use strict';
// In real n8n (its own credentials helper and request code), a gateway that redirects the grok
// content route to a storage origin gets the key; the storage origin never does, and the
// user still gets the video.
const assert = require('node:assert/strict');
const { nodeItems } = require('../run-e2e');

module.exports = async function (run, sim) {
	const items = nodeItems(run, 'Generate Video');
	assert.equal(items.length, 1, `expected 1 video item, got ${items.length}`);
	const { json, binary } = items[0];
	assert.equal(json.status, 'completed', `not completed: ${JSON.stringify(json)}`);

	const [content] = sim.find('GET', `/v1/videos/${json.taskId}/content`, 'main');
	assert.ok(content && content.authValid, 'the gateway content route did not get the key');
	const files = sim.requests.filter((r) => r.origin === 'files');
	assert.deepEqual(files.map((r) => r.path), [`/files/${json.taskId}.mp4`]);
	assert.equal(files[0].hasAuth, false, 'the Authorization header followed the redirect to the storage origin');

	const file = binary && binary.data;
	assert.ok(file, 'no binary "data" on the item');
	assert.equal(file.mimeType, 'video/mp4');
};

module.exports.before = (sim) => {
	sim.scenario('*', { durationMs: 500 });
	sim.redirect({ path: /^\/v1\/videos\/[^/]+\/content$/, origin: 'main', to: 'files', location: (path) => `/files/${path.split('/')[3]}.mp4` });
};
