'use strict';
// One parameter name per field: n8n keeps a node's parameters in one flat object, so two
// properties of one name that can both be shown for an operation make n8n pick one of them (and,
// with the model from an expression, the node could not tell whose value it reads). Evaluated per
// resource + operation + model, the model also given by an expression (then every model's
// condition may hold). Conditions on other parameters (route, host, switches) are taken as "may
// hold": a name shown twice under any of their values is shown twice.
const { loadNode } = require('./harness');
const { MODELS } = require('../dist/nodes/UnifiedAiGateway/registry/models');

const EXPRESSION = '={{ $json.model }}';

/** Whether one condition list can hold: exact for the fixed keys, "may" for everything else. */
function mayHold(conditions, fixed, wantAll) {
	return Object.entries(conditions ?? {}).every(([rawKey, values]) => {
		const key = rawKey.replace(/^\//, '');
		if (!(key in fixed)) return wantAll;
		const value = fixed[key];
		if (value === EXPRESSION) return wantAll;
		return values.includes(value) === wantAll;
	});
}

/** May the property be shown: its show conditions may hold, and its hide conditions need not. */
function mayShow(property, fixed) {
	const { show, hide } = property.displayOptions ?? {};
	if (!mayHold(show, fixed, true)) return false;
	if (!hide) return true;
	// A hide list hides only when all its conditions surely hold.
	return !Object.entries(hide).every(([rawKey, values]) => {
		const key = rawKey.replace(/^\//, '');
		return key in fixed && fixed[key] !== EXPRESSION && values.includes(fixed[key]);
	});
}

/**
 * Names shown more than once for these fixed values, with how often. A former name (a hidden field
 * keeping a renamed variant's saved value, registryRules FormerName) shares its name with the field
 * that took the name over on purpose; test/video/former-names.test.js checks the two never show
 * together with the route fixed.
 */
function shownTwice(properties, fixed) {
	const counts = {};
	for (const property of properties) if (property.type !== 'hidden' && mayShow(property, fixed)) counts[property.name] = (counts[property.name] ?? 0) + 1;
	return Object.entries(counts)
		.filter(([, count]) => count > 1)
		.map(([name, count]) => `${name} ×${count}`);
}

/** Every resource + operation + model the node offers: each model id of the resource's group, an unknown id, an expression. */
function contexts(properties) {
	const resources = properties.find((p) => p.name === 'resource').options.map((o) => o.value);
	const rows = [];
	for (const resource of resources) {
		const operationField = properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource));
		for (const { value: operation } of operationField.options) {
			const ids = [...new Set(MODELS.filter((m) => m.group === resource).map((m) => m.id))];
			for (const modelId of [...ids, 'model-the-registry-does-not-know', EXPRESSION]) rows.push({ resource, operation, modelId });
		}
	}
	return rows;
}

describe('parameter names', () => {
	const properties = loadNode('unifiedAiGateway').description.properties;

	test('no name is shown twice for one resource, operation and model (fixed or from an expression)', () => {
		const found = contexts(properties)
			.map((fixed) => [fixed, shownTwice(properties, fixed)])
			.filter(([, names]) => names.length > 0)
			.map(([fixed, names]) => `${fixed.resource}/${fixed.operation} model ${fixed.modelId}: ${names.join(', ')}`);
		expect(found).toEqual([]);
	});

	test('the check sees a duplicate: the operation field of every resource is one per resource only', () => {
		// One `operation` field per resource: with the resource left open they would all show.
		const resources = properties.find((p) => p.name === 'resource').options.length;
		expect(resources).toBeGreaterThan(1);
		expect(shownTwice(properties, {})).toContain(`operation ×${resources}`);
		expect(shownTwice(properties, { resource: 'image' }).filter((n) => n.startsWith('operation '))).toEqual([]);
	});

	test('the trigger shows no name twice for one event', () => {
		const trigger = loadNode('unifiedAiGatewayTrigger').description.properties;
		for (const { value: event } of trigger.find((p) => p.name === 'event').options) {
			expect(shownTwice(trigger, { event })).toEqual([]);
		}
	});
});

describe('operational knobs sit in collections (as HTTP Request keeps them in Options)', () => {
	const properties = loadNode('unifiedAiGateway').description.properties;
	const KNOBS = ['maxWaitMinutes', 'pollIntervalSeconds', 'onTimeout', 'concurrency', 'submitTimeoutSeconds', 'binaryPropertyOutput', 'maxFileSizeMb', 'downloadTimeoutSeconds', 'giveUpMinutes'];
	const OLD = ['waitDeadlineMinutes', 'waitIntervalSeconds', 'videoSubmitTimeoutSeconds', 'videoLanguage', 'downloadOptions', 'checkGiveUpMinutes'];
	const collection = (name, resource, operation) =>
		properties.find((p) => p.name === name && p.displayOptions.show.resource.includes(resource) && (!p.displayOptions.show.operation || p.displayOptions.show.operation.includes(operation)));
	const option = (name, resource, operation, key) => collection(name, resource, operation).options.find((o) => o.name === key);

	test('no knob is a top-level field of any operation', () => {
		expect(properties.filter((p) => [...KNOBS, ...OLD].includes(p.name)).map((p) => p.name)).toEqual([]);
	});

	test('Waiting shows only while Wait for Completion is on, and keeps the defaults', () => {
		for (const [resource, operation, minutes] of [['image', 'generate', 10], ['video', 'generate', 30]]) {
			expect(collection('waiting', resource, operation).displayOptions.show.waitForCompletion).toEqual([true]);
			expect(option('waiting', resource, operation, 'maxWaitMinutes').default).toBe(minutes);
			expect(option('waiting', resource, operation, 'pollIntervalSeconds').default).toBe(0);
			expect(option('waiting', resource, operation, 'onTimeout').default).toBe('pending');
		}
		expect(collection('waiting', 'task', 'waitForCompletion').displayOptions.show.waitForCompletion).toBeUndefined();
		expect(option('waiting', 'task', 'waitForCompletion', 'maxWaitMinutes').default).toBe(0);
	});

	test('Options hold concurrency, the output field, the download limits and the submit timeout, with their defaults', () => {
		expect(option('options', 'image', 'generate', 'concurrency').default).toBe(5);
		expect(option('options', 'image', 'edit', 'binaryPropertyOutput').default).toBe('data');
		expect(option('options', 'video', 'generate', 'submitTimeoutSeconds').default).toBe(180);
		expect(option('options', 'task', 'checkOnce', 'giveUpMinutes').default).toBe(0);
		expect(option('options', 'text', 'message', 'concurrency').default).toBe(5);
		for (const [resource, operation] of [['image', 'generate'], ['video', 'generate'], ['task', 'waitForCompletion'], ['task', 'checkOnce'], ['task', 'downloadResult']]) {
			expect(option('options', resource, operation, 'maxFileSizeMb').default).toBe(0);
			expect(option('options', resource, operation, 'downloadTimeoutSeconds').default).toBe(0);
		}
	});
});
