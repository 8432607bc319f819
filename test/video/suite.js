'use strict';
// Shared set-up for the Video suites (test/video/*.test.js): one simulator per file, the node's
// parameters, the submits the gateway received, and reference files to send.
const crypto = require('node:crypto');
const { useSimulator } = require('../support');
const { runNode, makeBinary } = require('../harness');

const PROMPT = 'A paper boat drifting down a rainy street';
const PRICE_NOTE = 'site price applies; video is pre-charged by duration';

const rl = (value) => ({ __rl: true, mode: 'list', value });

function video(model, extra = {}) {
	return { resource: 'video', operation: 'generate', modelId: rl(model), prompt: PROMPT, ...extra, waiting: { pollIntervalSeconds: 0.1, ...extra?.waiting } };
}

const sha256 = (buffer) => crypto.createHash('sha256').update(buffer).digest('hex');
const isMp4 = (buffer) => buffer.toString('ascii', 4, 8) === 'ftyp';

function jpeg(size = 2048) {
	const buffer = Buffer.alloc(size, 7);
	buffer.set([0xff, 0xd8, 0xff, 0xe0], 0);
	return buffer;
}

async function imageItem(files) {
	const binary = {};
	for (const [property, [buffer, name, mime]] of Object.entries(files)) binary[property] = await makeBinary(buffer, name, mime);
	return [{ json: {}, binary }];
}

/** Call at the top of a test file: starts its simulator and returns the helpers bound to it. */
function useVideoSuite() {
	const ctx = useSimulator({ scenario: { durationMs: 300 } });

	async function generate(model, extra = {}, options = {}) {
		return await runNode({ parameters: video(model, extra), credentials: ctx.creds, ...options });
	}

	const submits = () => ctx.sim.requests.filter((r) => r.method === 'POST' && /^\/v1\/(video\/generations|videos)$/.test(r.path));

	return { ctx, generate, submits };
}

module.exports = { PROMPT, PRICE_NOTE, video, sha256, isMp4, jpeg, imageItem, useVideoSuite };
