'use strict';
// In real n8n, examples/video-with-music.json as shipped (its credential on the simulator): a clip
// rendered by Video → Generate and an instrumental jingle by Music → Generate (one submit, two songs),
// the MP4 and the first MP3 on one item with what each cost.
const assert = require('node:assert/strict');
const { nodeItems, binaryBuffer } = require('../run-e2e');

module.exports = async function (run, sim, result) {
	const videoSubmits = sim.requests.filter((r) => r.method === 'POST' && /^\/v1\/video/.test(r.path));
	assert.equal(videoSubmits.length, 1, `video submits: ${videoSubmits.map((r) => r.path).join(', ')}`);
	assert.match(videoSubmits[0].body.prompt, /^A 5-second ad for a Ceramic travel mug on a sunny kitchen table/);
	const musicSubmits = sim.find('POST', '/suno/submit/music');
	assert.equal(musicSubmits.length, 1, `music submits: ${musicSubmits.length}`);
	assert.deepEqual(musicSubmits[0].body, {
		gpt_description_prompt: 'A 20-second instrumental jingle for a Ceramic travel mug ad: bright, upbeat, morning coffee',
		mv: 'chirp-v4',
		make_instrumental: true,
	});
	const songs = nodeItems(run, 'Jingle');
	assert.equal(songs.length, 2, 'one submit makes two songs');
	const [kit] = nodeItems(run, 'Video and Track');
	assert.equal(kit.json.product, 'Ceramic travel mug');
	assert.equal(kit.json.trackTaskId, songs[0].json.taskId);
	assert.equal(kit.json.otherTrackClipId, songs[1].json.clipId);
	assert.equal(kit.binary.video.mimeType, 'video/mp4');
	assert.equal(kit.binary.track.mimeType, 'audio/mpeg');
	assert.equal(binaryBuffer(result, kit.binary.video).subarray(4, 8).toString('latin1'), 'ftyp', 'the clip is not an MP4');
	assert.equal(binaryBuffer(result, kit.binary.track).subarray(0, 2).toString('hex'), 'fffb', 'the track is not an MP3');
	assert.ok(!JSON.stringify(run).includes('sk-sim-good'), 'the API key appears in the run data');
};
