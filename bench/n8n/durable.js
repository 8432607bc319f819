'use strict';
/*
 * npm run bench:n8n -- --scenarios durable (or parked, parked-queue, trigger; npm run
 * bench:n8n:durable): the paths n8n saves at every node boundary, at the scale of a night, in the
 * same real n8n as the in-node bench, beside the loop users build by hand. Tasks take 60-180 s
 * (sora-2 videos, no estimated_time, real time: n8n's Wait node parks only from 65 s of real time,
 * so the simulator's time scale would change what is measured).
 *
 *   parked        1,000 videos in one execution, regular mode (SQLite): the long-render loop
 *                 (durableWorkflows.js benchParked), then the hand-built loop (loop-videos.json,
 *                 Wait PARK_S) on the same tasks
 *   parked-queue  the same in queue mode (PostgreSQL, Redis, main + two workers)
 *   trigger       2,000 videos submitted by one workflow (Wait off), watched by one published Task
 *                 Finished trigger (every minute, Download Result on), then the hand-built loop on
 *                 2,000 videos
 *
 * Figures per run: wall ÷ ideal (ideal: the slowest task of the plan + the loop's interval: the
 * Wait, or the trigger's minute), task reads and gateway requests per task, CPU of each n8n process
 * and of the simulator, n8n's database growth (bench/n8n/database.js: SQLite's pages in use or
 * PostgreSQL's tables, the result files queue mode keeps there left out; the file or database size
 * beside it) per item and per round (a round: one pass of Check Once / the loop's status node, one poll of the
 * trigger), the stored execution per item, lost and double-submitted tasks, fired once / twice /
 * never and each task's lag from its end to its firing (trigger), each poll's duration (n8n's own
 * poll-trigger metrics), the RSS of each n8n process under the heap cap (384 MB by default).
 * BENCH_PARKED_ITEMS / BENCH_TRIGGER_ITEMS change the counts, BENCH_PARK_S the Wait (below 65 s n8n
 * does not park: for trying the bench out only), BENCH_TASK_S=min,max the task times.
 *
 * Last lines, one per scenario: bench-n8n-durable scenario=… wall_over_ideal=… reads_per_task=…
 * requests_per_task=… db_growth_kb_per_item_round=… loop_wall_over_ideal=… loop_requests_per_task=…
 * heap_cap_mb=… failed=… duplicate_submits=… (trigger: fired_twice=… never_fired=… max_fire_lag_s=…)
 */

const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');

const n8n = require('../../test/n8n');
const cli = require('../../test/e2e/cli');
const { created } = require('./simulator');
const { startStack } = require('./stack');
const { whatTheGatewaySaw, plannedSlowestMs, post, records } = require('./run');
const { cpuSeconds, rest, rssNow, sampleRss, sampleV8 } = require('./measure');
const { databaseSize, growth } = require('./database');
const { DURABLE, PROBES, LOOP, PARK_S, trigger } = require('./durableWorkflows');

/** BENCH_TASK_S=min,max: other task times (a quick try of the bench itself; the figures need 60-180 s). */
const DURATION_MS = (process.env.BENCH_TASK_S || '60,180').split(',').map((s) => Number(s) * 1000);
const COUNTS = { parked: Number(process.env.BENCH_PARKED_ITEMS ?? 1000), trigger: Number(process.env.BENCH_TRIGGER_ITEMS ?? 2000) };
/** The trigger's poll interval (everyMinute). */
const TRIGGER_INTERVAL_S = 60;
/** After every task has fired: one more poll, to see a task fire twice. */
const SETTLE_MS = 75_000;
const DEFAULT_HEAP_CAP_MB = 384;
const TARGETS = { wallOverIdeal: 1.15, readsPerTask: 3, dbKbPerItemRound: 2, fireLagS: TRIGGER_INTERVAL_S + 30 };
const CORES = os.cpus().length;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const uptime = () => /load average: (.*)$/.exec(execFileSync('uptime', { encoding: 'utf8' }).trim())?.[1] ?? '?';
const fmt = (n, d = 2) => (Number.isFinite(n) ? Number(n).toFixed(d) : '-');
const kb = (bytes) => bytes / 1024;
/** The simulator as every durable run wants it: sora-2 tasks of 60-180 s without estimated_time, the recorder. */
function prepareSimulator(sim) {
	sim.reset();
	created.length = 0;
	sim.inject({ method: 'POST', path: '/e2e/record', origin: 'files', status: 200, body: { ok: true }, times: Infinity });
	sim.scenario('sora-2', { durationMs: DURATION_MS, estimatedTime: 'none' });
}

/** n8n stores run data as flatted text; its own copy of flatted reads it. */
function runDataOf(stack, data) {
	if (typeof data !== 'string') return data;
	return require(path.join(stack.line.dir, 'node_modules', 'flatted')).parse(data);
}

/**
 * The workflow's newest execution since `since` (the start-up probes' executions, with no items,
 * may have begun a moment before; the receipt executions the gateway node writes while it runs,
 * mode `integrated`, are not it): { id, status, waitTill }.
 */
async function newestExecution(stack, workflowId, since) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const list = await rest(stack, 'GET', `/rest/executions?filter=${filter}&limit=100`);
	const [e] = (list.results ?? list).filter((x) => x.mode !== 'integrated' && Date.parse(x.startedAt) >= since - 1000).sort((a, b) => Number(b.id) - Number(a.id));
	return e && { id: String(e.id), status: e.status, waitTill: e.waitTill };
}

async function execution(stack, id) {
	return await rest(stack, 'GET', `/rest/executions/${id}`);
}

/** Everything measured around a run: CPU of every process, RSS, V8 in main (regular), the database. */
async function startMeasuring(stack) {
	const processes = [...new Map([stack.main, ...stack.runners].map((p) => [p.pid, p])).values()];
	const cpuBefore = Object.fromEntries(processes.map((p) => [p.name, cpuSeconds(p.pid)]));
	const own = process.cpuUsage();
	const rss = sampleRss(processes);
	const v8 = stack.mode === 'regular' ? await sampleV8(stack.baseUrl) : undefined;
	const db = await databaseSize(stack);
	const load = uptime();
	return {
		db,
		stop: async () => {
			const cpu = Object.fromEntries(processes.map((p) => [p.name, cpuSeconds(p.pid) - cpuBefore[p.name]]));
			const mine = process.cpuUsage(own);
			cpu.simulator = (mine.user + mine.system) / 1e6;
			return { cpu, rssPeak: rss.stop(), v8: await v8?.stop(), dbAfter: await databaseSize(stack), loadBefore: load, loadAfter: uptime() };
		},
	};
}

/**
 * One parked run: the package's long-render loop or the hand-built loop, `count` videos in one
 * execution, until every item is out (a file, or the error output) and the execution has ended.
 * Each time the execution parks again, the database and the stored execution are measured: what
 * one round adds.
 */
async function parkedRun(stack, sim, { run, side, count }) {
	prepareSimulator(sim);
	const workflowId = side === 'package' ? 'benchParked' : LOOP.workflowId;
	const hook = side === 'package' ? 'bench-parked' : LOOP.path;
	const measuring = await startMeasuring(stack);
	const started = Date.now();
	await post(stack, hook, { run, count });
	const parks = [];
	let id;
	let status;
	let parkedUntil;
	for (;;) {
		await sleep(1000);
		const recs = records(sim, run);
		const out = recs.reduce((n, r) => n + (r.query.event === 'files' ? Number(r.query.files) : r.query.event === 'failed' ? Number(r.query.items) : 0), 0);
		const e = await newestExecution(stack, workflowId, started);
		id = e?.id;
		status = e?.status;
		// Parked again (a new resume time): what the database and the stored execution hold after this round.
		if (status === 'waiting' && e.waitTill !== parkedUntil) {
			parkedUntil = e.waitTill;
			const stored = await execution(stack, id);
			const text = typeof stored.data === 'string' ? stored.data : JSON.stringify(stored.data ?? null);
			parks.push({ at: Date.now() - started, db: await databaseSize(stack), storedBytes: Buffer.byteLength(text) });
			console.log(`    ${run}: parked at ${((Date.now() - started) / 1000).toFixed(0)} s, ${out}/${count} out, stored execution ${fmt(Buffer.byteLength(text) / 1024 / 1024)} MB; load ${uptime()}`);
		}
		if (id && !['new', 'running', 'waiting', 'unknown'].includes(status)) break;
		if (Date.now() - started > 40 * 60_000) throw new Error(`${run}: not over within 40 min (${out}/${count} out, execution ${id} ${status})`);
	}
	const measured = await measuring.stop();
	const final = await execution(stack, id);
	const text = typeof final.data === 'string' ? final.data : JSON.stringify(final.data ?? null);
	const runData = runDataOf(stack, final.data)?.resultData?.runData ?? {};
	const rounds = (runData[side === 'package' ? 'Check Once' : 'Status'] ?? []).length;
	const recs = records(sim, run);
	const files = recs.filter((r) => r.query.event === 'files').reduce((n, r) => n + Number(r.query.files), 0);
	const lastRecord = Math.max(...recs.map((r) => r.at));
	return {
		run,
		side,
		count,
		status: final.status,
		wallMs: lastRecord - started,
		idealMs: plannedSlowestMs([{ kind: 'video', count }], DURATION_MS) + PARK_S * 1000,
		intervalS: PARK_S,
		rounds,
		parks,
		files,
		failed: count - files,
		storedBytes: Buffer.byteLength(text),
		dbBefore: measuring.db,
		...measured,
		...whatTheGatewaySaw(sim),
		started,
	};
}

/** Poll durations from n8n's own metrics (2.x, N8N_METRICS_INCLUDE_POLL_TRIGGER_METRICS): each new poll's seconds. */
async function pollMetrics(baseUrl) {
	try {
		const res = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(5000) });
		if (res.status !== 200) return undefined;
		const text = await res.text();
		const mine = (name) => [...text.matchAll(new RegExp(`^\\w*${name}\\{([^}]*)\\}\\s+([\\d.eE+-]+)$`, 'gm'))].filter((m) => /unifiedAiGatewayTrigger/.test(m[1]));
		const sum = (name) => mine(name).reduce((n, m) => n + Number(m[2]), 0);
		return { count: sum('poll_trigger_duration_seconds_count'), seconds: sum('poll_trigger_duration_seconds_sum'), timeouts: sum('poll_trigger_timeouts_total'), errors: sum('poll_trigger_errors_total') };
	} catch {
		return undefined;
	}
}

function samplePolls(baseUrl, everyMs = 1000) {
	const polls = [];
	let last;
	let busy = false;
	const timer = setInterval(() => {
		if (busy) return;
		busy = true;
		void pollMetrics(baseUrl)
			.then((now) => {
				if (!now) return;
				if (last && now.count > last.count) polls.push({ at: Date.now(), polls: now.count - last.count, seconds: (now.seconds - last.seconds) / (now.count - last.count) });
				last = now;
			})
			.finally(() => (busy = false));
	}, everyMs);
	return {
		stop: async () => {
			clearInterval(timer);
			return { polls, last: (await pollMetrics(baseUrl)) ?? last };
		},
	};
}

/**
 * The trigger run: `count` videos submitted by one workflow (Wait off); their ids into a Task
 * Finished trigger saved and published through the editor's REST API; every fired id recorded,
 * until each has fired and one more poll has passed (a second firing would show then).
 */
async function triggerRun(stack, sim, { run, count, vars }) {
	prepareSimulator(sim);
	const measuring = await startMeasuring(stack);
	const polls = samplePolls(stack.baseUrl);
	const started = Date.now();
	await post(stack, 'bench-submit', { run, count });
	for (;;) {
		await sleep(500);
		if (records(sim, run).some((r) => r.query.event === 'submitted')) break;
		if (Date.now() - started > 10 * 60_000) throw new Error(`${run}: the submits did not end within 10 min (${created.length} tasks)`);
	}
	const ids = created.map((t) => t.id);
	const submittedAt = Date.now();
	const saved = await rest(stack, 'POST', '/rest/workflows', { ...trigger(ids, run, vars), active: false });
	await rest(stack, 'POST', `/rest/workflows/${saved.id}/activate`, { versionId: saved.versionId });
	const publishedAt = Date.now();
	console.log(`    ${run}: ${ids.length} tasks submitted in ${((submittedAt - started) / 1000).toFixed(1)} s; trigger published at ${((publishedAt - started) / 1000).toFixed(1)} s; load ${uptime()}`);
	const fired = new Map();
	let allAt;
	let reported = 0;
	for (;;) {
		await sleep(1000);
		fired.clear();
		for (const r of records(sim, run).filter((x) => x.query.event === 'fired')) for (const id of r.body?.ids ?? []) fired.set(id, [...(fired.get(id) ?? []), r.at]);
		if (fired.size > reported) {
			console.log(`    ${run}: ${fired.size}/${ids.length} fired at ${((Date.now() - started) / 1000).toFixed(0)} s; load ${uptime()}`);
			reported = fired.size;
		}
		if (allAt === undefined && ids.every((id) => fired.has(id))) allAt = Date.now();
		if (allAt !== undefined && Date.now() - allAt > SETTLE_MS) break;
		if (Date.now() - started > 40 * 60_000) break;
	}
	await rest(stack, 'POST', `/rest/workflows/${saved.id}/deactivate`, {}).catch(() => {});
	const { polls: pollList, last } = await polls.stop();
	const measured = await measuring.stop();
	const gateway = whatTheGatewaySaw(sim);
	const lags = [];
	for (const id of ids) {
		const task = sim.task(id);
		const first = fired.get(id)?.[0];
		if (first !== undefined && task.finishedAt !== undefined) lags.push((first - task.finishedAt) / 1000);
	}
	const fireRecords = records(sim, run).filter((r) => r.query.event === 'fired');
	const executions = [...new Set(fireRecords.map((r) => r.query.execution))];
	let storedBytes = 0;
	for (const e of executions) {
		const stored = await execution(stack, e).catch(() => undefined);
		if (stored) storedBytes += Buffer.byteLength(typeof stored.data === 'string' ? stored.data : JSON.stringify(stored.data ?? null));
	}
	const firsts = ids.map((id) => fired.get(id)?.[0]).filter((at) => at !== undefined);
	const filesOut = fireRecords.reduce((n, r) => n + Number(r.body?.files ?? 0), 0);
	return {
		run,
		side: 'trigger',
		count,
		status: 'success',
		wallMs: Math.max(...firsts) - started,
		idealMs: plannedSlowestMs([{ kind: 'video', count }], DURATION_MS) + TRIGGER_INTERVAL_S * 1000,
		intervalS: TRIGGER_INTERVAL_S,
		rounds: pollList.reduce((n, p) => n + p.polls, 0),
		pollSeconds: pollList.map((p) => p.seconds),
		pollTimeouts: last?.timeouts ?? NaN,
		pollErrors: last?.errors ?? NaN,
		parks: [],
		files: filesOut,
		failed: count - filesOut,
		firedOnce: ids.filter((id) => fired.get(id)?.length === 1).length,
		firedTwice: ids.filter((id) => (fired.get(id)?.length ?? 0) > 1).length,
		neverFired: ids.filter((id) => !fired.has(id)).length,
		lags,
		executions: executions.length,
		storedBytes,
		dbBefore: measuring.db,
		...measured,
		...gateway,
		started,
	};
}

/** The figures of one run, as the table shows them. */
function figures(r) {
	const db = growth(r.dbBefore, r.dbAfter);
	const binary = db.tables.binary_data ?? 0;
	const perItemRound = (bytes) => kb(bytes) / Math.max(1, r.count) / Math.max(1, r.rounds);
	return {
		wallOverIdeal: r.status === 'success' ? r.wallMs / r.idealMs : NaN,
		wallS: r.wallMs / 1000,
		readsPerTask: r.readsPerTask,
		requestsPerTask: r.requestsPerTask,
		rounds: r.rounds,
		cpuN8n: Object.entries(r.cpu).filter(([name]) => name !== 'simulator').reduce((n, [, s]) => n + s, 0),
		cpuSim: r.cpu.simulator,
		dbGrowthKb: kb(db.totalBytes),
		dbUsedGrowthKb: kb(db.usedBytes),
		dbBinaryKb: kb(binary),
		dbExecutionsKb: kb(db.tables.execution_data ?? NaN),
		// What n8n's database holds more (SQLite: pages in use; PostgreSQL: its tables, dead row
		// versions included), the result files in queue mode's binary data table left out.
		dbKbPerItem: kb(db.usedBytes - binary) / Math.max(1, r.count),
		dbKbPerItemRound: perItemRound(db.usedBytes - binary),
		storedKbPerItem: kb(r.storedBytes) / Math.max(1, r.count),
		files: r.files,
		failed: r.failed,
		lost: r.lost,
		duplicates: r.duplicates,
		rssPeak: Math.max(...Object.values(r.rssPeak)),
	};
}

const ROWS = [
	['wall ÷ ideal', 'wallOverIdeal', 2],
	['wall (s)', 'wallS', 1],
	['task reads per task', 'readsPerTask', 2],
	['gateway requests per task', 'requestsPerTask', 2],
	['rounds (checks / polls)', 'rounds', 0],
	['CPU of n8n (s)', 'cpuN8n', 1],
	['CPU of the simulator (s)', 'cpuSim', 1],
	['database file / size growth (KB)', 'dbGrowthKb', 0],
	['database growth in use (KB)', 'dbUsedGrowthKb', 0],
	['  of it binary data (KB)', 'dbBinaryKb', 0],
	['  execution_data (KB)', 'dbExecutionsKb', 0],
	['db growth per item, no files (KB)', 'dbKbPerItem', 2],
	['  per item per round (KB)', 'dbKbPerItemRound', 3],
	['stored execution per item (KB)', 'storedKbPerItem', 2],
	['files out', 'files', 0],
	['failed items (no file)', 'failed', 0],
	['lost tasks', 'lost', 0],
	['double submits', 'duplicates', 0],
	['RSS peak of an n8n process (MB)', 'rssPeak', 0],
];

const since = (r, at) => fmt((at - r.started) / 1000, 0);

function details(r, log) {
	log(`  ${r.run} (${r.side}): ${r.count} videos, wall ${fmt(r.wallMs / 1000, 1)} s, ideal ${fmt(r.idealMs / 1000, 1)} s (slowest task of the plan + ${r.intervalS} s); execution ${r.status}; load ${r.loadBefore} → ${r.loadAfter}`);
	log(`    timeline (s): submits ${since(r, r.phases.submitsFrom)}-${since(r, r.phases.submitsTo)}, last task done ${since(r, r.phases.lastTask)}, downloads ${since(r, r.phases.downloadsFrom)}-${since(r, r.phases.downloadsTo)}; wall ÷ (last task done + interval) ${fmt(r.wallMs / (r.phases.lastTask - r.started + r.intervalS * 1000))}`);
	const reads = r.tasks.map((t) => t.reads);
	log(`    reads per task: mean ${fmt(r.readsPerTask)}, max ${Math.max(...reads)}; ${[1, 2, 3, 4].map((n) => `${reads.filter((x) => (n === 4 ? x >= 4 : x === n)).length} read ${n === 4 ? '4+' : n}×`).join(', ')}; 0×: ${reads.filter((x) => x === 0).length}`);
	log(`    cpu seconds: ${Object.entries(r.cpu).map(([name, s]) => `${name} ${fmt(s, 1)}`).join(', ')} (on ${CORES} cores); rss peak: ${Object.entries(r.rssPeak).map(([name, mb]) => `${name} ${fmt(mb, 0)} MB`).join(', ')}${r.v8 ? `; V8 in main: heap at most ${fmt(r.v8.heapPeakMb, 0)} MB, collecting ${fmt(r.v8.gcS, 1)} s` : ''}`);
	const db = growth(r.dbBefore, r.dbAfter);
	log(`    database: ${fmt(kb(r.dbBefore.totalBytes), 0)} KB → ${fmt(kb(r.dbAfter.totalBytes), 0)} KB; tables grown: ${Object.entries(db.tables).map(([name, b]) => `${name} ${fmt(kb(b), 0)} KB`).join(', ')}`);
	let previous = { db: r.dbBefore, storedBytes: 0, at: 0 };
	for (const [i, p] of r.parks.entries()) {
		const g = growth(previous.db, p.db);
		log(`    park ${i + 1} at ${fmt(p.at / 1000, 0)} s: stored execution ${fmt(kb(p.storedBytes), 0)} KB (+${fmt(kb(p.storedBytes - previous.storedBytes), 0)}), database +${fmt(kb(g.totalBytes), 0)} KB (in use +${fmt(kb(g.usedBytes), 0)})`);
		previous = p;
	}
	if (r.side === 'trigger') {
		const lags = [...r.lags].sort((a, b) => a - b);
		const q = (p) => lags[Math.min(lags.length - 1, Math.floor(p * lags.length))];
		log(`    fired once ${r.firedOnce}, twice ${r.firedTwice}, never ${r.neverFired}, in ${r.executions} executions; lag from a task's end to its firing: p50 ${fmt(q(0.5), 1)} p90 ${fmt(q(0.9), 1)} max ${fmt(lags[lags.length - 1], 1)} s`);
		log(`    polls: ${r.rounds}, seconds each: ${r.pollSeconds.map((s) => fmt(s, 1)).join(' ')}; abandoned past the timeout: ${r.pollTimeouts}; polls that threw: ${r.pollErrors}`);
	}
}

/** One scenario: its runs side by side, details, the targets, the last line. Returns the targets missed. */
function reportScenario(scenario, runs, heapCapMb, log = console.log) {
	const cols = runs.map((r) => ({ r, f: figures(r) }));
	const pad = (s, n) => String(s).padEnd(n);
	log('');
	log(`scenario ${scenario}`);
	log(`  ${pad('figure', 34)}${cols.map((c) => pad(c.r.side, 14)).join('')}`);
	for (const [name, key, d] of ROWS) log(`  ${pad(name, 34)}${cols.map((c) => pad(fmt(c.f[key], d), 14)).join('')}`);
	for (const c of cols) details(c.r, log);
	const pkg = cols.find((c) => c.r.side !== 'loop');
	const loop = cols.find((c) => c.r.side === 'loop');
	const p = pkg.f;
	const l = loop?.f ?? {};
	const missed = [];
	if (!(p.wallOverIdeal <= TARGETS.wallOverIdeal)) missed.push(`wall ÷ ideal ${fmt(p.wallOverIdeal)} > ${TARGETS.wallOverIdeal}`);
	if (pkg.r.side === 'package' && !(p.readsPerTask <= TARGETS.readsPerTask)) missed.push(`reads per task ${fmt(p.readsPerTask)} > ${TARGETS.readsPerTask}`);
	if (pkg.r.side === 'package' && !(p.dbKbPerItemRound <= TARGETS.dbKbPerItemRound)) missed.push(`database growth ${fmt(p.dbKbPerItemRound, 3)} KB per item per round > ${TARGETS.dbKbPerItemRound}`);
	if (loop && !(p.requestsPerTask < l.requestsPerTask)) missed.push(`requests per task ${fmt(p.requestsPerTask)} not below the loop's ${fmt(l.requestsPerTask)}`);
	if (p.failed || p.lost || p.duplicates) missed.push(`${p.failed} failed, ${p.lost} lost, ${p.duplicates} double submits`);
	const maxLag = pkg.r.lags?.length ? Math.max(...pkg.r.lags) : NaN;
	if (pkg.r.side === 'trigger') {
		if (pkg.r.firedTwice || pkg.r.neverFired) missed.push(`${pkg.r.firedTwice} fired twice, ${pkg.r.neverFired} never`);
		if (!(maxLag <= TARGETS.fireLagS)) missed.push(`a task fired ${fmt(maxLag, 1)} s after its end (> ${TARGETS.fireLagS})`);
		if (pkg.r.pollTimeouts || Math.max(...pkg.r.pollSeconds) > 36) missed.push(`a poll past its budget (${fmt(Math.max(...pkg.r.pollSeconds), 1)} s; ${pkg.r.pollTimeouts} abandoned)`);
	}
	log(missed.length ? `  MISSED: ${missed.join('; ')}` : '  all targets met');
	const trig = pkg.r.side === 'trigger' ? ` fired_twice=${pkg.r.firedTwice} never_fired=${pkg.r.neverFired} max_fire_lag_s=${fmt(maxLag, 1)}` : '';
	log(
		`bench-n8n-durable scenario=${scenario} wall_over_ideal=${fmt(p.wallOverIdeal)} reads_per_task=${fmt(p.readsPerTask)} requests_per_task=${fmt(p.requestsPerTask)} db_growth_kb_per_item_round=${fmt(p.dbKbPerItemRound, 3)} loop_wall_over_ideal=${fmt(l.wallOverIdeal)} loop_requests_per_task=${fmt(l.requestsPerTask)} heap_cap_mb=${heapCapMb ?? 'none'} failed=${p.failed} duplicate_submits=${p.duplicates}${trig}`,
	);
	return missed;
}

/** The durable scenarios asked for (`durable`: all three), each on the stack it needs. */
async function runDurable(scenarios, { version, dir, heapCapMb = DEFAULT_HEAP_CAP_MB, sim, onStack }) {
	const wanted = scenarios.includes('durable') ? ['parked', 'parked-queue', 'trigger'] : scenarios;
	const credential = cli.gatewayCredential({ baseUrl: `${sim.mainUrl}/v1`, altBaseUrl: sim.altUrl, apiKey: n8n.SIM_API_KEY });
	const HEADER_CRED = { id: 'benchHeaderAuth', name: 'Gateway key (header)' };
	const credentials = [credential, { ...HEADER_CRED, type: 'httpHeaderAuth', data: { name: 'Authorization', value: `Bearer ${n8n.SIM_API_KEY}` } }];
	const vars = { SIM_FILES: sim.filesUrl, SIM_MAIN: sim.mainUrl, CRED_ID: cli.CRED_ID, CRED_NAME: cli.CRED_NAME, HEADER_CRED_ID: HEADER_CRED.id, HEADER_CRED_NAME: HEADER_CRED.name };
	const missed = [];
	const lines = [];
	// Queue mode's PostgreSQL runs as the postgres user when this is root: it must reach its folder.
	fs.chmodSync(dir, 0o755);
	for (const queue of [false, true]) {
		const here = wanted.filter((s) => (s === 'parked-queue') === queue);
		if (!here.length) continue;
		const t = Date.now();
		const stack = await startStack({ queue, version, dir: path.join(dir, queue ? 'queue' : 'regular'), credential: credentials, vars, heapCapMb, workflows: DURABLE(), probes: PROBES() });
		onStack(stack);
		try {
			await sleep(5000);
			console.log(`n8n ${queue ? 'queue mode' : 'regular mode'} up in ${((Date.now() - t) / 1000).toFixed(1)} s: ${stack.runners.map((r) => `${r.name} (pid ${r.pid})`).join(', ')}; idle RSS ${Object.entries(rssNow([stack.main, ...stack.runners])).map(([n, mb]) => `${n} ${mb.toFixed(0)} MB`).join(', ')}`);
			for (const scenario of here) {
				const count = scenario === 'trigger' ? COUNTS.trigger : COUNTS.parked;
				const runs = [];
				const first = scenario === 'trigger' ? () => triggerRun(stack, sim, { run: `${scenario}-trigger`, count, vars }) : () => parkedRun(stack, sim, { run: `${scenario}-package`, side: 'package', count });
				for (const [side, go] of [[scenario === 'trigger' ? 'trigger' : 'package', first], ['loop', () => parkedRun(stack, sim, { run: `${scenario}-loop`, side: 'loop', count })]]) {
					const r0 = Date.now();
					console.log(`run ${scenario} ${side}: ${count} videos of ${DURATION_MS[0] / 1000}-${DURATION_MS[1] / 1000} s; load ${uptime()}`);
					runs.push(await go());
					console.log(`run ${scenario} ${side} done in ${((Date.now() - r0) / 1000).toFixed(0)} s; load ${uptime()}`);
					// Its details now: a later run that fails leaves them in the log.
					details(runs[runs.length - 1], console.log);
					await sleep(5000);
				}
				const out = [];
				missed.push(...reportScenario(scenario, runs, heapCapMb, (line) => (console.log(line), out.push(line))).map((m) => `${scenario}: ${m}`));
				lines.push(out[out.length - 1]);
			}
		} finally {
			onStack(undefined);
			await stack.stop().catch(() => {});
		}
	}
	console.log('');
	for (const line of lines) console.log(line);
	return missed;
}

const DURABLE_SCENARIOS = ['durable', 'parked', 'parked-queue', 'trigger'];

module.exports = { runDurable, DURABLE_SCENARIOS, DEFAULT_HEAP_CAP_MB };
