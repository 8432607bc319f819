#!/usr/bin/env node
'use strict';
/*
 * Green means current. The tests and every real-n8n runner load the built dist/ (what ships), so a
 * run after a source edit without `npm run build` would test the old code and pass. The build
 * stamps dist/ with a hash of every source it reads; whatever loads dist/ first calls
 * ensureCurrent(), which rebuilds (one line says so) when a source differs from the stamp.
 *
 * Sources (what tsc compiles and gulpfile.js copies): everything under nodes/ and credentials/
 * (TypeScript, codex JSON, output schemas), icons/, tsconfig.json, gulpfile.js. Compared by
 * content, not by time: a checkout or a touch that leaves the bytes alone rebuilds nothing.
 *
 *   node test/build-current.js --begin   first step of `npm run build`: remembers the sources, drops the stamp
 *   node test/build-current.js --end     last step of `npm run build`: writes dist/.build-stamp.json
 *   node test/build-current.js           rebuild if stale (what jest's globalSetup and the runners do)
 *   node test/build-current.js --check   say whether dist/ is current; exit 1 when not
 *   … --root <dir>                       the same for the package in <dir> (default: this one)
 *
 * BUILD_CURRENT=check makes a stale dist/ an error naming the changed files instead of a rebuild.
 * Used by: jest (test/harness/global-setup.js, both configs), test/e2e/run-e2e.js,
 * stop-keeps-ids.js, restart-resumes.js, test/queue/run-queue.js, test/ui/run-ui.js, bench/run.js,
 * bench/n8n/index.js, scripts/demo/index.js.
 */
const childProcess = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const { withLock } = require('./locks');

const ROOT = path.resolve(__dirname, '..');
const SOURCE_DIRS = ['nodes', 'credentials', 'icons'];
const SOURCE_FILES = ['tsconfig.json', 'gulpfile.js'];
const STAMP = 'dist/.build-stamp.json';
const PENDING = 'dist/.build-pending.json';
const LOCK = 'dist/.build-lock';
const LOCK_STALE_MS = 10 * 60_000;

function walk(root, rel, out) {
	const full = path.join(root, rel);
	if (!fs.existsSync(full)) return;
	for (const entry of fs.readdirSync(full, { withFileTypes: true })) {
		const child = path.posix.join(rel, entry.name);
		if (entry.isDirectory()) walk(root, child, out);
		else if (entry.isFile()) out.push(child);
	}
}

/** Every source file of the build, relative path → sha1 of its content. */
function sourceHashes(root = ROOT) {
	const files = [];
	for (const dir of SOURCE_DIRS) walk(root, dir, files);
	for (const file of SOURCE_FILES) if (fs.existsSync(path.join(root, file))) files.push(file);
	const hashes = {};
	for (const file of files.sort()) hashes[file] = crypto.createHash('sha1').update(fs.readFileSync(path.join(root, file))).digest('hex');
	return hashes;
}

function readJson(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return undefined;
	}
}

/**
 * How the sources differ from the last build: { current, reason, changed } (changed: the paths
 * added, removed or edited since, sorted). No stamp (never built, or a build that failed) is stale.
 */
function buildState(root = ROOT) {
	const stamp = readJson(path.join(root, STAMP));
	if (!stamp || typeof stamp.files !== 'object') return { current: false, reason: 'dist/ has no build stamp (not built, or the last build failed)', changed: [] };
	const now = sourceHashes(root);
	const changed = [...new Set([...Object.keys(now), ...Object.keys(stamp.files)])].filter((file) => now[file] !== stamp.files[file]).sort();
	if (changed.length === 0) return { current: true, changed };
	const shown = changed.slice(0, 3).join(', ') + (changed.length > 3 ? ` and ${changed.length - 3} more` : '');
	return { current: false, reason: `dist/ is older than the sources (changed since the last build: ${shown})`, changed };
}

/** `--begin`: the sources as the build starts (edits made while it runs leave the result stale). */
function beginBuild(root = ROOT) {
	fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
	fs.rmSync(path.join(root, STAMP), { force: true });
	fs.writeFileSync(path.join(root, PENDING), JSON.stringify({ files: sourceHashes(root) }));
}

/**
 * Built files whose source is gone (a file moved or deleted): tsc and gulp never remove them, so
 * dist/ would keep, test and ship the old module at its old path. Each dist/nodes and
 * dist/credentials file is kept while its source is there (`x.js` ← `x.ts`, any other file ← the
 * same path); the rest, and folders left empty, are removed. Returns what was removed.
 */
function pruneOrphans(root = ROOT) {
	const removed = [];
	for (const dir of ['nodes', 'credentials']) {
		const built = [];
		walk(path.join(root, 'dist'), dir, built);
		for (const file of built) {
			const source = file.endsWith('.js') ? `${file.slice(0, -3)}.ts` : file;
			if (fs.existsSync(path.join(root, source))) continue;
			fs.rmSync(path.join(root, 'dist', file));
			removed.push(`dist/${file}`);
		}
		const prune = (rel) => {
			const full = path.join(root, 'dist', rel);
			if (!fs.existsSync(full) || !fs.statSync(full).isDirectory()) return;
			for (const entry of fs.readdirSync(full)) prune(path.posix.join(rel, entry));
			if (fs.readdirSync(full).length === 0) fs.rmdirSync(full);
		};
		prune(dir);
	}
	return removed;
}

/** `--end`: the build succeeded; its stamp is the sources it began with (dist/ holds nothing else). */
function endBuild(root = ROOT) {
	pruneOrphans(root);
	const pending = readJson(path.join(root, PENDING)) ?? { files: sourceHashes(root) };
	fs.writeFileSync(path.join(root, STAMP), `${JSON.stringify({ builtAt: new Date().toISOString(), files: pending.files }, null, '\t')}\n`);
	fs.rmSync(path.join(root, PENDING), { force: true });
}

/** One rebuild at a time (two jest runs started together, a runner beside them); a lock whose process is gone is taken over. */
function withBuildLock(root, fn, log) {
	fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
	return withLock(path.join(root, LOCK), fn, { staleMs: LOCK_STALE_MS, onWait: (pid) => log(`waiting for the build another process runs (pid ${pid || 'unknown'})`) });
}

/**
 * Makes dist/ current or says why it is not. options: { root, mode ('rebuild' | 'check'; default
 * BUILD_CURRENT or 'rebuild'), command (default `npm run build`), log (one line when it rebuilds) }.
 * Returns { rebuilt, changed }. Throws when stale in check mode, or when the build fails (with its
 * output).
 */
function ensureCurrent(options = {}) {
	const root = options.root ?? ROOT;
	const mode = options.mode ?? (process.env.BUILD_CURRENT === 'check' ? 'check' : 'rebuild');
	const command = options.command ?? 'npm run build';
	const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
	const first = buildState(root);
	if (first.current) return { rebuilt: false, changed: [] };
	if (mode === 'check') throw new Error(`${first.reason}: run npm run build (BUILD_CURRENT=check refuses to rebuild)`);
	return withBuildLock(root, () => rebuild(root, command, log), log);
}

function rebuild(root, command, log) {
	// Another run may have built while this one waited for the lock.
	const state = buildState(root);
	if (state.current) return { rebuilt: false, changed: [] };
	log(`${state.reason}: running ${command}`);
	const run = childProcess.spawnSync(command, { cwd: root, shell: true, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
	if (run.status !== 0) {
		throw new Error(`${command} failed (exit ${run.status ?? run.signal}), so dist/ is not current:\n${run.stdout}${run.stderr}`);
	}
	const after = buildState(root);
	if (!after.current) throw new Error(`${command} finished, but ${after.reason}`);
	return { rebuilt: true, changed: state.changed };
}

module.exports = { ensureCurrent, buildState, sourceHashes, walk, beginBuild, endBuild, pruneOrphans, SOURCE_DIRS, SOURCE_FILES, STAMP };

if (require.main === module) {
	const args = process.argv.slice(2);
	// --root <dir>: another package folder (the tests of this file build a copy).
	const at = args.indexOf('--root');
	const root = at >= 0 ? path.resolve(args[at + 1]) : ROOT;
	const arg = args.find((a) => ['--begin', '--end', '--check'].includes(a));
	try {
		if (arg === '--begin') beginBuild(root);
		else if (arg === '--end') endBuild(root);
		else if (arg === '--check') {
			const state = buildState(root);
			console.log(state.current ? 'dist/ is current' : state.reason);
			process.exitCode = state.current ? 0 : 1;
		} else ensureCurrent({ root });
	} catch (error) {
		console.error(error.message);
		process.exitCode = 1;
	}
}
