// Tests run against the built dist/ (what ships): `npm test` builds first.
module.exports = {
	testEnvironment: 'node',
	testMatch: ['<rootDir>/test/**/*.test.js'],
	setupFiles: ['<rootDir>/test/harness/env.js'],
	testTimeout: 30000,
	maxWorkers: 2,
};
