'use strict';
/*
 * `n8n start` of a line on a loopback port, ready when its REST API answers; stopped by its
 * process group (the task runners of 2.x included).
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

/**
 * Start `n8n start` for userFolder (n8n already prepared, package already installed).
 * options: { version | line, n8nDir, port (default: a free one), env (extra settings),
 *            timeoutMs (readiness, default 180 s), logFile (default <userFolder>/n8n-start.log) }
 * Resolves with { baseUrl, port, pid, child, logFile, version, startMs, stop(), log() } once
 * GET /healthz/readiness answers 200 and GET /rest/settings gives n8n's settings JSON
 * (before that n8n answers every route with 200 "n8n is starting up").
 */
async function startN8n(userFolder, options = {}) {
	const line = options.line || n8nLine(options.version, { dir: options.n8nDir });
	const { command, args } = n8nCommand(['start'], { line, n8nDir: options.n8nDir });
	const port = options.port || (await freePort());
	const baseUrl = `http://127.0.0.1:${port}`;
	const logFile = options.logFile || path.join(userFolder, 'n8n-start.log');
	const log = fs.openSync(logFile, 'a');
	const env = n8nEnv(
		userFolder,
		{
			N8N_PORT: String(port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PROTOCOL: 'http',
			N8N_EDITOR_BASE_URL: `${baseUrl}/`,
			[line.webhookUrlVar]: `${baseUrl}/`,
			N8N_SECURE_COOKIE: 'false',
			N8N_AI_ENABLED: 'false',
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
	const timeoutMs = options.timeoutMs || 180000;
	try {
		for (;;) {
			if (exited) throw new Error(`n8n start exited early (${JSON.stringify(exited)})`);
			if (Date.now() - started > timeoutMs) throw new Error(`n8n ${line.version} was not ready within ${timeoutMs / 1000}s`);
			const ready = await fetch(`${baseUrl}/healthz/readiness`)
				.then((r) => r.ok)
				.catch(() => false);
			if (ready) {
				const settings = await fetch(`${baseUrl}/rest/settings`)
					.then((r) => (r.ok ? r.json() : undefined))
					.catch(() => undefined);
				if (settings && settings.data && settings.data.userManagement) break;
			}
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
		startMs: Date.now() - started,
		stop,
		log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''),
	};
}

module.exports = { startN8n, logTail };
