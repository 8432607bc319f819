#!/usr/bin/env node
/*
 * npm run bench:n8n [-- flags]: the package against the loop users build by hand, in a real n8n
 * (not part of CI).
 *
 * One n8n (regular mode: `n8n start`; --queue: Redis + PostgreSQL + main + two workers) with the
 * packed package, the gateway simulator on loopback, n8n's heap capped. Each scenario runs the
 * package's workflows (one node run waits and downloads every item) and then the hand-built loop
 * (loop-images.json, loop-videos.json: HTTP Request submit → Wait → status → If done → download)
 * on the same workload at the same poll interval, one after the other in the same n8n, each once
 * main's heap is back to rest (measure.js heapAtRest); report.js prints them side by side. Tasks
 * take 1.5-20 s, none says estimated_time.
 *
 *   default            500 images + 100 videos: package, loop
 *   --scenarios faults 100 + 20 items, every 5th task fails: package, loop (stopped at 90 s)
 *   --scenarios limited  500 + 100 behind a 20 requests/s limit on the submits (429 beyond):
 *                        package, loop plain, loop with Retry On Fail on its submit, loop with
 *                        the submit's Batching (10 items a second)
 *   --scenarios all    the three
 *   --scenarios durable  the paths n8n saves at every node boundary, 60-180 s videos (durable.js;
 *                      npm run bench:n8n:durable): parked (1,000 in the long-render loop, regular
 *                      mode), parked-queue (the same in queue mode), trigger (2,000 watched by Task
 *                      Finished), each beside the hand-built loop with a 70 s Wait; one of them by
 *                      name reruns it alone. Heap cap 384 MB unless --heap-cap-mb. About 10 min each.
 *   --queue --items 5000 [--executions 10]   scale: N images over E executions posted at once
 *                      (as a scheduled batch would), run by two workers; the package only
 *   --heap-cap-mb N    n8n's V8 heap cap (default: the floor probed for n8n 2.41.1, 320 MB)
 *   --probe-heap-cap   find the smallest cap n8n starts in first (192, 256, 320, … MB) and use it
 *   --uncapped         no cap: RSS growth for information only (V8 collects late when it may)
 *   --relay            task records behind new-api's rounds (bench/refresh.js; BENCH_RELAY_CHANNELS=N channels
 *                      per model, default 1): reads per task at the relay's pace; the ideal and the read lag
 *                      count from when each task's record showed its end
 *   N8N_VERSION=1.123.81   the 1.x line (default: 2.41.1, the line users install)
 *   BENCH_IMAGES / BENCH_VIDEOS   the default scenario's counts (default 500 / 100)
 *   BENCH_INTERVAL_S   the poll interval of both sides (default 5)
 *   BENCH_RENDER=1     the simulator draws every result picture (default: once per size, see simulator.js)
 *   BENCH_TRACE_GC=1   V8 logs every collection of every n8n process into its log (trace-gc.js)
 *   E2E_KEEP=1         keep the temp folder (n8n logs, database)
 *
 * The last line: bench-n8n wall_over_ideal=… reads_per_task=… loop_wall_over_ideal=…
 * loop_reads_per_task=… main_cpu_over_loop=… heap_cap_mb=… rss_peak_over_baseline_mb=… failed=…
 * duplicate_submits=…
 * (the default scenario; with --items, a bench-n8n-queue line).
 */

'use strict';

const { execFileSync } = require('child_process');

const n8n = require('../../test/n8n');
const cli = require('../../test/e2e/cli');
const { startSimulator, picturesDrawnOnce } = require('./simulator');
const { startStack, probeHeapCap } = require('./stack');
const { benchRun } = require('./run');
const { INTERVAL_S } = require('./workflows');
const { heapAtRest, rssNow } = require('./measure');
const { report } = require('./report');
const { benchRefresh, describeRefresh } = require('../refresh');
const { tempDir, removeTempDir } = require('../../test/n8n/tempdirs');
const { runDurable, DURABLE_SCENARIOS, DEFAULT_HEAP_CAP_MB: DURABLE_HEAP_CAP_MB } = require('./durable');

const VERSION = process.env.N8N_VERSION || n8n.NEWEST_2X;
const COUNTS = { image: Number(process.env.BENCH_IMAGES ?? 500), video: Number(process.env.BENCH_VIDEOS ?? 100) };
const LIMIT = { perSecond: 20, burst: 20 };
/** The smallest heap n8n 2.41.1 starts in, as --probe-heap-cap found it: 256 MB aborts, 320 MB starts. */
const DEFAULT_HEAP_CAP_MB = 320;
const HEADER_CRED = { id: 'benchHeaderAuth', name: 'Gateway key (header)' };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();

function parseArgs(args) {
	const value = (name) => {
		const i = args.indexOf(name);
		if (i < 0) return undefined;
		const v = args[i + 1];
		if (v === undefined || v.startsWith('--')) throw new Error(`${name} needs a value`);
		return v;
	};
	const number = (name) => {
		const v = value(name);
		if (v === undefined) return undefined;
		if (!/^[1-9]\d*$/.test(v)) throw new Error(`${name} takes a whole number > 0, not ${JSON.stringify(v)}`);
		return Number(v);
	};
	const known = ['--queue', '--items', '--executions', '--heap-cap-mb', '--probe-heap-cap', '--uncapped', '--scenarios'];
	known.push('--relay');
	for (const a of args) if (a.startsWith('--') && a !== '--' && !known.includes(a)) throw new Error(`unknown flag ${a} (known: ${known.join(', ')})`);
	let scenarios = (value('--scenarios') ?? '').split(',').filter(Boolean);
	if (scenarios.includes('all')) scenarios = ['faults', 'limited'];
	for (const s of scenarios) if (!['faults', 'limited', ...DURABLE_SCENARIOS].includes(s)) throw new Error(`--scenarios takes faults, limited, all, ${DURABLE_SCENARIOS.join(', ')}, not ${s}`);
	const durable = scenarios.filter((s) => DURABLE_SCENARIOS.includes(s));
	if (durable.length && (durable.length !== scenarios.length || args.includes('--queue') || args.includes('--items'))) throw new Error(`--scenarios ${durable.join(',')} runs on its own (it starts regular and queue mode itself)`);
	const opts = { queue: args.includes('--queue'), items: number('--items'), executions: number('--executions') ?? 10, heapCapMb: number('--heap-cap-mb'), probe: args.includes('--probe-heap-cap'), uncapped: args.includes('--uncapped'), scenarios };
	// --relay, BENCH_REFRESH, BENCH_RELAY_CHANNELS: how the simulator refreshes task records (bench/refresh.js).
	opts.refresh = benchRefresh(args);
	if (opts.uncapped && (opts.heapCapMb || opts.probe)) throw new Error('--uncapped goes with neither --heap-cap-mb nor --probe-heap-cap');
	if (opts.items && opts.items % opts.executions) throw new Error(`--items ${opts.items} does not split evenly over --executions ${opts.executions}`);
	return opts;
}

const executionsOf = (counts) => Object.entries(counts).filter(([, n]) => n > 0).map(([kind, count]) => ({ kind, count }));
const workload = (counts, extra = '') => `${counts.image} images + ${counts.video} videos, tasks 1.5-20 s, no estimated_time, poll interval ${INTERVAL_S} s on both sides${extra}`;

/** The runs of each scenario asked for: [{ scenario, describe, side, variant, executions, … }]. */
function plan(opts) {
	if (opts.items) {
		const each = opts.items / opts.executions;
		return [{ scenario: 'scale', describe: `${opts.items} images over ${opts.executions} executions of ${each} posted at once, two workers, tasks 1.5-20 s, poll interval ${INTERVAL_S} s`, side: 'package', executions: Array.from({ length: opts.executions }, () => ({ kind: 'image', count: each })) }];
	}
	const runs = [];
	const both = (scenario, describe, extra, variants = ['plain']) => {
		runs.push({ scenario, describe, side: 'package', ...extra });
		for (const variant of variants) runs.push({ scenario, describe, side: 'loop', variant, ...extra, ...(extra.loop || {}) });
	};
	both('default', workload(COUNTS), { executions: executionsOf(COUNTS) });
	if (opts.scenarios.includes('faults')) {
		const counts = { image: 100, video: 20 };
		both('faults', workload(counts, ', every 5th task fails; the loop is stopped at 90 s, as a user would'), { executions: executionsOf(counts), failEvery: 5, loop: { stopAfterMs: 90_000 } });
	}
	if (opts.scenarios.includes('limited')) {
		both('limited', workload(COUNTS, `, behind ${LIMIT.perSecond} requests/s on the submits (burst ${LIMIT.burst}; 429 beyond)`), { executions: executionsOf(COUNTS), limit: LIMIT }, ['plain', 'retry', 'batch']);
	}
	return runs;
}

/**
 * A run's temp folder and what it starts: stopAll() ends the stack (n8n, by process id) and the
 * simulator held, removeDir() the folder unless E2E_KEEP=1.
 */
function holder(prefix) {
	const dir = tempDir(prefix, { keep: process.env.E2E_KEEP === '1' });
	const held = { dir, sim: undefined, stack: undefined };
	held.stopAll = async () => {
		if (held.stack) await held.stack.stop().catch(() => {});
		held.stack = undefined;
		if (held.sim) await held.sim.close().catch(() => {});
		held.sim = undefined;
	};
	held.removeDir = () => (process.env.E2E_KEEP === '1' ? console.log(`kept ${dir}`) : removeTempDir(dir));
	return held;
}

/** --scenarios durable (or one of its scenarios): its own stacks and report (durable.js). */
async function mainDurable(opts) {
	const held = holder('bench-n8n-durable-');
	const { dir, stopAll, removeDir } = held;
	// Ctrl+C: what was started, by process id (a stack still starting stops itself when its start fails).
	const onSignal = (signal) => {
		console.log(`interrupted (${signal}), stopping what was started`);
		stopAll().finally(() => {
			removeDir();
			process.exit(130);
		});
	};
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	try {
		const heapCapMb = opts.uncapped ? undefined : opts.heapCapMb ?? DURABLE_HEAP_CAP_MB;
		console.log(`bench-n8n durable: n8n ${VERSION}; scenarios: ${opts.scenarios.join(', ')}; heap cap ${heapCapMb ? `${heapCapMb} MB in every n8n process` : 'none'}; load: ${uptime()}`);
		const host = await n8n.prepareN8n({ version: VERSION });
		console.log(`n8n ${VERSION} ${host.reused ? 'reused' : 'installed'} (${host.dir})`);
		const sim = (held.sim = await startSimulator({ apiKey: n8n.SIM_API_KEY, refresh: opts.refresh }));
		console.log(`simulator: ${describeRefresh(opts.refresh)}`);
		const missed = await runDurable(opts.scenarios, { version: VERSION, dir, heapCapMb, sim, onStack: (s) => (held.stack = s) });
		console.log(missed.length ? `MISSED: ${missed.join('; ')}` : 'all targets met');
		return missed.length ? 1 : 0;
	} catch (e) {
		console.log(`bench-n8n failed: ${n8n.redact(e.stack || e.message)}`);
		return 1;
	} finally {
		process.removeListener('SIGINT', onSignal);
		process.removeListener('SIGTERM', onSignal);
		await stopAll();
		removeDir();
	}
}

async function main(args) {
	const opts = parseArgs(args);
	if (opts.scenarios.some((s) => DURABLE_SCENARIOS.includes(s))) return await mainDurable(opts);
	const runsPlanned = plan(opts);
	const variants = [...new Set(runsPlanned.filter((r) => r.side === 'loop').map((r) => r.variant))];
	const held = holder('bench-n8n-');
	const { dir, stopAll, removeDir } = held;
	let sim;
	let stack;
	let failed = false;
	const leave = () => {
		removeDir();
		process.exit(130);
	};
	// Ctrl+C: stop what was started (by process id), then leave. While n8n is starting, its
	// processes (detached, each in its own group) are known only once the start returns.
	let starting = false;
	let interrupted = false;
	const onSignal = (signal) => {
		console.log(`interrupted (${signal}), stopping what was started`);
		interrupted = true;
		if (!starting) stopAll().finally(leave);
	};
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	try {
		console.log(`bench-n8n: n8n ${VERSION}, ${opts.queue ? 'queue mode (main + 2 workers)' : 'regular mode'}; scenarios: ${[...new Set(runsPlanned.map((r) => r.scenario))].join(', ')}; load: ${uptime()}`);
		const host = await n8n.prepareN8n({ version: VERSION });
		console.log(`n8n ${VERSION} ${host.reused ? 'reused' : 'installed'} (${host.dir}); result pictures ${picturesDrawnOnce ? 'drawn once per size (BENCH_RENDER=1 draws each)' : 'drawn for every task'}`);
		let heapCapMb = opts.uncapped ? undefined : opts.heapCapMb ?? DEFAULT_HEAP_CAP_MB;
		if (opts.probe) {
			starting = true;
			const probe = await probeHeapCap({ version: VERSION, dir }).finally(() => (starting = false));
			if (interrupted) return await stopAll().finally(leave);
			heapCapMb = probe.capMb;
			console.log(`heap cap probe: ${probe.tried.join('; ')}`);
		}
		console.log(`heap cap: ${heapCapMb ? `${heapCapMb} MB (NODE_OPTIONS=--max-old-space-size=${heapCapMb} in every n8n process; ${opts.probe ? 'probed' : opts.heapCapMb ? 'given' : 'the default'})` : 'none (--uncapped: RSS growth for information only)'}`);
		sim = held.sim = await startSimulator({ apiKey: n8n.SIM_API_KEY, refresh: opts.refresh });
		console.log(`simulator: ${describeRefresh(opts.refresh)}`);
		const credential = [
			cli.gatewayCredential({ baseUrl: `${sim.mainUrl}/v1`, altBaseUrl: sim.altUrl, apiKey: n8n.SIM_API_KEY }),
			// The loop's HTTP Request nodes send the key as users set it up: a Header Auth credential.
			{ ...HEADER_CRED, type: 'httpHeaderAuth', data: { name: 'Authorization', value: `Bearer ${n8n.SIM_API_KEY}` } },
		];
		const vars = { SIM_FILES: sim.filesUrl, SIM_MAIN: sim.mainUrl, CRED_ID: cli.CRED_ID, CRED_NAME: cli.CRED_NAME, HEADER_CRED_ID: HEADER_CRED.id, HEADER_CRED_NAME: HEADER_CRED.name };
		const t = Date.now();
		starting = true;
		// Queue mode: each worker runs up to half the executions at once (a batch's executions run side by side).
		const concurrency = Math.max(10, Math.ceil((opts.items ? opts.executions : 2) / 2));
		stack = held.stack = await startStack({ queue: opts.queue, version: VERSION, dir, credential, vars, variants, heapCapMb, concurrency }).finally(() => (starting = false));
		if (interrupted) return await stopAll().finally(leave);
		console.log(`n8n up in ${((Date.now() - t) / 1000).toFixed(1)}s; the executions run in ${stack.runners.map((r) => `${r.name} (pid ${r.pid})`).join(', ')}`);

		// The baseline: idle after start-up, before any execution (the lowest sample over 10 s: a
		// process just started still frees what its start-up left).
		let baseline = rssNow(stack.runners);
		for (let i = 0; i < 20; i++) {
			await sleep(500);
			const now = rssNow(stack.runners);
			baseline = Object.fromEntries(Object.entries(now).map(([name, mb]) => [name, Math.min(mb, baseline[name])]));
		}
		console.log(`baseline RSS, idle after start-up: ${Object.entries(baseline).map(([name, mb]) => `${name} ${mb.toFixed(0)} MB`).join(', ')}`);

		// Warm-up: code loaded, pools and caches filled; in queue mode a few runs so both workers take some.
		const warm = executionsOf({ image: 10, video: 4 });
		for (let i = 0; i < (opts.queue ? 3 : 1); i++) {
			await benchRun(stack, sim, { run: `warmup${i}`, side: 'package', executions: warm, durationMs: [500, 1500], sampleRss: false, timeoutMs: 120_000 });
		}
		if (variants.length) await benchRun(stack, sim, { run: 'warmloop', side: 'loop', executions: warm, durationMs: [500, 1500], sampleRss: false, timeoutMs: 120_000 });
		await sleep(3000);
		// A process may hold more right after start-up than once it has run something and collected:
		// the baseline is the lower of the two idle figures, so the growth is never understated.
		const warmed = rssNow(stack.runners);
		console.log(`RSS idle after the warm-up: ${Object.entries(warmed).map(([name, mb]) => `${name} ${mb.toFixed(0)} MB`).join(', ')}`);
		for (const name of Object.keys(baseline)) baseline[name] = Math.min(baseline[name], warmed[name]);

		const runs = [];
		for (const [i, p] of runsPlanned.entries()) {
			const name = `${p.scenario}-${p.side}${p.variant ? `-${p.variant}` : ''}`;
			// Regular mode: the executions run in main, whose V8 /metrics shows.
			const rest = opts.queue ? undefined : await heapAtRest(stack.baseUrl);
			if (rest) console.log(`run ${i + 1}/${runsPlanned.length} ${name} starts with V8 holding ${rest.heldMb.toFixed(0)} MB in main for ${rest.usedMb.toFixed(0)} MB in use${rest.settled ? '' : ' (not back to rest)'}, after ${(rest.waitedMs / 1000).toFixed(0)} s`);
			const r0 = Date.now();
			const run = await benchRun(stack, sim, { ...p, run: name });
			runs.push({ ...run, scenario: p.scenario, describe: p.describe });
			// The epoch figures place the run in V8's trace (BENCH_TRACE_GC=1, trace-gc.js).
			console.log(`run ${i + 1}/${runsPlanned.length} ${name} done in ${((Date.now() - r0) / 1000).toFixed(1)}s (epoch ms ${r0}-${Date.now()}); load: ${uptime()}`);
			await sleep(2000);
		}
		failed = report(runs, baseline, { heapCapMb, queue: opts.queue, queueScale: Boolean(opts.items) }) !== 0;
	} catch (e) {
		failed = true;
		console.log(`bench-n8n failed: ${n8n.redact(e.stack || e.message)}`);
	} finally {
		process.removeListener('SIGINT', onSignal);
		process.removeListener('SIGTERM', onSignal);
		await stopAll();
		removeDir();
	}
	return failed ? 1 : 0;
}

// dist/ first: a runner started with `node …` after a source edit runs the current code (test/build-current.js).
require('../../test/build-current').ensureCurrent();
main(process.argv.slice(2)).then(
	(code) => process.exit(code),
	(e) => {
		console.error(e);
		process.exit(1);
	},
);
