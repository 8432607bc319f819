'use strict';
// In real n8n, examples/photo-to-video-ad.json as shipped (its credential and its photo URL on the
// simulator): a product photo fetched by n8n's HTTP Request node is analysed into captions (the very
// PNG bytes sent as an image part), the captions read into an MP3 voice-over, the photo animated into
// an MP4 with the captions in its prompt and the photo URL as its reference; one item holds all three.
const assert = require('node:assert/strict');
const { nodeItems, binaryBuffer } = require('../run-e2e');

module.exports = async function (run, sim, result) {
	const [photo] = nodeItems(run, 'Download Photo');
	const png = binaryBuffer(result, photo.binary.data);
	assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG', 'the downloaded photo is not a PNG');

	const [analysis] = sim.find('POST', '/v1/chat/completions');
	const [question, picture] = analysis.body.messages[0].content;
	assert.match(question.text, /^Write three short captions for an ad of this product \(Ceramic travel mug\)/);
	assert.equal(picture.type, 'image_url');
	assert.equal(picture.image_url.url, `data:image/png;base64,${png.toString('base64')}`, 'the photo sent is not the one downloaded');
	const [captions] = nodeItems(run, 'Write Captions');
	assert.equal(typeof captions.json.text, 'string');
	assert.equal(captions.json.estimatedCost.currency, 'USD');

	const [speech] = sim.find('POST', '/v1/audio/speech');
	assert.equal(speech.body.input, captions.json.text, 'the voice-over does not read the captions');
	const submits = sim.requests.filter((r) => r.method === 'POST' && /^\/v1\/video/.test(r.path));
	assert.equal(submits.length, 1, `video submits: ${submits.map((r) => r.path).join(', ')}`);
	const { prompt, ...rest } = submits[0].body;
	assert.match(prompt, /^A 5-second ad for Ceramic travel mug: /);
	assert.ok(
		Object.values(rest).flat().includes(`${sim.filesUrl}/files/travel-mug.png`),
		`the photo is not the reference image: ${Object.keys(rest).join(', ')}`,
	);

	const [assets] = nodeItems(run, 'Ad Assets');
	assert.equal(assets.json.product, 'Ceramic travel mug');
	assert.ok(assets.json.captions.length > 0, `captions: ${JSON.stringify(assets.json.captions)}`);
	assert.equal(assets.binary.voiceOver.mimeType, 'audio/mpeg');
	assert.equal(assets.binary.video.mimeType, 'video/mp4');
	const mp4 = binaryBuffer(result, assets.binary.video);
	assert.equal(mp4.subarray(4, 8).toString('latin1'), 'ftyp', 'the clip is not an MP4');
	// The HTTP Request node's run data holds its response object (circular): the gateway nodes' items are read.
	for (const name of ['Write Captions', 'Voice-over', 'Short Video', 'Ad Assets'])
		assert.ok(!JSON.stringify(nodeItems(run, name)).includes('sk-sim-good'), `the API key appears in ${name}`);
};
