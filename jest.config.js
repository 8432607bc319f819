// Tests run against the built dist/ (what ships): `npm test` builds first, and globalSetup rebuilds
// when a source changed since (test/build-current.js), so a green run is a run of the current code.
module.exports = {
	testEnvironment: 'node',
	testMatch: ['<rootDir>/test/**/*.test.js'],
	globalSetup: '<rootDir>/test/harness/global-setup.js',
	setupFiles: ['<rootDir>/test/harness/env.js'],
	// The side folders' own installs (n8n 2.x line, n8n's scanner) stay invisible to this run.
	modulePathIgnorePatterns: ['<rootDir>/test/lines/', '<rootDir>/test/scan/'],
	testTimeout: 30000,
	maxWorkers: 2,
};
