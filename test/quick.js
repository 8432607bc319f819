#!/usr/bin/env node
'use strict';
/*
 * The quick loop: the jest files that take a few seconds each, chosen by their measured time.
 *
 *   npm run test:quick             jest on the quick files (about a minute on the 2-core machine)
 *   node test/quick.js --list      the quick files, then the rest, each with its time
 *   node test/quick.js --record    test/quick-times.json from jest's own record of the last runs
 *
 * No jest file needs a real n8n (the e2e in test/e2e does): what makes one slow is a long simulator
 * run (poll matrices, fault rows that wait for real) or child processes (builds, npm). So the list
 * is chosen by time, never by name: a file is quick when its last run took at most QUICK_SECONDS.
 * Its time is jest's own (after every run jest records each file's duration, to order the next run:
 * its perf cache), else the one in test/quick-times.json (measured on the 2-core machine, refreshed
 * with --record), else the file is new and counts as quick. A file that grows slow leaves the list
 * after its next run; the full suite (`npx jest`, `npm test`) still runs every file.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const TIMES_FILE = path.join(__dirname, 'quick-times.json');
/** A jest file whose last run took longer than this is left to the full suite. */
const QUICK_SECONDS = 8;

/** The jest files of the main config (the 2.x line's config runs the same files again). */
function jestFiles() {
	const { TESTS } = require('./folder-map');
	return TESTS;
}

/** jest's perf cache of this checkout's main config: { 'test/x.test.js': seconds } (empty when jest never ran here). */
async function jestTimes() {
	try {
		const { readConfigs } = require('jest-config');
		const HasteMap = require('jest-haste-map').default;
		const { configs } = await readConfigs({ $0: 'jest', _: [] }, [ROOT]);
		const [config] = configs;
		const file = HasteMap.getStatic(config).getCacheFilePath(config.cacheDirectory, `perf-cache-${config.id}`);
		const cache = JSON.parse(fs.readFileSync(file, 'utf8'));
		return Object.fromEntries(Object.entries(cache).map(([abs, [, ms]]) => [path.relative(ROOT, abs).split(path.sep).join('/'), ms / 1000]));
	} catch {
		return {};
	}
}

function recordedTimes() {
	try {
		return JSON.parse(fs.readFileSync(TIMES_FILE, 'utf8')).seconds;
	} catch {
		return {};
	}
}

/**
 * Each file with its time and where that time comes from (jest's record here, else the recorded
 * one, else none: a new file), split at QUICK_SECONDS; each part by time.
 */
function classify(files, mine, recorded) {
	const timed = files.map((file) => {
		const [seconds, source] = file in mine ? [mine[file], 'jest'] : file in recorded ? [recorded[file], 'recorded'] : [undefined, 'new'];
		return { file, seconds, source, quick: seconds === undefined || seconds <= QUICK_SECONDS };
	});
	const byTime = (a, b) => (a.seconds ?? 0) - (b.seconds ?? 0) || a.file.localeCompare(b.file);
	return { quick: timed.filter((f) => f.quick).sort(byTime), slow: timed.filter((f) => !f.quick).sort(byTime) };
}

/** Every jest file of this checkout, split: { quick, slow }. */
async function split() {
	return classify(jestFiles(), await jestTimes(), recordedTimes());
}

/** test files given → { quick, slow } of them (folder-map prints the quick ones first). */
async function partition(testFiles) {
	const { quick, slow } = await split();
	const wanted = new Set(testFiles);
	return { quick: quick.filter((f) => wanted.has(f.file)).map((f) => f.file), slow: slow.filter((f) => wanted.has(f.file)).map((f) => f.file) };
}

const total = (list) => Math.round(list.reduce((sum, f) => sum + (f.seconds ?? 0), 0));

async function record() {
	const mine = await jestTimes();
	const files = jestFiles().filter((file) => file in mine);
	if (!files.length) throw new Error('jest has no record of a run in this checkout yet: run `npx jest` first');
	const seconds = Object.fromEntries(files.map((file) => [file, Math.round(mine[file] * 10) / 10]));
	const note = 'Each jest file\'s last run time (s), from jest\'s perf cache; test/quick.js uses it for a file jest has not run here. Refresh: node test/quick.js --record (after a full npx jest).';
	fs.writeFileSync(TIMES_FILE, `${JSON.stringify({ note, recordedAt: new Date().toISOString().slice(0, 10), seconds }, null, '\t')}\n`);
	console.log(`recorded ${files.length} files' times in ${path.relative(ROOT, TIMES_FILE)}`);
}

async function main(args) {
	if (args[0] === '--record') return record();
	const { quick, slow } = await split();
	if (args[0] === '--list') {
		const line = (f) => `${f.seconds === undefined ? '   new' : `${f.seconds.toFixed(1).padStart(5)}s`}  ${f.file}${f.source === 'recorded' ? '  (recorded time)' : ''}`;
		console.log(`quick (${quick.length} files, at most ${QUICK_SECONDS} s each, ${total(quick)} s in all):`);
		quick.forEach((f) => console.log(`  ${line(f)}`));
		console.log(`the rest (${slow.length} files, ${total(slow)} s in all; the full suite runs them):`);
		slow.forEach((f) => console.log(`  ${line(f)}`));
		return 0;
	}
	const started = Date.now();
	const fresh = quick.filter((f) => f.source === 'new').length;
	console.log(
		`test:quick: ${quick.length} of ${quick.length + slow.length} jest files, each at most ${QUICK_SECONDS} s in its last run` +
			`${fresh ? ` (${fresh} new, no time yet)` : ''}; ${slow.length} left to the full suite (node test/quick.js --list)`,
	);
	const jest = require.resolve('jest/bin/jest');
	const res = require('node:child_process').spawnSync(process.execPath, [jest, '--runTestsByPath', ...quick.map((f) => f.file), ...args], { cwd: ROOT, stdio: 'inherit' });
	console.log(`test:quick finished in ${((Date.now() - started) / 1000).toFixed(0)} s`);
	return res.status ?? 1;
}

module.exports = { QUICK_SECONDS, classify, split, partition };

if (require.main === module) {
	main(process.argv.slice(2)).then(
		(code) => (process.exitCode = code),
		(error) => {
			console.error(error.message);
			process.exitCode = 1;
		},
	);
}
