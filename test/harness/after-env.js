'use strict';
// After each test file: its own temporary folder (test/harness/env.js: n8n's user folder, the binary
// data the harness stored) goes, so a long run does not pile up files until its end.
const fs = require('node:fs');

afterAll(() => {
	if (process.env.UAG_TEST_DIR) fs.rmSync(process.env.UAG_TEST_DIR, { recursive: true, force: true });
});
