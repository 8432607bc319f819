'use strict';
// n8n-core writes its settings under N8N_USER_FOLDER at first use: keep tests out of $HOME, in a
// folder of their own. Under jest that is one folder per test file inside the run's temporary root
// (test/harness/global-setup.js), removed after the file (test/harness/after-env.js); elsewhere
// (bench/run.js), removed at exit.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

if (!process.env.N8N_USER_FOLDER) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uag-test-'));
	if (!process.env.JEST_WORKER_ID) require('../n8n/tempdirs').removeAtExit(dir);
	process.env.UAG_TEST_DIR = dir;
	process.env.N8N_USER_FOLDER = dir;
}
process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS = 'false';
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
// The node logs every created task id at info level (its trail after Stop) and warns of what it
// refuses; tests and the bench read those lines through a captured logger, not on the console. n8n's
// console logger stays quiet unless asked (VERBOSE=1, or jest --verbose): a passing run reads as one.
process.env.N8N_LOG_LEVEL ??= process.env.VERBOSE === '1' ? 'warn' : 'silent';
