'use strict';
// In real n8n a file made by n8n's own nodes (Set → Convert to File) is uploaded by the packed
// node as multipart, and the returned URL feeds an image edit as its reference image.
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const { nodeOutput } = require('../run-e2e');

const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
	'base64',
);

module.exports = async function (run, sim) {
	const uploaded = nodeOutput(run, 'Upload Image');
	assert.equal(uploaded.length, 1, `expected 1 upload item, got ${uploaded.length}`);
	const up = uploaded[0];
	assert.equal(up.filename, 'pixel.png');
	assert.equal(up.content_type, 'image/png');
	assert.equal(up.bytes, PNG.length);
	assert.ok(String(up.url).startsWith(`${sim.filesUrl}/uploads/`), `upload url: ${up.url}`);
	assert.equal(up.expiresAt, new Date(up.created_at * 1000 + 72 * 3600 * 1000).toISOString());

	const uploads = sim.find('POST', '/v1/uploads/images');
	assert.equal(uploads.length, 1, `expected 1 upload, simulator saw ${uploads.length}`);
	assert.deepEqual(uploads[0].parts, [
		{
			name: 'file',
			filename: 'pixel.png',
			contentType: 'image/png',
			size: PNG.length,
			sha256: crypto.createHash('sha256').update(PNG).digest('hex'),
		},
	]);

	const edits = sim.find('POST', '/v1/images/edits');
	assert.equal(edits.length, 1, `expected 1 edit, simulator saw ${edits.length}`);
	const references = edits[0].body.image_urls ?? edits[0].body.images ?? edits[0].body.image;
	assert.deepEqual([].concat(references), [up.url], `edit references: ${JSON.stringify(edits[0].body)}`);
	const edited = nodeOutput(run, 'Edit Image');
	assert.equal(edited.length, 1, `expected 1 edited image, got ${edited.length}`);
	assert.match(String(edited[0].url), /^http/, `edit output: ${JSON.stringify(edited[0])}`);
	assert.ok(!JSON.stringify(run).includes('sk-sim-good'), 'the API key appears in the run data');
};
