#!/usr/bin/env node
'use strict';
/*
 * `npm run pack:light`: the package file from a clone, without `npm ci`.
 *
 * Until the first release the only way to the package is to build it from a clone. `npm ci && npm
 * run build && npm pack` installs every development tool (0.9 GB) to make a 185 kB file; this
 * needs only Node and npm: TypeScript at the version package.json pins (the clone's own when
 * `npm ci` ran, else fetched once by npx into npm's cache), compiling without type checking (the
 * type check is the tests' job, and the JavaScript is the same: test/package/pack-light.test.js
 * compares the tarball with `npm pack`'s, file by file). Built in a temporary folder, so a dist/
 * of the clone is neither read nor changed.
 *
 *   npm run pack:light                              writes <name>-<version>.tgz into the clone
 *   node scripts/release/pack-light.js --dest <dir> into <dir>
 *
 * The version is package.json's: between releases it ends in `-dev`, so the file cannot be taken
 * for a release (docs/RELEASING.md).
 *
 * It also prints the file's npm integrity (`sha512-…`, checked against `npm pack`'s own), the form
 * of checksum n8n's N8N_COMMUNITY_PACKAGES takes (scripts/release/integrity.js, docs/INSTALL.md).
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { expectedFiles, problems } = require('./check-tarball');
const { integrityOf, checksumLines } = require('./integrity');
// Removed when done, and at exit or on Ctrl-C if the build is cut short.
const { tempDir, removeTempDir } = require('../../test/n8n/tempdirs');

const ROOT = path.resolve(__dirname, '..', '..');

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
const bin = (name) => (process.platform === 'win32' ? `${name}.cmd` : name);

/** How to run tsc at the pinned version: the clone's own when installed, else through npx. */
function tscCommand(root = ROOT) {
	const pinned = readJson(path.join(root, 'package.json')).devDependencies.typescript;
	const local = path.join(root, 'node_modules', 'typescript');
	if (fs.existsSync(path.join(local, 'package.json')) && readJson(path.join(local, 'package.json')).version === pinned) {
		return { cmd: process.execPath, args: [path.join(local, 'bin', 'tsc')], via: `typescript ${pinned} of the clone` };
	}
	return { cmd: bin('npx'), args: ['--yes', '--package', `typescript@${pinned}`, '--', 'tsc'], via: `typescript ${pinned} through npx` };
}

function run(cmd, args, options) {
	const res = spawnSync(cmd, args, { encoding: 'utf8', ...options });
	if (res.error) throw new Error(`${cmd} could not start: ${res.error.message}`);
	if (res.status !== 0) throw new Error(`${[cmd, ...args].join(' ')} failed (exit ${res.status}):\n${`${res.stdout ?? ''}${res.stderr ?? ''}`.trim()}`);
	return res.stdout;
}

/**
 * Builds and packs the package of root into dest; returns { tgz, files, size, integrity, via }.
 * options.tsc: a tscCommand() result (default: the clone's or npx's).
 */
function packLight({ root = ROOT, dest = root, tsc = tscCommand(root) } = {}) {
	const work = tempDir('uag-pack-light-');
	try {
		const pkgDir = path.join(work, 'package');
		// The repository's compiler options, without the type check and the type packages it needs.
		const tsconfig = path.join(work, 'tsconfig.json');
		const compilerOptions = { rootDir: root, outDir: path.join(pkgDir, 'dist'), noCheck: true, types: [], incremental: false };
		fs.writeFileSync(tsconfig, JSON.stringify({ extends: path.join(root, 'tsconfig.json'), compilerOptions }, null, 2));
		run(tsc.cmd, [...tsc.args, '-p', tsconfig], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
		// Beside the compiled code: what n8n reads (codex, output schemas, icons, as the build's
		// gulpfile copies them) and the package's own files, as the tarball check expects them.
		for (const file of expectedFiles(root)) {
			if (file.startsWith('dist/') && file.endsWith('.js')) continue;
			const target = path.join(pkgDir, file);
			fs.mkdirSync(path.dirname(target), { recursive: true });
			fs.copyFileSync(path.join(root, file.replace(/^dist\//, '')), target);
		}
		fs.mkdirSync(dest, { recursive: true });
		const out = run(bin('npm'), ['pack', '--pack-destination', path.resolve(dest), '--json', '--ignore-scripts', '--loglevel=error'], { cwd: pkgDir });
		const [info] = JSON.parse(out.slice(out.indexOf('[')));
		const files = info.files.map((f) => f.path);
		const found = problems(files, expectedFiles(root));
		const tgz = path.join(path.resolve(dest), info.filename);
		if (found.length > 0) {
			fs.rmSync(tgz, { force: true });
			throw new Error(`the packed file is not what a release would hold:\n  ${found.join('\n  ')}`);
		}
		// The checksum printed is computed from the file, as n8n's checksum is npm's: the two must agree.
		const integrity = integrityOf(tgz);
		if (integrity !== info.integrity) {
			throw new Error(`the file's sha512 ${integrity} is not the integrity npm pack reported, ${info.integrity}`);
		}
		return { tgz, files, size: info.size, integrity, via: tsc.via };
	} finally {
		removeTempDir(work);
	}
}

function commitOf(root) {
	const res = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' });
	return res.status === 0 ? res.stdout.trim() : null;
}

if (require.main === module) {
	const at = process.argv.indexOf('--dest');
	const dest = at > 0 ? process.argv[at + 1] : ROOT;
	try {
		const { tgz, files, size, integrity, via } = packLight({ dest });
		const { name, version } = readJson(path.join(ROOT, 'package.json'));
		const commit = commitOf(ROOT);
		const kind = version.includes('-') ? 'a development build, not a release' : `release ${version}'s code`;
		console.log(`${path.basename(tgz)}: ${(size / 1024).toFixed(0)} kB, ${files.length} files (${kind}${commit ? `, commit ${commit}` : ''}; compiled with ${via})`);
		console.log('Install it where n8n runs, as the user n8n runs as, then restart n8n:');
		console.log(`  mkdir -p ~/.n8n/nodes && cd ~/.n8n/nodes && npm install --omit=peer ${tgz}`);
		console.log(checksumLines({ file: tgz, name, version, integrity }).join('\n'));
	} catch (e) {
		console.error(`pack:light: ${e.message}`);
		process.exit(1);
	}
}

module.exports = { packLight, tscCommand };
