'use strict';
// The layers `npm run test:mutation` mutates (their built JavaScript under dist/), each with the
// jest files aimed at it (test/README.md "Source folder → tests", and the tests that hold a table of
// the layer to its rows), in the order run.js runs them: the small layers first.
const LAYERS = {
	'engine/spend': ['spend', 'spend-summary', 'cost', 'video/money', 'money/balance', 'money/builds', 'money/charges', 'money/prices'],
	'engine/waiting': ['waiting-parts', 'engine', 'poll-schedule', 'waitPolicy', 'poll-floor', 'check-once', 'execution-limit', 'faults/poll', 'parameter-defaults', 'trigger'],
	params: ['params-inputs', 'params-additional-body', 'params-download-options', 'expression-input', 'where-features-meet', 'parameter-names', 'parameter-defaults', 'image/refusals', 'video/refusals', 'image/description', 'file', 'spend', 'waitPolicy', 'image/edit'],
	registry: ['registry-prices', 'models-today', 'model-rows', 'parameter-names', 'parameter-defaults', 'conformance/conformance', 'image/refusals', 'video/refusals', 'cost'],
	transport: [
		'transport-parts',
		'node-errors',
		'gateway-errors',
		'faults/submit',
		'faults/poll',
		'faults/downloads',
		'faults/redirects-keys',
		'faults/relay',
		'foundation',
		'keys',
		'submits',
	],
};

const distGlob = (layer) => `dist/nodes/UnifiedAiGateway/${layer}/**/*.js`;

/**
 * The jest files of a layer's run. `quick` (`npm run test:mutation -- --quick …`): only those the
 * quick loop runs (test/quick.js, by the times recorded in test/quick-times.json, a new file
 * counting as quick), for a layer whose full set would take hours (transport: faults/poll alone is
 * two minutes, and a surviving mutant runs every file that reached it). A mutant such a run kills,
 * the full set kills too: its score is a lower bound, and run.js says which files were measured so.
 */
function testsOf(layer, quick = false) {
	const files = LAYERS[layer];
	if (!quick) return files;
	const { classify } = require('../quick');
	const { seconds } = require('../quick-times.json');
	const fast = new Set(classify(files.map((file) => `test/${file}.test.js`), {}, seconds).quick.map((f) => f.file));
	return files.filter((file) => fast.has(`test/${file}.test.js`));
}

/**
 * What one Stryker run mutates: a layer (`params`), or one source file of it (`params/inputs`, a
 * unit: a run that ends within the hour where a whole layer takes many, its report kept beside the
 * layer's). `{ layer, unit, name, mutate }`, name being the reports' folder; throws naming the
 * layers when `target` is neither.
 */
function targetOf(target) {
	const clean = target.replace(/\.(ts|js)$/, '').replace(/^(nodes|dist\/nodes)\/UnifiedAiGateway\//, '');
	if (LAYERS[clean]) return { layer: clean, unit: undefined, name: clean.replace(/\//g, '-'), mutate: distGlob(clean) };
	const layer = Object.keys(LAYERS).find((l) => clean.startsWith(`${l}/`));
	if (!layer) throw new Error(`no layer or file ${target}; the layers are ${Object.keys(LAYERS).join(', ')} (a file: <layer>/<file>, e.g. params/inputs)`);
	return { layer, unit: clean, name: clean.replace(/\//g, '-'), mutate: `dist/nodes/UnifiedAiGateway/${clean}.js` };
}

module.exports = { LAYERS, distGlob, targetOf, testsOf };
