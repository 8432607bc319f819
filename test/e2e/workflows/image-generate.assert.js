'use strict';
// The packed node generates an image in real n8n: one sync call with the registry's body,
// the result downloaded (without the API key) into binary data, and the cost estimate.
const assert = require('node:assert/strict');
const { binaryBuffer, nodeItems } = require('../run-e2e');

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

module.exports = async function (run, sim, result) {
	const items = nodeItems(run, 'Generate Image');
	assert.equal(items.length, 1, `expected 1 image item, got ${items.length}`);
	const { json, binary } = items[0];

	const submits = sim.find('POST', '/v1/images/generations');
	assert.equal(submits.length, 1, `expected exactly 1 submit, simulator saw ${submits.length}`);
	assert.deepEqual(submits[0].body, {
		model: 'gpt-image-2',
		prompt: 'A lighthouse on a cliff at dawn, watercolor',
		size: '16:9',
		resolution: '2k',
		quality: 'auto',
		n: 1,
		response_format: 'url',
	});
	assert.match(String(json.url), /\/files\/img-\w+-1\.png$/, `unexpected url: ${json.url}`);
	assert.equal(json.estimatedCost?.amount, 0.0225, `estimate: ${JSON.stringify(json.estimatedCost)}`);

	const file = binary && binary.data;
	assert.ok(file, `no binary "data" on the item: ${JSON.stringify(Object.keys(binary || {}))}`);
	assert.equal(file.mimeType, 'image/png');
	assert.match(String(file.fileName), /\.png$/);
	// In memory (1.x default mode) or n8n's file store (filesystem mode, always on 2.x).
	assert.ok(binaryBuffer(result, file).subarray(0, 8).equals(PNG_SIGNATURE), 'the stored binary is not a PNG');

	const downloads = sim.find('GET', /^\/files\//, 'files');
	assert.equal(downloads.length, 1, `expected 1 file download, saw ${downloads.length}`);
	assert.equal(downloads[0].hasAuth, false, 'the Authorization header reached the files origin');
};
