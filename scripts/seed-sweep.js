#!/usr/bin/env node
'use strict';
/*
 * Proven, not hoped: the tests under many seeds (test/seed.js), each run as CI runs it, so that a
 * test that leans on a lucky draw shows itself here and not on a red CI.
 *
 *   node scripts/seed-sweep.js                 the quick tests under 20 seeds, the whole jest suite of
 *                                              both n8n lines under 3
 *   node scripts/seed-sweep.js --quick 20 --full 0   only the quick sweep (--full 3: only …)
 *   … --first 101                             the seeds begin there (default 1: seeds 1, 2, 3, …)
 *
 * The quick files are chosen once, before the first seed (test/quick.js), so that every seed runs
 * the same files. Each run's failures keep its seed, printed with the command that replays it. The
 * last line: `seed-sweep quick_seeds=… quick_failed=… full_seeds=… full_failed=… failed=<seeds>`.
 */
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const JEST = require.resolve('jest/bin/jest', { paths: [ROOT] });

function option(args, name, fallback) {
	const at = args.indexOf(name);
	if (at < 0) return fallback;
	const value = Number(args[at + 1]);
	if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} takes a whole number, not ${args[at + 1]}`);
	return value;
}

function jest(seed, args) {
	const started = Date.now();
	const run = spawnSync(process.execPath, [JEST, ...args], {
		cwd: ROOT,
		env: { ...process.env, TEST_SEED: String(seed) },
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
	});
	const out = `${run.stdout}${run.stderr}`;
	const tests = /Tests:\s+(.*)/.exec(out)?.[1]?.trim() ?? 'no summary';
	return { ok: run.status === 0, tests, seconds: Math.round((Date.now() - started) / 1000), out };
}

async function main(args) {
	const quickSeeds = option(args, '--quick', 20);
	const fullSeeds = option(args, '--full', 3);
	const first = option(args, '--first', 1);
	const failed = [];
	let quickFailed = 0;
	let fullFailed = 0;
	if (quickSeeds > 0) {
		const { quick } = await require('../test/quick').split();
		const files = quick.map((f) => f.file);
		console.log(`quick: ${files.length} files under ${quickSeeds} seeds from ${first}`);
		for (let seed = first; seed < first + quickSeeds; seed++) {
			const run = jest(seed, ['--runTestsByPath', ...files]);
			console.log(`  seed ${seed}: ${run.ok ? 'passed' : 'FAILED'} (${run.tests}, ${run.seconds} s)`);
			if (!run.ok) {
				quickFailed++;
				failed.push(seed);
				console.log(run.out.split('\n').filter((l) => /●|test seed:/.test(l)).join('\n'));
			}
		}
	}
	const lines = [
		['1.x', []],
		['2.x', ['-c', 'test/lines/jest.n8n-2.config.js']],
	];
	for (let seed = first; seed < first + fullSeeds; seed++) {
		for (const [line, config] of lines) {
			const run = jest(seed, config);
			console.log(`  full, n8n ${line}, seed ${seed}: ${run.ok ? 'passed' : 'FAILED'} (${run.tests}, ${run.seconds} s)`);
			if (!run.ok) {
				fullFailed++;
				if (!failed.includes(seed)) failed.push(seed);
				console.log(run.out.split('\n').filter((l) => /●|test seed:/.test(l)).join('\n'));
			}
		}
	}
	console.log(
		`seed-sweep quick_seeds=${quickSeeds} quick_failed=${quickFailed} full_seeds=${fullSeeds} ` +
			`full_failed=${fullFailed} first_seed=${first} failed=${failed.join(',') || 'none'}`,
	);
	return failed.length === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
	(code) => (process.exitCode = code),
	(error) => {
		console.error(error.message);
		process.exitCode = 2;
	},
);
