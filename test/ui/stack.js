'use strict';
/*
 * What the UI test runs against, started by test/n8n/instance.js (as every real-n8n runner): real
 * n8n of the chosen line (N8N_VERSION, else the newest 2.x: the editor users get) with this package
 * installed from `npm pack` into a fresh user folder, the gateway simulator, and the owner logged
 * in through the REST API. stop() ends all of it (n8n by its process group).
 */

const n8n = require('../n8n');
const { startInstance } = require('../n8n/instance');
const { workspace } = require('./workspace');

const secs = (t) => `${((Date.now() - t) / 1000).toFixed(1)}s`;

/** The line the UI test runs on: N8N_VERSION when set, else the newest 2.x. */
const uiVersion = () => process.env.N8N_VERSION || n8n.NEWEST_2X;

/**
 * options: { packageDir, tmpRoot, apiKey (the simulator's good key), logLevel, version, n8nDir }
 * Returns { n8n: { baseUrl, logFile, version, stop }, sim, cookie, ws, packageName, stop() }.
 * Credentials and workflows come later, through the REST API (workspace.js).
 */
async function startStack(options) {
	const { packageDir, tmpRoot, apiKey } = options;
	const version = options.version || uiVersion();
	let t = Date.now();
	const instance = await startInstance({
		version,
		n8nDir: options.n8nDir,
		dir: tmpRoot,
		packageDir,
		simulator: { apiKey },
		credentials: [],
		env: { N8N_LOG_LEVEL: options.logLevel || 'warn' },
		login: true,
		step: async (name, fn) => {
			if (name === 'n8n') t = Date.now();
			const result = await fn();
			if (name === 'line') console.log(`n8n ${version} ${result.reused ? 'reused from' : 'installed in'} ${result.dir}`);
			if (name === 'package') console.log(`packed and installed the package into a fresh n8n user folder (${secs(t)})`);
			if (name === 'n8n') console.log(`n8n start on ${result.baseUrl} ready (${secs(t)})`);
			if (name === 'line') t = Date.now();
			return result;
		},
	});
	const stack = { n8n: instance.n8n, sim: instance.sim, cookie: instance.cookie, packageName: instance.installed.name, stop: () => instance.stop() };
	stack.ws = workspace({ baseUrl: stack.n8n.baseUrl, cookie: stack.cookie, sim: stack.sim, apiKey, packageName: stack.packageName });
	console.log('owner created and logged in through the REST API');
	return stack;
}

module.exports = { startStack, uiVersion };
