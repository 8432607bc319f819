'use strict';
// What the money tests of the key's group and of a synchronous charge run: gpt-image-2 generated
// without its file (the money is what they look at), over `count` input items, through n8n's
// execution code against the test's simulator.
const { runNode } = require('../harness');

const rl = (value) => ({ __rl: true, mode: 'id', value });

function image(extra = {}) {
	const base = { resource: 'image', operation: 'generate', modelId: rl('gpt-image-2'), prompt: 'a lighthouse' };
	return { ...base, download: false, ...extra };
}

/** A run of the node on `count` empty items, with the simulator's credential of `ctx`. */
const runner = (ctx) => async (parameters, count = 1) => {
	const items = Array.from({ length: count }, () => ({ json: {} }));
	return await runNode({ parameters, credentials: ctx.creds, items });
};

module.exports = { rl, image, runner };
