#!/usr/bin/env node
'use strict';
/*
 * `npm run test:e2e:busy`: the e2e of both n8n lines, one after the other, while one busy loop per
 * core keeps every core at 100 % (docs/DEVELOPMENT.md, "The e2e on busy cores"). A runner that calls
 * a webhook before n8n has registered it, or a check that assumes a quiet machine, fails here first:
 * n8n starts, imports and publishes at a fraction of its idle speed.
 *
 *   npm run test:e2e:busy [-- <name-filter> …]   (the filters go to test/e2e/run-e2e.js)
 *
 * The loops are child processes of this one, stopped when it ends, fails or is interrupted.
 * Prints each line's minutes and the load average at its end; exit 1 if either line failed.
 */
const { spawn, spawnSync } = require('node:child_process');
const os = require('node:os');
const path = require('node:path');

const { DEFAULT_VERSION, NEWEST_2X } = require('../n8n/lines');

const loops = [];
function stopLoops() {
	for (const loop of loops.splice(0)) loop.kill('SIGKILL');
}
process.on('exit', stopLoops);
for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, () => {
		stopLoops();
		process.exit(130);
	});
}

const cores = os.availableParallelism?.() ?? os.cpus().length;
for (let i = 0; i < cores; i++) loops.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
console.log(`${cores} busy loop(s) started (one per core); load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);

const results = [];
for (const version of [DEFAULT_VERSION, NEWEST_2X]) {
	const started = Date.now();
	const run = spawnSync(process.execPath, [path.join(__dirname, 'run-e2e.js'), ...process.argv.slice(2)], {
		stdio: 'inherit',
		env: { ...process.env, N8N_VERSION: version },
	});
	const minutes = ((Date.now() - started) / 60000).toFixed(1);
	results.push({ version, ok: run.status === 0, line: `e2e on n8n ${version}: ${run.status === 0 ? 'passed' : `FAILED (exit ${run.status ?? run.signal})`} in ${minutes} min, load average at its end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}` });
}
stopLoops();
console.log(`\nWith ${cores} busy loop(s) beside them:`);
for (const { line } of results) console.log(`  ${line}`);
if (results.some((r) => !r.ok)) process.exitCode = 1;
