'use strict';
// Wait for Completion on an async image model in real n8n (the wait that broke on n8n 2.x with
// sleepWithAbort): two items, two billed submits, each task polled until done, each image
// downloaded (without the API key) and readable as a PNG from n8n's binary store, in memory
// (1.x default mode) or on disk (2.x, filesystem mode).
const assert = require('node:assert/strict');
const { binaryBuffer, nodeItems } = require('../run-e2e');

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

module.exports = async function (run, sim, result) {
	const items = nodeItems(run, 'Generate Images');
	assert.equal(items.length, 2, `expected 2 image items, got ${items.length}`);
	const submits = sim.find('POST', '/v1/images/generations');
	assert.equal(submits.length, 2, `expected exactly 2 submits, simulator saw ${submits.length}`);
	assert.deepEqual(
		submits.map((s) => s.body.prompt).sort(),
		['A blue whale under the northern lights, woodcut', 'A red fox in fresh snow, woodcut'],
	);
	for (const [index, { json, binary }] of items.entries()) {
		assert.match(String(json.taskId), /^task_/, `item ${index} has no task id: ${JSON.stringify(json)}`);
		assert.equal(sim.task(json.taskId).status, 'completed', `item ${index}: the node returned before its task finished`);
		assert.ok(sim.count('GET', new RegExp(`/${json.taskId}$`)) >= 1, `task ${json.taskId} was never queried`);
		assert.equal(json.url, sim.task(json.taskId).urls[0], `item ${index}: unexpected url ${json.url}`);
		const file = binary && binary.data;
		assert.ok(file, `item ${index} has no binary "data"`);
		assert.equal(file.mimeType, 'image/png');
		const bytes = binaryBuffer(result, file);
		assert.ok(bytes.subarray(0, 8).equals(PNG_SIGNATURE), `item ${index}: the stored file is not a PNG`);
	}
	const downloads = sim.find('GET', /^\/files\//, 'files');
	assert.equal(downloads.length, 2, `expected 2 file downloads, saw ${downloads.length}`);
	assert.ok(downloads.every((d) => !d.hasAuth), 'the Authorization header reached the files origin');
};
