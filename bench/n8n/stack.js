'use strict';
/*
 * The n8n the benchmark runs in, started the way users run it, with the packed package installed:
 *   regular  one `n8n start` with a fresh user folder (SQLite); the node runs in main
 *   queue    Redis + PostgreSQL + main + two `n8n worker`s (test/queue/cluster.js); the node runs
 *            in the workers
 * Both give { baseUrl, cookie, main: { name, pid }, runners: [{ name, pid }] (the processes that run
 * the executions: main, or the workers; their RSS is sampled), stop() }.
 * stop() ends everything started, by process id; a failed start has stopped its part already.
 */

const fs = require('fs');
const path = require('path');

const n8n = require('../../test/n8n');
const { startInstance } = require('../../test/n8n/instance');
const workflows = require('./workflows');

/**
 * Settings of every n8n process: binary data on disk on both lines (the workflows save executions
 * in full), the heap cap (V8's old space, in MB) when one is given, V8's trace of its collections
 * with BENCH_TRACE_GC=1 (trace-gc.js), and n8n's /metrics endpoint
 * (Node's own figures among them: heap used and time spent collecting, which show what a tight
 * cap costs).
 */
function benchEnv(line, heapCapMb) {
	const nodeOptions = [
		...(heapCapMb ? [`--max-old-space-size=${heapCapMb}`] : []),
		...(process.env.BENCH_TRACE_GC === '1' ? [`--require ${JSON.stringify(path.join(__dirname, 'trace-gc.js'))}`] : []),
	];
	return {
		N8N_METRICS: 'true',
		// Each poll's duration and the polls n8n abandoned past N8N_SCHEDULER_POLL_TIMEOUT (2.x): the durable bench's trigger.
		N8N_METRICS_INCLUDE_POLL_TRIGGER_METRICS: 'true',
		// 2.x stores binaries on disk always (and refuses the old setting's "default"); 1.x needs it said.
		...(line.major < 2 ? { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' } : {}),
		...(nodeOptions.length ? { NODE_OPTIONS: nodeOptions.join(' ') } : {}),
	};
}

/**
 * Both modes through test/n8n/instance.js; the simulator is the bench's own (started by index.js).
 * options: { queue, version, dir, credential (one or a list), vars, variants (loop variants), heapCapMb, concurrency (queue),
 *            workflows + probes (instead of the in-node bench's: the durable bench's) }
 * Also gives userFolder (regular: its SQLite database is <userFolder>/.n8n) or pg (queue: PostgreSQL).
 */
async function startStack({ queue, version, dir, credential, vars, variants, heapCapMb, concurrency, workflows: own, probes }) {
	const line = n8n.n8nLine(version);
	const list = own ?? workflows.ALL(variants);
	const instance = await startInstance({
		version,
		mode: queue ? 'queue' : 'start',
		dir,
		userFolder: queue ? undefined : path.join(dir, 'main'),
		packDir: path.join(dir, 'pack'),
		credentials: credential,
		workflows: list,
		vars,
		publish: list.map((w) => w.id),
		probes: probes ?? workflows.probes(variants),
		// Every n8n process capped alike (queue: main takes the webhooks, the workers run the executions).
		env: benchEnv(line, heapCapMb),
		// Queue: executions one worker runs at once, enough for every execution of a batch to run side by side.
		queue: { concurrency },
		login: true,
	});
	if (!queue) {
		const main = { name: 'main', pid: instance.n8n.pid };
		return { mode: 'regular', line, baseUrl: instance.n8n.baseUrl, cookie: instance.cookie, main, runners: [main], logs: [instance.n8n.logFile], userFolder: instance.userFolder, stop: () => instance.stop() };
	}
	const { cluster } = instance;
	return {
		mode: 'queue',
		line,
		baseUrl: cluster.main.baseUrl,
		cookie: instance.cookie,
		main: { name: 'main', pid: cluster.main.pid },
		runners: cluster.workers.map((w) => ({ name: w.name, pid: w.server.pid })),
		logs: [cluster.main.logFile, ...cluster.workers.map((w) => w.server.logFile)],
		pg: cluster.pg,
		stop: () => instance.stop(),
	};
}

/**
 * The smallest heap cap (MB) among `caps` in which `n8n start` of this line comes up (fresh user
 * folder, SQLite, nothing imported): n8n's own floor, below which no workflow could run at all.
 * Each try is one start-up; a cap too small aborts with V8's "heap out of memory" or never answers.
 */
async function probeHeapCap({ version, dir, caps = [192, 256, 320, 384, 448, 512] }) {
	const line = n8n.n8nLine(version);
	const tried = [];
	for (const cap of caps) {
		const folder = path.join(dir, `probe-${cap}`);
		fs.mkdirSync(folder, { recursive: true });
		const t = Date.now();
		try {
			const server = await n8n.startN8n(folder, { version, env: benchEnv(line, cap), timeoutMs: 180_000 });
			await server.stop();
			tried.push(`${cap} MB starts (${((Date.now() - t) / 1000).toFixed(0)} s)`);
			return { capMb: cap, tried };
		} catch (e) {
			const oom = /heap out of memory|Allocation failed|exited early/i.test(e.message);
			tried.push(`${cap} MB ${oom ? 'aborts' : 'does not come up'} (${((Date.now() - t) / 1000).toFixed(0)} s)`);
		} finally {
			fs.rmSync(folder, { recursive: true, force: true });
		}
	}
	throw new Error(`n8n ${version} starts under none of the heap caps ${caps.join(', ')} MB: ${tried.join('; ')}`);
}

module.exports = { startStack, probeHeapCap };
