'use strict';
// In real n8n, n8n's binary-data folder on a 20 MB tmpfs and three 12 MB videos to store there: the
// disk fills. Each video whose file cannot be stored is an item that says the n8n host's disk is
// full (ENOSPC), names n8n's binary-data folder, keeps its receipt (task id, result URL) and the
// task's state (completed at the gateway, not failed); each file was fetched exactly once (a full
// disk is no network cut) and each video submitted once. Needs root (mount); unmounted whatever happens.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { nodeItems, binaryBuffer } = require('../run-e2e');

const VIDEO_BYTES = 12 * 1024 * 1024;

module.exports = async function (run, sim, result) {
	const items = nodeItems(run, 'Generate Videos');
	assert.equal(items.length, 3, `expected 3 items, got ${items.length}`);
	assert.equal(sim.count('POST', '/v1/videos'), 3, 'each video is submitted once');
	const fetched = sim.requests.filter((r) => r.origin === 'files' && r.path.endsWith('.mp4'));
	assert.equal(fetched.length, 3, `each file is fetched once, not again as a network cut: ${fetched.map((r) => r.path).join(', ')}`);
	const full = items.filter((i) => i.json.error !== undefined);
	assert.ok(full.length >= 1, `a 20 MB disk took three 12 MB videos: ${JSON.stringify(items.map((i) => i.json.error ?? 'stored'))}`);
	for (const { json, binary } of full) {
		const text = `${json.error}\n${json.description}`;
		assert.match(json.error, /could not be stored: the disk of the n8n host is full \(ENOSPC\)\. Task task_\w+ completed at the gateway and was paid for/, json.error);
		assert.ok(text.includes(`n8n's binary-data folder ${result.binaryFolder} `), `the folder is not named: ${json.description}`);
		assert.doesNotMatch(text, /stopped arriving|download interrupted|file host .* closed/);
		assert.match(String(json.taskId), /^task_/);
		assert.equal(json.url, sim.task(json.taskId).urls[0], 'the receipt: the result URL');
		assert.equal(json.state, 'succeeded', 'the task completed at the gateway');
		assert.equal(json.created, 'yes');
		assert.equal(binary, undefined);
	}
	for (const { json, binary } of items.filter((i) => i.json.error === undefined)) {
		assert.equal(binaryBuffer(result, binary.data).length, VIDEO_BYTES, `video of ${json.taskId} stored whole`);
	}
	assert.ok(!JSON.stringify(run).includes('sk-sim-good'), 'the key leaked');
};

module.exports.before = (sim) => {
	sim.scenario('sora-2', { durationMs: 500, urlField: 'result_url', videoBytes: VIDEO_BYTES });
};

/** n8n's binary-data folder on its own 20 MB tmpfs, for this workflow's n8n process only. */
module.exports.setup = async (ctx) => {
	const folder = path.join(ctx.tmpRoot, 'full-disk');
	fs.mkdirSync(folder, { recursive: true });
	execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=20m', 'tmpfs', folder]);
	return {
		env: { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem', N8N_BINARY_DATA_STORAGE_PATH: folder },
		result: { binaryFolder: folder },
		teardown: () => execFileSync('umount', ['-l', folder]),
	};
};

module.exports.timeoutMs = 240_000;
