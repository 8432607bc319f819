'use strict';
// The environment and the command line of every n8n process of a line.

const fs = require('fs');
const path = require('path');

const { n8nLine } = require('./lines');
const { freePort, run, tail } = require('./run');

const verbose = () => process.env.E2E_VERBOSE === '1';

function n8nBin(dir) {
	return path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
}

/** The Node binary that runs this line's n8n: its own (2.x) or this process's. */
function nodeBinary(line) {
	return line.node ? path.join(line.node.dir, 'bin', 'node') : process.execPath;
}

/**
 * PATH and npm settings for anything run for this line: its Node first on PATH (n8n starts its
 * task runners and native builds with it), npm_config_nodedir at its headers.
 */
function toolchainEnv(line, base = process.env) {
	if (!line.node) return { ...base };
	return {
		...base,
		PATH: `${path.join(line.node.dir, 'bin')}${path.delimiter}${base.PATH || ''}`,
		npm_config_nodedir: line.node.dir,
	};
}

/**
 * Environment for every n8n command against userFolder. extra overrides; options.version (or
 * options.line) picks the line, default N8N_VERSION.
 */
function n8nEnv(userFolder, extra = {}, options = {}) {
	const line = options.line || n8nLine(options.version);
	const env = toolchainEnv(line);
	// Settings of the caller's own n8n must not leak into the test instance.
	for (const k of Object.keys(env)) {
		if (/^(N8N_|DB_|EXECUTIONS_|QUEUE_|WEBHOOK_URL$|GENERIC_TIMEZONE$)/.test(k)) delete env[k];
	}
	return {
		...env,
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: 'e2e-test-encryption-key-not-secret',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_LOG_LEVEL: process.env.E2E_N8N_LOG_LEVEL || 'warn',
		N8N_LOG_OUTPUT: 'console',
		DB_TYPE: 'sqlite',
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
		...line.env,
		...extra,
	};
}

/**
 * The command that runs `n8n <args>` of a line: { command, args } (its own Node, its bin).
 * options: { version | line, n8nDir }
 */
function n8nCommand(args, options = {}) {
	const line = options.line || n8nLine(options.version, { dir: options.n8nDir });
	const bin = n8nBin(options.n8nDir || line.dir);
	if (!fs.existsSync(bin)) throw new Error(`n8n ${line.version} is not installed at ${bin}: call prepareN8n() first`);
	return { command: nodeBinary(line), args: [bin, ...args], line };
}

/**
 * Run `n8n <args>` for userFolder. Returns { code, stdout, stderr, ms }.
 * options: { env (extra vars), timeoutMs, n8nDir, version | line }
 */
async function runN8n(userFolder, args, options = {}) {
	const { command, args: full, line } = n8nCommand(args, options);
	const extra = { ...(options.env || {}) };
	// On 2.x every n8n process starts a task broker (default port 5679): two at once would clash.
	if (line.ownBrokerPort && !extra.N8N_RUNNERS_BROKER_PORT) extra.N8N_RUNNERS_BROKER_PORT = String(await freePort());
	if (verbose()) console.log(`  $ n8n ${args.join(' ')}`);
	const res = await run(command, full, {
		cwd: userFolder,
		env: n8nEnv(userFolder, extra, { line }),
		timeoutMs: options.timeoutMs || 180000,
	});
	if (verbose()) {
		const { redact } = require('./redact');
		console.log(redact(tail(res.stdout, 40)));
		console.log(redact(tail(res.stderr, 40)));
	}
	return res;
}

module.exports = { n8nBin, nodeBinary, toolchainEnv, n8nEnv, n8nCommand, runN8n };
