'use strict';
/*
 * jest's test environment under `npm run test:mutation` (Stryker's jest runner wraps it in the
 * initial run and for mutants it must watch for endless loops). Two things Stryker's jest runner
 * does not do, without which one mutant would cost a run of every file of the set:
 *
 * - Initial run (no mutant active): after each test file, which mutants its tests ran (Stryker's
 *   per-test coverage, the `__stryker__` context it shares with this environment) go to
 *   COVERAGE_FILE, one JSON line per file, with the milliseconds the file took; sequencer.js then
 *   runs only those files for a mutant, the quickest first.
 * - A mutant's run: the first failing test (or hook) ends it: every later test of the process is
 *   skipped, their files' hooks too (jest's `bail` cannot be set through Stryker). A mutant is
 *   killed by one failure; the tests after it would only cost time. A skipped file's afterAll
 *   (test/harness/after-env.js) does not run, so its temporary folder goes here: one left behind
 *   fails jest's global teardown, which Stryker takes for a crashed runner (a restart, the mutant
 *   run twice more and counted as a run error, not killed). A test that carries its file's
 *   beforeAll error is let through: jest reports it failed without running it.
 */
const fs = require('node:fs');
const path = require('node:path');
const { TestEnvironment } = require('jest-environment-node');

const ACTIVE = '__STRYKER_ACTIVE_MUTANT__';
const COVERAGE_FILE = '.mutation-coverage.jsonl';
/**
 * Mutant ids whose run has seen a failure (this process runs one mutant at a time). Emptied when a
 * jest run begins (sequencer.js, once per run): a mutant Stryker runs again in the same process
 * must not find its tests skipped by what its earlier run saw (four mutants of taskReads.ts were
 * reported survived with no test run, where a test fails on each by hand).
 */
const failed = new Set();

/** Stryker's id of a test: its describe blocks' names and its own, joined by spaces. */
function fullName(test) {
	const names = [];
	for (let block = test.parent; block?.parent; block = block.parent) names.unshift(block.name);
	return [...names, test.name].join(' ');
}

function skipAll(block) {
	for (const child of block.children) {
		if (child.type === 'describeBlock') skipAll(child);
		else child.mode = 'skip';
	}
}

class MutationEnvironment extends TestEnvironment {
	constructor(config, context) {
		super(config, context);
		this.rootDir = config.projectConfig.rootDir;
		this.testPath = context.testPath;
		this.testNames = new Set();
		this.started = Date.now();
	}

	async handleTestEvent(event, state) {
		const mutant = process.env[ACTIVE];
		if (mutant === undefined) {
			if (event.name === 'test_start') this.testNames.add(fullName(event.test));
			return;
		}
		if (event.name === 'run_start' && failed.has(mutant)) skipAll(state.rootDescribeBlock);
		// A test that already carries an error (its file's beforeAll failed: jest-circus puts that error
		// on every test under it) is not skipped: skipped, its error would not be reported, and the
		// mutant that broke the hook would count as survived.
		else if (event.name === 'test_start' && failed.has(mutant) && event.test.errors.length === 0) event.test.mode = 'skip';
		else if ((event.name === 'test_done' && event.test.errors.length > 0) || event.name === 'hook_failure') failed.add(mutant);
	}

	async teardown() {
		const perTest = this.global.__stryker__?.mutantCoverage?.perTest;
		if (process.env[ACTIVE] === undefined && perTest) {
			const mutants = new Set();
			for (const name of this.testNames) for (const id of Object.keys(perTest[name] ?? {})) mutants.add(id);
			const line = JSON.stringify({ file: this.testPath, ms: Date.now() - this.started, mutants: [...mutants] });
			fs.appendFileSync(path.join(this.rootDir, COVERAGE_FILE), `${line}\n`);
		}
		const folder = this.global.process?.env?.UAG_TEST_DIR;
		if (process.env[ACTIVE] !== undefined && folder) fs.rmSync(folder, { recursive: true, force: true });
		await super.teardown();
	}
}

module.exports = MutationEnvironment;
module.exports.COVERAGE_FILE = COVERAGE_FILE;
module.exports.ACTIVE = ACTIVE;
/** A jest run begins: no failure seen in it yet. */
module.exports.startRun = () => failed.clear();
