'use strict';
// "Additional Body Fields (JSON)" (params/additionalBody.ts), the escape hatch of every resource
// that builds a body: what it accepts, the refusal a user reads for what it does not (the words,
// the example), and how its keys are laid over the body the fields make without replacing one.
// image/refusals.test.js and video/refusals.test.js run it through n8n; this table holds its edges.
const BODY = '../dist/nodes/UnifiedAiGateway/params/additionalBody.js';
const {
	ADDITIONAL_BODY_LABEL,
	additionalBodyField,
	parseAdditionalBody,
	mergeBody,
	readAdditionalBody,
} = require(BODY);
// The package's one object guard, which the body's merge leans on (transport/responses.ts).
const { isPlainObject } = require('../dist/nodes/UnifiedAiGateway/transport/responses.js');

const EXAMPLE = '{"seed": 42}';
const HELP = `Write a JSON object, for example ${EXAMPLE}.`;
/** The resource's error: the test sees the message and the description the user would read. */
const fail = (message, description) => Object.assign(new Error(message), { description });
const refusal = (run) => {
	try {
		run();
	} catch (error) {
		return { message: error.message, description: error.description };
	}
	throw new Error('not refused');
};

describe('the field', () => {
	test('a JSON field labelled for the user, {} by default, shown where asked', () => {
		// The label is set while the module loads: read from a copy loaded inside this test, so
		// Stryker counts the line as this test's (the require at the top runs outside every test).
		let label;
		jest.isolateModules(() => ({ ADDITIONAL_BODY_LABEL: label } = require(BODY)));
		expect(label).toBe('Additional Body Fields (JSON)');
		expect(ADDITIONAL_BODY_LABEL).toBe(label);
		expect(
			additionalBodyField('additionalBodyFields', 'Keys the node has no field for.', {
				resource: ['image'],
			}),
		).toEqual({
			displayName: 'Additional Body Fields (JSON)',
			name: 'additionalBodyFields',
			type: 'json',
			default: '{}',
			description: 'Keys the node has no field for.',
			displayOptions: { show: { resource: ['image'] } },
		});
	});

	test('inside an options collection it has no displayOptions at all', () => {
		const field = additionalBodyField('extra', 'd');
		expect(field).not.toHaveProperty('displayOptions');
		expect(Object.keys(field)).toEqual(['displayName', 'name', 'type', 'default', 'description']);
	});
});

describe('isPlainObject', () => {
	test.each([
		[{}, true],
		[{ a: 1 }, true],
		[null, false],
		[undefined, false],
		[[], false],
		[[1], false],
		['{}', false],
		[1, false],
	])('%p → %p', (value, expected) => {
		expect(isPlainObject(value)).toBe(expected);
	});
});

describe('parseAdditionalBody', () => {
	test.each([
		[undefined, {}],
		[null, {}],
		['', {}],
		['  \n ', {}],
		['{}', {}],
		['{"seed": 42}', { seed: 42 }],
		[' {"a": {"b": [1]}} ', { a: { b: [1] } }],
		[{ seed: 7 }, { seed: 7 }],
	])('%p → %p', (value, expected) => {
		expect(parseAdditionalBody(value, EXAMPLE, fail)).toEqual(expected);
	});

	test('an object set by an expression comes back as it is', () => {
		const value = { seed: 1 };
		expect(parseAdditionalBody(value, EXAMPLE, fail)).toBe(value);
	});

	test('text that is not JSON is refused with the parser’s words and the example', () => {
		const { message, description } = refusal(() =>
			parseAdditionalBody('{seed: 42}', EXAMPLE, fail),
		);
		expect(message).toMatch(/^Additional Body Fields \(JSON\) is not valid JSON: \S/);
		let parserWords;
		try {
			JSON.parse('{seed: 42}');
		} catch (error) {
			parserWords = error.message;
		}
		expect(message).toBe(`Additional Body Fields (JSON) is not valid JSON: ${parserWords}`);
		expect(description).toBe(HELP);
	});

	test.each([
		['[1, 2]', 'an array'],
		['null', 'null'],
		['42', 'a number'],
		['"text"', 'a string'],
		['true', 'a boolean'],
		[[{ seed: 1 }], 'an array'],
		[5, 'a number'],
		[false, 'a boolean'],
	])('%p is refused as %s, with the example', (value, kind) => {
		expect(refusal(() => parseAdditionalBody(value, EXAMPLE, fail))).toEqual({
			message: `Additional Body Fields (JSON) must be a JSON object, not ${kind}`,
			description: HELP,
		});
	});
});

describe('mergeBody', () => {
	test('extra keys are added, objects on both sides merged key by key, deep', () => {
		const base = { model: 'm', metadata: { a: 1, deep: { x: 1 } }, size: '1024x1024' };
		const extra = { seed: 4, metadata: { b: 2, deep: { y: 2 } } };
		expect(mergeBody(base, extra)).toEqual({
			model: 'm',
			metadata: { a: 1, b: 2, deep: { x: 1, y: 2 } },
			size: '1024x1024',
			seed: 4,
		});
		expect(base).toEqual({ model: 'm', metadata: { a: 1, deep: { x: 1 } }, size: '1024x1024' });
	});

	test('a value that is not an object on both sides replaces', () => {
		expect(mergeBody({ a: { x: 1 }, b: 1, c: [1] }, { a: 2, b: { y: 1 }, c: [2] })).toEqual({
			a: 2,
			b: { y: 1 },
			c: [2],
		});
		expect(mergeBody({ a: null }, { a: { y: 1 } })).toEqual({ a: { y: 1 } });
	});
});

describe('readAdditionalBody', () => {
	const template = {
		model: '',
		prompt: '',
		metadata: { seconds: '', nested: { a: '' } },
		image: '',
	};
	const labelOf = (key) => `'${key.toUpperCase()}'`;
	const read = (value) => readAdditionalBody(value, EXAMPLE, template, labelOf, fail);

	test('keys the fields do not set are returned, nested ones included', () => {
		expect(read('{"seed": 1, "metadata": {"watermark": false, "nested": {"b": 1}}}')).toEqual({
			seed: 1,
			metadata: { watermark: false, nested: { b: 1 } },
		});
		expect(read('')).toEqual({});
	});

	test.each([
		['{"prompt": "x"}', 'prompt'],
		['{"seed": 1, "image": "https://x"}', 'image'],
		['{"metadata": {"seconds": 4}}', 'metadata.seconds'],
		['{"metadata": {"nested": {"a": 1}}}', 'metadata.nested.a'],
		['{"metadata": "text"}', 'metadata'],
		['{"model": "a", "prompt": "b"}', 'model'],
	])('%s is refused, naming %s and the field that sets it', (value, key) => {
		expect(refusal(() => read(value))).toEqual({
			message: `Additional Body Fields (JSON): '${key}' is already set by the field ${labelOf(key)}; change it there`,
			description:
				'The JSON may only add keys the fields do not set, so every field is checked before sending.',
		});
	});

	test('a text that is not an object is refused before any key is compared', () => {
		expect(refusal(() => read('[]')).message).toBe(
			'Additional Body Fields (JSON) must be a JSON object, not an array',
		);
	});
});
