#!/usr/bin/env node
'use strict';
/*
 * The files one Generate crosses (docs/ARCHITECTURE.md, "One Generate"), counted instead of claimed.
 *
 *   node scripts/journey.js          the files, by layer, and how many
 *   node scripts/journey.js --json   { crossed: [source files], loaded: n, notCrossed, items, files }
 *
 * How: Image → Generate with Wait for Result on, an async model (gpt-image-2-async: a task), two
 * items, the files downloaded, run through n8n-core's execution code (test/harness) against the
 * simulator on loopback, under V8's precise coverage (node:inspector, call counts per function).
 * The node and every module are loaded and a first run is made before the counters are reset, so
 * what is counted is the second run alone: a file is crossed when one of its functions ran (its
 * module's top level, run when it was loaded, does not count). Loaded: the dist/ files the node's
 * imports load at all. test/journey.test.js holds ARCHITECTURE.md's count to this one.
 */
const inspector = require('node:inspector');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist');

const post = (session, method, params = {}) =>
	new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));

/** The layer of a source file, as test/layers.test.js orders them. */
function layerOf(source) {
	const rel = source.replace(/^nodes\/UnifiedAiGateway\//, '');
	if (rel === source) return source.startsWith('credentials/') ? 'credentials' : 'trigger';
	const parts = rel.split('/');
	if (parts.length === 1) return 'node';
	if (parts[0] === 'engine' && parts.length > 2) return `engine/${parts[1]}`;
	if (parts[0] === 'api' && parts.length > 2) return `api/${parts[1]}`;
	return parts[0];
}

const ORDER = ['transport', 'registry', 'api', 'api/tasks', 'engine', 'engine/files', 'engine/waiting', 'engine/spend', 'engine/running', 'params', 'pipeline', 'actions', 'node', 'credentials'];

/** The dist/ modules among V8's scripts, as their source files. */
function sourcesOf(scripts) {
	const sources = [];
	for (const script of scripts) {
		if (!script.url.startsWith('file://')) continue;
		const file = decodeURIComponent(new URL(script.url).pathname);
		if (file.startsWith(`${DIST}${path.sep}`) && file.endsWith('.js')) sources.push(path.relative(DIST, file).split(path.sep).join('/').replace(/\.js$/, '.ts'));
	}
	return sources.sort();
}

async function measure() {
	const session = new inspector.Session();
	session.connect();
	await post(session, 'Profiler.enable');
	await post(session, 'Profiler.startPreciseCoverage', { callCount: true, detailed: true });

	require('../test/build-current').ensureCurrent();
	require('../test/harness/env');
	const { startSimulator } = require('../test/simulator');
	const { runNode, loadNode } = require('../test/harness');
	const sim = await startSimulator({ apiKey: 'sk-journey' });
	const credentials = { baseUrl: `${sim.mainUrl}/v1`, altBaseUrl: sim.altUrl, apiKey: 'sk-journey' };
	sim.scenario('*', { durationMs: 300 });
	const generate = {
		parameters: {
			resource: 'image',
			operation: 'generate',
			modelId: { __rl: true, mode: 'list', value: 'gpt-image-2-async' },
			prompt: '={{ $json.prompt }}',
			waiting: { pollIntervalSeconds: 0.1 },
		},
		credentials,
		items: [{ json: { prompt: 'a red bicycle' } }, { json: { prompt: 'a blue boat' } }],
	};
	try {
		loadNode('unifiedAiGateway');
		const first = await runNode(generate);
		if (first.error) throw first.error;
		// Taking the coverage resets the counters: what the next take reports ran in the measured run.
		const loaded = sourcesOf((await post(session, 'Profiler.takePreciseCoverage')).result);
		const result = await runNode(generate);
		const ran = (await post(session, 'Profiler.takePreciseCoverage')).result;
		if (result.error) throw result.error;
		// A module's top level (the range from offset 0) ran when it was loaded; any other function that ran is this run's.
		const crossed = sourcesOf(ran.filter((script) => script.functions.some((fn) => fn.ranges[0].startOffset > 0 && fn.ranges[0].count > 0)));
		const files = result.items.filter((item) => item.binary?.data).length;
		return { crossed, loaded: loaded.length, notCrossed: loaded.filter((source) => !crossed.includes(source)), items: result.items.length, files };
	} finally {
		await post(session, 'Profiler.stopPreciseCoverage');
		session.disconnect();
		await sim.close();
	}
}

module.exports = { measure, layerOf, ORDER };

if (require.main === module) {
	measure()
		.then((found) => {
			if (process.argv.includes('--json')) {
				console.log(JSON.stringify(found));
				return;
			}
			console.log(`Image → Generate, Wait for Result on, gpt-image-2-async, ${found.items} items, ${found.files} files downloaded:`);
			const byLayer = new Map();
			for (const source of found.crossed) byLayer.set(layerOf(source), [...(byLayer.get(layerOf(source)) ?? []), source]);
			const layers = [...byLayer.keys()].sort((a, b) => (ORDER.indexOf(a) + 1 || 99) - (ORDER.indexOf(b) + 1 || 99));
			const short = (source) => source.replace(/^nodes\/UnifiedAiGateway\//, '').replace(/\.ts$/, '');
			for (const layer of layers) console.log(`  ${layer} (${byLayer.get(layer).length}): ${byLayer.get(layer).map((s) => short(s).replace(`${layer}/`, '')).join(', ')}`);
			console.log(`Loaded, not crossed (${found.notCrossed.length}): ${found.notCrossed.map(short).join(', ')}`);
			console.log(`${found.crossed.length} files crossed (code of theirs ran) of the ${found.loaded} dist/ files loaded`);
		})
		.catch((error) => {
			console.error(error);
			process.exitCode = 1;
		});
}
