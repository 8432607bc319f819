'use strict';
// The simulator of `npm run bench:alloc`, in a process of its own so that neither its CPU nor its
// allocations are counted as the node's: bench:n8n's (result pictures drawn once per size), with
// bench:n8n's default scenario. Answers its parent over IPC (../child.js): start, reset, submits
// (answers once `n` submits have been answered), count, close.
const { startSimulator } = require('../n8n/simulator');
const { KINDS } = require('../n8n/workflows');
const { serveSimulator } = require('../child');

const SUBMITS = /^\/v1\/(images\/generations|video\/generations|videos)$/;
const submitsAnswered = (sim) => sim.requests.filter((r) => r.method === 'POST' && SUBMITS.test(r.path) && r.answeredAt).length;

serveSimulator(startSimulator, {
	reset: (sim, arg) => {
		sim.reset();
		for (const kind of Object.values(KINDS)) sim.scenario(kind.model, { durationMs: arg.durationMs, estimatedTime: 'none', imageShape: 'full' });
	},
	submits: async (sim, arg) => {
		while (submitsAnswered(sim) < arg.n) await new Promise((resolve) => setTimeout(resolve, 20));
		return true;
	},
	count: (sim) => ({ requests: sim.requests.length, submits: submitsAnswered(sim) }),
});
