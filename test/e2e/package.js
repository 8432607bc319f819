'use strict';
// The package under test: `npm pack` it and install the tarball as a community package.

const fs = require('fs');
const path = require('path');

const { readJson, run, tail } = require('../n8n/run');
const { extractJson } = require('./cli');
const { tempDir, removeTempDir } = require('../n8n/tempdirs');

const REPO_ROOT = path.resolve(__dirname, '..', '..');

function packageJson(packageDir = REPO_ROOT) {
	return readJson(path.join(packageDir, 'package.json'));
}

/** Files the package declares in package.json "n8n" that do not exist (build missing?). */
function missingBuildFiles(packageDir = REPO_ROOT) {
	const pkg = packageJson(packageDir) || {};
	const n8n = pkg.n8n || {};
	return [...(n8n.credentials || []), ...(n8n.nodes || [])].filter((f) => !fs.existsSync(path.join(packageDir, f)));
}

/**
 * `npm pack` this package (already built) into packDir (default: a temp folder).
 * Returns the absolute path of the .tgz. packageDir defaults to the repo root.
 */
async function packPackage(packDir, packageDir = REPO_ROOT) {
	// A folder of its own is removed at exit at the latest (test/n8n/tempdirs.js).
	const dest = packDir || tempDir('n8n-e2e-pack-');
	fs.mkdirSync(dest, { recursive: true });
	const res = await run('npm', ['pack', '--pack-destination', dest, '--json', '--ignore-scripts', '--loglevel=error'], {
		cwd: packageDir,
	});
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

function lowerFirst(s) {
	return s.charAt(0).toLowerCase() + s.slice(1);
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
		['install', tgz, '--omit=peer', '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'],
		{ cwd: nodesDir },
	);
	if (ownPackDir) removeTempDir(path.dirname(tgz));
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

module.exports = { REPO_ROOT, packageJson, missingBuildFiles, packPackage, installPackage };
