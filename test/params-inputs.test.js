'use strict';
// The checks every value from a field or an expression passes before anything is billed
// (params/inputs.ts): a number, a switch, a prompt; each refusal names the field, shows the value
// and says what the field takes. expression-input.test.js runs the same checks through n8n on
// the node's items; this table holds their edges (bounds, trimming, what counts as empty).
const INPUTS = '../dist/nodes/UnifiedAiGateway/params/inputs.js';
const { checkNumber, checkBoolean, checkPrompt, kindOf } = require(INPUTS);

const WAIT = { label: 'Max Wait', min: 1, max: 60, integer: true, unit: 'min', why: '' };
const ZERO = { ...WAIT, label: 'Timeout', zeroMeans: 'the route’s window' };
const RATIO = { label: 'Strength', min: 0.1, max: 1, why: '' };

describe('checkNumber', () => {
	test.each([
		[5, 5],
		[' 7 ', 7],
		['60', 60],
		[1, 1],
		[60, 60],
		[0.1, 0.1, RATIO],
		[' 0.5 ', 0.5, RATIO],
		[0, 0, ZERO],
		['0', 0, ZERO],
	])('%p → %p', (value, expected, limit = WAIT) => {
		expect(checkNumber(value, limit)).toEqual({ value: expected });
	});

	test.each([
		['', 'Max Wait: empty (the field or its expression gave no value); it takes a whole number from 1 to 60 min'],
		['   ', 'Max Wait: empty (the field or its expression gave no value); it takes a whole number from 1 to 60 min'],
		[undefined, 'Max Wait: empty (the field or its expression gave no value); it takes a whole number from 1 to 60 min'],
		[null, 'Max Wait: empty (the field or its expression gave no value); it takes a whole number from 1 to 60 min'],
		['abc', 'Max Wait: "abc" is not a number; it takes a whole number from 1 to 60 min'],
		[NaN, 'Max Wait: NaN is not a number; it takes a whole number from 1 to 60 min'],
		[{ n: 5 }, 'Max Wait: {"n":5} is an object, not a number; it takes a whole number from 1 to 60 min'],
		[[5], 'Max Wait: [5] is a list, not a number; it takes a whole number from 1 to 60 min'],
		[true, 'Max Wait: true is a boolean, not a number; it takes a whole number from 1 to 60 min'],
		[1.5, 'Max Wait: 1.5 is not a whole number; it takes a whole number from 1 to 60 min'],
		[0, 'Max Wait: 0 is out of range; it takes a whole number from 1 to 60 min'],
		[0.999, 'Max Wait: 0.999 is not a whole number; it takes a whole number from 1 to 60 min'],
		[61, 'Max Wait: 61 is out of range; it takes a whole number from 1 to 60 min'],
		['61', 'Max Wait: "61" is out of range; it takes a whole number from 1 to 60 min'],
	])('%p is refused, named and explained', (value, problem) => {
		expect(checkNumber(value, WAIT)).toEqual({ problem });
	});

	test('the bounds of a fractional field, and the words of a field where 0 has a meaning', () => {
		expect(checkNumber(0.09, RATIO)).toEqual({ problem: 'Strength: 0.09 is out of range; it takes a number from 0.1 to 1' });
		expect(checkNumber(1.01, RATIO)).toEqual({ problem: 'Strength: 1.01 is out of range; it takes a number from 0.1 to 1' });
		expect(checkNumber(-1, ZERO)).toEqual({ problem: 'Timeout: -1 is out of range; it takes a whole number from 1 to 60 min, or 0 for the route’s window' });
	});

	test('a long value is shown cut at 60 characters; one of 60 whole', () => {
		const sixty = 'x'.repeat(58); // 60 with JSON's quotes
		expect(checkNumber(sixty, WAIT).problem).toBe(`Max Wait: "${sixty}" is not a number; it takes a whole number from 1 to 60 min`);
		const long = 'y'.repeat(59);
		expect(checkNumber(long, WAIT).problem).toBe(`Max Wait: "${'y'.repeat(56)}... is not a number; it takes a whole number from 1 to 60 min`);
	});
});

describe('checkBoolean', () => {
	test.each([
		[true, true],
		[false, false],
		['true', true],
		[' TRUE ', true],
		['False', false],
		['  false\n', false],
	])('%p → %p', (value, expected) => {
		expect(checkBoolean(value, 'Download Files')).toEqual({ value: expected });
	});

	test.each([
		['', 'Download Files: empty is no value, not a switch; it takes true or false'],
		[undefined, 'Download Files: empty is no value, not a switch; it takes true or false'],
		[null, 'Download Files: empty is no value, not a switch; it takes true or false'],
		['   ', 'Download Files: empty is a string, not a switch; it takes true or false'],
		['yes', 'Download Files: "yes" is a string, not a switch; it takes true or false'],
		['xtrue', 'Download Files: "xtrue" is a string, not a switch; it takes true or false'],
		['true x', 'Download Files: "true x" is a string, not a switch; it takes true or false'],
		['falsey', 'Download Files: "falsey" is a string, not a switch; it takes true or false'],
		[1, 'Download Files: 1 is a number, not a switch; it takes true or false'],
		[['true'], 'Download Files: ["true"] is a list, not a switch; it takes true or false'],
		[{ on: true }, 'Download Files: {"on":true} is an object, not a switch; it takes true or false'],
	])('%p is refused, named and explained', (value, problem) => {
		expect(checkBoolean(value, 'Download Files')).toEqual({ problem });
	});
});

describe('checkPrompt', () => {
	test('text is trimmed; a number is taken as its digits', () => {
		expect(checkPrompt('  a lighthouse \n')).toEqual({ value: 'a lighthouse' });
		expect(checkPrompt(42)).toEqual({ value: '42' });
	});

	test('empty, or only blank and invisible characters, is refused with the field named', () => {
		expect(checkPrompt('')).toEqual({ problem: 'Prompt is empty' });
		expect(checkPrompt(null, 'Text')).toEqual({ problem: 'Text is empty' });
		expect(checkPrompt(undefined)).toEqual({ problem: 'Prompt is empty' });
		// The ranges are a table inputs.js builds while it loads. Loaded afresh inside this test, that
		// table is code this test runs: Stryker reruns a mutant only with the tests that ran its line,
		// and the require at the top of this file runs outside every test.
		let fresh;
		jest.isolateModules(() => ({ checkPrompt: fresh } = require(INPUTS)));
		// Each range's first and last code point (soft hyphen … halfwidth filler), inside the text: trim()
		// alone takes a BOM off the ends.
		const ranges = [
			[0x00ad, 0x00ad],
			[0x034f, 0x034f],
			[0x061c, 0x061c],
			[0x115f, 0x1160],
			[0x17b4, 0x17b5],
			[0x180e, 0x180e],
			[0x200b, 0x200f],
			[0x202a, 0x202e],
			[0x2060, 0x206f],
			[0x3164, 0x3164],
			[0xfe00, 0xfe0f],
			[0xfeff, 0xfeff],
			[0xffa0, 0xffa0],
		];
		for (const [from, to] of ranges) {
			for (const code of [from, to]) {
				expect([code.toString(16), fresh(`\u200b ${String.fromCodePoint(code)} \u200b`)]).toEqual([
					code.toString(16),
					{ problem: 'Prompt holds only invisible characters (zero-width or blank)' },
				]);
			}
		}
	});

	test('visible characters beside and between the invisible ranges are text', () => {
		for (const char of ['é', '\u00ae', '\u2010', '\u2030', '\u2070', '\u3165', '\ufe10', 'a\u200b']) {
			expect([char, checkPrompt(char)]).toEqual([char, { value: char }]);
		}
	});

	test('an object or a list is refused, not sent as "[object Object]"', () => {
		expect(checkPrompt({ prompt: 'x' }).problem).toBe(
			'Prompt is an object ({"prompt":"x"}), not text: map the text itself, for example {{ $json.prompt }} rather than {{ $json }}',
		);
		expect(checkPrompt(['cat', 'dog'], 'Text').problem).toMatch(/^Text is a list \(\["cat","dog"\]\), not text/);
	});

	test('kindOf names a value for the messages', () => {
		expect([kindOf([]), kindOf({}), kindOf(null), kindOf('x'), kindOf(1), kindOf(true)]).toEqual(['a list', 'an object', 'an object', 'a string', 'a number', 'a boolean']);
	});
});

describe('the readers: a refused value is an error on the node that names the field and says nothing went out', () => {
	const { readNumber, readTriggerNumber, readBoolean, readTriggerBoolean } = require(INPUTS);
	const node = { id: 'n1', name: 'Gateway', type: 'n8n-nodes-unified-ai-gateway.unifiedAiGateway', typeVersion: 1, position: [0, 0], parameters: {} };
	// What n8n's contexts give these readers: the node, and a parameter's value (or the fallback).
	const nodeCtx = (values) => ({ getNode: () => node, getNodeParameter: (name, _item, fallback) => (name in values ? values[name] : fallback) });
	const pollCtx = (values) => ({ getNode: () => node, getNodeParameter: (name, fallback) => (name in values ? values[name] : fallback) });
	const refusal = (read) => {
		try {
			read();
		} catch (error) {
			return { message: error.message, description: error.description, itemIndex: error.context?.itemIndex, node: error.node?.name };
		}
		throw new Error('not refused');
	};
	const SENT = 'Nothing was sent. If the value comes from an expression, check what it gives for this item.';
	const REQUESTED = 'Nothing was requested. If the value comes from an expression, check what it gives.';

	test('the node: the value, the fallback, or a refusal on its item', () => {
		expect(readNumber(nodeCtx({ w: '2' }), 'maxWaitMinutes', 0, { name: 'w', fallback: 5 })).toBe(2);
		expect(readNumber(nodeCtx({}), 'maxWaitMinutes', 0, { name: 'w', fallback: 5 })).toBe(5);
		expect(readNumber(nodeCtx({}), 'maxWaitMinutes', 0, { value: 7 })).toBe(7);
		expect(refusal(() => readNumber(nodeCtx({ w: 'soon' }), 'maxWaitMinutes', 3, { name: 'w', fallback: 5 }))).toEqual({
			message: expect.stringMatching(/^Max Wait \(Minutes\)/),
			description: SENT,
			itemIndex: 3,
			node: 'Gateway',
		});
		expect(readBoolean(nodeCtx({ d: 'false' }), 'd', 0, true, 'Download Files')).toBe(false);
		expect(refusal(() => readBoolean(nodeCtx({ d: 'yes' }), 'd', 1, true, 'Download Files'))).toEqual({
			message: expect.stringMatching(/^Download Files: .* not a switch; it takes true or false$/),
			description: SENT,
			itemIndex: 1,
			node: 'Gateway',
		});
	});

	test('the trigger: the same rows and words, nothing requested', () => {
		expect(readTriggerNumber(pollCtx({ w: 3 }), 'maxWaitMinutes', 'w', 5)).toBe(3);
		expect(readTriggerNumber(pollCtx({}), 'maxWaitMinutes', 'w', 5)).toBe(5);
		expect(refusal(() => readTriggerNumber(pollCtx({ w: -1 }), 'maxWaitMinutes', 'w', 5))).toEqual({
			message: expect.stringMatching(/^Max Wait \(Minutes\)/),
			description: REQUESTED,
			itemIndex: undefined,
			node: 'Gateway',
		});
		expect(readTriggerBoolean(pollCtx({ d: 'true' }), 'd', false, 'Download Files')).toBe(true);
		expect(readTriggerBoolean(pollCtx({}), 'd', false, 'Download Files')).toBe(false);
		expect(refusal(() => readTriggerBoolean(pollCtx({ d: {} }), 'd', false, 'Download Files'))).toEqual({
			message: expect.stringMatching(/^Download Files: .* not a switch; it takes true or false$/),
			description: REQUESTED,
			itemIndex: undefined,
			node: 'Gateway',
		});
	});
});
