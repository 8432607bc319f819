'use strict';
// What the node reads from a gateway's answer, on plain values (no HTTP): the gateway's own words
// and code from whichever envelope it used, and the description a failure shows (errors.ts). The
// table of rules itself is test/gateway-errors.test.js (one row per rule, the order where two
// overlap); faults/relay.test.js, faults/submit.test.js and faults/hostile-answers.test.js run the
// same answers through n8n against the simulator. This table holds their edges: each envelope, an
// empty or padded text, a code that is not one.
//
// The modules are loaded afresh in each test (fresh-modules.js says why).
const fresh = require('./fresh-modules').freshEachTest();
const errors = fresh(() => require('../dist/nodes/UnifiedAiGateway/transport/errors.js'));

const action = 'submitting the video job';

describe("errors: the gateway's own words, from whichever envelope it used", () => {
	test.each([
		['a plain text answer, trimmed', '  upstream busy \n', 'upstream busy'],
		['an HTML page: not words of the gateway', '<!DOCTYPE html><html><body>502</body></html>', ''],
		['HTML after blank lines', '\n  <html><body>Bad gateway</body></html>', ''],
		['text that only mentions html', 'no <html> here', 'no <html> here'],
		['an empty text', '   ', ''],
		['OpenAI envelope', { error: { message: ' invalid seconds "9" ', type: 'new_api_error' } }, 'invalid seconds "9"'],
		['a bare error string', { error: 'model not found' }, 'model not found'],
		['flat message', { code: 'x', message: 'quota is not enough' }, 'quota is not enough'],
		['msg other than success', { code: 500, msg: 'upstream busy, try later' }, 'upstream busy, try later'],
		['msg success is not a reason: the task reason is', { code: 'success', msg: 'success', data: { fail_reason: 'content policy' } }, 'content policy'],
		['a task fail_reason at the root', { fail_reason: 'moderation blocked', status: 'FAILURE' }, 'moderation blocked'],
		['an error inside data', { data: { error: { message: 'video too long' } } }, 'video too long'],
		['the first envelope wins', { error: { message: 'first' }, message: 'second', msg: 'third' }, 'first'],
		['a blank candidate is skipped', { error: { message: '   ' }, message: '', fail_reason: 'the real one' }, 'the real one'],
		['an empty candidate is skipped', { message: '', msg: 'the next one' }, 'the next one'],
		['a number is not words', { message: 42, msg: 'the words' }, 'the words'],
		['nothing said', { code: 'only_a_code' }, ''],
		['an empty object', {}, ''],
		['null', null, ''],
		['undefined', undefined, ''],
		['a number', 502, ''],
		['a list', [{ message: 'in a list' }], ''],
	])('%s', (_, body, text) => {
		expect(errors.gatewayText(body)).toBe(text);
	});

	test('a long text is cut at 500 characters, after trimming', () => {
		const text = errors.gatewayText(`   ${'a'.repeat(600)}`);
		expect(text).toBe('a'.repeat(500));
	});
});

describe("errors: the gateway's code", () => {
	test.each([
		['the error object\'s code', { error: { code: 'model_not_found', type: 'new_api_error' }, code: 'flat' }, 'model_not_found'],
		['a flat code', { code: 'insufficient_user_quota', message: 'x' }, 'insufficient_user_quota'],
		['the error type, when it has no code', { error: { message: 'x', type: 'invalid_request_error' } }, 'invalid_request_error'],
		['an empty code is none (not the type)', { error: { code: '', type: 'new_api_error' } }, undefined],
		['a numeric flat code is no code', { code: 500, msg: 'busy' }, undefined],
		['a numeric flat code lets the type through', { code: 500, error: { type: 'upstream_error' } }, 'upstream_error'],
		['a numeric error code is no code', { error: { code: 429 } }, undefined],
		['success is no code', { code: 'success', msg: 'success' }, undefined],
		['an empty flat code', { code: '' }, undefined],
		['nothing', {}, undefined],
		['a text answer', 'model_not_found', undefined],
		['null', null, undefined],
		['a list', [{ code: 'in_a_list' }], undefined],
	])('%s', (_, body, code) => {
		expect(errors.gatewayCode(body)).toBe(code);
	});
});

describe('errors: the facts as the rules read them', () => {
	test.each([
		['an object: code, words and the whole body', { error: { message: 'bad', code: 'c1' } }, 'bad', 'c1', 'c1 bad {"error":{"message":"bad","code":"c1"}}'],
		['an object without a code', { message: 'hi' }, 'hi', undefined, ' hi {"message":"hi"}'],
		['a text: its words, not its JSON', 'plain words', 'plain words', undefined, ' plain words '],
		['null', null, '', undefined, '  '],
		['no body', undefined, '', undefined, '  '],
	])('%s', (_, body, text, code, all) => {
		const read = errors.readFacts({ action, status: 400, body });
		expect(read).toEqual({ action, status: 400, body, text, code, all });
	});
});

describe('errors: the rule of the table', () => {
	test('a table without a rule for the facts is a fault of the table, named', () => {
		const read = errors.readFacts({ action, status: 400 });
		expect(() => errors.ruleFor(read, [])).toThrow(
			new Error('The gateway-error table has no rule for these facts: its last rule must match everything'),
		);
		expect(() => errors.ruleFor(read, [{ name: 'never', matches: () => false }])).toThrow(/no rule for these facts/);
	});

	test('the first rule that matches, from the table given', () => {
		const read = errors.readFacts({ action, status: 418 });
		const rules = [
			{ name: 'no', matches: () => false },
			{ name: 'yes', matches: (f) => f.status === 418 },
			{ name: 'also', matches: () => true },
		];
		expect(errors.ruleFor(read, rules).name).toBe('yes');
	});
});

describe('errors: the description a failure shows', () => {
	test.each([
		[
			'words, status and code, then the advice',
			{ status: 502, body: { error: { message: 'bad gateway', code: 'bad_gateway' } } },
			'Gateway said: bad gateway\nHTTP status: 502, code: bad_gateway\nThe job may or may not have been created: check the account before running the item again.',
		],
		[
			'no code: the status alone',
			{ status: 502, body: { message: 'bad gateway' } },
			'Gateway said: bad gateway\nHTTP status: 502\nThe job may or may not have been created: check the account before running the item again.',
		],
		[
			'no words: the status first',
			{ status: 503, body: '' },
			'HTTP status: 503\nThe gateway gave no explanation. Try again later; if it persists, contact the gateway admin.',
		],
		[
			'a text answer: its words',
			{ status: 502, body: 'upstream connect error' },
			'Gateway said: upstream connect error\nHTTP status: 502\nThe job may or may not have been created: check the account before running the item again.',
		],
	])('%s', (_, facts, description) => {
		expect(errors.explainGatewayError({ action, billed: true, ...facts }).description).toBe(description);
	});

	test('a status-only row: the status, then its advice', () => {
		const explained = errors.explainGatewayError({ action, status: 429, body: '' });
		expect(explained.description).toBe('HTTP status: 429\nWait a little and run again, or lower the Concurrency option so fewer requests run at once.');
	});

	test('what the user reads as the message carries the text answer too', () => {
		const explained = errors.explainGatewayError({ action, billed: false, status: 500, body: ' overloaded ' });
		expect(explained).toEqual({
			code: undefined,
			message: 'The gateway failed (HTTP 500) while submitting the video job: overloaded',
			description: 'Gateway said: overloaded\nHTTP status: 500\nTry again later; if it persists, contact the gateway admin.',
			rule: 'gateway-failed',
			created: undefined,
		});
	});
});
