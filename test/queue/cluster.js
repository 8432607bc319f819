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
const pkg = require('../e2e/package');
const { importInto } = require('../n8n/instance');
const services = require('./services');

/** Short locks: a killed worker's job is seen as stalled within seconds, not minutes. */
const FAST_LOCKS = { QUEUE_WORKER_LOCK_DURATION: '5000', QUEUE_WORKER_LOCK_RENEW_TIME: '2500', QUEUE_WORKER_STALLED_INTERVAL: '5000' };

/**
 * Started through test/n8n/instance.js (mode 'queue'), which resolves the simulator and what to import.
 * options: { version, dir (temp root), workers (default 2), concurrency, vars (workflow placeholders),
 *            credentials, workflows (objects), publish (ids), probes, env (extra for every n8n process) }
 * Returns { main, workers: [{ name, folder, server }], folders, tgz, env, pg, stop(), killWorker(name), restartWorker(name) }.
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
		cluster.tgz = tgz;
		cluster.folders = folders.map((f) => f.folder);
		await timed(`installed the package for ${folders.map((f) => f.name).join(', ')}`, () => Promise.all(folders.map((f) => pkg.installPackage(f.folder, { tgz }))));
		const labels = { credentials: 'imported the credential', workflows: 'imported the workflows' };
		// The database is shared: importing through main's folder reaches every process. The
		// workflows are published once main runs, through its REST API (no n8n start-up each).
		await importInto(folders[0].folder, { ...options, publish: [] }, { version, env, step: (name, fn) => timed(labels[name], fn) });
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
		console.log(`  started n8n main and ${workers.length} workers (${((Date.now() - t) / 1000).toFixed(1)}s)`);
		if (options.publish?.length) {
			const tp = Date.now();
			const { cookie } = await n8n.setupOwnerAndLogin(main.server.baseUrl);
			for (const id of options.publish) await n8n.publishWorkflow({ baseUrl: main.server.baseUrl, cookie }, id);
			console.log(`  published the workflows through main's REST API, webhooks registered (${((Date.now() - tp) / 1000).toFixed(1)}s)`);
		}
		if (options.probes) await n8n.waitForWebhooks(main.server.baseUrl, options.probes);
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

/** n8n processes first (they hold connections), then PostgreSQL and Redis; each by its own pid. */
async function stopAll(started) {
	for (const item of started.splice(0).reverse()) await item.stop().catch(() => {});
}

module.exports = { startCluster, FAST_LOCKS };
