'use strict';
/*
 * `n8n start` (or `n8n worker`) of a line on a loopback port, ready when its REST API (a worker:
 * its health check) answers; stopped by its process group (the task runners of 2.x included).
 */

const childProcess = require('child_process');
const fs = require('fs');
const path = require('path');

const { n8nLine } = require('./lines');
const { n8nCommand, n8nEnv } = require('./env');
const { freePort, sleep } = require('./run');

function logTail(logFile, lines = 40) {
	return fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-lines).join('\n') : '';
}

/** Environment of `n8n start`: its editor, REST API and webhooks on 127.0.0.1:port. */
function mainEnv(line, port) {
	const baseUrl = `http://127.0.0.1:${port}`;
	return {
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `${baseUrl}/`,
		[line.webhookUrlVar]: `${baseUrl}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_AI_ENABLED: 'false',
	};
}

/** Environment of `n8n worker`: its health check (the readiness probe) on 127.0.0.1:port. */
function workerEnv(port) {
	return { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(port), N8N_WORKER_SERVER_ADDRESS: '127.0.0.1' };
}

/** Main: /healthz/readiness, then /rest/settings with n8n's settings (before, every route says "starting up"). */
async function mainReady(baseUrl) {
	const ready = await fetch(`${baseUrl}/healthz/readiness`)
		.then((r) => r.ok)
		.catch(() => false);
	if (!ready) return false;
	const settings = await fetch(`${baseUrl}/rest/settings`)
		.then((r) => (r.ok ? r.json() : undefined))
		.catch(() => undefined);
	return Boolean(settings && settings.data && settings.data.userManagement);
}

const workerReady = (baseUrl) =>
	fetch(`${baseUrl}/healthz/readiness`)
		.then((r) => r.ok)
		.catch(() => false);

/**
 * Start `n8n start` for userFolder (n8n already prepared, package already installed).
 * options: { version | line, n8nDir, port (default: a free one), env (extra settings),
 *            timeoutMs (readiness, default E2E_START_TIMEOUT_MS or 300 s), logFile (default <userFolder>/n8n-start.log),
 *            worker: { concurrency } (run `n8n worker` instead; port is its health check),
 *            readyLog: RegExp (also wait for a line of the log matching it) }
 * Resolves with { baseUrl, port, pid, child, logFile, version, logLevel, startMs, stop(), log() } once
 * GET /healthz/readiness answers 200 and GET /rest/settings gives n8n's settings JSON
 * (before that n8n answers every route with 200 "n8n is starting up").
 */
async function startN8n(userFolder, options = {}) {
	const line = options.line || n8nLine(options.version, { dir: options.n8nDir });
	const worker = options.worker;
	const cliArgs = worker ? ['worker', `--concurrency=${worker.concurrency || 10}`] : ['start'];
	const { command, args } = n8nCommand(cliArgs, { line, n8nDir: options.n8nDir });
	const port = options.port || (await freePort());
	const baseUrl = `http://127.0.0.1:${port}`;
	const logFile = options.logFile || path.join(userFolder, worker ? 'n8n-worker.log' : 'n8n-start.log');
	const log = fs.openSync(logFile, 'a');
	const env = n8nEnv(
		userFolder,
		{
			...(worker ? workerEnv(port) : mainEnv(line, port)),
			...(line.ownBrokerPort ? { N8N_RUNNERS_BROKER_PORT: String(await freePort()) } : {}),
			...(options.env || {}),
		},
		{ line },
	);
	const child = childProcess.spawn(command, args, {
		cwd: userFolder,
		env,
		detached: true, // own process group: stop() ends n8n and everything it started
		stdio: ['ignore', log, log],
	});
	fs.closeSync(log);
	let exited = null;
	const exitPromise = new Promise((resolve) => {
		child.once('exit', (code, signal) => {
			exited = { code, signal };
			resolve(exited);
		});
	});

	const stop = async () => {
		const kill = (sig) => {
			try {
				process.kill(-child.pid, sig);
			} catch {
				// the group is gone already
			}
		};
		if (!exited) {
			kill('SIGTERM');
			const done = await Promise.race([exitPromise, sleep(15000).then(() => null)]);
			if (!done) {
				kill('SIGKILL');
				await Promise.race([exitPromise, sleep(5000)]);
			}
		}
		kill('SIGKILL'); // n8n's own children (task runners) in the same group
		return exited;
	};

	const started = Date.now();
	// Several n8n starting at once on a busy 2-core machine (CI) took more than 3 minutes each.
	const timeoutMs = options.timeoutMs || Number(process.env.E2E_START_TIMEOUT_MS) || 300_000;
	try {
		for (;;) {
			if (exited) throw new Error(`n8n ${cliArgs[0]} exited early (${JSON.stringify(exited)})`);
			if (Date.now() - started > timeoutMs) throw new Error(`n8n ${line.version} was not ready within ${timeoutMs / 1000}s`);
			const logged = !options.readyLog || options.readyLog.test(logTail(logFile, 400));
			if (logged && (await (worker ? workerReady(baseUrl) : mainReady(baseUrl)))) break;
			await sleep(250);
		}
	} catch (e) {
		await stop();
		e.message += `\n--- n8n log (${logFile}) ---\n${logTail(logFile)}`;
		throw e;
	}
	return {
		baseUrl,
		port,
		pid: child.pid,
		child,
		logFile,
		version: line.version,
		logLevel: env.N8N_LOG_LEVEL,
		startMs: Date.now() - started,
		stop,
		log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''),
	};
}

module.exports = { startN8n, logTail };
