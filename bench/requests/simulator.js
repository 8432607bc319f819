'use strict';
// The simulator of `npm run bench:requests`, in a process of its own so that its CPU is not
// counted as the client's. Answers its parent over IPC (../child.js): start, reset, tasks (create n
// that never finish), count (TCP connections accepted, requests served since reset), close.
const { startSimulator } = require('../../test/simulator');
const { serveSimulator } = require('../child');

serveSimulator(startSimulator, {
	reset: (sim) => {
		sim.reset();
		sim.scenario('*', { outcome: 'never', progressSteps: [40] });
	},
	tasks: async (sim, arg) => {
		const ids = [];
		for (let i = 0; i < arg.n; i++) {
			const response = await fetch(`${sim.mainUrl}/v1/videos`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${arg.apiKey}`, 'Content-Type': 'application/json' },
				body: JSON.stringify({ model: arg.model, prompt: `bench ${i}` }),
			});
			const body = await response.json();
			ids.push(body.id ?? body.task_id);
		}
		return ids;
	},
	count: (sim) => ({
		connections: sim.connections(),
		requests: sim.requests.length,
		closeHeaders: sim.requests.filter((r) => /close/i.test(r.headers?.connection ?? '')).length,
	}),
});
