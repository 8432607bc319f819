'use strict';
/*
 * One benchmark run: one side (the package's workflows or a hand-built loop) given its executions
 * at the same moment (one webhook POST each), until every execution has ended; then what the
 * gateway saw, per task it created, and what n8n stored.
 *
 * An execution has ended when n8n says it is no longer running (REST API), and for the package
 * when its `end` record came in, for a loop when every item's file is recorded. The wall time ends
 * at the last record (or when n8n stopped a loop that could not finish).
 */

const { KINDS, loopOf, INTERVAL_S } = require('./workflows');
const { cpuSeconds, rest, sampleRss, sampleV8, storedExecution } = require('./measure');
const { created } = require('./simulator');
const { restJson } = require('../../test/n8n');

const DURATION_MS = [1500, 20000];
const SUBMIT_ROUTES = /^\/v1\/(images\/generations|video\/generations|videos)$/;
// The query routes of the two models (image task query; generic, unified and OpenAI-style video queries).
const QUERY = /^\/v1\/(?:images\/generations|tasks|videos|video\/generations)\/([^/]+)$/;
// A video's bytes fetched through the gateway itself (the OpenAI-style content route).
const CONTENT = /^\/v1\/videos\/([^/]+)\/content$/;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The simulator as the run wants it: varied tasks with no estimated_time, the end recorder; the
 * image query pinned to its full shape (status and url at the top), which the loop's If reads and
 * the package reads like any other. Same durations on every run: reset() restarts the task count.
 */
function prepareSimulator(sim, { durationMs = DURATION_MS, failEvery, limit } = {}) {
	sim.reset();
	created.length = 0;
	sim.inject({ method: 'POST', path: '/e2e/record', origin: 'files', status: 200, body: { ok: true }, times: Infinity });
	for (const kind of Object.values(KINDS)) {
		sim.scenario(kind.model, { durationMs, estimatedTime: 'none', imageShape: 'full', ...(failEvery ? { failEvery } : {}) });
	}
	// One bucket for every submit route, as a gateway limits a key.
	return limit ? sim.rateLimit({ method: 'POST', path: SUBMIT_ROUTES, ...limit }) : undefined;
}

async function post(stack, path, body) {
	const res = await fetch(`${stack.baseUrl}/webhook/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	if (res.status !== 200) throw new Error(`POST /webhook/${path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
}

const records = (sim, run) => sim.find('POST', '/e2e/record', 'files').filter((r) => r.query.run === run);

const RUNNING = ['new', 'running', 'waiting', 'unknown'];

/** The executions of a workflow started since `since` (n8n's execution list, newest first). */
async function executionsOf(stack, workflowId, since) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const json = await rest(stack, 'GET', `/rest/executions?filter=${filter}&limit=100`);
	const list = json.results ?? json;
	// n8n's list can hold one execution twice (seen once: 11 entries for 10 executions, most likely
	// one that ended while the list was read): one entry per id, a finished one first.
	const byId = new Map();
	for (const e of [...list].sort((a, b) => Number(RUNNING.includes(a.status)) - Number(RUNNING.includes(b.status)))) if (!byId.has(String(e.id))) byId.set(String(e.id), e);
	// Receipt executions (mode integrated, docs/receipts.md) are the node's records, not runs of the workload.
	return [...byId.values()].filter((e) => e.mode !== 'integrated' && Date.parse(e.startedAt) >= since - 1000).map((e) => ({ id: String(e.id), workflowId, status: e.status, stoppedAt: e.stoppedAt ? Date.parse(e.stoppedAt) : undefined }));
}


/**
 * options: { run (name), side ('package' | 'loop'), variant (the loop's, default plain),
 *            executions: [{ kind, count }] (one webhook POST each), failEvery, limit ({ perSecond, burst }),
 *            durationMs, stopAfterMs (stop what still runs then, as a user presses Stop),
 *            timeoutMs, sampleRss (default true) }
 * Returns the run's figures (see report.js).
 */
async function benchRun(stack, sim, options) {
	const { run, side = 'package', variant = 'plain', executions: planned } = options;
	const target = (kind) => (side === 'loop' ? loopOf(kind, variant) : KINDS[kind]);
	const workflowIds = [...new Set(planned.map((p) => target(p.kind).workflowId))];
	const gate = prepareSimulator(sim, options);
	const processes = [...new Map([stack.main, ...stack.runners].map((p) => [p.pid, p])).values()];
	const sampler = options.sampleRss === false ? undefined : sampleRss(stack.runners);
	// Regular mode: V8's collecting in main, where the executions run (queue: workers have no endpoint here).
	const v8Sampler = options.sampleRss === false || stack.mode !== 'regular' ? undefined : await sampleV8(stack.baseUrl);
	const cpuBefore = Object.fromEntries(processes.map((p) => [p.name, cpuSeconds(p.pid)]));
	const benchCpu = process.cpuUsage();
	const started = Date.now();
	const timeoutMs = options.timeoutMs ?? 900_000;
	let peaks;
	let v8;
	let seen = [];
	const stoppedByBench = new Set();
	try {
		// Each execution's items start where the previous one's of the same kind ended: every prompt is unique in the run.
		const from = (i) => planned.slice(0, i).filter((q) => q.kind === planned[i].kind).reduce((n, q) => n + q.count, 0);
		await Promise.all(planned.map((p, i) => post(stack, target(p.kind).path, { run, count: p.count, from: from(i) })));
		for (let turn = 0; ; turn++) {
			await sleep(250);
			const recs = records(sim, run);
			const enough = side === 'package' ? recs.filter((r) => r.query.event === 'end').length >= planned.length : planned.every((p) => recs.filter((r) => r.query.kind === p.kind).reduce((n, r) => n + Number(r.query.files), 0) >= p.count);
			// n8n's view every 4 s (and once the records are complete): a failed or stopped execution
			// records nothing more. Not more often: each list costs main 20-80 ms of CPU (measured), a
			// cost per second of the run that is no part of the work compared (measure.js sampleV8).
			if (enough || turn % 16 === 0) {
				seen = (await Promise.all(workflowIds.map((id) => executionsOf(stack, id, started)))).flat();
				const over = seen.length >= planned.length && seen.every((e) => !RUNNING.includes(e.status));
				if (over || (enough && side === 'package')) break;
				if (options.stopAfterMs && Date.now() - started > options.stopAfterMs) {
					for (const e of seen.filter((x) => RUNNING.includes(x.status) && !stoppedByBench.has(x.id))) {
						await restJson(stack.baseUrl, 'POST', `/rest/executions/${e.id}/stop`, undefined, stack.cookie).catch(() => {});
						stoppedByBench.add(e.id);
					}
				}
			}
			if (Date.now() - started > timeoutMs) throw new Error(`${run}: not every execution ended within ${timeoutMs / 1000}s (${JSON.stringify(seen)})`);
		}
	} finally {
		peaks = sampler?.stop();
		v8 = await v8Sampler?.stop();
	}
	const endedAt = Date.now();
	// Where the machine's time went: n8n's processes and this one (the simulator).
	const cpu = Object.fromEntries(processes.map((p) => [p.name, cpuSeconds(p.pid) - cpuBefore[p.name]]));
	const own = process.cpuUsage(benchCpu);
	cpu.simulator = (own.user + own.system) / 1e6;

	const recs = records(sim, run);
	const executions = [];
	for (const e of seen) {
		const stored = await storedExecution(stack, e.id);
		const mine = recs.filter((r) => r.query.execution === e.id);
		const kind = mine[0]?.query.kind ?? planned.find((p) => target(p.kind).workflowId === e.workflowId)?.kind ?? planned[0].kind;
		const items = planned.find((p) => p.kind === kind)?.count ?? 0;
		const files = mine.reduce((n, r) => n + Number(r.query.files), 0);
		const failedItems = mine.reduce((n, r) => n + Number(r.query.failed), 0);
		const lastRecord = Math.max(0, ...mine.map((r) => r.at));
		executions.push({ kind, id: e.id, items, files, failed: failedItems, endedAt: Math.max(lastRecord, side === 'loop' && files < items ? e.stoppedAt ?? 0 : 0) || endedAt, ...stored, kbPerItem: stored.bytes / 1024 / Math.max(1, items) });
	}
	const wallMs = Math.max(...executions.map((e) => e.endedAt)) - started;
	const gateway = whatTheGatewaySaw(sim);
	const items = planned.reduce((n, p) => n + p.count, 0);
	const files = executions.reduce((n, e) => n + e.files, 0);
	const slowestMs = plannedSlowestMs(planned, options.durationMs ?? DURATION_MS);
	// What the limit itself costs: the submits beyond the bucket's first burst, at its rate.
	const limitMs = options.limit ? ((items - (options.limit.burst ?? options.limit.perSecond)) / options.limit.perSecond) * 1000 : 0;
	// Behind a relay's rounds no reader has a file before the task's record shows its end: the ideal
	// is the last record to show it (from the webhook POSTs) + one interval.
	const shown = gateway.tasks.map((t) => t.visibleAt).filter(Number.isFinite);
	const relayMs = shown.length ? Math.max(...shown) - started : undefined;
	const idealMs = (relayMs ?? slowestMs) + INTERVAL_S * 1000 + Math.max(0, limitMs);
	return {
		run,
		side,
		variant,
		started,
		wallMs,
		idealMs,
		slowestMs,
		relayMs,
		limitMs,
		peaks,
		v8,
		cpu,
		mainCpu: cpu[stack.main.name],
		executions,
		items,
		files,
		// An item without its file counts as failed, whatever the node said.
		failed: items - files,
		failedWithReason: executions.reduce((n, e) => n + e.failed, 0),
		stoppedByBench: stoppedByBench.size,
		statuses: executions.map((e) => e.status),
		limited: gate?.limited ?? 0,
		...gateway,
	};
}

/**
 * From the simulator's records, per task the gateway created in this run: reads (status queries of
 * its id), double submits (a prompt that made more than one task: each item's prompt is unique),
 * lost tasks (never read in their final state, or finished with a file nobody fetched), and every
 * request the run made (submits and their 429s, reads, downloads).
 */
function whatTheGatewaySaw(sim) {
	const reqs = sim.requests.filter((r) => !(r.origin === 'files' && r.path === '/e2e/record'));
	const posts = reqs.filter((r) => r.method === 'POST' && r.origin === 'main' && SUBMIT_ROUTES.test(r.path));
	const reads = new Map();
	const fetched = new Set();
	// When each task's file was fetched (the last byte sent): where the time after "found done" goes.
	const downloadedAt = new Map();
	const fetchedNow = (id, r) => {
		fetched.add(id);
		downloadedAt.set(id, Math.max(downloadedAt.get(id) ?? 0, r.answeredAt ?? r.at));
	};
	for (const r of reqs) {
		if (r.method !== 'GET') continue;
		const m = r.origin === 'main' && (QUERY.exec(r.path) || CONTENT.exec(r.path));
		if (m && QUERY.test(r.path)) (reads.get(m[1]) ?? reads.set(m[1], []).get(m[1])).push(r);
		else if (m) fetchedNow(m[1], r);
		else if (r.origin === 'files') fetchedNow(/\/files\/([^/.]+?)(?:-\d+)?\.\w+$/.exec(r.path)?.[1], r);
	}
	const prompts = new Map();
	const tasks = created.map((t) => {
		const now = sim.task(t.id);
		prompts.set(t.params.prompt, (prompts.get(t.params.prompt) ?? 0) + 1);
		const readsOf = reads.get(t.id) ?? [];
		const at = readsOf.map((r) => r.at);
		const outcome = now.status;
		const final = now.finishedAt !== undefined && at.some((a) => a >= now.finishedAt);
		// A finished task whose file was fetched was read done, even by a read that arrived a hair
		// before its end (the answer is made a moment after the request's arrival).
		const lost = outcome === 'completed' ? !fetched.has(t.id) : !final;
		// The read that found it done: sent after its end (behind a relay: after its record showed
		// it), answered when the node learnt it.
		const shownAt = now.relay ? now.relay.visibleAt : now.finishedAt;
		const found = readsOf.find((r) => shownAt !== undefined && r.at >= shownAt);
		return {
			id: t.id,
			kind: t.kind,
			prompt: t.params.prompt,
			reads: at.length,
			durationMs: now.finishedAt - t.createdAt,
			outcome,
			lost,
			createdAt: t.createdAt,
			finishedAt: now.finishedAt,
			visibleAt: now.relay?.visibleAt,
			shownAt,
			readsAt: at,
			foundAt: found ? found.answeredAt ?? found.at : undefined,
			downloadedAt: downloadedAt.get(t.id),
		};
	});
	const downloads = reqs.filter((r) => r.method === 'GET' && (r.origin === 'files' || CONTENT.test(r.path)));
	const phases = {
		submitsFrom: Math.min(...posts.map((r) => r.at)),
		submitsTo: Math.max(...posts.map((r) => r.answeredAt ?? r.at)),
		lastTask: Math.max(...tasks.map((t) => created.find((c) => c.id === t.id).createdAt + t.durationMs).filter(Number.isFinite)),
		downloadsFrom: Math.min(...downloads.map((r) => r.at)),
		downloadsTo: Math.max(...downloads.map((r) => r.answeredAt ?? r.at)),
	};
	const readsTotal = tasks.reduce((n, t) => n + t.reads, 0);
	return {
		posts: posts.length,
		tasks,
		created: tasks.length,
		readsTotal,
		readsPerTask: readsTotal / Math.max(1, tasks.length),
		readsPerImageTask: avg(tasks.filter((t) => t.kind === 'image').map((t) => t.reads)),
		readsPerVideoTask: avg(tasks.filter((t) => t.kind === 'video').map((t) => t.reads)),
		requests: reqs.length,
		requestsPerTask: reqs.length / Math.max(1, tasks.length),
		duplicates: [...prompts.values()].reduce((n, c) => n + c - 1, 0),
		lost: tasks.filter((t) => t.lost).length,
		failedTasks: tasks.filter((t) => t.outcome === 'failed').length,
		phases,
	};
}

/**
 * The slowest task the plan makes, from the simulator's own rule (test/simulator/tasks.js: the
 * n-th task of a model takes min + (max - min) × frac(n × golden ratio)): the ideal of a scenario
 * is the same for every side, whether or not a side got all its tasks created.
 */
function plannedSlowestMs(planned, [min, max]) {
	const golden = (Math.sqrt(5) - 1) / 2;
	let slowest = 0;
	for (const kind of new Set(planned.map((p) => p.kind))) {
		const count = planned.filter((p) => p.kind === kind).reduce((n, p) => n + p.count, 0);
		for (let i = 0; i < count; i++) slowest = Math.max(slowest, Math.round(min + (max - min) * ((i * golden) % 1)));
	}
	return slowest;
}

const avg = (list) => (list.length ? list.reduce((a, b) => a + b, 0) / list.length : NaN);

module.exports = { benchRun, prepareSimulator, whatTheGatewaySaw, plannedSlowestMs, post, records, DURATION_MS };
