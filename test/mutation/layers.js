'use strict';
// The layers `npm run test:mutation` mutates (their built JavaScript under dist/), each with the
// jest files aimed at it (test/README.md "Source folder → tests", and the tests that hold a table of
// the layer to its rows), in the order run.js runs them: the small layers first.
const LAYERS = {
	'engine/spend': ['spend', 'spend-summary', 'cost', 'video/money'],
	'engine/waiting': ['engine', 'poll-schedule', 'waitPolicy', 'poll-floor', 'check-once', 'execution-limit', 'faults/poll', 'parameter-defaults'],
	params: ['expression-input', 'where-features-meet', 'parameter-names', 'parameter-defaults', 'image/refusals', 'video/refusals', 'image/description', 'file'],
	registry: ['models-today', 'model-rows', 'parameter-names', 'parameter-defaults', 'conformance/conformance', 'image/refusals', 'video/refusals', 'cost'],
	transport: [
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

module.exports = { LAYERS, distGlob };
