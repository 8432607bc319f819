'use strict';
// What the demo costs a newcomer in time and disk: the estimate printed at the start (figures
// measured on a fresh machine, kept here and in test/n8n/lines.js, never guessed), and what this
// run measured, printed at the end (its own wall time, the n8n install's time when it ran now,
// and `du` of what the demo needs on disk).

const childProcess = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const { MARKER, installCache } = require('../../test/n8n/install');
const { REPO_ROOT } = require('./examples');
const { dim, rel } = require('./terminal');

/**
 * The examples' run with n8n already installed, measured by the demo itself (its "in all" line) on
 * the 2-core development machine; by n8n line (major version). 2.41.1: 72 s (load 2-6), 89 s
 * (load 7-8); 1.123.81: 85 s.
 */
const EXAMPLES_RUN = { 2: { minutes: '1¼' }, 1: { minutes: '1½' } };

/** Minutes as people say them: "40 s", "2.5 min". */
function minutes(ms) {
	const s = Math.round(ms / 1000);
	return s < 90 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

const gb = (bytes) => `${(bytes / 1024 ** 3).toFixed(1)} GB`;

/** Disk use of a folder in bytes (GNU du; -D follows a symlinked node_modules), or undefined. */
function diskUse(dir) {
	try {
		const out = childProcess.execFileSync('du', ['-skD', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
		return Number(out.split(/\s/)[0]) * 1024;
	} catch {
		return undefined;
	}
}

/** npm's cache of this repository's own npm: npm run gives it to scripts, else npm's default. */
function npmCache() {
	return process.env.npm_config_cache || path.join(os.homedir(), '.npm');
}

/**
 * Every folder the demo (and the `npm ci` before it) wrote to, each once: the n8n install, this
 * repository's node_modules, the npm cache the n8n install used (asked of npm with the install's
 * own settings: the user's cache, wherever it is set), this repository's npm cache when it is
 * another, and demo-output/.
 */
async function usedFolders(line, outputDir) {
	const installNpmCache = (await installCache(line)) || npmCache();
	const folders = [
		[`n8n ${line.version}`, line.dir],
		["this repository's node_modules", path.join(REPO_ROOT, 'node_modules')],
		["npm's cache (all npm use shares it)", installNpmCache],
		["this repository's npm cache", npmCache()],
		['the files the examples made', outputDir],
	];
	const seen = new Set();
	return folders.filter(([, dir]) => dir && !seen.has(path.resolve(dir)) && seen.add(path.resolve(dir)));
}

/** Is the n8n of this line installed (a finished install leaves its marker)? */
function n8nInstalled(line) {
	return fs.existsSync(path.join(line.dir, MARKER));
}

/** The line printed before anything starts: what this run will take, from measured figures. */
function printEstimate(line, exampleCount) {
	const run = EXAMPLES_RUN[line.major] ?? EXAMPLES_RUN[2];
	const examples = `the ${exampleCount} examples run (about ${run.minutes} min)`;
	if (n8nInstalled(line)) {
		console.log(dim(`n8n ${line.version} is installed already (${rel(line.dir)}): ${examples}.`));
		return;
	}
	const first = line.firstInstall;
	console.log(
		`First run on this machine: n8n ${line.version} is installed once (${first.time} and ${first.gb} GB ` +
			`measured on a 2-core machine, into ${rel(line.dir)}), then ${examples}.`,
	);
}

/** The lines printed at the end: this run's time, and the disk what the demo needs takes now. */
async function printUsage({ ms, host, line, outputDir }) {
	const installed = host && !host.reused ? `; installing n8n ${line.version} took ${minutes(host.ms)} of it` : `; n8n ${line.version} was installed already`;
	console.log(`Time: ${minutes(ms)} in all${installed}.`);
	const parts = (await usedFolders(line, outputDir)).map(([label, dir]) => ({ label, dir, bytes: diskUse(dir) }));
	const known = parts.filter((p) => p.bytes !== undefined);
	if (!known.length) return;
	const total = known.reduce((sum, p) => sum + p.bytes, 0);
	console.log(`Disk: ${known.map((p) => `${p.label} ${gb(p.bytes)} (${rel(p.dir)})`).join(', ')}: ${gb(total)} in all.`);
}

module.exports = { EXAMPLES_RUN, printEstimate, printUsage, usedFolders, diskUse, minutes };
