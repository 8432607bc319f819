#!/usr/bin/env node
'use strict';
/*
 * End-to-end tests against a real n8n.
 *
 *   npm run test:e2e            (builds, then runs this file)
 *   node test/e2e/run-e2e.js [name-filter ...]
 *
 * Steps: prepare n8n (installed once into .e2e/n8n, reused later), pack this
 * package and install the tarball as a community package into a fresh temp
 * n8n user folder, start the gateway simulator, import a credential and the
 * workflows in test/e2e/workflows/*.json, execute each workflow with
 * `n8n execute --rawOutput` and check it with its <name>.assert.js.
 *
 * Environment:
 *   N8N_E2E_DIR     where n8n is installed (default <repo>/.e2e/n8n)
 *   E2E_KEEP=1      keep the temp folders (printed) for inspection
 *   E2E_VERBOSE=1   print the n8n command lines and their output
 *
 * The helpers are exported for the demo and UI tests.
 */

const childProcess = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');

const { chatModelCredential, CHAT_CRED_ID, CHAT_CRED_NAME } = require('./chat-credential');

const N8N_VERSION = '1.123.81';
const REPO_ROOT = path.resolve(__dirname, '..', '..');
const WORKFLOWS_DIR = path.join(__dirname, 'workflows');
const CRED_ID = 'e2eGatewayCred';
const CRED_NAME = 'Unified AI Gateway (e2e)';
const CRED_TYPE = 'unifiedAiGatewayApi';
const SIM_API_KEY = 'sk-sim-good';
const MARKER = '.e2e-install-ok';

const verbose = () => process.env.E2E_VERBOSE === '1';

function n8nDir() {
	return path.resolve(process.env.N8N_E2E_DIR || path.join(REPO_ROOT, '.e2e', 'n8n'));
}

function n8nBin(dir = n8nDir()) {
	return path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
}

function readJson(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return undefined;
	}
}

function tail(text, lines = 60) {
	return String(text || '').split('\n').slice(-lines).join('\n');
}

/** Replace every occurrence of the API key (and any Bearer token) in text. */
function redact(text) {
	return String(text || '')
		.split(SIM_API_KEY)
		.join('***')
		.replace(/(Bearer\s+)[A-Za-z0-9._~+\/=-]+/g, '$1***');
}

/**
 * Run a command, resolving with { code, stdout, stderr, ms }. Never rejects on a
 * non-zero exit; rejects only when the command cannot be started.
 * opts: { cwd, env, logFile, heartbeat: label (prints elapsed time every ~15 s), timeoutMs }
 */
function run(cmd, args, opts = {}) {
	return new Promise((resolve, reject) => {
		const started = Date.now();
		const child = childProcess.spawn(cmd, args, {
			cwd: opts.cwd,
			env: opts.env || process.env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const out = [];
		const err = [];
		let log;
		if (opts.logFile) log = fs.createWriteStream(opts.logFile);
		child.stdout.on('data', (d) => {
			out.push(d);
			if (log) log.write(d);
		});
		child.stderr.on('data', (d) => {
			err.push(d);
			if (log) log.write(d);
		});
		let beat;
		if (opts.heartbeat) {
			beat = setInterval(() => {
				const s = Math.round((Date.now() - started) / 1000);
				console.log(`  ... ${opts.heartbeat} (${s}s elapsed)`);
			}, 15000);
		}
		let timer;
		let timedOut = false;
		if (opts.timeoutMs) {
			timer = setTimeout(() => {
				timedOut = true;
				child.kill('SIGKILL');
			}, opts.timeoutMs);
		}
		child.on('error', (e) => {
			clearInterval(beat);
			clearTimeout(timer);
			reject(e);
		});
		child.on('close', (code, signal) => {
			clearInterval(beat);
			clearTimeout(timer);
			const finish = () =>
				resolve({
					code: timedOut ? 'timeout' : code === null ? signal : code,
					stdout: Buffer.concat(out).toString('utf8'),
					stderr: Buffer.concat(err).toString('utf8'),
					ms: Date.now() - started,
				});
			if (log) log.end(finish);
			else finish();
		});
	});
}

// ---------------------------------------------------------------------------
// n8n installation

function installedVersion(dir) {
	const pkg = readJson(path.join(dir, 'node_modules', 'n8n', 'package.json'));
	return pkg && pkg.version;
}

/**
 * Make sure n8n@1.123.81 is installed in `dir` (default N8N_E2E_DIR or
 * <repo>/.e2e/n8n). Reuses an earlier complete install. Returns
 * { dir, bin, reused, ms }.
 */
/**
 * The environment for installing n8n. `npm run …` exports this repo's npm config to its children
 * (npm_config_ignore_scripts=true among it); n8n's SQLite driver must run its install script.
 */
function installEnv() {
	const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
	return { ...env, npm_config_yes: 'true', npm_config_ignore_scripts: 'false' };
}

/** n8n cannot open its database without the compiled SQLite driver. */
function nativeModulesBuilt(dir) {
	return fs.existsSync(path.join(dir, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node'));
}

const HOST_DIR = path.join(__dirname, 'n8n-host');

/** The committed lock of the n8n install: a fresh resolution of n8n's tree may not start. */
function hostLockHash() {
	const lock = fs.readFileSync(path.join(HOST_DIR, 'package-lock.json'));
	return crypto.createHash('sha256').update(lock).digest('hex').slice(0, 16);
}

/** What keeps an installed n8n from running, or '' (a tree that resolved badly fails here). */
async function brokenInstall(dir) {
	if (!nativeModulesBuilt(dir)) return 'SQLite driver not built';
	// n8n answers "Command not found" when a command's module fails to load.
	for (const command of ['start', 'execute']) {
		const probe = await run(process.execPath, [n8nBin(dir), command, '--help'], {
			cwd: os.tmpdir(),
			env: { ...installEnv(), N8N_USER_FOLDER: fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-probe-')), N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false' },
		});
		if (probe.code !== 0 || !probe.stdout.includes('USAGE')) return `'n8n ${command}' does not load: ${tail(probe.stderr || probe.stdout, 5)}`;
	}
	return '';
}

async function prepareN8n(options = {}) {
	const dir = path.resolve(options.dir || n8nDir());
	const quiet = options.quiet === true;
	const say = (m) => {
		if (!quiet) console.log(m);
	};
	const marker = path.join(dir, MARKER);
	const wanted = `${N8N_VERSION} ${hostLockHash()}`;
	const stamp = fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8').split('\n')[0] : '';
	if (stamp === wanted && installedVersion(dir) === N8N_VERSION && fs.existsSync(n8nBin(dir)) && nativeModulesBuilt(dir)) {
		return { dir, bin: n8nBin(dir), reused: true, ms: 0 };
	}
	fs.mkdirSync(dir, { recursive: true });
	fs.rmSync(marker, { force: true });
	// The tree of the lock (xlsx from the registry, isolated-vm 5 for Node 20). `npm install`, not
	// `npm ci`: the lock leaves out other platforms' optional packages, which ci refuses.
	for (const file of ['package.json', 'package-lock.json']) {
		fs.copyFileSync(path.join(HOST_DIR, file), path.join(dir, file));
	}
	const logFile = path.join(dir, 'npm-install.log');
	say(`Installing n8n@${N8N_VERSION} into ${dir} (one time, about 5 minutes and 1.8 GB; log: ${logFile})`);
	const res = await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=http'], {
		cwd: dir,
		env: installEnv(),
		logFile,
		heartbeat: quiet ? undefined : `installing n8n@${N8N_VERSION}`,
	});
	const broken = res.code === 0 ? await brokenInstall(dir) : '';
	if (res.code !== 0 || installedVersion(dir) !== N8N_VERSION || broken) {
		const msg = `npm install of n8n@${N8N_VERSION} failed (exit ${res.code}${broken ? `, ${broken}` : ''}); full log: ${logFile}`;
		console.error(msg);
		console.error(tail(res.stdout + '\n' + res.stderr, 80));
		throw new Error(msg);
	}
	fs.writeFileSync(marker, `${wanted}\n${new Date().toISOString()}\n`);
	say(`n8n@${N8N_VERSION} installed in ${Math.round(res.ms / 1000)}s`);
	return { dir, bin: n8nBin(dir), reused: false, ms: res.ms };
}

// ---------------------------------------------------------------------------
// The package under test

function packageJson(packageDir = REPO_ROOT) {
	return readJson(path.join(packageDir, 'package.json'));
}

/** Files the package declares in package.json "n8n" that do not exist (build missing?). */
function missingBuildFiles(packageDir = REPO_ROOT) {
	const pkg = packageJson(packageDir) || {};
	const n8n = pkg.n8n || {};
	return [...(n8n.credentials || []), ...(n8n.nodes || [])].filter(
		(f) => !fs.existsSync(path.join(packageDir, f)),
	);
}

/**
 * `npm pack` this package (already built) into packDir (default: a temp folder).
 * Returns the absolute path of the .tgz. packageDir defaults to the repo root.
 */
async function packPackage(packDir, packageDir = REPO_ROOT) {
	const dest = packDir || fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-pack-'));
	fs.mkdirSync(dest, { recursive: true });
	const res = await run(
		'npm',
		['pack', '--pack-destination', dest, '--json', '--ignore-scripts', '--loglevel=error'],
		{ cwd: packageDir },
	);
	if (res.code !== 0) {
		throw new Error(`npm pack failed (exit ${res.code}):\n${tail(res.stderr || res.stdout, 30)}`);
	}
	const info = extractJson(res.stdout);
	const file = Array.isArray(info) && info[0] && info[0].filename;
	const tgz = file && path.join(dest, path.basename(file));
	if (!tgz || !fs.existsSync(tgz)) {
		throw new Error(`npm pack did not produce a tarball in ${dest}:\n${tail(res.stdout, 20)}`);
	}
	return tgz;
}

/**
 * Install this package as a community package into `<userFolder>/.n8n/nodes`,
 * the folder n8n scans (`.n8n/nodes/node_modules/<package-name>`). Packs the
 * package unless options.tgz is given. Peer dependencies (n8n-workflow) are not
 * installed: n8n provides its own. Returns { name, version, tgz, dir, nodeTypes, credentialTypes }.
 * options: { packDir, tgz, packageDir (default: the repo root) }
 */
async function installPackage(userFolder, options = {}) {
	const packageDir = options.packageDir || REPO_ROOT;
	const missing = missingBuildFiles(packageDir);
	if (!options.tgz && missing.length) {
		throw new Error(`build output missing (run npm run build): ${missing.join(', ')}`);
	}
	const ownPackDir = !options.tgz && !options.packDir;
	const tgz = options.tgz || (await packPackage(options.packDir, packageDir));
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });
	if (!fs.existsSync(path.join(nodesDir, 'package.json'))) {
		fs.writeFileSync(
			path.join(nodesDir, 'package.json'),
			JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2) + '\n',
		);
	}
	const res = await run(
		'npm',
		[
			'install',
			tgz,
			'--omit=peer',
			'--legacy-peer-deps',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			'--no-package-lock',
			'--loglevel=error',
		],
		{ cwd: nodesDir },
	);
	if (ownPackDir) fs.rmSync(path.dirname(tgz), { recursive: true, force: true });
	const pkg = packageJson(packageDir);
	const dir = path.join(nodesDir, 'node_modules', pkg.name);
	if (res.code !== 0 || !fs.existsSync(path.join(dir, 'package.json'))) {
		throw new Error(`npm install of ${path.basename(tgz)} failed (exit ${res.code}):\n${tail(res.stderr || res.stdout, 30)}`);
	}
	// A second n8n-workflow next to the package would give it other class
	// identities (NodeApiError instanceof checks) than the ones n8n uses.
	const strayWorkflow = path.join(nodesDir, 'node_modules', 'n8n-workflow');
	if (fs.existsSync(strayWorkflow)) {
		throw new Error(`a second n8n-workflow was installed in ${strayWorkflow}; it must stay a peer dependency`);
	}
	const baseName = (f) => path.basename(f).replace(/\.(node|credentials)\.js$/, '');
	const n8n = pkg.n8n || {};
	return {
		name: pkg.name,
		version: pkg.version,
		tgz,
		dir,
		nodeTypes: (n8n.nodes || []).map((f) => `${pkg.name}.${lowerFirst(baseName(f))}`),
		credentialTypes: (n8n.credentials || []).map((f) => lowerFirst(baseName(f))),
	};
}

function lowerFirst(s) {
	return s.charAt(0).toLowerCase() + s.slice(1);
}

// ---------------------------------------------------------------------------
// Running n8n commands

/** Environment for every n8n command against userFolder. */
function n8nEnv(userFolder, extra = {}) {
	const env = { ...process.env };
	// Settings of the caller's own n8n must not leak into the test instance.
	for (const k of Object.keys(env)) {
		if (/^(N8N_|DB_|EXECUTIONS_|QUEUE_|GENERIC_TIMEZONE$)/.test(k)) delete env[k];
	}
	return {
		...env,
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: 'e2e-test-encryption-key-not-secret',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_RUNNERS_ENABLED: 'false',
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
		...extra,
	};
}

/**
 * Run `n8n <args>` for userFolder. Returns { code, stdout, stderr, ms }.
 * options: { env (extra vars), timeoutMs, n8nDir }
 */
async function runN8n(userFolder, args, options = {}) {
	const bin = n8nBin(options.n8nDir || n8nDir());
	if (!fs.existsSync(bin)) throw new Error(`n8n is not installed at ${bin}: call prepareN8n() first`);
	if (verbose()) console.log(`  $ n8n ${args.join(' ')}`);
	const res = await run(process.execPath, [bin, ...args], {
		cwd: userFolder,
		env: n8nEnv(userFolder, options.env),
		timeoutMs: options.timeoutMs || 180000,
	});
	if (verbose()) {
		console.log(redact(tail(res.stdout, 40)));
		console.log(redact(tail(res.stderr, 40)));
	}
	return res;
}

function n8nFailure(what, res) {
	return new Error(
		`${what} failed (exit ${res.code}):\n${redact(tail(`${res.stdout}\n${res.stderr}`.trim(), 40))}`,
	);
}

function tempJsonFile(userFolder, prefix, value) {
	const dir = path.join(userFolder, 'e2e-import');
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, `${prefix}-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`);
	fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
	return file;
}

/**
 * The credential for the gateway (or the simulator): type unifiedAiGatewayApi,
 * id CRED_ID, data { baseUrl, altBaseUrl, apiKey }.
 */
function gatewayCredential({ baseUrl, altBaseUrl = '', apiKey, id = CRED_ID, name = CRED_NAME }) {
	return { id, name, type: CRED_TYPE, data: { baseUrl, altBaseUrl, apiKey } };
}

/**
 * Import one credential or an array: { id, name, type, data: {plain object} }.
 * n8n encrypts plain `data` on import.
 */
async function importCredential(userFolder, credential, options = {}) {
	const list = (Array.isArray(credential) ? credential : [credential]).map((c) => ({
		isManaged: false,
		...c,
	}));
	const file = tempJsonFile(userFolder, 'credentials', list);
	try {
		const res = await runN8n(userFolder, ['import:credentials', `--input=${file}`], options);
		if (res.code !== 0) throw n8nFailure('n8n import:credentials', res);
		return res;
	} finally {
		fs.rmSync(file, { force: true }); // holds the key in clear text
	}
}

/** Replace {{NAME}} placeholders (NAME in vars, upper case) in workflow JSON text. */
function substitute(text, vars = {}) {
	return text.replace(/\{\{([A-Z][A-Z0-9_]*)\}\}/g, (all, key) =>
		Object.prototype.hasOwnProperty.call(vars, key) ? JSON.stringify(String(vars[key])).slice(1, -1) : all,
	);
}

/** Load a workflow file (or take an object) and substitute placeholders. */
function loadWorkflow(workflowOrFile, vars = {}) {
	const text =
		typeof workflowOrFile === 'string'
			? fs.readFileSync(workflowOrFile, 'utf8')
			: JSON.stringify(workflowOrFile);
	const wf = JSON.parse(substitute(text, vars));
	if (!wf.id) throw new Error(`workflow ${wf.name || workflowOrFile} has no "id"`);
	// n8n treats longer ids as invalid (isWorkflowIdValid) and runs such a workflow without its id.
	if (String(wf.id).length > 16) throw new Error(`workflow id "${wf.id}" is longer than 16 characters`);
	if (!Array.isArray(wf.nodes) || !wf.connections) throw new Error(`workflow ${wf.id} needs "nodes" and "connections"`);
	return wf;
}

/**
 * Import workflows (file paths or objects; one or an array) with one n8n
 * start-up. Placeholders {{SIM_MAIN}} etc. are replaced from vars. Returns the ids.
 */
async function importWorkflow(userFolder, workflows, vars = {}, options = {}) {
	const list = (Array.isArray(workflows) ? workflows : [workflows]).map((w) => loadWorkflow(w, vars));
	const dir = path.join(userFolder, 'e2e-import', `workflows-${Date.now()}`);
	fs.mkdirSync(dir, { recursive: true });
	list.forEach((wf, i) => fs.writeFileSync(path.join(dir, `${i}.json`), JSON.stringify(wf, null, 2)));
	const res = await runN8n(userFolder, ['import:workflow', '--separate', `--input=${dir}`], options);
	fs.rmSync(dir, { recursive: true, force: true });
	if (res.code !== 0) throw n8nFailure('n8n import:workflow', res);
	return list.map((w) => w.id);
}

/**
 * Find the JSON value printed by n8n in stdout that may have log lines before
 * (and after) it. Tries each line that starts with "{" or "[" and parses up to
 * the matching last closing line. Returns undefined when none parses.
 */
function extractJson(stdout) {
	const text = String(stdout || '');
	const lines = text.split('\n');
	const offsets = [];
	let pos = 0;
	for (const line of lines) {
		offsets.push(pos);
		pos += line.length + 1;
	}
	for (let i = 0; i < lines.length; i++) {
		const first = lines[i].trimStart()[0];
		if (first !== '{' && first !== '[') continue;
		const close = first === '{' ? '}' : ']';
		// candidate ends: every later line that ends with the closing bracket, longest first
		for (let j = lines.length - 1; j >= i; j--) {
			if (!lines[j].trimEnd().endsWith(close)) continue;
			const chunk = text.slice(offsets[i], offsets[j] + lines[j].length);
			try {
				return JSON.parse(chunk);
			} catch {
				// try a shorter end
			}
		}
	}
	return undefined;
}

/**
 * `n8n execute --id <id> --rawOutput`. Resolves with
 * { ok, run (the IRun object: run.data.resultData.runData), error (message when
 * not ok), code, stdout, stderr, ms }. A failed execution still gives `run`.
 *
 * n8n prints the run through its logger at level info (also with --rawOutput),
 * and a failed run only at info level too: so this command always runs with
 * N8N_LOG_LEVEL=info (plain-message console format), other log lines included.
 */
async function executeWorkflow(userFolder, id, options = {}) {
	const res = await runN8n(userFolder, ['execute', `--id=${id}`, '--rawOutput'], {
		...options,
		env: { N8N_LOG_LEVEL: 'info', ...(options.env || {}) },
	});
	const run = extractJson(res.stdout);
	const isRun = run && typeof run === 'object' && run.data && run.data.resultData;
	const runError = isRun && run.data.resultData.error;
	let error;
	if (runError) {
		const where = runError.node ? ` in node "${runError.node.name}"` : '';
		const details = [runError.description, ...(runError.messages || [])].filter(Boolean);
		error = `execution failed${where}: ${runError.message || runError.name}${
			details.length ? `\n${[...new Set(details)].join('\n')}` : ''
		}`;
	} else if (res.code !== 0 || !isRun) {
		const why =
			res.code === 'timeout'
				? `timed out after ${Math.round(res.ms / 1000)}s`
				: res.code !== 0
					? `exited with ${res.code}`
					: 'printed no run data';
		error = `n8n execute ${why}\n${tail(`${res.stdout}\n${res.stderr}`.trim(), 30)}`;
	}
	if (error) error = redact(error);
	return { ok: !error, run: isRun ? run : undefined, error, code: res.code, stdout: res.stdout, stderr: res.stderr, ms: res.ms };
}

// ---------------------------------------------------------------------------
// Reading run data (for the assertion modules)

/** Items ([{json, binary?, pairedItem}]) of node `nodeName`, output `output`, run `runIndex`. */
function nodeItems(run, nodeName, output = 0, runIndex = 0) {
	const runData = run && run.data && run.data.resultData && run.data.resultData.runData;
	const nodeRuns = runData && runData[nodeName];
	if (!nodeRuns) {
		throw new Error(`node "${nodeName}" did not run (ran: ${Object.keys(runData || {}).join(', ') || 'none'})`);
	}
	const taskData = nodeRuns[runIndex];
	if (!taskData) throw new Error(`node "${nodeName}" has no run #${runIndex}`);
	if (taskData.error) throw new Error(`node "${nodeName}" failed: ${taskData.error.message}`);
	const outputs = (taskData.data && taskData.data.main) || [];
	return outputs[output] || [];
}

/** The `json` of each item of a node's output. */
function nodeOutput(run, nodeName, output = 0, runIndex = 0) {
	return nodeItems(run, nodeName, output, runIndex).map((i) => i.json);
}

/** The error object of a node's run, or undefined. */
function nodeError(run, nodeName, runIndex = 0) {
	const runData = run && run.data && run.data.resultData && run.data.resultData.runData;
	const t = runData && runData[nodeName] && runData[nodeName][runIndex];
	return t && t.error;
}

// ---------------------------------------------------------------------------
// The test run

function listWorkflows(filters = []) {
	if (!fs.existsSync(WORKFLOWS_DIR)) return [];
	return fs
		.readdirSync(WORKFLOWS_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((f) => {
			const name = f.replace(/\.json$/, '');
			return {
				name,
				file: path.join(WORKFLOWS_DIR, f),
				assertFile: path.join(WORKFLOWS_DIR, `${name}.assert.js`),
			};
		})
		.filter((w) => !filters.length || filters.some((x) => w.name.includes(x)));
}

function firstLine(msg) {
	return String(msg).split('\n')[0];
}

function indent(msg) {
	return String(msg)
		.split('\n')
		.map((l) => `      ${l}`)
		.join('\n');
}

/**
 * Run the e2e suite. options: { filters (workflow name parts), packageDir,
 * startSimulator (defaults to the one in test/simulator) }. Resolves with the exit code.
 */
async function main(options = {}) {
	const filters = options.filters || [];
	const started = Date.now();
	const workflows = listWorkflows(filters);
	if (!workflows.length) {
		console.error(`no workflows found in ${WORKFLOWS_DIR}${filters.length ? ` matching ${filters.join(', ')}` : ''}`);
		console.log('0 passed, 1 failed');
		return 1;
	}
	let passed = 0;
	let failed = 0;
	let sim;
	const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-'));
	const userFolder = path.join(tmpRoot, 'user');
	fs.mkdirSync(userFolder, { recursive: true });
	const onSignal = (signal) => {
		// n8n children get the same terminal signal; just leave no temp folder behind.
		if (process.env.E2E_KEEP !== '1') fs.rmSync(tmpRoot, { recursive: true, force: true });
		console.log(`interrupted (${signal})`);
		process.exit(130);
	};
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	const step = async (label, fn) => {
		const t = Date.now();
		const r = await fn();
		console.log(`${label} (${((Date.now() - t) / 1000).toFixed(1)}s)`);
		return r;
	};
	try {
		const host = await prepareN8n();
		console.log(`n8n ${N8N_VERSION} ${host.reused ? 'reused from' : 'installed in'} ${host.dir}`);
		const pkg = await step('packed and installed the package into a fresh n8n user folder', () =>
			installPackage(userFolder, { packDir: tmpRoot, packageDir: options.packageDir }),
		);
		if (verbose()) console.log(`  node types: ${pkg.nodeTypes.join(', ')}`);

		const startSimulator = options.startSimulator || require('../simulator').startSimulator;
		sim = await startSimulator({ apiKey: SIM_API_KEY });
		const vars = {
			SIM_MAIN: sim.mainUrl,
			SIM_ALT: sim.altUrl,
			SIM_FILES: sim.filesUrl,
			CRED_ID,
			CRED_NAME,
			CHAT_CRED_ID,
			CHAT_CRED_NAME,
		};
		// The gateway's credential, and the same gateway as an OpenAI credential for the AI Agent's chat model.
		await step('imported the credentials', () =>
			importCredential(userFolder, [
				gatewayCredential({ baseUrl: `${sim.mainUrl}/v1`, altBaseUrl: sim.altUrl, apiKey: SIM_API_KEY }),
				chatModelCredential({ baseUrl: `${sim.mainUrl}/v1`, apiKey: SIM_API_KEY }),
			]),
		);
		// Parse everything first so one broken file fails alone.
		const ready = [];
		for (const w of workflows) {
			try {
				w.id = loadWorkflow(w.file, vars).id;
				if (!fs.existsSync(w.assertFile)) throw new Error(`missing ${path.basename(w.assertFile)}`);
				w.check = require(w.assertFile);
				if (typeof w.check !== 'function') throw new Error(`${path.basename(w.assertFile)} must export a function`);
				ready.push(w);
			} catch (e) {
				failed++;
				console.log(`FAIL ${w.name}: ${firstLine(e.message)}`);
			}
		}
		if (ready.length) {
			await step(`imported ${ready.length} workflow(s)`, () =>
				importWorkflow(userFolder, ready.map((w) => w.file), vars),
			);
		}
		for (const w of ready) {
			const t = Date.now();
			try {
				sim.reset();
				if (typeof w.check.before === 'function') await w.check.before(sim);
				const res = await executeWorkflow(userFolder, w.id, {
					timeoutMs: w.check.timeoutMs || Number(process.env.E2E_TIMEOUT_MS) || 180000,
				});
				if (w.check.expectError) {
					if (res.ok) throw new Error('the execution succeeded, but an error was expected');
					await w.check(res.run, sim, res);
				} else {
					if (!res.ok) throw new Error(res.error);
					await w.check(res.run, sim, res);
				}
				passed++;
				console.log(`ok  ${w.name}  (${((Date.now() - t) / 1000).toFixed(1)}s)`);
			} catch (e) {
				failed++;
				const msg = redact(e && e.message ? e.message : String(e));
				console.log(`FAIL ${w.name}: ${firstLine(msg)}`);
				const rest = msg.split('\n').slice(1).join('\n').trim();
				if (rest) console.log(indent(rest));
			}
		}
	} catch (e) {
		const msg = redact(e && e.message ? e.message : String(e));
		console.log(`FAIL setup: ${firstLine(msg)}`);
		const rest = msg.split('\n').slice(1).join('\n').trim();
		if (rest) console.log(indent(rest));
		failed = Math.max(failed, workflows.length - passed);
	} finally {
		process.removeListener('SIGINT', onSignal);
		process.removeListener('SIGTERM', onSignal);
		if (sim) {
			try {
				await sim.close();
			} catch {
				// ignore
			}
		}
		if (process.env.E2E_KEEP === '1') console.log(`kept temp folder ${tmpRoot}`);
		else fs.rmSync(tmpRoot, { recursive: true, force: true });
	}
	console.log(`e2e finished in ${((Date.now() - started) / 1000).toFixed(1)}s`);
	console.log(`${passed} passed, ${failed} failed`);
	return failed ? 1 : 0;
}

module.exports = {
	N8N_VERSION,
	brokenInstall,
	runAsScript,
	REPO_ROOT,
	CRED_ID,
	CRED_NAME,
	CRED_TYPE,
	SIM_API_KEY,
	n8nDir,
	n8nBin,
	prepareN8n,
	packPackage,
	installPackage,
	n8nEnv,
	runN8n,
	gatewayCredential,
	importCredential,
	substitute,
	loadWorkflow,
	importWorkflow,
	executeWorkflow,
	extractJson,
	nodeItems,
	nodeOutput,
	nodeError,
	listWorkflows,
	redact,
	run,
	main,
};

/** Runs a test script's main(): its code is the exit code; a crash still ends on the count line. */
function runAsScript(run) {
	run().then(
		(code) => {
			process.exitCode = code;
		},
		(e) => {
			console.error(e);
			console.log('0 passed, 1 failed');
			process.exitCode = 1;
		},
	);
}

if (require.main === module) runAsScript(() => main({ filters: process.argv.slice(2) }));
