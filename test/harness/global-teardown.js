'use strict';
// After the jest run: every test file removed its own folder (after-env.js), so the run's root must
// be empty; what is left is named (and fails the run), then the root goes.
const fs = require('node:fs');

const { removeTempDir } = require('../n8n/tempdirs');

module.exports = async () => {
	const root = process.env.UAG_JEST_TMP;
	if (!root) return;
	const left = fs.existsSync(root) ? fs.readdirSync(root) : [];
	removeTempDir(root);
	if (process.env.UAG_JEST_TMPDIR_BEFORE) process.env.TMPDIR = process.env.UAG_JEST_TMPDIR_BEFORE;
	else delete process.env.TMPDIR;
	if (left.length) throw new Error(`the tests left ${left.length} temporary file(s) behind (removed now): ${left.join(', ')}`);
};
