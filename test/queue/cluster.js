'use strict';
/*
 * n8n in queue mode on one machine: Redis, PostgreSQL, `n8n start` (main) and `n8n worker`s, each
 * n8n process with its own user folder and the package installed there (a worker without it fails
 * executions with "Unrecognized node type"; main without it answers the webhook with 400).
 * Everything is stopped by process id by stop(), which start() also calls when it fails.
 */

const fs = require('fs');
const path = require('path');

const n8n = require('../n8n');
const cli = require('../e2e/cli');
const pkg = require('../e2e/package');
const services = require('./services');

/** Short locks: a killed worker's job is seen as stalled within seconds, not minutes. */
const FAST_LOCKS = { QUEUE_WORKER_LOCK_DURATION: '5000', QUEUE_WORKER_LOCK_RENEW_TIME: '2500', QUEUE_WORKER_STALLED_INTERVAL: '5000' };

/**
 * options: { version, dir (temp root), workers (default 2), concurrency, vars (workflow placeholders),
 *            credential, workflows (objects), activate (ids), env (extra for every n8n process) }
 * Returns { main, workers: [{ name, server }], env, pg, stop(), killWorker(name), restartWorker(name) }.
 */
async function startCluster(options) {
	const { version, dir } = options;
	const line = n8n.n8nLine(version);
	const started = [];
	const cluster = { workers: [], line, stop: () => stopAll(started) };
	try {
		await services.ensureDebianPackages();
		const t0 = Date.now();
		const redis = await services.startRedis(dir);
		started.push(redis);
		const pg = await services.startPostgres(dir);
		started.push(pg);
		console.log(`  Redis and PostgreSQL up (${((Date.now() - t0) / 1000).toFixed(1)}s)`);
		const env = { ...services.queueEnv(redis, pg), ...FAST_LOCKS, N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false', ...(options.env || {}) };
		cluster.env = env;
		cluster.pg = pg;
		const folders = ['main', ...Array.from({ length: options.workers || 2 }, (_, i) => `w${i + 1}`)].map((name) => {
			const folder = path.join(dir, name);
			fs.mkdirSync(folder, { recursive: true });
			return { name, folder };
		});
		const timed = async (label, fn) => {
			const t = Date.now();
			await fn();
			console.log(`  ${label} (${((Date.now() - t) / 1000).toFixed(1)}s)`);
		};
		const tgz = await pkg.packPackage(path.join(dir, 'pack'));
		await timed(`installed the package for ${folders.map((f) => f.name).join(', ')}`, () => Promise.all(folders.map((f) => pkg.installPackage(f.folder, { tgz }))));
		const mainFolder = folders[0].folder;
		const cmd = { version, env };
		// The database is shared: importing through main's folder reaches every process.
		await timed('imported the credential', () => cli.importCredential(mainFolder, options.credential, cmd));
		await timed('imported the workflows', () => cli.importWorkflow(mainFolder, options.workflows, options.vars, cmd));
		// Each command is one n8n start-up against the shared database: published side by side.
		await timed('published the workflows', () => Promise.all((options.activate || []).map((id) => cli.activateWorkflow(mainFolder, id, cmd))));
		const t = Date.now();
		const startProcess = async ({ name, folder }) => {
			const server = await n8n.startN8n(folder, {
				version,
				worker: name === 'main' ? undefined : { concurrency: options.concurrency || 2 },
				env: { ...env, E2E_WORKER: name, ...(name === 'main' ? { N8N_LOG_LEVEL: 'info' } : {}) },
				readyLog: name === 'main' ? /Editor is now accessible/ : undefined,
			});
			started.push(server);
			return { name, folder, server };
		};
		const settled = await Promise.allSettled(folders.map(startProcess));
		const failure = settled.find((s) => s.status === 'rejected');
		if (failure) throw failure.reason;
		const [main, ...workers] = settled.map((s) => s.value);
		if (options.probes) await waitForWebhooks(main.server.baseUrl, options.probes);
		console.log(`  started n8n main and ${workers.length} workers, webhooks registered (${((Date.now() - t) / 1000).toFixed(1)}s)`);
		cluster.main = main.server;
		cluster.workers = workers;
		cluster.killWorker = (name) => {
			const worker = workers.find((w) => w.name === name);
			process.kill(-worker.server.pid, 'SIGKILL'); // the worker and its task runners, no goodbye
			worker.killed = true;
			return worker;
		};
		/** A killed worker started again (same folder, same name). */
		cluster.restartWorker = async (name) => {
			const worker = workers.find((w) => w.name === name);
			await worker.server.stop();
			worker.server = (await startProcess(worker)).server;
			worker.killed = false;
		};
		return cluster;
	} catch (e) {
		await stopAll(started);
		throw e;
	}
}

/**
 * Main says "Editor is now accessible" before its webhooks are registered: post a probe (a body
 * that makes no items) to each path until n8n takes it.
 */
async function waitForWebhooks(baseUrl, probes, timeoutMs = 90_000) {
	const until = Date.now() + timeoutMs;
	for (const { path: hook, body } of probes) {
		for (;;) {
			const res = await fetch(`${baseUrl}/webhook/${hook}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
			if (res.ok) break;
			if (res.status !== 404 || Date.now() > until) throw new Error(`webhook ${hook} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	}
}

/** n8n processes first (they hold connections), then PostgreSQL and Redis; each by its own pid. */
async function stopAll(started) {
	for (const item of started.splice(0).reverse()) await item.stop().catch(() => {});
}

module.exports = { startCluster, waitForWebhooks, FAST_LOCKS };
