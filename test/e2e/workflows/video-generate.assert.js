'use strict';
// The packed node renders a video in real n8n: one unified submit with sora-2's registry fields
// (seconds as a string), polling on the generic task query until completed, and the result
// streamed (without the API key) into binary data as video/mp4.
const assert = require('node:assert/strict');
const { binaryBuffer, nodeItems } = require('../run-e2e');
const { assertPlayableMp4 } = require('../playable-mp4');

module.exports = async function (run, sim, result) {
	const items = nodeItems(run, 'Generate Video');
	assert.equal(items.length, 1, `expected 1 video item, got ${items.length}`);
	const { json, binary } = items[0];

	const submits = sim.find('POST', '/v1/video/generations');
	assert.equal(submits.length, 1, `expected exactly 1 submit, simulator saw ${submits.length}`);
	assert.deepEqual(submits[0].body, {
		model: 'sora-2',
		prompt: 'A paper boat drifting down a rainy street, close-up',
		seconds: '12',
		size: '720x1280',
	});

	assert.match(String(json.taskId), /^task_/, `no task id: ${JSON.stringify(json)}`);
	assert.equal(json.status, 'completed');
	assert.equal(json.seconds, '12');
	assert.equal(json.size, '720x1280');
	assert.equal(json.estimatedCost, 'site price applies; video is pre-charged by duration');
	assert.ok(sim.count('GET', `/v1/tasks/${json.taskId}`) >= 1, 'the task was never read on /v1/tasks/{id}');
	assert.equal(json.url, sim.task(json.taskId).urls[0], `unexpected url: ${json.url}`);

	const file = binary && binary.data;
	assert.ok(file, `no binary "data" on the item: ${JSON.stringify(Object.keys(binary || {}))}`);
	assert.equal(file.mimeType, 'video/mp4');
	assert.match(String(file.fileName), /\.mp4$/);
	// In memory (1.x default mode) or n8n's file store (filesystem mode, always on 2.x): a real,
	// playable file: ftyp first, a moov box, and (ffprobe) a video stream that plays.
	const info = assertPlayableMp4(binaryBuffer(result, file), 'the stored video');
	if (!info.skipped) assert.ok(info.height > info.width, `720x1280 was asked for, the video is ${info.width}x${info.height}`);

	const downloads = sim.find('GET', /^\/files\//, 'files');
	assert.equal(downloads.length, 1, `expected 1 file download, saw ${downloads.length}`);
	assert.equal(downloads[0].hasAuth, false, 'the Authorization header reached the files origin');
	// Without ffprobe the playing checks did not run: the runner prints this on the ok line.
	return info.skipped;
};
