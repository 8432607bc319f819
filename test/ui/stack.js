'use strict';
/*
 * What the UI test runs against: real n8n of the chosen line (test/n8n, the module the e2e and
 * the demo use; N8N_VERSION, else the newest 2.x: the editor users get) with this package
 * installed from `npm pack` into a fresh user folder, the gateway simulator, and the owner logged
 * in through the REST API. stop() ends all of it (n8n by its process group).
 */

const fs = require('fs');
const path = require('path');

const n8n = require('../n8n');
const { installPackage } = require('../e2e/package');
const { workspace } = require('./workspace');

const secs = (t) => `${((Date.now() - t) / 1000).toFixed(1)}s`;

/** The line the UI test runs on: N8N_VERSION when set, else the newest 2.x. */
const uiVersion = () => process.env.N8N_VERSION || n8n.NEWEST_2X;

/**
 * options: { packageDir, tmpRoot, apiKey (the simulator's good key), logLevel, version, n8nDir }
 * Returns { n8n: { baseUrl, logFile, version, stop }, sim, cookie, ws, packageName, stop() }.
 */
async function startStack(options) {
	const { packageDir, tmpRoot, apiKey } = options;
	const version = options.version || uiVersion();
	const userFolder = path.join(tmpRoot, 'user');
	fs.mkdirSync(userFolder, { recursive: true });
	const stack = {};
	stack.stop = async () => {
		if (stack.n8n) await stack.n8n.stop().catch(() => {});
		if (stack.sim) await stack.sim.close().catch(() => {});
	};
	try {
		const host = options.n8nDir ? { dir: options.n8nDir, reused: true } : await n8n.prepareN8n({ version });
		console.log(`n8n ${version} ${host.reused ? 'reused from' : 'installed in'} ${host.dir}`);
		let t = Date.now();
		const pkg = await installPackage(userFolder, { packDir: tmpRoot, packageDir });
		stack.packageName = pkg.name;
		console.log(`packed and installed the package into a fresh n8n user folder (${secs(t)})`);
		stack.sim = await require('../simulator').startSimulator({ apiKey });
		t = Date.now();
		stack.n8n = await n8n.startN8n(userFolder, { version, n8nDir: options.n8nDir, env: { N8N_LOG_LEVEL: options.logLevel || 'warn' } });
		console.log(`n8n start on ${stack.n8n.baseUrl} ready (${secs(t)})`);
		const { cookie } = await n8n.setupOwnerAndLogin(stack.n8n.baseUrl);
		stack.cookie = cookie;
		stack.ws = workspace({ baseUrl: stack.n8n.baseUrl, cookie, sim: stack.sim, apiKey, packageName: pkg.name });
		console.log('owner created and logged in through the REST API');
		return stack;
	} catch (e) {
		await stack.stop();
		throw e;
	}
}

module.exports = { startStack, uiVersion };
