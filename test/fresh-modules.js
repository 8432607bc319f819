'use strict';
// For the table tests of pure modules (transport-parts, transport-hops, transport-answers,
// waiting-parts, waiting-reads, node-errors, params-binary-input, registry-limits): each test loads
// the modules it uses afresh. jest.resetModules runs before every test, and each module is reached
// through a lazy proxy whose loader the test file writes out (`fresh(() => require('../dist/…'))`:
// folder-map reads a test's reach from those paths). Stryker (npm run test:mutation) credits what a
// module builds while it loads (a table, a constant) to the test during which it loaded, and reruns
// such a mutant with those tests only: loaded at the top of a file, no test is credited; loaded
// once, only the first (docs/DEVELOPMENT.md, "Mutation testing"). Within one test every proxy reads
// the same fresh load, so an error's class compares. n8n's own package is loaded once and handed to
// every fresh load: it builds nothing of ours, and loading it again for each test made a file four
// times slower.
/** Call once at the top of a test file; returns `fresh(load)`, the lazy proxy over `load()`. */
function freshEachTest() {
	const n8nWorkflow = require('n8n-workflow');
	jest.doMock('n8n-workflow', () => n8nWorkflow);
	beforeEach(() => jest.resetModules());
	return (load) => new Proxy({}, { get: (_, name) => load()[name] });
}

module.exports = { freshEachTest };
