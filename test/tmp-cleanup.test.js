'use strict';
// A jest run leaves nothing in the temp folder: not when it passes, not when it is interrupted
// (Ctrl-C reaches jest and its workers, as from a terminal). Each case runs jest in a child process
// with TMPDIR at an empty folder of its own and looks at that folder afterwards.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const JEST = require.resolve('jest/bin/jest');

/** This run's own settings, which a jest started from a shell would not have. */
const OUTER = /^(N8N_USER_FOLDER|UAG_TEST_DIR|UAG_JEST_TMP|UAG_JEST_TMPDIR_BEFORE|JEST_WORKER_ID|N8N_LOG_LEVEL)$/;

function jest(args, env) {
	const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !OUTER.test(key)));
	// Its own process group: the signal goes to jest and its workers alike, as Ctrl-C does.
	const proc = spawn(process.execPath, [JEST, '--config', path.join(ROOT, 'jest.config.js'), ...args], {
		cwd: ROOT,
		env: { ...base, ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	let output = '';
	proc.stdout.on('data', (d) => (output += d));
	proc.stderr.on('data', (d) => (output += d));
	const done = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal, output })));
	return { proc, done };
}

let work;
beforeEach(() => {
	work = fs.mkdtempSync(path.join(os.tmpdir(), 'cleanup-'));
	fs.mkdirSync(path.join(work, 'tmp'));
});
afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

const env = () => ({ TMPDIR: path.join(work, 'tmp'), VERBOSE: '' });
// jest's cache would otherwise live in the temp folder under test.
const cacheArg = () => `--cacheDirectory=${path.join(work, 'cache')}`;

test('a passing run (harness, binary data on disk) leaves the temp folder empty', async () => {
	const { done } = jest([cacheArg(), 'test/check-once.test.js', 'test/hints.test.js'], env());
	const { code, output } = await done;
	expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
	expect(fs.readdirSync(path.join(work, 'tmp'))).toEqual([]);
}, 120000);

test('a run interrupted by Ctrl-C mid-test leaves the temp folder empty', async () => {
	const ready = path.join(work, 'ready');
	const { proc, done } = jest([cacheArg(), '--testMatch', '<rootDir>/test/harness/fixtures/*.fixture.js'], { ...env(), UAG_FIXTURE_READY: ready });
	// The fixture writes `ready` once its folders exist.
	await new Promise((resolve) => {
		const timer = setInterval(() => {
			if (fs.existsSync(ready) || proc.exitCode !== null) {
				clearInterval(timer);
				resolve();
			}
		}, 100);
	});
	if (!fs.existsSync(ready)) throw new Error(`the fixture never got ready:\n${(await done).output}`);
	expect(fs.readdirSync(path.join(work, 'tmp')).length).toBeGreaterThan(0);
	process.kill(-proc.pid, 'SIGINT');
	const { code, signal } = await done;
	expect(code === 130 || signal === 'SIGINT').toBe(true);
	expect(fs.readdirSync(path.join(work, 'tmp'))).toEqual([]);
}, 120000);

// Every other temporary folder of the tooling (real-n8n runners, demo, scan, bench) comes from
// test/n8n/tempdirs.js, which removes it at exit, on a failure and on Ctrl-C. Test files run under
// jest, whose temp folder is the run's root (removed as above).
test('the tooling makes temporary folders only through test/n8n/tempdirs.js (or inside jest\'s root)', () => {
	const ALLOWED = new Set([
		'test/n8n/tempdirs.js',
		'test/harness/env.js', // one per test file, removed by test/harness/after-env.js (outside jest: tempdirs)
		'test/harness/index.js', // inside the test file's folder
		'test/harness/global-setup.js', // the run's root, registered with tempdirs
	]);
	const found = [];
	const walk = (dir) => {
		for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
			const rel = path.posix.join(dir, entry.name);
			if (entry.isDirectory()) {
				if (!['node_modules', '.artifacts'].includes(entry.name) && rel !== 'test/lines/n8n-2') walk(rel);
			} else if (/\.(c|m)?js$/.test(entry.name) && !/\.test\.js$/.test(entry.name) && /mkdtemp/.test(fs.readFileSync(path.join(ROOT, rel), 'utf8')) && !ALLOWED.has(rel)) {
				found.push(rel);
			}
		}
	};
	for (const dir of ['test', 'scripts', 'bench']) walk(dir);
	expect(found).toEqual([]);
});
