'use strict';
/*
 * A real `n8n start` for the UI test: free loopback port, temp user folder with the
 * packed package installed, owner account and login through n8n's REST API.
 * Built on the helpers of test/e2e/run-e2e.js.
 */

const childProcess = require('child_process');
const fs = require('fs');
const net = require('net');
const path = require('path');

const e2e = require('../e2e/run-e2e');

const OWNER = {
	email: 'ui-test@example.com',
	firstName: 'Ui',
	lastName: 'Tester',
	// n8n wants 8+ characters with a number and an upper-case letter.
	password: 'UiTest-Passw0rd',
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A free TCP port on 127.0.0.1 (asked from the OS, then released). */
function freePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.once('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

/**
 * Start `n8n start` for userFolder on a free port. Resolves with
 * { baseUrl, port, child, logFile, stop() } once GET /healthz/readiness answers 200 and
 * GET /rest/settings gives n8n's settings JSON. The child runs in its own process group; stop() ends the group.
 */
async function startN8n(userFolder, options = {}) {
	const { bin } = options.bin ? options : await e2e.prepareN8n({ quiet: true });
	const port = options.port || (await freePort());
	const baseUrl = `http://127.0.0.1:${port}`;
	const logFile = path.join(userFolder, 'n8n-start.log');
	const log = fs.openSync(logFile, 'a');
	const env = e2e.n8nEnv(userFolder, {
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `${baseUrl}/`,
		WEBHOOK_URL: `${baseUrl}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_RUNNERS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PUBLIC_API_DISABLED: 'true',
		N8N_AI_ENABLED: 'false',
		N8N_LOG_LEVEL: process.env.UI_N8N_LOG_LEVEL || 'warn',
		...(options.env || {}),
	});
	const child = childProcess.spawn(process.execPath, [bin, 'start'], {
		cwd: userFolder,
		env,
		detached: true, // own process group: stop() kills n8n and anything it started
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
		if (exited) return exited;
		const kill = (sig) => {
			try {
				process.kill(-child.pid, sig);
			} catch {
				// the group is gone already
			}
		};
		kill('SIGTERM');
		const done = await Promise.race([exitPromise, sleep(15000).then(() => null)]);
		if (!done) {
			kill('SIGKILL');
			await Promise.race([exitPromise, sleep(5000)]);
		}
		// n8n's own children (if any) in the same group
		kill('SIGKILL');
		return exited;
	};

	const started = Date.now();
	const timeoutMs = options.timeoutMs || 120000;
	try {
		for (;;) {
			if (exited) {
				const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n');
				throw new Error(`n8n start exited early (${JSON.stringify(exited)}); last lines of its log:\n${tail}`);
			}
			if (Date.now() - started > timeoutMs) throw new Error(`n8n did not answer /healthz within ${timeoutMs / 1000}s`);
			// /healthz answers before the database is migrated and the REST routes exist (until
			// then every route gets 200 "n8n is starting up"): wait for readiness and the settings JSON.
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
		const tailText = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n') : '';
		e.message += `\n--- n8n log (${logFile}) ---\n${tailText}`;
		throw e;
	}
	return { baseUrl, port, child, logFile, stop, startMs: Date.now() - started };
}

/** The `n8n-auth` cookie value of a response, or undefined. */
function authCookieOf(res) {
	const list = typeof res.headers.getSetCookie === 'function' ? res.headers.getSetCookie() : [res.headers.get('set-cookie') || ''];
	for (const c of list) {
		const m = /(?:^|\s)n8n-auth=([^;]+)/.exec(c);
		if (m) return m[1];
	}
	return undefined;
}

async function restJson(baseUrl, method, route, body, cookie) {
	const res = await fetch(`${baseUrl}${route}`, {
		method,
		headers: {
			'content-type': 'application/json',
			...(cookie ? { cookie: `n8n-auth=${cookie}` } : {}),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	let json;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	if (!res.ok || json === undefined) {
		throw new Error(`${method} ${route} answered ${res.status}: ${text.slice(0, 400)}`);
	}
	return { res, json: json && 'data' in json ? json.data : json };
}

/**
 * Create the owner (POST /rest/owner/setup) and log in (POST /rest/login).
 * Returns { cookie, user }: cookie is the n8n-auth value. The login sends no
 * browser-id header, so the JWT is not tied to one browser.
 */
async function setupOwnerAndLogin(baseUrl, owner = OWNER) {
	await restJson(baseUrl, 'POST', '/rest/owner/setup', owner);
	const { res, json } = await restJson(baseUrl, 'POST', '/rest/login', {
		emailOrLdapLoginId: owner.email,
		password: owner.password,
	});
	const cookie = authCookieOf(res);
	if (!cookie) throw new Error('POST /rest/login set no n8n-auth cookie');
	return { cookie, user: json };
}

module.exports = { OWNER, freePort, startN8n, setupOwnerAndLogin, restJson, authCookieOf, sleep };
