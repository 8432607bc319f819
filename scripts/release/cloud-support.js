#!/usr/bin/env node
'use strict';
// `n8n-node cloud-support` prints whether the package is eligible for n8n Cloud verification
// (strict mode on, eslint.config.mjs the CLI's default), but exits 0 either way: this runs it and
// fails unless it says eligible, so `npm test` catches a changed config or strict mode turned off.
// Its full answer is printed when it is not eligible, or with VERBOSE=1; else one line.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'node_modules', '.bin', 'n8n-node');

const result = spawnSync(BIN, ['cloud-support'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
const text = `${result.stdout}${result.stderr}`.replace(/\u001b\[[0-9;]*m/g, '');
const eligible = /Status:\s*eligible for n8n Cloud verification/.test(text);
if (result.status !== 0 || !eligible || process.env.VERBOSE === '1') process.stdout.write(text);
if (result.status !== 0 || !eligible) {
	process.stderr.write('n8n-node cloud-support: NOT eligible (eslint.config.mjs must be the CLI default and package.json n8n.strict true)\n');
	process.exit(1);
}
process.stdout.write('n8n-node cloud-support: eligible (strict mode, the CLI\'s default ESLint config)\n');
