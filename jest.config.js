// Tests run against the built dist/ (what ships): `npm test` builds first, and globalSetup rebuilds
// when a source changed since (test/build-current.js), so a green run is a run of the current code.
// Output: totals and failures only (the summary reporter, n8n's logger silent); `VERBOSE=1` or
// `--verbose` gives every test's line and n8n's log lines at warn level.
const verbose = process.env.VERBOSE === '1' || process.argv.includes('--verbose');
if (verbose) process.env.VERBOSE = '1';

module.exports = {
	testEnvironment: 'node',
	testMatch: ['<rootDir>/test/**/*.test.js'],
	// Builds dist/ when stale; one temporary root per run (TMPDIR), removed at the end, on a
	// failure and on Ctrl-C (global-teardown.js, test/n8n/tempdirs.js).
	globalSetup: '<rootDir>/test/harness/global-setup.js',
	globalTeardown: '<rootDir>/test/harness/global-teardown.js',
	setupFiles: ['<rootDir>/test/harness/env.js'],
	setupFilesAfterEnv: ['<rootDir>/test/harness/after-env.js'],
	// The side folders' own installs (n8n 2.x line, n8n's scanner) and the n8n host folders (two
	// package.json files of one name, which jest's module map would report as a collision) are not
	// modules of the tests, nor is Stryker's sandbox (`npm run test:mutation`, a copy of the checkout).
	modulePathIgnorePatterns: ['<rootDir>/test/lines/', '<rootDir>/test/scan/', '<rootDir>/test/n8n/hosts/', '<rootDir>/.stryker-tmp/'],
	// The seed of chance in the tests is printed with a failure, to replay it (test/seed.js).
	reporters: [...(verbose ? ['default'] : [['summary', { summaryThreshold: 0 }]]), '<rootDir>/test/seed-reporter.js'],
	testTimeout: 30000,
	maxWorkers: 2,
};
