'use strict';
// jest's test sequencer under `npm run test:mutation`: for a mutant, only the files whose tests ran
// its code in Stryker's initial run (environment.js wrote them), the quickest there first
// (environment.js ends the run at the first failure: a killed mutant costs about its quickest file). A mutant no file recorded (run while a file loads, or by a
// hook) gets every file, as Stryker would run it.
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const { ACTIVE, COVERAGE_FILE, startRun } = require('./environment');

let cached = { key: '', files: new Map(), ms: new Map() };

/** mutant id → the test files that ran it, and each file's time in the initial run (re-read when the record changes). */
function coverage(rootDir) {
	const file = path.join(rootDir, COVERAGE_FILE);
	const stat = fs.statSync(file, { throwIfNoEntry: false });
	const key = stat ? `${stat.size}:${stat.mtimeMs}` : '';
	if (key !== cached.key) {
		const files = new Map();
		const ms = new Map();
		const lines = stat ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
		for (const { file: testFile, ms: took, mutants } of lines.map((line) => JSON.parse(line))) {
			ms.set(testFile, took);
			for (const id of mutants) files.set(id, (files.get(id) ?? new Set()).add(testFile));
		}
		cached = { key, files, ms };
	}
	return cached;
}

class MutationSequencer extends Sequencer {
	sort(tests) {
		// jest sorts once per run: with Stryker, once per mutant run.
		startRun();
		const mutant = process.env[ACTIVE];
		if (mutant === undefined || tests.length === 0) return super.sort(tests);
		const { files: byMutant, ms } = coverage(tests[0].context.config.rootDir);
		const files = byMutant.get(mutant);
		const chosen = files ? tests.filter((test) => files.has(test.path)) : tests;
		const took = (test) => ms.get(test.path) ?? Number.MAX_SAFE_INTEGER;
		return [...chosen].sort((a, b) => took(a) - took(b));
	}
}

module.exports = MutationSequencer;
