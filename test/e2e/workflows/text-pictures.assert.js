'use strict';
// In real n8n: a picture a chat image model streams inside its answer (a Markdown data: image cut
// across chunks) is stored in n8n's binary store as the item's `data`, the text keeps a mark; the
// next node attaches that very file to a chat message, sent as an image_url part with its bytes.
const assert = require('node:assert/strict');
const { nodeItems, binaryBuffer } = require('../run-e2e');

module.exports = async function (run, sim, result) {
	const [picture] = nodeItems(run, 'Picture');
	assert.equal(picture.json.text, 'Here is your image.\n\n[image 1: binary field data]', JSON.stringify(picture.json));
	assert.equal(picture.binary?.data?.mimeType, 'image/png');
	const png = binaryBuffer(result, picture.binary.data);
	assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
	assert.equal(picture.json.images[0].bytes, png.length);
	assert.ok(!JSON.stringify(picture.json).includes('base64'), 'base64 left in the JSON');

	const [captions] = nodeItems(run, 'Captions');
	assert.equal(captions.json.text, 'Echo: Write three captions for this product photo.');
	const calls = sim.find('POST', '/v1/chat/completions');
	assert.equal(calls.length, 2, `chat calls: ${calls.length}`);
	const withFile = calls.find((c) => Array.isArray(c.body.messages[0].content));
	assert.deepEqual(withFile.body.messages[0].content, [
		{ type: 'text', text: 'Write three captions for this product photo.' },
		{ type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
	]);
	for (const call of calls) assert.equal(call.authValid, true);
	assert.ok(!JSON.stringify(run).includes('sk-sim-good'), 'the API key appears in the run data');
};
