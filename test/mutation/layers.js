'use strict';
// The layers `npm run test:mutation` mutates (their built JavaScript under dist/), each with the
// jest files aimed at it (test/README.md "Source folder → tests", and the tests that hold a table of
// the layer to its rows), in the order run.js runs them: the small layers first.
const LAYERS = {
	'engine/spend': ['spend', 'spend-summary', 'spend-guard', 'cost', 'video/money', 'money/balance', 'money/builds', 'money/charges', 'money/prices'],
	'engine/waiting': ['waiting-parts', 'waiting-reads', 'waiting-schedule', 'engine', 'poll-schedule', 'waitPolicy', 'poll-floor', 'check-once', 'execution-limit', 'faults/poll', 'parameter-defaults', 'trigger'],
	params: ['params-inputs', 'params-binary-input', 'params-fields', 'params-registry-fields', 'params-registry-rules', 'params-additional-body', 'params-download-options', 'expression-input', 'where-features-meet', 'parameter-names', 'parameter-defaults', 'image/refusals', 'video/refusals', 'image/description', 'file', 'spend', 'waitPolicy', 'image/edit'],
	registry: ['registry-rows', 'registry-prices', 'registry-limits', 'registry-models', 'models-today', 'model-rows', 'parameter-names', 'parameter-defaults', 'conformance/conformance', 'image/refusals', 'video/refusals', 'cost'],
	transport: [
		'transport-parts',
		'transport-hops',
		'transport-request',
		'transport-addresses',
		'transport-answers',
		'node-errors',
		'gateway-errors',
		'faults/submit',
		'faults/poll',
		'faults/downloads',
		'faults/redirects-keys',
		'faults/relay',
		'faults/hostile-answers',
		'faults/addresses',
		'faults/tls',
		'base-url-rule',
		'foundation',
		'keys',
		'submits',
	],
};

const distGlob = (layer) => `dist/nodes/UnifiedAiGateway/${layer}/**/*.js`;

/**
 * The jest files of a layer's run. `quick` (`npm run test:mutation -- --quick …`): only those the
 * quick loop runs (test/quick.js: at most QUICK_SECONDS each, by the times recorded in
 * test/quick-times.json, a new file counting as quick), or with `--quick=N` those of at most N
 * seconds: for a layer whose full set would take hours (faults/poll alone is two minutes, and a
 * surviving mutant runs every file that reached it). A mutant such a run kills, the full set
 * kills too: its score is a lower bound, and run.js says which files were measured so.
 */
function testsOf(layer, quick) {
	const files = LAYERS[layer];
	if (!quick) return files;
	const { QUICK_SECONDS } = require('../quick');
	const { seconds } = require('../quick-times.json');
	const within = quick === true ? QUICK_SECONDS : quick;
	return files.filter((file) => !(seconds[`test/${file}.test.js`] > within));
}

/**
 * What one Stryker run mutates: a layer (`params`), or one source file of it (`params/inputs`, a
 * unit: a run that ends within the hour where a whole layer takes many, its report kept beside the
 * layer's), or several files of one layer joined by `+`. `{ layer, unit, units, name, mutate }`,
 * name being the reports' folder, units the source files; throws naming the layers when `target`
 * is neither.
 */
function targetOf(target) {
	const clean = target.replace(/\.(ts|js)$/, '').replace(/^(nodes|dist\/nodes)\/UnifiedAiGateway\//, '');
	if (LAYERS[clean]) return { layer: clean, unit: undefined, name: clean.replace(/\//g, '-'), mutate: distGlob(clean) };
	const layer = Object.keys(LAYERS).find((l) => clean.startsWith(`${l}/`));
	if (!layer) throw new Error(`no layer or file ${target}; the layers are ${Object.keys(LAYERS).join(', ')} (a file: <layer>/<file>, e.g. params/inputs; several: params/inputs+binaryInput)`);
	// Several files of one layer (`params/inputs+binaryInput`): one run, so one initial test run of the layer's tests for all of them.
	const files = clean.slice(layer.length + 1).split('+');
	const mutate = `dist/nodes/UnifiedAiGateway/${layer}/${files.length > 1 ? `{${files.join(',')}}` : files[0]}.js`;
	return { layer, unit: clean, units: files.map((file) => `${layer}/${file}`), name: clean.replace(/\//g, '-'), mutate };
}

/** run.js's `--quick` / `--quick=N`, as passed on in MUTATION_QUICK: true, a number of seconds, or false. */
function quickOf(value) {
	if (!value) return false;
	if (value === '1' || value === 'true' || value === '--quick') return true;
	const seconds = Number(String(value).replace(/^--quick=/, ''));
	if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`--quick takes a number of seconds (--quick=30), not ${value}`);
	return seconds;
}

module.exports = { LAYERS, distGlob, targetOf, testsOf, quickOf };
