#!/usr/bin/env node
'use strict';
/*
 * npm run build:watch: `tsc --watch` (as the n8n-nodes-starter's build:watch), plus what
 * gulpfile.js copies beside the built nodes (icons, codex files, output schemas) each time one of
 * those changes, keeping the build stamp of test/build-current.js: dropped while a compile runs or
 * fails, written when dist/ has caught up. A test run started beside it then rebuilds only when this
 * has not caught up (or the code does not compile: the rebuild shows the errors).
 * Stops on Ctrl-C. `npm run dev` runs it under a real n8n (scripts/dev/).
 */
const childProcess = require('node:child_process');
const path = require('node:path');
const readline = require('node:readline');

const { beginBuild, endBuild, sourceHashes } = require('../test/build-current');

const ROOT = path.resolve(__dirname, '..');
const TSC = require.resolve('typescript/bin/tsc');
const GULP = path.join(ROOT, 'node_modules', '.bin', 'gulp');
/** The files build:assets copies (gulpfile.js): a change to one is copied, not compiled. */
const ASSET = /^(icons\/[^/]+\.svg|nodes\/[^/]+\/[^/]+\.node\.json|nodes\/.*\/__schema__\/.+\.json)$/;

const log = (line) => process.stdout.write(`[build:watch] ${line}\n`);

function copyAssets() {
	const run = childProcess.spawnSync(GULP, ['build:assets', '--silent'], { cwd: ROOT, encoding: 'utf8' });
	if (run.status !== 0) log(`copying the assets failed:\n${run.stdout}${run.stderr}`);
	return run.status === 0;
}

let compiling = false;

const tsc = childProcess.spawn(process.execPath, [TSC, '-p', 'tsconfig.json', '--watch', '--preserveWatchOutput'], {
	cwd: ROOT,
	stdio: ['ignore', 'pipe', 'inherit'],
});
readline.createInterface({ input: tsc.stdout }).on('line', (line) => {
	process.stdout.write(`${line}\n`);
	if (/Starting (compilation in watch mode|incremental compilation)/.test(line)) {
		compiling = true;
		beginBuild(ROOT);
	}
	const found = /Found (\d+) errors?\b/.exec(line);
	if (found) {
		compiling = false;
		if (Number(found[1]) > 0) return log('dist/ is not current until these compile (a test run rebuilds and shows them)');
		if (copyAssets()) {
			endBuild(ROOT);
			log('dist/ is current');
		}
	}
});

/** The assets' content now: path → hash (a second of polling costs some 5 ms). */
const assetHashes = () => Object.fromEntries(Object.entries(sourceHashes(ROOT)).filter(([file]) => ASSET.test(file)));

// Polled, not fs.watch'ed: a recursive watch on Linux loses a file an editor replaced (new inode).
let assets = assetHashes();
const poll = setInterval(() => {
	const now = assetHashes();
	const changed = [...new Set([...Object.keys(now), ...Object.keys(assets)])].filter((file) => now[file] !== assets[file]);
	if (changed.length === 0) return;
	assets = now;
	// While tsc compiles, its end writes the stamp (of the sources as it began: this copy then reads
	// as stale, and the next test run builds once more).
	if (compiling) return void copyAssets();
	beginBuild(ROOT);
	if (copyAssets()) {
		endBuild(ROOT);
		log(`copied ${changed.join(', ')}; dist/ is current`);
	}
}, 1000);

function stop() {
	clearInterval(poll);
	tsc.kill('SIGTERM');
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
tsc.on('exit', (code) => {
	clearInterval(poll);
	process.exitCode = code ?? 0;
});
