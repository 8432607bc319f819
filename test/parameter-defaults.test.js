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
		const commonFields = require(path.join(DIST, 'params/commonFields.js'));
		const original = commonFields.readWaitForCompletion;
		// As if the run got twice the minutes of the operation's WAIT while the field's default stayed.
		commonFields.readWaitForCompletion = (ctx, wait) => original(ctx, { ...wait, maxWaitMinutes: wait.maxWaitMinutes * 2 });
		let inCode;
		try {
			inCode = await codeDefaults({ only: ['image/generate'] });
		} finally {
			commonFields.readWaitForCompletion = original;
		}
		const changed = structuredClone(current);
		for (const [key, value] of Object.entries(inCode['image/generate'])) changed.unifiedAiGateway.defaults['image/generate'][`(in code) ${key}`] = value;
		const field = '(in code) waiting.maxWaitMinutes left out (minutes)';
		const before = current.unifiedAiGateway.defaults['image/generate'][field];
		expect(differences(current, changed)).toEqual([`unifiedAiGateway image/generate: ${field}: ${before} → ${before * 2}`, HOW]);
	}, 90000);
});

test('a request is named by its route, whatever its id holds (a random id may have no digit)', () => {
	// CI once failed when the simulator's random task id held no digit and was named as a route.
	expect(requestName({ method: 'GET', path: '/v1/tasks/task_OdctAeHsuzKAFIYysgbaoeyiwBPcStrp' })).toBe('GET /v1/tasks/{id}');
	expect(requestName({ method: 'GET', path: '/v1/video/generations/video_abc?x=1' })).toBe('GET /v1/video/generations/{id}');
	expect(requestName({ method: 'GET', path: '/v1/images/generations/3f9a1c2b' })).toBe('GET /v1/images/generations/{id}');
	expect(requestName({ method: 'POST', path: '/v1/video/generations' })).toBe('POST /v1/video/generations');
	expect(requestName({ path: '/api/pricing' })).toBe('GET /api/pricing');
});
