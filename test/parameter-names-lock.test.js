'use strict';
// Saved workflows keep their values under the node's parameter names: every name per resource and
// operation (and the trigger's per event) is locked in test/parameter-names.lock.json. A name added
// or removed fails here until the list is regenerated on purpose (`node test/parameter-names.js
// --update`); a removed or renamed one needs a node version or a migration first
// (docs/DEVELOPMENT.md, "Parameter names").
const { loadNode } = require('./harness');
const { currentNames, differences, readLock } = require('./parameter-names');

test("the node's parameter names are the locked ones", () => {
	expect(differences(readLock(), currentNames())).toEqual([]);
});

// These compare the built node with itself changed: they hold whatever the lock says, so a new
// field fails the first test alone.
describe('the lock can fail', () => {
	/** The built nodes with one description changed. */
	const changed = (edit) => (name) => {
		const node = loadNode(name);
		if (name !== 'unifiedAiGateway') return node;
		return { description: { ...node.description, properties: edit(node.description.properties) } };
	};

	test('a renamed field: the old name is reported removed, the new one added, and how to proceed', () => {
		const renamed = currentNames(changed((properties) => properties.map((p) => (p.name === 'videoSeconds_sora2' ? { ...p, name: 'videoSecondsSora' } : p))));
		expect(differences(currentNames(), renamed)).toEqual([
			'unifiedAiGateway video/generate: removed videoSeconds_sora2: a saved workflow that set it loses the value (a rename needs a node version or a migration)',
			'unifiedAiGateway video/generate: added videoSecondsSora',
			'If the change is on purpose, see docs/DEVELOPMENT.md ("Parameter names") and run `node test/parameter-names.js --update`.',
		]);
	});

	test('a new option in a collection is reported added, under every operation that shows it', () => {
		const added = currentNames(
			changed((properties) =>
				properties.map((p) => (p.name === 'waiting' ? { ...p, options: [...p.options, { displayName: 'Extra', name: 'extra', type: 'string', default: '' }] } : p)),
			),
		);
		const lines = differences(currentNames(), added);
		expect(lines).toContain('unifiedAiGateway video/generate: added waiting.extra');
		expect(lines).toContain('unifiedAiGateway task/waitForCompletion: added waiting.extra');
		expect(lines.filter((line) => /removed/.test(line))).toEqual([]);
	});

	test('a new node version is reported', () => {
		const versioned = currentNames((name) => {
			const node = loadNode(name);
			return name === 'unifiedAiGateway' ? { description: { ...node.description, version: [1, 1.1] } } : node;
		});
		expect(differences(currentNames(), versioned)[0]).toBe('unifiedAiGateway: version 1 → [1,1.1]');
	});
});
