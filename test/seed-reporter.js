'use strict';
// Prints the seed of a run that failed (test/seed.js), with the line that replays it: chance in the
// tests comes from it, so the same seed gives the same ids, pictures and draws.
const { testSeed } = require('./seed');

class SeedReporter {
	onRunComplete(_contexts, results) {
		if (results.numFailedTests === 0 && results.numRuntimeErrorTestSuites === 0) return;
		const failed = results.testResults.filter((r) => r.numFailingTests > 0 || r.testExecError).map((r) => r.testFilePath);
		const files = failed.map((file) => require('node:path').relative(process.cwd(), file)).join(' ');
		process.stderr.write(`\ntest seed: TEST_SEED=${testSeed()} (replay: TEST_SEED=${testSeed()} npx jest ${files})\n`);
	}
}

module.exports = SeedReporter;
