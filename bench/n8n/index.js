#!/usr/bin/env node
'use strict';
/*
 * npm run bench:n8n [-- --queue]: 500-item nights, measured in a real n8n (not part of CI).
 *
 * One n8n (regular mode: `n8n start`; --queue: Redis + PostgreSQL + main + two workers) with the
 * packed package, the gateway simulator on loopback. Two Webhook workflows started at the same
 * moment: 500 gpt-image-2-async images and 100 sora-2 videos, each waited and downloaded in one
 * node run; tasks take 2-20 s each, half without estimated_time. Run 1 as is, run 2 behind a
 * 20 requests/s limit on the submit routes. The last line holds the worst figures of both runs.
 *
 *   N8N_VERSION=1.123.81   the 1.x line (default: 2.41.1, the line users install)
 *   BENCH_IMAGES / BENCH_VIDEOS   item counts (default 500 / 100)
 *   BENCH_RENDER=1         the simulator draws every result picture (default: once per size, see simulator.js)
 *   BENCH_RUNS=night       only that run (night or limited)
 *   E2E_KEEP=1             keep the temp folder (n8n logs, database)
 */

const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');

const n8n = require('../../test/n8n');
const cli = require('../../test/e2e/cli');
const { startSimulator, picturesDrawnOnce } = require('./simulator');
const { startStack } = require('./stack');
const { benchRun } = require('./run');
const { rssNow } = require('./measure');
const { report } = require('./report');

const VERSION = process.env.N8N_VERSION || n8n.NEWEST_2X;
const COUNTS = { image: Number(process.env.BENCH_IMAGES ?? 500), video: Number(process.env.BENCH_VIDEOS ?? 100) };
const LIMIT = { perSecond: 20, burst: 20 };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();

async function main(args) {
	const queue = args.includes('--queue');
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-n8n-'));
	let sim;
	let stack;
	let failed = false;
	const stopAll = async () => {
		if (stack) await stack.stop().catch(() => {});
		stack = undefined;
		if (sim) await sim.close().catch(() => {});
		sim = undefined;
	};
	const removeDir = () => (process.env.E2E_KEEP === '1' ? console.log(`kept ${dir}`) : fs.rmSync(dir, { recursive: true, force: true }));
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
		console.log(`bench-n8n: n8n ${VERSION}, ${queue ? 'queue mode (main + 2 workers)' : 'regular mode'}; ${COUNTS.image} images + ${COUNTS.video} videos; load: ${uptime()}`);
		const host = await n8n.prepareN8n({ version: VERSION });
		console.log(`n8n ${VERSION} ${host.reused ? 'reused' : 'installed'} (${host.dir}); result pictures ${picturesDrawnOnce ? 'drawn once per size (BENCH_RENDER=1 draws each)' : 'drawn for every task'}`);
		sim = await startSimulator({ apiKey: n8n.SIM_API_KEY });
		const credential = cli.gatewayCredential({ baseUrl: `${sim.mainUrl}/v1`, altBaseUrl: sim.altUrl, apiKey: n8n.SIM_API_KEY });
		const vars = { SIM_FILES: sim.filesUrl, CRED_ID: cli.CRED_ID, CRED_NAME: cli.CRED_NAME };
		const t = Date.now();
		starting = true;
		stack = await startStack({ queue, version: VERSION, dir, credential, vars }).finally(() => (starting = false));
		if (interrupted) return await stopAll().finally(leave);
		console.log(`n8n up in ${((Date.now() - t) / 1000).toFixed(1)}s; the node runs in ${stack.runners.map((r) => `${r.name} (pid ${r.pid})`).join(', ')}`);

		// Warm-up: code loaded, pools and caches filled; in queue mode a few runs so both workers take some.
		for (let i = 0; i < (queue ? 3 : 1); i++) {
			await benchRun(stack, sim, { run: `warmup${i}`, counts: { image: 10, video: 4 }, durationMs: [500, 1500], sampleRss: false, timeoutMs: 120_000 });
		}
		await sleep(3000);
		const baseline = rssNow(stack.runners);
		console.log(`baseline RSS after start-up and warm-up: ${Object.entries(baseline).map(([name, mb]) => `${name} ${mb.toFixed(0)} MB`).join(', ')}`);

		const runs = [];
		// BENCH_RUNS=night (or limited) runs one of the two, for a quicker look while tuning.
		const plan = [['night', undefined], ['limited', LIMIT]].filter(([name]) => !process.env.BENCH_RUNS || process.env.BENCH_RUNS.split(',').includes(name));
		for (const [name, limit] of plan) {
			const r0 = Date.now();
			runs.push(await benchRun(stack, sim, { run: name, counts: COUNTS, limit }));
			console.log(`run ${name} done in ${((Date.now() - r0) / 1000).toFixed(1)}s${limit ? ` (behind ${limit.perSecond} requests/s, burst ${limit.burst})` : ''}; load: ${uptime()}`);
		}
		failed = report(runs, baseline) !== 0;
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

main(process.argv.slice(2)).then(
	(code) => process.exit(code),
	(e) => {
		console.error(e);
		process.exit(1);
	},
);
