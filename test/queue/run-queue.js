#!/usr/bin/env node
'use strict';
/*
 * The package in n8n's queue mode: Redis + PostgreSQL + n8n main + two `n8n worker`s (cluster.js),
 * Webhook-triggered workflows (workflows.js), the checks in checks.js.
 *
 *   npm run test:e2e:queue                       (builds; n8n 2.41.1, the line queue mode is run on)
 *   N8N_VERSION=1.123.81 npm run test:e2e:queue  (1.x: the kill tests only)
 *   node test/queue/run-queue.js [name ...]      (only the checks whose name contains one of them,
 *                                                 in the default order, e.g. `parked`)
 *
 * The checks, in this order (checks.js): batches (2.x), killWait, killDurable, killParked,
 * restartParked, trigger (2.x). Each kill check starts with two live workers and starts its victim
 * again before it returns: a check that found one worker dead would kill the last one.
 *
 * E2E_KEEP=1 keeps the temp folder (logs of every process: main/, w1/, w2/, pg/, redis/). After a
 * failure the logs (every *.log) are copied to test/queue/.artifacts/<version>/ and the folder goes
 * as well (the two lines' runs may run side by side).
 */

const fs = require('fs');
const path = require('path');

const n8n = require('../n8n');
const { tempDir, removeTempDir } = require('../n8n/tempdirs');
const { startInstance, simVars } = require('../n8n/instance');
const workflows = require('./workflows');
const checks = require('./checks');

const VERSION = process.env.N8N_VERSION || n8n.NEWEST_2X;
const TRIGGER_TASKS = 3;

/** Which checks a line runs: 1.x needs queue mode only for what a killed worker does. */
function checksFor(line, filters) {
	const kills = ['killWait', 'killDurable', 'killParked', 'restartParked'];
	// The trigger last: its first poll (at activation) has emitted by then, one scheduled poll follows.
	const names = line.major >= 2 ? ['batches', ...kills, 'trigger'] : kills;
	if (!filters.length) return names;
	return names.filter((n) => filters.some((f) => n.toLowerCase().includes(f.toLowerCase())));
}

async function createFinishedTasks(sim, count) {
	sim.scenario('gpt-image-2-async', { durationMs: 300 });
	const ids = [];
	for (let i = 0; i < count; i++) {
		const res = await fetch(`${sim.mainUrl}/v1/images/generations`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${n8n.SIM_API_KEY}`, 'Content-Type': 'application/json' },
			body: JSON.stringify({ model: 'gpt-image-2-async', prompt: `trigger task ${i}` }),
		});
		const body = await res.json();
		ids.push(body.id ?? body.task_id ?? body.data?.task_id);
	}
	return ids;
}

const ARTIFACTS = path.join(__dirname, '.artifacts', VERSION);

/** Every *.log under dir into test/queue/.artifacts/<version>/ (same relative paths; an earlier run's go first). */
function keepLogs(dir) {
	fs.rmSync(ARTIFACTS, { recursive: true, force: true });
	const walk = (from) => {
		for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
			const full = path.join(from, entry.name);
			if (entry.isDirectory()) walk(full);
			else if (entry.isFile() && entry.name.endsWith('.log')) {
				const to = path.join(ARTIFACTS, path.relative(dir, full));
				fs.mkdirSync(path.dirname(to), { recursive: true });
				fs.copyFileSync(full, to);
			}
		}
	};
	try {
		walk(dir);
	} catch (e) {
		console.log(`      (copying the logs stopped: ${e.message})`);
	}
	return ARTIFACTS;
}

async function main(filters) {
	const started = Date.now();
	const line = n8n.n8nLine(VERSION);
	const names = checksFor(line, filters);
	const dir = tempDir('n8n-queue-', { keep: process.env.E2E_KEEP === '1' });
	let sim;
	let instance;
	let passed = 0;
	let failed = 0;
	// Stops what the instance started, also midway through its start (the simulator it made first).
	let stopStarting;
	const stopAll = async () => {
		if (instance) await instance.stop();
		else if (stopStarting) await stopStarting();
		instance = undefined;
	};
	const onSignal = (signal) => {
		console.log(`interrupted (${signal}), stopping what was started`);
		stopAll().finally(() => process.exit(130));
	};
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	try {
		let triggerIds = [];
		let all = [];
		let t = Date.now();
		instance = await startInstance({
			version: VERSION,
			mode: 'queue',
			dir,
			simulator: { apiKey: n8n.SIM_API_KEY },
			vars: async (started) => {
				sim = started;
				stopStarting = () => sim.close().catch(() => {});
				sim.inject({ method: 'POST', path: '/e2e/record', origin: 'files', status: 200, body: { ok: true }, times: Infinity });
				triggerIds = names.includes('trigger') ? await createFinishedTasks(sim, TRIGGER_TASKS) : [];
				all = workflows.ALL().filter((w) => w.id !== 'qTrigger' || triggerIds.length);
				t = Date.now();
				return { ...simVars(sim), TASK_IDS: triggerIds.join('\n') };
			},
			workflows: () => all,
			publish: () => all.map((w) => w.id),
			step: async (name, fn) => {
				const result = await fn();
				if (name === 'line') console.log(`n8n ${VERSION} ${result.reused ? 'reused' : 'installed'} (${result.dir})`);
				return result;
			},
		});
		const { cluster } = instance;
		console.log(`queue mode up: Redis, PostgreSQL, n8n main + ${cluster.workers.length} workers (${((Date.now() - t) / 1000).toFixed(1)}s)`);
		const ctx = { cluster, sim, line, triggerIds };
		for (const name of names) {
			const t0 = Date.now();
			try {
				const note = await checks[name](ctx);
				passed++;
				console.log(`ok  queue: ${name}  (${((Date.now() - t0) / 1000).toFixed(1)}s)  ${note || ''}`);
			} catch (e) {
				failed++;
				console.log(`FAIL queue: ${name}: ${n8n.redact(e.message)}`);
				const seen = sim.find('POST', '/e2e/record', 'files').map((r) => `${r.query.event}:${r.query.run || r.query.taskId}@${r.query.worker}`);
				console.log(`      records: ${seen.join(' ')}`);
			}
		}
	} catch (e) {
		failed++;
		console.log(`FAIL queue: setup: ${n8n.redact(e.stack || e.message)}`);
	} finally {
		process.removeListener('SIGINT', onSignal);
		process.removeListener('SIGTERM', onSignal);
		await stopAll();
		if (process.env.E2E_KEEP === '1') console.log(`logs kept in ${dir}`);
		else {
			if (failed) console.log(`logs of every process copied to ${path.relative(process.cwd(), keepLogs(dir))}`);
			removeTempDir(dir);
		}
	}
	console.log(`queue e2e on n8n ${VERSION} finished in ${((Date.now() - started) / 1000).toFixed(1)}s`);
	console.log(`${passed} passed, ${failed} failed`);
	return failed ? 1 : 0;
}

if (require.main === module) {
	// dist/ first: a runner started with `node …` after a source edit runs the current code (test/build-current.js).
	require('../build-current').ensureCurrent();
	main(process.argv.slice(2)).then(
		(code) => (process.exitCode = code),
		(e) => {
			console.error(e);
			process.exitCode = 1;
		},
	);
}

module.exports = { main };
