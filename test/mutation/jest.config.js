'use strict';
// The jest of `npm run test:mutation` (Stryker, test/mutation/stryker.config.mjs): the suites aimed
// at the layer being mutated (layers.js; MUTATION_TARGET, set by run.js), run in Stryker's sandbox
// against its mutated dist/. The sandbox's dist/ must never be rebuilt over the mutants: a stale
// build stops the run (BUILD_CURRENT=check); run.js builds before Stryker copies the checkout.
const path = require('node:path');
const base = require('../../jest.config');
const { LAYERS, targetOf, testsOf, quickOf } = require('./layers');

process.env.BUILD_CURRENT = 'check';

// A file of a layer is tested by the layer's files.
const layers = process.env.MUTATION_TARGET ? [targetOf(process.env.MUTATION_TARGET).layer] : Object.keys(LAYERS);
const files = [...new Set(layers.flatMap((layer) => testsOf(layer, quickOf(process.env.MUTATION_QUICK))))];

module.exports = {
	...base,
	rootDir: path.resolve(__dirname, '../..'),
	testMatch: files.map((file) => `<rootDir>/test/${file}.test.js`),
	// Per mutant only the files whose tests ran its code, ending at the first failure.
	testEnvironment: path.join(__dirname, 'environment.js'),
	testSequencer: path.join(__dirname, 'sequencer.js'),
};
