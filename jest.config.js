// Tests run against the built dist/ (what ships): `npm test` builds first.
module.exports = {
	testEnvironment: 'node',
	testMatch: ['<rootDir>/test/**/*.test.js'],
	setupFiles: ['<rootDir>/test/harness/env.js'],
	testTimeout: 30000,
	maxWorkers: 2,
	// n8n-core's DI container keeps a timer alive after the first execution context; nothing of ours does.
	forceExit: true,
};
