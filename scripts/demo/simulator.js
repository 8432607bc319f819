'use strict';
// The gateway simulator as the demo runs it (quick tasks that still show progress), and what its
// request log says the nodes are waiting for, for the progress line.

const { startSimulator: start } = require('../../test/simulator');
const { registry } = require('./cost');

/** Simulated image task duration: DEMO_TASK_MS, default 3 s. */
function taskMs() {
	const n = Number(process.env.DEMO_TASK_MS);
	return Number.isFinite(n) && n >= 0 ? n : 3000;
}

/** Videos take 2.5 times as long as images. */
function videoMs() {
	return Math.round(taskMs() * 2.5);
}

async function startSimulator(apiKey) {
	// As gateways are today: sora-2 is retired upstream (docs/gateway-contract.md §10.9), so no example may lead with it.
	const sim = await start({ apiKey, retiredModels: ['sora-2'] });
	// Tasks take a few seconds: quick, but long enough to see the nodes wait. Videos take a bit
	// longer than the node's 5-second video poll interval, so their progress shows on the way.
	const steps = [0, 20, 40, 60, 80, 100];
	sim.scenario('*', { durationMs: taskMs(), progressSteps: steps });
	for (const model of registry('videoModels.js').VIDEO_MODELS) {
		sim.scenario(model.id, { durationMs: videoMs(), progressSteps: steps });
	}
	return sim;
}

const TASK_PATH = /^\/v1\/(?:tasks|images\/generations|videos)\/([^/]+)$/;

function postKind(path) {
	if (/chat/.test(path)) return 'chat';
	if (/upload/.test(path)) return 'upload';
	return /video/.test(path) ? 'video' : 'image';
}

/** A function giving the progress detail since request fromIndex: gateway calls, then tasks by state. */
function simDetail(sim, fromIndex) {
	if (!sim) return () => '';
	return () => {
		const requests = sim.requests.slice(fromIndex);
		const ids = [...new Set(requests.filter((r) => r.method === 'GET').map((r) => (TASK_PATH.exec(r.path) || [])[1]).filter(Boolean))];
		const tasks = ids.map((id) => sim.task(id)).filter(Boolean);
		const kinds = new Map();
		for (const r of requests.filter((q) => q.method === 'POST')) {
			const kind = postKind(r.path);
			kinds.set(kind, (kinds.get(kind) || 0) + 1);
		}
		const calls = [...kinds.entries()].map(([kind, n]) => `${n} ${kind}`).join(', ');
		if (!tasks.length) return calls ? `gateway calls: ${calls}` : '';
		const byState = new Map();
		for (const t of tasks) {
			const key = `${t.kind} ${t.status}`;
			const entry = byState.get(key) || { n: 0, progress: [] };
			entry.n++;
			if (t.status === 'in_progress') entry.progress.push(t.progress);
			byState.set(key, entry);
		}
		const parts = [...byState.entries()].map(([key, v]) => `${v.n} ${key}${v.progress.length ? ` ${Math.min(...v.progress)}%` : ''}`);
		return `tasks: ${parts.join(', ')}`;
	};
}

module.exports = { taskMs, videoMs, startSimulator, simDetail };
