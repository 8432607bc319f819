'use strict';
// Every model row as the registry has it is locked in test/registry-rows.lock.json (test/registry-rows.js
// says why): a changed size list, price, limit, route or field rule fails here, naming the row, the
// place, the old and the new value, and `node test/registry-rows.js --update` for a change on purpose.
//
// The registry is loaded afresh in each test (fresh-modules.js says why).
const built = require('./fresh-modules').freshEachTest();
const registry = built(() => require('../dist/nodes/UnifiedAiGateway/registry/models.js'));
const images = built(() => require('../dist/nodes/UnifiedAiGateway/registry/imageModels.js'));
const videos = built(() => require('../dist/nodes/UnifiedAiGateway/registry/videoModels.js'));
const { currentRows, registryRows, differences, readLock, HOW } = require('./registry-rows');

test("the registry's rows, the unknown ids' included, are the locked ones", () => {
	const rows = registryRows({ models: registry, images, videos });
	expect(Object.keys(rows)).toEqual(expect.arrayContaining(['image (any other id)', 'video (any other id)']));
	expect(differences(readLock(), rows)).toEqual([]);
});

// These compare the registry with itself changed: they hold whatever the lock says.
describe('the lock can fail', () => {
	const rows = () => currentRows(registry.MODELS);
	const sora = 'video sora-2 (main)';

	test('a value of a field rule: the row, the place, the old and the new value, and the command', () => {
		const changed = rows();
		const was = changed[sora].fields.video.seconds.values;
		changed[sora].fields.video.seconds.values = was.slice(1);
		expect(differences(rows(), changed)).toEqual([`${sora}: fields.video.seconds.values: ${JSON.stringify(was)} → ${JSON.stringify(was.slice(1))}`, HOW]);
	});

	test('a value added where the row had none, and one taken away', () => {
		const changed = rows();
		changed[sora].recommendedId = 'sora-3';
		const mode = changed[sora].mode;
		delete changed[sora].mode;
		expect(differences(rows(), changed)).toEqual([`${sora}: mode: ${JSON.stringify(mode)} → (none)`, `${sora}: recommendedId: (none) → "sora-3"`, HOW]);
	});

	test('a row gone and a row added are named', () => {
		const changed = rows();
		const gone = changed[sora];
		delete changed[sora];
		changed['video kling-v3.5 (main)'] = { ...gone, id: 'kling-v3.5' };
		expect(differences(rows(), changed)).toEqual(['video kling-v3.5 (main): a new row, not in the lock', `${sora}: the row is gone from the registry`, HOW]);
	});

	test('nothing changed: no difference; two rows of one name: refused', () => {
		expect(differences(rows(), rows())).toEqual([]);
		const first = registry.MODELS[0];
		expect(() => currentRows([first, { ...first }])).toThrow(`the registry has two rows named ${first.group} ${first.id} (${first.host})`);
	});
});
