'use strict';
// The jest of `npm run test:mutation` (Stryker, test/mutation/stryker.config.mjs): the suites aimed
// at the pure layers (LAYER_TESTS), run in Stryker's sandbox against its mutated dist/. The sandbox's
// dist/ must never be rebuilt over the mutants: a stale build stops the run (BUILD_CURRENT=check),
// and `npm run test:mutation` builds before Stryker copies the checkout.
const path = require('node:path');
const base = require('../../jest.config');

process.env.BUILD_CURRENT = 'check';

// Per layer, the jest files aimed at it (test/README.md "Source folder → tests", and the tests that
// hold a table of the layer to its rows). Per mutant only the files whose tests ran its code run
// (sequencer.js), so a file here costs a survivor of a line it reaches, never a mutant elsewhere.
const LAYER_TESTS = {
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
	registry: [
		'models-today',
		'model-rows',
		'parameter-names',
		'parameter-names-lock',
		'parameter-defaults',
		'conformance/conformance',
		'image/description',
		'image/refusals',
		'video/refusals',
		'cost',
	],
	'engine/waiting': ['engine', 'poll-schedule', 'waitPolicy', 'poll-floor', 'check-once', 'execution-limit'],
	'engine/spend': ['spend', 'video/money'],
	params: ['expression-input', 'where-features-meet'],
};

const files = [...new Set(Object.values(LAYER_TESTS).flat())];

module.exports = {
	...base,
	rootDir: path.resolve(__dirname, '../..'),
	testMatch: files.map((file) => `<rootDir>/test/${file}.test.js`),
	testEnvironment: path.join(__dirname, 'environment.js'),
	testSequencer: path.join(__dirname, 'sequencer.js'),
};
