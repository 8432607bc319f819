'use strict';
// The defaults users rely on (Max Wait, Poll Interval, Concurrency, timeouts, Download Files, Max
// File Size, every field's default) are locked per operation in test/parameter-defaults.lock.json,
// from the description and from what each operation hands the engine with its fields left out
// (test/parameter-defaults.js). A changed default fails here, naming the operation, the field, the
// old and the new value, and `node test/parameter-defaults.js --update` for a change on purpose.
const path = require('node:path');

const { loadNode } = require('./harness');
const { currentDefaults, codeDefaults, differences, readLock, requestName, HOW } = require('./parameter-defaults');

const DIST = path.join(__dirname, '..', 'dist', 'nodes', 'UnifiedAiGateway');
let current;

beforeAll(async () => {
	current = await currentDefaults();
}, 180000);

test("the node's defaults are the locked ones", () => {
	expect(differences(readLock(), current)).toEqual([]);
});

// These compare the built node with itself changed: they hold whatever the lock says.
describe('the lock can fail', () => {
	const changedDescription = (edit) => (name) => {
		const node = loadNode(name);
		if (name !== 'unifiedAiGateway') return node;
		return { description: { ...node.description, properties: edit(node.description.properties) } };
	};

	test("a description's default: the operation, the field, the old and the new value, and the command", async () => {
		const changed = await currentDefaults({
			load: changedDescription((properties) =>
				properties.map((p) => (p.name === 'download' && p.displayOptions?.show?.resource?.includes('video') ? { ...p, default: !p.default } : p)),
			),
			inCode: Object.fromEntries(Object.keys(current.unifiedAiGateway.defaults).filter((c) => c.includes('/')).map((c) => [c, {}])),
		});
		const lines = differences(current, changed).filter((line) => !line.includes('(in code)'));
		expect(lines).toEqual(['unifiedAiGateway video/generate: download: true → false', HOW]);
	});

	test("a default in code: the image route's advised interval (Image → Generate's Poll Interval left out) raised to 60 s", async () => {
		const routes = require(path.join(DIST, 'api/tasks/routes.js')).QUERY_ROUTES;
		const was = routes.image.intervalMs;
		routes.image.intervalMs = 60_000;
		let inCode;
		try {
			inCode = await codeDefaults({ only: ['image/generate'] });
		} finally {
			routes.image.intervalMs = was;
		}
		const changed = structuredClone(current);
		for (const [key, value] of Object.entries(inCode['image/generate'])) changed.unifiedAiGateway.defaults['image/generate'][`(in code) ${key}`] = value;
		const field = '(in code) waiting.pollIntervalSeconds left out, image route (seconds)';
		const before = current.unifiedAiGateway.defaults['image/generate'][field];
		expect(differences(current, changed)).toEqual([`unifiedAiGateway image/generate: ${field}: ${before} → 60`, HOW]);
	}, 90000);

	test('a Max Wait the engine gets that the description does not show is reported too', async () => {
		const runSettings = require(path.join(DIST, 'params/runSettings.js'));
		const original = runSettings.readBatchSettings;
		// As if the run got twice the minutes of the operation's DEFAULTS while the field's default stayed.
		runSettings.readBatchSettings = (ctx, noun, defaults) => original(ctx, noun, { ...defaults, maxWaitMinutes: defaults.maxWaitMinutes * 2 });
		let inCode;
		try {
			inCode = await codeDefaults({ only: ['image/generate'] });
		} finally {
			runSettings.readBatchSettings = original;
		}
		const changed = structuredClone(current);
		for (const [key, value] of Object.entries(inCode['image/generate'])) changed.unifiedAiGateway.defaults['image/generate'][`(in code) ${key}`] = value;
		const field = '(in code) waiting.maxWaitMinutes left out (minutes)';
		const before = current.unifiedAiGateway.defaults['image/generate'][field];
		expect(differences(current, changed)).toEqual([`unifiedAiGateway image/generate: ${field}: ${before} → ${before * 2}`, HOW]);
	}, 90000);
});

test('an operation the lock has never seen is covered whole: its description and in-code defaults, from a run', () => {
	// The operations come from the node itself (no list): one missing from the lock is reported field by field.
	const lock = structuredClone(current);
	const unseen = lock.unifiedAiGateway.defaults['image/edit'];
	delete lock.unifiedAiGateway.defaults['image/edit'];
	const lines = differences(lock, current);
	const fields = Object.keys(unseen);
	expect(lines).toHaveLength(fields.length + 1);
	expect(fields.some((f) => f.startsWith('(in code) waiting.'))).toBe(true);
	expect(fields.some((f) => f.startsWith('(in code) timeout of POST /v1/images/edits'))).toBe(true);
	for (const field of fields) expect(lines).toContain(`unifiedAiGateway image/edit: ${field}: (none) → ${JSON.stringify(unseen[field])}`);
});

test('every operation of the node runs for the lock, with only its required fields', () => {
	const { contexts, NODES } = require('./parameter-names');
	const operations = contexts(loadNode('unifiedAiGateway').description.properties, NODES.unifiedAiGateway).map((c) => `${c.resource}/${c.operation}`);
	for (const operation of operations) expect(Object.keys(current.unifiedAiGateway.defaults[operation]).some((f) => f.startsWith('(in code) '))).toBe(true);
});

test('a request is named by its route, whatever its id holds (a random id may have no digit)', () => {
	// CI once failed when the simulator's random task id held no digit and was named as a route.
	expect(requestName({ method: 'GET', path: '/v1/tasks/task_OdctAeHsuzKAFIYysgbaoeyiwBPcStrp' })).toBe('GET /v1/tasks/{id}');
	expect(requestName({ method: 'GET', path: '/v1/video/generations/video_abc?x=1' })).toBe('GET /v1/video/generations/{id}');
	expect(requestName({ method: 'GET', path: '/v1/images/generations/3f9a1c2b' })).toBe('GET /v1/images/generations/{id}');
	expect(requestName({ method: 'POST', path: '/v1/video/generations' })).toBe('POST /v1/video/generations');
	expect(requestName({ path: '/api/pricing' })).toBe('GET /api/pricing');
});
