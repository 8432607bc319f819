'use strict';
// test/n8n/tempdirs.js: a runner's temporary folders go when the process ends, however it ends:
// a normal exit, an uncaught error, Ctrl-C (SIGINT) or SIGTERM, with or without the runner's own
// signal handler. Each case is a child process that makes a folder, says where, and is ended.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const HELPER = path.join(__dirname, 'n8n', 'tempdirs.js');

/** Runs `body` in a child after `const dir = tempDir('uag-tempdirs-test-')`; resolves { dir, code, signal }. */
function child(body, { signal } = {}) {
	const script = `const { tempDir } = require(${JSON.stringify(HELPER)}); const dir = tempDir('uag-tempdirs-test-'${body.includes('keep') ? ', { keep: true }' : ''}); console.log(dir); ${body}`;
	return new Promise((resolve, reject) => {
		const proc = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
		let out = '';
		let err = '';
		proc.stderr.on('data', (d) => (err += d));
		proc.stdout.on('data', (d) => {
			out += d;
			// The folder exists once its name is printed: now the signal.
			if (signal && out.includes('\n')) proc.kill(signal);
		});
		proc.on('error', reject);
		proc.on('exit', (code, sig) => resolve({ dir: out.split('\n')[0].trim(), code, signal: sig, stderr: err }));
	});
}

const WAIT = 'setInterval(() => {}, 1000);';

test('a normal exit removes the folder', async () => {
	const r = await child('');
	expect(r.code).toBe(0);
	expect(r.dir).toMatch(/uag-tempdirs-test-/);
	expect(fs.existsSync(r.dir)).toBe(false);
});

test('an uncaught error removes the folder', async () => {
	const r = await child("throw new Error('boom');");
	expect(r.code).toBe(1);
	expect(fs.existsSync(r.dir)).toBe(false);
});

test.each([['SIGINT', 130], ['SIGTERM', 143]])('%s with no handler of the runner: the folder goes, exit %s', async (signal, code) => {
	const r = await child(WAIT, { signal });
	expect(r.code).toBe(code);
	expect(fs.existsSync(r.dir)).toBe(false);
});

test("Ctrl-C with the runner's own handler: the runner decides when to exit, the folder goes", async () => {
	const r = await child(`process.on('SIGINT', () => setTimeout(() => { console.log('runner stopped'); process.exit(130); }, 50)); ${WAIT}`, { signal: 'SIGINT' });
	expect(r.code).toBe(130);
	expect(fs.existsSync(r.dir)).toBe(false);
});

test('keep: the folder stays (E2E_KEEP=1)', async () => {
	const r = await child('// keep');
	try {
		expect(fs.existsSync(r.dir)).toBe(true);
	} finally {
		fs.rmSync(r.dir, { recursive: true, force: true });
	}
});
