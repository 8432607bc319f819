'use strict';
// After the jest run: every test file removed its own folder (after-env.js), so no `uag-*` folder
// may be left in the run's root; one that is is named (and fails the run). Then the root goes, with
// what other programs put there (npm's and Node's caches when a test runs npm).
const fs = require('node:fs');

const { removeTempDir } = require('../n8n/tempdirs');

module.exports = async () => {
	const root = process.env.UAG_JEST_TMP;
	if (!root) return;
	const left = (fs.existsSync(root) ? fs.readdirSync(root) : []).filter((name) => name.startsWith('uag-'));
	removeTempDir(root);
	if (process.env.UAG_JEST_TMPDIR_BEFORE) process.env.TMPDIR = process.env.UAG_JEST_TMPDIR_BEFORE;
	else delete process.env.TMPDIR;
	if (left.length) throw new Error(`the tests left ${left.length} temporary folder(s) behind (removed now): ${left.join(', ')}`);
};
