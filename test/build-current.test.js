'use strict';
// Green means current (test/build-current.js): a source edited after the last build makes the next
// test run rebuild, or, with BUILD_CURRENT=check, stop naming the file. Everything that edits
// files here works on a copy in a temp folder: the repository is only read.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ensureCurrent, buildState, beginBuild, endBuild, SOURCE_DIRS, SOURCE_FILES, STAMP } = require('./build-current');

const ROOT = path.resolve(__dirname, '..');
const SCRIPT = path.join(__dirname, 'build-current.js');

let dir;
beforeEach(() => {
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'build-current-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const write = (rel, text) => {
	fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
	fs.writeFileSync(path.join(dir, rel), text);
};
const builds = () => (fs.existsSync(path.join(dir, 'dist/builds')) ? fs.readFileSync(path.join(dir, 'dist/builds'), 'utf8').length : 0);

/** A package whose build is this repository's build around a stand-in for tsc and gulp (it counts builds). */
function fakePackage({ failing = false } = {}) {
	const step = failing ? 'node -e "console.error(\'error TS2304: a stand-in compile error\'); process.exit(2)"' : 'node -e "require(\'fs\').appendFileSync(\'dist/builds\', \'x\')"';
	write('package.json', JSON.stringify({ name: 'copy', private: true, scripts: { build: `node ${JSON.stringify(SCRIPT)} --begin --root . && ${step} && node ${JSON.stringify(SCRIPT)} --end --root .` } }));
	write('nodes/Gateway/Gateway.node.ts', 'export const a = 1;\n');
	write('nodes/Gateway/Gateway.node.json', '{"node": "gateway"}\n');
	write('nodes/Gateway/__schema__/v1.0.0/image/generate.json', '{"type": "object"}\n');
	write('credentials/Api.credentials.ts', 'export const b = 2;\n');
	write('icons/gateway.svg', '<svg/>\n');
	write('tsconfig.json', '{}\n');
	write('gulpfile.js', '// copies\n');
}

function run(options = {}) {
	const lines = [];
	const result = ensureCurrent({ root: dir, mode: 'rebuild', log: (line) => lines.push(line), ...options });
	return { ...result, lines };
}

describe('a source edit without a rebuild', () => {
	test('never built: the first run builds, says so in one line, and stamps dist/', () => {
		fakePackage();
		expect(buildState(dir)).toMatchObject({ current: false, reason: expect.stringMatching(/no build stamp/) });
		const first = run();
		expect(first.rebuilt).toBe(true);
		expect(first.lines).toEqual([expect.stringMatching(/^dist\/ has no build stamp .*: running npm run build$/)]);
		expect(builds()).toBe(1);
		expect(buildState(dir).current).toBe(true);
		expect(run()).toMatchObject({ rebuilt: false, lines: [] });
		expect(builds()).toBe(1);
	});

	test.each([
		['a TypeScript source edited', 'nodes/Gateway/Gateway.node.ts', () => write('nodes/Gateway/Gateway.node.ts', 'export const a = 2;\n')],
		['a credential edited', 'credentials/Api.credentials.ts', () => write('credentials/Api.credentials.ts', 'export const b = 3;\n')],
		['an output schema added (gulp copies it)', 'nodes/Gateway/__schema__/v1.0.0/image/edit.json', () => write('nodes/Gateway/__schema__/v1.0.0/image/edit.json', '{}\n')],
		['a codex file edited', 'nodes/Gateway/Gateway.node.json', () => write('nodes/Gateway/Gateway.node.json', '{"node": "renamed"}\n')],
		['an icon removed', 'icons/gateway.svg', () => fs.rmSync(path.join(dir, 'icons/gateway.svg'))],
		['tsconfig.json edited', 'tsconfig.json', () => write('tsconfig.json', '{"compilerOptions": {}}\n')],
		['gulpfile.js edited', 'gulpfile.js', () => write('gulpfile.js', '// copies more\n')],
	])('%s: the next run names it and rebuilds once', (_what, file, change) => {
		fakePackage();
		run();
		change();
		expect(buildState(dir)).toMatchObject({ current: false, changed: [file] });
		const next = run();
		expect(next).toMatchObject({ rebuilt: true, changed: [file] });
		expect(next.lines).toEqual([`dist/ is older than the sources (changed since the last build: ${file}): running npm run build`]);
		expect(builds()).toBe(2);
		expect(run().rebuilt).toBe(false);
	});

	test('a touch that leaves the bytes alone rebuilds nothing (compared by content, not time)', () => {
		fakePackage();
		run();
		const file = path.join(dir, 'nodes/Gateway/Gateway.node.ts');
		const later = new Date(Date.now() + 60_000);
		fs.utimesSync(file, later, later);
		expect(run().rebuilt).toBe(false);
		expect(builds()).toBe(1);
	});

	test('BUILD_CURRENT=check: a stale dist/ stops the run naming the file, and nothing is built', () => {
		fakePackage();
		run();
		write('nodes/Gateway/Gateway.node.ts', 'export const a = 3;\n');
		expect(() => ensureCurrent({ root: dir, mode: 'check' })).toThrow(
			'dist/ is older than the sources (changed since the last build: nodes/Gateway/Gateway.node.ts): run npm run build (BUILD_CURRENT=check refuses to rebuild)',
		);
		expect(builds()).toBe(1);
	});

	test('a build that fails leaves no stamp: the run stops with the compiler output, and so does the next', () => {
		fakePackage({ failing: true });
		expect(() => run()).toThrow(/npm run build failed \(exit \d+\), so dist\/ is not current:[\s\S]*a stand-in compile error/);
		expect(fs.existsSync(path.join(dir, STAMP))).toBe(false);
		expect(() => run()).toThrow(/a stand-in compile error/);
	});

	test('a lock left by a run that was killed mid-build is taken over, not waited on', () => {
		fakePackage();
		const gone = require('node:child_process').spawnSync(process.execPath, ['-e', '0']).pid;
		write('dist/.build-lock/pid', String(gone));
		expect(run()).toMatchObject({ rebuilt: true });
		expect(fs.existsSync(path.join(dir, 'dist/.build-lock'))).toBe(false);
	});

	test('an edit made while the build runs leaves dist/ stale (the stamp holds the sources the build began with)', () => {
		fakePackage();
		beginBuild(dir);
		write('nodes/Gateway/Gateway.node.ts', 'export const a = 4;\n');
		endBuild(dir);
		expect(buildState(dir)).toMatchObject({ current: false, changed: ['nodes/Gateway/Gateway.node.ts'] });
	});
});

describe('a file moved or deleted', () => {
	test('the build removes what it built from it: dist/ keeps no module the sources no longer have', () => {
		fakePackage();
		run();
		// What an earlier build left from a file since moved (nodes/Gateway/old.ts → nodes/Gateway/sub/old.ts).
		write('dist/nodes/Gateway/old.js', 'exports.a = 1;\n');
		write('dist/nodes/Gateway/gone/deep.js', 'exports.b = 1;\n');
		write('dist/nodes/Gateway/Gateway.node.js', 'exports.a = 1;\n');
		write('dist/nodes/Gateway/Gateway.node.json', '{}\n');
		write('dist/nodes/Gateway/__schema__/v1.0.0/image/old.json', '{}\n');
		write('dist/icons/gateway.svg', '<svg/>\n');
		write('nodes/Gateway/sub/old.ts', 'export const a = 1;\n');
		run();
		const exists = (rel) => fs.existsSync(path.join(dir, rel));
		expect(['dist/nodes/Gateway/old.js', 'dist/nodes/Gateway/gone', 'dist/nodes/Gateway/__schema__/v1.0.0/image/old.json'].filter(exists)).toEqual([]);
		expect(['dist/nodes/Gateway/Gateway.node.js', 'dist/nodes/Gateway/Gateway.node.json', 'dist/icons/gateway.svg', 'dist/builds'].filter(exists)).toHaveLength(4);
	});
});

describe('this repository', () => {
	test('the stamp the build wrote covers every source: each file of nodes/, credentials/, icons/, tsconfig.json, gulpfile.js', () => {
		// jest's globalSetup has made dist/ current before this file ran.
		expect(buildState(ROOT)).toMatchObject({ current: true });
		const stamp = JSON.parse(fs.readFileSync(path.join(ROOT, STAMP), 'utf8'));
		const files = Object.keys(stamp.files);
		for (const dirName of SOURCE_DIRS) expect(files.some((f) => f.startsWith(`${dirName}/`))).toBe(true);
		for (const file of SOURCE_FILES) expect(files).toContain(file);
		expect(files).toContain('nodes/UnifiedAiGateway/UnifiedAiGateway.node.ts');
		expect(files.some((f) => /__schema__\/.+\.json$/.test(f))).toBe(true);
		expect(files.some((f) => /^icons\/.+\.svg$/.test(f))).toBe(true);
	});

	test("a copy of the real sources, stamped, then one of them edited: the check names that file", () => {
		for (const rel of [...SOURCE_DIRS, ...SOURCE_FILES]) {
			if (fs.existsSync(path.join(ROOT, rel))) fs.cpSync(path.join(ROOT, rel), path.join(dir, rel), { recursive: true });
		}
		beginBuild(dir);
		endBuild(dir);
		expect(buildState(dir).current).toBe(true);
		const file = 'nodes/UnifiedAiGateway/params/registryRules.ts';
		fs.appendFileSync(path.join(dir, file), '// edited\n');
		expect(buildState(dir)).toMatchObject({ current: false, changed: [file] });
	});

	test('jest (both lines) and every real-n8n runner started with node check dist/ first', () => {
		expect(require('../jest.config').globalSetup).toBe('<rootDir>/test/harness/global-setup.js');
		expect(require('./lines/jest.n8n-2.config').globalSetup).toBe('<rootDir>/test/harness/global-setup.js');
		const runners = ['test/e2e/run-e2e.js', 'test/queue/run-queue.js', 'test/ui/run-ui.js', 'bench/run.js', 'bench/n8n/index.js', 'scripts/demo/index.js', 'scripts/dev/index.js'];
		for (const file of runners) expect([file, fs.readFileSync(path.join(ROOT, file), 'utf8')]).toEqual([file, expect.stringMatching(/build-current'\)\.ensureCurrent\(/)]);
		// The lifecycle checks, the install by hand and lifecycle.js start through run-e2e's runAsScript, which checks.
		for (const file of ['test/e2e/stop-keeps-ids.js', 'test/e2e/restart-resumes.js', 'test/e2e/kill-keeps-receipts.js', 'test/e2e/lifecycle.js', 'test/e2e/install-by-hand.js']) {
			expect([file, fs.readFileSync(path.join(ROOT, file), 'utf8')]).toEqual([file, expect.stringMatching(/(e2e|require\('\.\/run-e2e'\))\.runAsScript\(/)]);
		}
		expect(require('../package.json').scripts.build).toMatch(/^node test\/build-current\.js --begin && .* && node test\/build-current\.js --end$/);
	});
});
