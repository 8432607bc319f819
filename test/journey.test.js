'use strict';
// docs/ARCHITECTURE.md's "One Generate" says how many files the journey crosses and names the files
// of each step: both held to scripts/journey.js, which counts them in a real run (V8's coverage of
// Image → Generate through n8n-core against the simulator), so the page cannot drift from the code.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const section = fs.readFileSync(path.join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8').split('## One Generate')[1].split('\n## ')[0];

let found;
beforeAll(() => {
	// A script of its own, not a jest worker: its n8n user folder is removed when it exits (test/harness/env.js).
	const env = { ...process.env };
	delete env.JEST_WORKER_ID;
	const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts/journey.js'), '--json'], { cwd: ROOT, env, encoding: 'utf8', timeout: 120_000 });
	if (run.status !== 0) throw new Error(`scripts/journey.js failed:\n${run.stdout}${run.stderr}`);
	found = JSON.parse(run.stdout.trim().split('\n').pop());
}, 130_000);

test('the count ARCHITECTURE.md gives is the one a run measures', () => {
	expect(found.files).toBe(2);
	// The files crossed only: how many are loaded grows with every operation added, which says
	// nothing of this journey.
	const stated = /\*\*(\d+) files crossed\*\*/.exec(section);
	expect(stated && Number(stated[1])).toBe(found.crossed.length);
});

test('so does its count per layer', () => {
	const { layerOf, ORDER } = require('../scripts/journey');
	for (const layer of ORDER.filter((l) => l !== 'node' && l !== 'credentials')) {
		const count = found.crossed.filter((file) => layerOf(file) === layer).length;
		const stated = new RegExp(`(?<![\\w/])${layer.replace('/', '\\/')}\\s+(\\d+)`).exec(section);
		expect([layer, stated ? Number(stated[1]) : 'not stated']).toEqual([layer, count]);
	}
	expect(found.crossed.filter((file) => ['node', 'credentials'].includes(layerOf(file)))).toEqual([
		'credentials/UnifiedAiGatewayApi.credentials.ts',
		'nodes/UnifiedAiGateway/UnifiedAiGateway.node.ts',
	]);
});

test('every file a step of the journey names is crossed by the run, but the rows read as data and what only a failure runs', () => {
	const named = [...new Set([...section.matchAll(/`((?:actions|api|engine|params|pipeline|registry|transport)\/[\w/.]+\.ts|UnifiedAiGateway\.node\.ts)`/g)].map((m) => m[1]))];
	expect(named.length).toBeGreaterThan(20);
	const source = (file) => `nodes/UnifiedAiGateway/${file}`;
	// The page says so of each: the rows are read as data; a refusal and a failed read do not happen
	// here; the run defaults' type is data too (their words are built when the node loads).
	const loadedOnly = ['registry/imageModels.ts', 'pipeline/refusals.ts', 'engine/waiting/pollPolicy.ts', 'params/runDefaults.ts'];
	// Named as Video's journey, not this one's.
	const video = ['actions/video/generate.operation.ts', 'api/videos.ts'];
	const notCrossed = named.filter((file) => !loadedOnly.includes(file) && !video.includes(file) && !found.crossed.includes(source(file)));
	expect(notCrossed).toEqual([]);
	for (const file of loadedOnly) expect(found.notCrossed).toContain(source(file));
});
