'use strict';
// jest's globalSetup (both configs), once per run before any test file:
// - the suites load dist/, so a source edited since the last build is built first (one line says
//   so), or, with BUILD_CURRENT=check, the run stops naming it (test/build-current.js);
// - one temporary root for everything the run writes to the temp folder (TMPDIR points into it, so
//   the workers' os.tmpdir() is the root), removed by global-teardown.js, or at exit, Ctrl-C and
//   SIGTERM (test/n8n/tempdirs.js). A root left by a run that was killed outright (SIGKILL) is
//   removed by the next run: its name holds the jest process id.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { removeAtExit } = require('../n8n/tempdirs');
const { alive } = require('../locks');

const PREFIX = 'uag-jest-';

module.exports = () => {
	require('../build-current').ensureCurrent();
	const base = os.tmpdir();
	for (const name of fs.readdirSync(base)) {
		const pid = Number(new RegExp(`^${PREFIX}(\\d+)-`).exec(name)?.[1]);
		if (pid && pid !== process.pid && !alive(pid)) fs.rmSync(path.join(base, name), { recursive: true, force: true });
	}
	const root = removeAtExit(fs.mkdtempSync(path.join(base, `${PREFIX}${process.pid}-`)));
	process.env.UAG_JEST_TMP = root;
	process.env.UAG_JEST_TMPDIR_BEFORE = process.env.TMPDIR ?? '';
	process.env.TMPDIR = root;
};
