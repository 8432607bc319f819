'use strict';
/*
 * One benchmark run: both webhooks posted at the same moment, until both executions have recorded
 * their end; then what the gateway saw (submits, polls per task) and what n8n stored.
 */

const { KINDS, INTERVAL_S } = require('./workflows');
const { cpuSeconds, sampleRss, storedExecution } = require('./measure');

const DURATION_MS = [2000, 20000];
const SUBMIT_ROUTES = /^\/v1\/(images\/generations|video\/generations|videos)$/;
// The query routes of the two models (image task query; generic task query for the unified video route).
const QUERY = /^\/v1\/(?:images\/generations|tasks|videos|video\/generations)\/([^/]+)$/;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The simulator as the run wants it: varied tasks, half without estimated_time, the end recorder. */
function prepareSimulator(sim, { durationMs = DURATION_MS, limit } = {}) {
	sim.reset(); // also restarts each model's task count, so every run meets the same durations
	sim.inject({ method: 'POST', path: '/e2e/record', origin: 'files', status: 200, body: { ok: true }, times: Infinity });
	for (const kind of Object.values(KINDS)) sim.scenario(kind.model, { durationMs, estimatedTime: 'alternate' });
	// One bucket for every submit route, as a gateway limits a key.
	return limit ? sim.rateLimit({ method: 'POST', path: SUBMIT_ROUTES, ...limit }) : undefined;
}

async function post(stack, path, body) {
	const res = await fetch(`${stack.baseUrl}/webhook/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	if (res.status !== 200) throw new Error(`POST /webhook/${path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
}

const ends = (sim, run) => sim.find('POST', '/e2e/record', 'files').filter((r) => r.query.event === 'end' && r.query.run === run);

/**
 * options: { run (name), counts: { image, video }, limit ({ perSecond, burst }), timeoutMs, sampleRss (default true) }
 * Returns the run's figures (see report.js).
 */
async function benchRun(stack, sim, options) {
	const { run, counts } = options;
	const gate = prepareSimulator(sim, { durationMs: options.durationMs, limit: options.limit });
	const sampler = options.sampleRss === false ? undefined : sampleRss(stack.runners);
	const cpuBefore = { ...Object.fromEntries(stack.runners.map((r) => [r.name, cpuSeconds(r.pid)])), bench: process.cpuUsage() };
	const started = Date.now();
	let peaks;
	try {
		await Promise.all(Object.entries(counts).map(([kind, count]) => post(stack, KINDS[kind].path, { run, count })));
		const until = started + (options.timeoutMs ?? 600_000);
		while (ends(sim, run).length < Object.keys(counts).length) {
			if (Date.now() > until) throw new Error(`${run}: not every execution ended within ${(options.timeoutMs ?? 600_000) / 1000}s (ended: ${ends(sim, run).map((r) => r.query.kind).join(', ') || 'none'})`);
			await sleep(200);
		}
	} finally {
		peaks = sampler?.stop();
	}
	// Where the machine's time went: the runners' CPU and this process's (the simulator: PNG rendering).
	const cpu = Object.fromEntries(stack.runners.map((r) => [r.name, cpuSeconds(r.pid) - cpuBefore[r.name]]));
	const own = process.cpuUsage(cpuBefore.bench);
	cpu.simulator = (own.user + own.system) / 1e6;
	const recorded = ends(sim, run);
	const wallMs = Math.max(...recorded.map((r) => r.at)) - started;
	const gateway = whatTheGatewaySaw(sim);
	const executions = [];
	for (const r of recorded) {
		const stored = await storedExecution(stack, r.query.execution);
		const items = Number(r.query.items);
		executions.push({ kind: r.query.kind, id: r.query.execution, items, files: Number(r.query.files), failed: Number(r.query.failed), ...stored, kbPerItem: stored.bytes / 1024 / Math.max(1, items) });
	}
	const submits = counts.image + counts.video;
	const slowestMs = Math.max(...gateway.tasks.map((t) => t.durationMs));
	// What the limit itself costs: the submits beyond the bucket's first burst, at its rate.
	const limitMs = options.limit ? ((submits - (options.limit.burst ?? options.limit.perSecond)) / options.limit.perSecond) * 1000 : 0;
	const idealMs = slowestMs + INTERVAL_S * 1000 + Math.max(0, limitMs);
	const missing = Object.entries(counts).reduce((n, [kind, count]) => n + count - (executions.find((e) => e.kind === kind)?.files ?? 0), 0);
	return {
		run,
		started,
		wallMs,
		idealMs,
		slowestMs,
		limitMs,
		peaks,
		cpu,
		executions,
		// An item without its file counts as failed, whatever the node said.
		failed: Math.max(missing, executions.reduce((n, e) => n + e.failed, 0)),
		...gateway,
		limited: gate?.limited ?? 0,
		duplicates: Math.max(0, gateway.posts - (gate?.limited ?? 0) - gateway.prompts),
	};
}

/**
 * From the simulator's records: submits, double submits, and polls per task. A double submit is a
 * prompt the gateway took more than once; a 429 created nothing, so the limited POSTs are not.
 */
function whatTheGatewaySaw(sim) {
	const posts = sim.requests.filter((r) => r.method === 'POST' && r.origin === 'main' && SUBMIT_ROUTES.test(r.path));
	const prompts = new Set(posts.map((r) => r.body?.prompt));
	const polls = new Map();
	for (const r of sim.requests) {
		const m = r.method === 'GET' && r.origin === 'main' && QUERY.exec(r.path);
		if (m) polls.set(m[1], (polls.get(m[1]) ?? 0) + 1);
	}
	const tasks = [...polls.entries()].map(([id, count]) => {
		const task = sim.task(id);
		const durationMs = task ? task.finishedAt - task.createdAt : NaN;
		const bound = 1.5 * Math.ceil(durationMs / (INTERVAL_S * 1000)) + 2;
		return { id, polls: count, durationMs, withoutEstimate: task?.scenario.estimatedTime === 'none', bound, ratio: count / bound };
	});
	const downloads = sim.requests.filter((r) => r.method === 'GET' && r.origin === 'files');
	const lastTask = Math.max(...tasks.map((t) => sim.task(t.id)?.finishedAt ?? 0));
	const phases = { submitsFrom: Math.min(...posts.map((r) => r.at)), submitsTo: Math.max(...posts.map((r) => r.answeredAt ?? r.at)), lastTask, downloadsFrom: Math.min(...downloads.map((r) => r.at)), downloadsTo: Math.max(...downloads.map((r) => r.answeredAt ?? r.at)) };
	return { posts: posts.length, prompts: prompts.size, tasks, phases };
}

module.exports = { benchRun, prepareSimulator, DURATION_MS };
