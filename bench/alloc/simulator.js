'use strict';
// The simulator of `npm run bench:alloc`, in a process of its own so that neither its CPU nor its
// allocations are counted as the node's. The bench:n8n simulator (result pictures drawn once per
// size), with bench:n8n's default scenario. Answers its parent over IPC: start, reset, submits
// (answers once `n` submits have been answered), count, close.
const { startSimulator } = require('../n8n/simulator');
const { KINDS } = require('../n8n/workflows');

const SUBMITS = /^\/v1\/(images\/generations|video\/generations|videos)$/;
let sim;
const submitsAnswered = () => sim.requests.filter((r) => r.method === 'POST' && SUBMITS.test(r.path) && r.answeredAt).length;

process.on('message', async ({ id, cmd, arg }) => {
	let answer;
	if (cmd === 'start') {
		sim = await startSimulator({ apiKey: arg.apiKey });
		answer = { mainUrl: sim.mainUrl, altUrl: sim.altUrl };
	} else if (cmd === 'reset') {
		sim.reset();
		for (const kind of Object.values(KINDS)) sim.scenario(kind.model, { durationMs: arg.durationMs, estimatedTime: 'none', imageShape: 'full' });
	} else if (cmd === 'submits') {
		while (submitsAnswered() < arg.n) await new Promise((resolve) => setTimeout(resolve, 20));
		answer = true;
	} else if (cmd === 'count') {
		answer = { requests: sim.requests.length, submits: submitsAnswered() };
	} else if (cmd === 'close') {
		await sim.close();
		answer = true;
	}
	process.send({ id, answer });
	if (cmd === 'close') process.disconnect();
});
