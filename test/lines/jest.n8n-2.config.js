'use strict';
// The unit tests again, with n8n-workflow / n8n-core / @n8n/di resolved from the n8n 2.x line
// (test/lines/n8n-2), for our built nodes and the harness alike: an API that line lacks fails here.
// @n8n/backend-common too: the tests that read n8n's log swap its Logger in the DI container, and
// the token must be the class the 2.x n8n-core asks for. @n8n/ai-node-sdk: the one n8n 2.41.1 ships (0.31.1),
// not the older one @n8n/node-cli brings into the root (test/chat-model.test.js).
const path = require('node:path');
const base = require('../../jest.config');

const LINE = path.join(__dirname, 'n8n-2/node_modules');
const fromLine = (name) => [
	[`^${name}$`, path.join(LINE, name)],
	[`^${name}/(.*)$`, path.join(LINE, name, '$1')],
];

module.exports = {
	...base,
	rootDir: path.resolve(__dirname, '../..'),
	modulePathIgnorePatterns: ['<rootDir>/test/scan/', '<rootDir>/test/n8n/hosts/', '<rootDir>/.stryker-tmp/'],
	setupFiles: [...base.setupFiles, '<rootDir>/test/lines/n8n-2.setup.js'],
	moduleNameMapper: Object.fromEntries(
		['n8n-workflow', 'n8n-core', '@n8n/di', '@n8n/backend-common', '@n8n/ai-node-sdk'].flatMap(fromLine),
	),
};
