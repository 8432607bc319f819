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
const secrets = fresh(() => require('../dist/nodes/UnifiedAiGateway/transport/secrets.js'));
const responses = fresh(() => require('../dist/nodes/UnifiedAiGateway/transport/responses.js'));

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

describe('secrets: the key as people paste it', () => {
	test.each([
		['as copied', 'sk-abc123', 'sk-abc123', 'sk-abc123'],
		['whitespace around it', ' \t sk-abc123 \r\n', 'sk-abc123', 'sk-abc123'],
		['zero-width characters around it', '\u200Bsk-abc123\u200C\u200D\u2060\uFEFF', 'sk-abc123', 'sk-abc123'],
		['a full-width space around it', '\u3000sk-abc123\u3000', 'sk-abc123', 'sk-abc123'],
		['straight double quotes', '"sk-abc123"', 'sk-abc123', 'sk-abc123'],
		['straight single quotes', "'sk-abc123'", 'sk-abc123', 'sk-abc123'],
		['backticks', '`sk-abc123`', 'sk-abc123', 'sk-abc123'],
		['curly double quotes', '\u201Csk-abc123\u201D', 'sk-abc123', 'sk-abc123'],
		['curly quotes the other way round', '\u201Dsk-abc123\u201C', 'sk-abc123', 'sk-abc123'],
		['curly single quotes', '\u2018sk-abc123\u2019', 'sk-abc123', 'sk-abc123'],
		['curly single quotes the other way round', '\u2019sk-abc123\u2018', 'sk-abc123', 'sk-abc123'],
		['angle quotes', '\u00ABsk-abc123\u00BB', 'sk-abc123', 'sk-abc123'],
		['angle quotes the other way round', '\u00BBsk-abc123\u00AB', 'sk-abc123', 'sk-abc123'],
		['full-width double quotes', '\uFF02sk-abc123\uFF02', 'sk-abc123', 'sk-abc123'],
		['full-width single quotes', '\uFF07sk-abc123\uFF07', 'sk-abc123', 'sk-abc123'],
		['a low opening quote', '\u201Esk-abc123\u201C', 'sk-abc123', 'sk-abc123'],
		['corner brackets', '\u300Csk-abc123\u300D', 'sk-abc123', 'sk-abc123'],
		['white corner brackets', '\u300Esk-abc123\u300F', 'sk-abc123', 'sk-abc123'],
		['a Bearer prefix', 'Bearer sk-abc123', 'sk-abc123', 'sk-abc123'],
		['a Bearer prefix in any case, any spacing', 'bEaReR \t sk-abc123', 'sk-abc123', 'sk-abc123'],
		['a quoted header value', ' "Bearer sk-abc123" ', 'sk-abc123', 'sk-abc123'],
		['Bearer, then quotes', 'Bearer "sk-abc123"', 'sk-abc123', 'sk-abc123'],
		['quotes in quotes', '"\'`sk-abc123`\'"', 'sk-abc123', 'sk-abc123'],
		['Bearer glued to the key is the key', 'Bearersk-abc123', 'Bearersk-abc123', 'Bearersk-abc123'],
		['full-width letters and signs, folded', '\uFF53\uFF4B\uFF0D\uFF41\uFF42\uFF43\uFF11', '\uFF53\uFF4B\uFF0D\uFF41\uFF42\uFF43\uFF11', 'sk-abc1'],
		['the first and last full-width signs', '\uFF01sk\uFF5E', '\uFF01sk\uFF5E', '!sk~'],
		['a full-width Bearer prefix', '\uFF22\uFF45\uFF41\uFF52\uFF45\uFF52 sk-abc123', '\uFF22\uFF45\uFF41\uFF52\uFF45\uFF52 sk-abc123', 'sk-abc123'],
		['one quote alone is not a pair', '"', '"', '"'],
		['an opening quote without its closing one stays', '"sk-abc123', '"sk-abc123', '"sk-abc123'],
		['a closing quote without its opening one stays', 'sk-abc123"', 'sk-abc123"', 'sk-abc123"'],
		['the first and last ASCII signs', '!sk-~', '!sk-~', '!sk-~'],
		['a number', 12345678, '12345678', '12345678'],
	])('%s', (_, raw, unwrapped, key) => {
		expect(secrets.readPastedKey(raw)).toEqual({ key, unwrapped });
	});

	test('four rounds of wrapping are removed from the field, four more after folding', () => {
		const wrapped = (n) => `${'"'.repeat(n)}sk-abc123${'"'.repeat(n)}`;
		expect(secrets.readPastedKey(wrapped(5))).toEqual({ key: 'sk-abc123', unwrapped: wrapped(1) });
		expect(secrets.readPastedKey(wrapped(8))).toEqual({ key: 'sk-abc123', unwrapped: wrapped(4) });
		// Nine: a quote is left in the key, an ASCII sign the gateway then refuses.
		expect(secrets.readPastedKey(wrapped(9))).toEqual({ key: wrapped(1), unwrapped: wrapped(5) });
	});

	const EMPTY = "The API Key is empty: paste the key from the gateway's key page";
	test.each([
		['nothing', ''],
		['undefined', undefined],
		['null', null],
		['whitespace', ' \n\t '],
		['quotes only', '""'],
		['quotes around whitespace', '" \u200B "'],
	])('empty: %s', (_, raw) => {
		expect(secrets.readPastedKey(raw)).toMatchObject({ key: '', problem: EMPTY });
	});

	const refused = (what, at, of) => `The API Key contains ${what} at position ${at} of ${of}: a gateway key has only letters, digits and ASCII signs. Copy the key again from the gateway's key page`;
	test.each([
		['a space inside', 'sk-ab c123', refused('a space (U+0020)', 6, 10)],
		['a tab', 'sk-\tabc', refused('a tab (U+0009)', 4, 7)],
		['a line break', 'sk-ab\ncd', refused('a line break (U+000A)', 6, 8)],
		['a carriage return', 'sk-ab\rcd', refused('a carriage return (U+000D)', 6, 8)],
		['a no-break space', 'sk-ab\u00A0cd', refused('a no-break space (U+00A0)', 6, 8)],
		['a zero-width space inside', 'sk-ab\u200Bcd', refused('a zero-width space (U+200B)', 6, 8)],
		['a zero-width non-joiner inside', 'sk-ab\u200Ccd', refused('a zero-width non-joiner (U+200C)', 6, 8)],
		['a zero-width joiner inside', 'sk-ab\u200Dcd', refused('a zero-width joiner (U+200D)', 6, 8)],
		['a word joiner inside', 'sk-ab\u2060cd', refused('a word joiner (U+2060)', 6, 8)],
		['a byte order mark inside', 'sk-ab\uFEFFcd', refused('a byte order mark (U+FEFF)', 6, 8)],
		['a full-width space inside', 'sk-ab\u3000cd', refused('a full-width (ideographic) space (U+3000)', 6, 8)],
		['a letter', 'sk-caf\u00E9', refused("'\u00E9' (U+00E9)", 7, 7)],
		['a CJK letter', '\u5bc6\u94a5sk', refused("'\u5bc6' (U+5BC6)", 1, 4)],
		['a digit', 'sk-\u0661', refused("'\u0661' (U+0661)", 4, 4)],
		['a sign past the full-width forms', 'sk-\uFF5F', refused("'\uFF5F' (U+FF5F)", 4, 4)],
		['a symbol outside the BMP, counted as one', 'sk-\u{1F511}ab', refused("'\u{1F511}' (U+1F511)", 4, 6)],
		['a control character', 'sk-\u0007ab', refused('an invisible character (U+0007)', 4, 6)],
		['DEL', 'sk-\u007Fab', refused('an invisible character (U+007F)', 4, 6)],
		['a soft hyphen', 'sk-\u00ADab', refused('an invisible character (U+00AD)', 4, 6)],
		['an opening quote left alone', '\u300Csk-abc', refused("'\u300C' (U+300C)", 1, 7)],
		['the first bad one is named', 'sk a\u00E9', refused('a space (U+0020)', 3, 5)],
	])('refused: %s', (_, raw, problem) => {
		const read = secrets.readPastedKey(raw);
		expect(read).toMatchObject({ key: '', problem });
	});

	test('a refused key keeps the field as unwrapped, for the forms that hide it', () => {
		expect(secrets.readPastedKey(' "sk-ab c" ')).toEqual({ key: '', unwrapped: 'sk-ab c', problem: refused('a space (U+0020)', 6, 7) });
	});
});

describe('secrets: every form in which the key may come back', () => {
	test('as pasted, trimmed, unwrapped, sent, as the header, URL-encoded and JSON-escaped; longest first', () => {
		expect(secrets.secretForms({ apiKey: ' "Bearer sk-a/b+c" ' })).toEqual([
			' \\"Bearer sk-a/b+c\\" ',
			' "Bearer sk-a/b+c" ',
			'"Bearer sk-a/b+c"',
			'Bearer sk-a/b+c',
			'sk-a%2Fb%2Bc',
			'sk-a/b+c',
		]);
	});

	test('full-width forms: the field as pasted and the key sent', () => {
		expect(secrets.secretForms({ apiKey: '\uFF53\uFF4B\uFF0D\uFF41\uFF42' })).toEqual([
			'%EF%BD%93%EF%BD%8B%EF%BC%8D%EF%BD%81%EF%BD%82',
			'Bearer sk-ab',
			'\uFF53\uFF4B\uFF0D\uFF41\uFF42',
			'sk-ab',
		]);
	});

	test('a refused key is hidden as it was pasted', () => {
		expect(secrets.secretForms({ apiKey: 'sk-a\tb\u00E9' })).toEqual([
			'Bearer sk-a\tb\u00E9',
			'sk-a%09b%C3%A9',
			'sk-a\\tb\u00E9',
			'sk-a\tb\u00E9',
		]);
	});

	test('a key of four characters has its forms; a shorter one none (it would hide ordinary words)', () => {
		expect(secrets.secretForms({ apiKey: 'abcd' })).toEqual(['Bearer abcd', 'abcd']);
		expect(secrets.secretForms({ apiKey: ' "abc" ' })).toEqual([]);
		expect(secrets.secretForms({ apiKey: '' })).toEqual([]);
		expect(secrets.secretForms({})).toEqual([]);
	});

	test('redact: every form replaced, the longest whole', () => {
		const forms = secrets.secretForms({ apiKey: 'sk-abcdef' });
		expect(forms).toEqual(['Bearer sk-abcdef', 'sk-abcdef']);
		expect(secrets.redact('sent Bearer sk-abcdef; echoed sk-abcdef, sk-abcdef', forms)).toBe('sent ***; echoed ***, ***');
		expect(secrets.redact('nothing here', forms)).toBe('nothing here');
		expect(secrets.redact('sk-abcdef', [])).toBe('sk-abcdef');
	});
});

/** A response body as n8n hands it over: chunks read one by one, `destroy` and `on` counted. */
function streamOf(chunks) {
	const stream = {
		pulled: 0,
		destroyed: 0,
		on: () => stream,
		destroy: () => {
			stream.destroyed++;
		},
		async *[Symbol.asyncIterator]() {
			for (const chunk of chunks) {
				stream.pulled++;
				yield chunk;
			}
		},
	};
	return stream;
}

describe('responses: a body nothing is read from is ended', () => {
	const flush = () => new Promise((resolve) => setImmediate(resolve));

	test('one chunk pulled, then the reading ended', async () => {
		const calls = [];
		const stream = {
			destroy: () => calls.push('destroy'),
			[Symbol.asyncIterator]: () => ({
				next: async () => (calls.push('next'), { done: false, value: 'x' }),
				return: async () => (calls.push('return'), { done: true }),
			}),
		};
		responses.discard(stream);
		await flush();
		expect(calls).toEqual(['next', 'return']);
	});

	test('a failed first read still ends the reading', async () => {
		const calls = [];
		const stream = {
			destroy: () => calls.push('destroy'),
			[Symbol.asyncIterator]: () => ({
				next: async () => {
					calls.push('next');
					throw new Error('socket closed');
				},
				return: async () => (calls.push('return'), { done: true }),
			}),
		};
		responses.discard(stream);
		await flush();
		expect(calls).toEqual(['next', 'return']);
	});

	test('a reading that cannot be ended is destroyed', async () => {
		const calls = [];
		const stream = {
			destroy: () => calls.push('destroy'),
			[Symbol.asyncIterator]: () => ({
				next: async () => (calls.push('next'), { done: false, value: 'x' }),
				return: async () => {
					calls.push('return');
					throw new Error('already ended');
				},
			}),
		};
		responses.discard(stream);
		await flush();
		expect(calls).toEqual(['next', 'return', 'destroy']);
	});

	test('a reading without return is left after its chunk; what is not a stream, alone', async () => {
		const calls = [];
		responses.discard({ destroy: () => calls.push('destroy'), [Symbol.asyncIterator]: () => ({ next: async () => (calls.push('next'), { done: true }) }) });
		responses.discard({ destroy: () => calls.push('destroy') });
		responses.discard(undefined);
		await flush();
		expect(calls).toEqual(['next']);
	});
});

describe("responses: an answer's bytes as text, by its charset", () => {
	const GBK = Uint8Array.from([0xd3, 0xe0, 0xb6, 0xee, 0xb2, 0xbb, 0xd7, 0xe3]); // 余额不足
	test.each([
		['GBK, as named', GBK, { 'content-type': 'application/json; charset=GBK' }, '余额不足'],
		['a quoted label, spaces around =', GBK, { 'content-type': 'text/plain; charset = "gbk"' }, '余额不足'],
		['any case', GBK, { 'content-type': 'text/plain;CHARSET=Gb18030' }, '余额不足'],
		['no charset: UTF-8', Buffer.from('余额 ok'), { 'content-type': 'application/json' }, '余额 ok'],
		['no headers: UTF-8', Buffer.from('余额 ok'), undefined, '余额 ok'],
		['a label the decoder does not know: UTF-8', Buffer.from('余额 ok'), { 'content-type': 'text/plain; charset=x-unknown' }, '余额 ok'],
		['a Content-Type that is not text: UTF-8', Buffer.from('余额 ok'), { 'content-type': ['text/plain; charset=gbk'] }, '余额 ok'],
		['utf-8 named: the bytes as they are, a byte order mark kept', Buffer.from('\uFEFF{}'), { 'content-type': 'application/json; charset=utf-8' }, '\uFEFF{}'],
		['utf8 named', Buffer.from('\uFEFF{}'), { 'content-type': 'application/json; charset=UTF8' }, '\uFEFF{}'],
		['Latin-1, as named', Uint8Array.from([0x63, 0x61, 0x66, 0xe9]), { 'content-type': 'text/plain; charset=ISO-8859-1' }, 'caf\u00E9'],
		['Latin-1 bytes read as UTF-8 when no charset is named', Uint8Array.from([0x63, 0x61, 0x66, 0xe9]), {}, 'caf\uFFFD'],
	])('%s', (_, bytes, headers, text) => {
		expect(responses.decodeText(bytes, headers)).toBe(text);
	});

	test('a view into a larger buffer reads only its own bytes', () => {
		const whole = Buffer.from('xx{"a":1}yy');
		expect(responses.decodeText(whole.subarray(2, 9))).toBe('{"a":1}');
		expect(responses.decodeText(new Uint8Array(whole.buffer, whole.byteOffset + 2, 7))).toBe('{"a":1}');
	});
});

describe('responses: the bounds of an answer', () => {
	test('what is read of each kind of answer, and of an error', () => {
		expect(responses.ANSWER_LIMITS).toEqual({
			task: 1024 * 1024,
			submit: 16 * 1024 * 1024,
			list: 8 * 1024 * 1024,
			chat: 8 * 1024 * 1024,
			chatStream: 64 * 1024 * 1024,
			images: 64 * 1024 * 1024,
		});
		expect(responses.ERROR_BODY_LIMIT).toBe(64 * 1024);
		expect(responses.MAX_ANSWER_DEPTH).toBe(64);
	});

	test.each([
		['text', 'abcd', 4, 'abcd', 4, false],
		['text past the limit', 'abcde', 4, '', 5, true],
		['a Buffer', Buffer.from('abc'), 3, 'abc', 3, false],
		['an ArrayBuffer', Uint8Array.from([104, 105]).buffer, 2, 'hi', 2, false],
		['a view into a larger buffer', Buffer.from('xxhiyy').subarray(2, 4), 2, 'hi', 2, false],
		['a parsed object, measured as JSON', { a: 1 }, 7, '{"a":1}', 7, false],
		['a parsed object past the limit', { a: 1 }, 6, '', 7, true],
		['no body', undefined, 0, '', 0, false],
		['an iterable without on is no stream', { [Symbol.asyncIterator]: () => ({}) }, 10, '{}', 2, false],
	])('in memory: %s', async (_, body, limit, bytes, received, over) => {
		const read = await responses.readBounded(body, limit);
		expect({ bytes: read.bytes.toString(), received: read.received, over: read.over }).toEqual({ bytes, received, over });
	});

	test.each([
		['up to the limit exactly', ['ab', Buffer.from('cd')], 4, 'abcd', 4, false, 0, 2],
		['under it', ['ab'], 4, 'ab', 2, false, 0, 1],
		['past it: destroyed, nothing kept, the rest unread', ['ab', 'cd', 'ef', 'gh'], 4, '', 6, true, 1, 3],
		['past it inside the first chunk', [Buffer.from('abcdef'), 'gh'], 4, '', 6, true, 1, 1],
	])('streamed: %s', async (_, chunks, limit, bytes, received, over, destroyed, pulled) => {
		const stream = streamOf(chunks);
		const read = await responses.readBounded(stream, limit);
		expect({ bytes: read.bytes.toString(), received: read.received, over: read.over }).toEqual({ bytes, received, over });
		expect({ destroyed: stream.destroyed, pulled: stream.pulled }).toEqual({ destroyed, pulled });
	});

	test.each([
		['[[1]]', 2, false],
		['[[1]]', 1, true],
		['{"a":{"b":[{}]}}', 4, false],
		['{"a":{"b":[{}]}}', 3, true],
		['[][][][]', 1, false],
		['[{}],[{}]', 2, false],
		['["[[[[", "]]]]"]', 1, false],
		['["\\"[[[["]', 1, false],
		['["\\\\", [[1]]]', 2, true],
		['"{{{{"', 0, false],
		['x', 0, false],
		['[', 0, true],
	])('nestedDeeperThan(%p, %p): %p', (text, max, deeper) => {
		expect(responses.nestedDeeperThan(text, max)).toBe(deeper);
	});
});

describe('responses: a body as the node reads it', () => {
	const deep = `${'['.repeat(65)}${']'.repeat(65)}`;
	const sixtyFour = `${'['.repeat(64)}${']'.repeat(64)}`;
	test.each([
		['JSON text', ' {"a":1} ', { a: 1 }],
		['a JSON list', '[1,2]', [1, 2]],
		['JSON bytes', Buffer.from('{"a":"余"}'), { a: '余' }],
		['JSON in an ArrayBuffer', Uint8Array.from(Buffer.from('[true]')).buffer, [true]],
		['text stays text, untrimmed', ' upstream busy ', ' upstream busy '],
		['broken JSON stays text, untrimmed', ' {"a": ', ' {"a": '],
		['a number in text is text', '42', '42'],
		['a parsed object as it is', { a: 1 }, { a: 1 }],
		['no body: empty text', undefined, ''],
		['null: empty text', null, ''],
		['64 levels are read', sixtyFour, JSON.parse(sixtyFour)],
	])('%s', (_, body, parsed) => {
		expect(responses.parseAnswer(body)).toEqual(parsed);
	});

	test('GBK bytes by their charset', () => {
		const bytes = Uint8Array.from([0x7b, 0x22, 0x6d, 0x22, 0x3a, 0x22, 0xd3, 0xe0, 0xb6, 0xee, 0x22, 0x7d]); // {"m":"余额"}
		expect(responses.parseAnswer(bytes, { 'content-type': 'application/json; charset=gbk' })).toEqual({ m: '余额' });
	});

	test('65 levels are not parsed: the text is kept, as a TooDeep, or as text where it is only explained', () => {
		const answer = responses.parseAnswer(` ${deep}`);
		expect(answer).toBeInstanceOf(responses.TooDeep);
		expect(answer.text).toBe(` ${deep}`);
		expect(responses.parseAnswer(`{"a":${deep}}`)).toBeInstanceOf(responses.TooDeep);
		expect(responses.parseBody(` ${deep}`)).toBe(` ${deep}`);
		expect(responses.parseBody('{"a":1}')).toEqual({ a: 1 });
		expect(responses.parseBody(Buffer.from('plain'))).toBe('plain');
	});

	test("an error answer's first bytes, parsed", async () => {
		expect(await responses.readSmallStream(streamOf(['{"error":', Buffer.from('{"message":"x"}}')]))).toEqual({ error: { message: 'x' } });
		expect(await responses.readSmallStream('{"a":1}')).toEqual({ a: 1 });
		expect(await responses.readSmallStream(undefined)).toBe('');
		expect(await responses.readSmallStream({ a: 1 })).toEqual({ a: 1 });
	});

	test('past the limit: the first bytes only, the rest unread', async () => {
		const stream = streamOf(['abc', 'def', 'ghi', 'jkl']);
		expect(await responses.readSmallStream(stream, undefined, 5)).toBe('abcde');
		expect({ destroyed: stream.destroyed, pulled: stream.pulled }).toEqual({ destroyed: 1, pulled: 2 });
		const exact = streamOf(['abc', 'de', 'fgh']);
		expect(await responses.readSmallStream(exact, undefined, 5)).toBe('abcde');
		expect({ destroyed: exact.destroyed, pulled: exact.pulled }).toEqual({ destroyed: 1, pulled: 2 });
		const under = streamOf(['abc', 'd']);
		expect(await responses.readSmallStream(under, undefined, 5)).toBe('abcd');
		expect(under.destroyed).toBe(0);
	});

	test('an error stream by its charset; the default limit is 64 KB', async () => {
		const gbk = Buffer.from([0xd3, 0xe0, 0xb6, 0xee]);
		expect(await responses.readSmallStream(streamOf([gbk]), { 'content-type': 'text/plain; charset=gbk' })).toBe('余额');
		const big = streamOf([Buffer.alloc(64 * 1024 - 1, 'a'), 'bc', 'de']);
		expect(await responses.readSmallStream(big)).toBe(`${'a'.repeat(64 * 1024 - 1)}b`);
		expect(big.destroyed).toBe(1);
	});
});

describe('responses: what a failure without an answer was', () => {
	test.each([
		['ECONNABORTED', true],
		['ETIMEDOUT', true],
		['ECONNRESET', false],
		[undefined, false],
	])('isTimeoutCode(%p): %p', (code, timeout) => {
		expect(responses.isTimeoutCode(code)).toBe(timeout);
	});

	test.each([
		['DEPTH_ZERO_SELF_SIGNED_CERT', 'it is self-signed'],
		['SELF_SIGNED_CERT_IN_CHAIN', 'it is signed by a self-signed authority'],
		['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'it is issued by an authority n8n does not know'],
		['UNABLE_TO_GET_ISSUER_CERT', 'it is issued by an authority n8n does not know'],
		['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'it is issued by an authority n8n does not know'],
		['CERT_UNTRUSTED', 'it is not trusted'],
		['CERT_SIGNATURE_FAILURE', 'its signature does not verify'],
		['CERT_HAS_EXPIRED', 'it has expired'],
		['CERT_NOT_YET_VALID', 'it is not valid yet'],
		['CERT_REVOKED', 'it was revoked'],
		['ERR_TLS_CERT_ALTNAME_INVALID', 'it is issued for another host name'],
		['HOSTNAME_MISMATCH', 'it is issued for another host name'],
		['CERT_CHAIN_TOO_LONG', 'it could not be verified'],
		['ERR_SSL_BAD_CERT', 'it could not be verified'],
		['ECONNREFUSED', undefined],
		['', undefined],
		[undefined, undefined],
	])('certificateProblem(%p): %p', (code, problem) => {
		expect(responses.certificateProblem(code)).toBe(problem);
	});

	test.each([
		['the cause first', { cause: { code: 'ECONNRESET' }, code: 'ERR_BAD_RESPONSE', httpCode: 'ETIMEDOUT' }, 'ECONNRESET'],
		['then the code', { cause: { code: 42 }, code: 'ETIMEDOUT', httpCode: 'ECONNREFUSED' }, 'ETIMEDOUT'],
		['then n8n\'s httpCode', { code: 'e_lower', httpCode: 'ECONNREFUSED' }, 'ECONNREFUSED'],
		['an HTTP status is not a network code', { httpCode: '502', message: 'Bad gateway' }, undefined],
		['one capital is not a code', { code: 'E', message: 'nothing' }, undefined],
		['a code with a digit is not one', { code: 'E2BIG', message: 'nothing' }, undefined],
		['axios\'s timeout words', { message: 'timeout of 30000ms exceeded' }, 'ECONNABORTED'],
		['a socket hung up', { message: 'socket hang up' }, 'ECONNRESET'],
		['canceled', { message: 'Request canceled' }, 'ERR_CANCELED'],
		['aborted', { message: 'This operation was aborted' }, 'ERR_CANCELED'],
		['a code in the words', { message: 'getaddrinfo ENOTFOUND gw.example.com' }, 'ENOTFOUND'],
		['a code in n8n\'s messages', { messages: ['connect ECONNREFUSED 127.0.0.1:9'], message: 'failed' }, 'ECONNREFUSED'],
		['an ERR_ code in the words', { message: 'failed: ERR_BAD_RESPONSE' }, 'ERR_BAD_RESPONSE'],
		['an undici code in the words', { message: 'other side closed UND_ERR_SOCKET' }, 'UND_ERR_SOCKET'],
		['a short E word is not a code', { message: 'EOF at ERR' }, undefined],
		['timeout words are read before a code', { messages: ['timeout of 5ms exceeded'], message: 'ECONNRESET' }, 'ECONNABORTED'],
		['no words', {}, undefined],
		['nothing', undefined, undefined],
	])('networkCodeOf: %s', (_, error, code) => {
		expect(responses.networkCodeOf(error)).toBe(code);
	});

	test.each([
		['by name, with the address', { name: 'SsrfBlockedIpError', ip: '10.0.0.5' }, { address: '10.0.0.5' }],
		['by name, with the host name', { name: 'SsrfBlockedHostnameError', hostname: 'metadata.internal' }, { hostname: 'metadata.internal' }],
		['by its words, the address in extra', { name: 'Error', message: 'Request to 10.0.0.5 blocked because it resolves to a restricted IP address', extra: { ip: '10.0.0.5', hostname: 'files.lan' } }, { address: '10.0.0.5', hostname: 'files.lan' }],
		['by its words for a host name', { message: 'Request blocked because the destination hostname is restricted' }, {}],
		['an address that is not text is not named', { name: 'SsrfBlockedIpError', ip: 167772165, extra: { ip: '10.0.0.5' } }, { address: '10.0.0.5' }],
		['deep in the causes', { message: 'Request failed', cause: { message: 'wrapped', cause: { name: 'SsrfBlockedIpError', ip: '::1' } } }, { address: '::1' }],
		['another error', { name: 'Error', message: 'blocked by the firewall', cause: { code: 'ECONNREFUSED' } }, undefined],
		['a name that only contains it', { name: 'NotSsrfBlocked' }, undefined],
		['nothing', undefined, undefined],
	])('ssrfBlockOf: %s', (_, error, block) => {
		expect(responses.ssrfBlockOf(error)).toEqual(block);
	});

	test('ssrfBlockOf: a cause that loops ends', () => {
		const error = { message: 'a', cause: { message: 'b' } };
		error.cause.cause = error;
		expect(responses.ssrfBlockOf(error)).toBeUndefined();
	});
});

describe('responses: the key taken out of an answer', () => {
	const forms = ['Bearer sk-secret', 'sk-secret'];
	test.each([
		['text', 'bad key Bearer sk-secret (sk-secret)', 'bad key *** (***)'],
		['an object: every string, key and nested value', { error: { message: 'key sk-secret', ['sk-secret']: ['x sk-secret'] } }, { error: { message: 'key ***', '***': ['x ***'] } }],
	])('%s', (_, body, redacted) => {
		expect(responses.redactBody(body, forms)).toEqual(redacted);
	});

	test('a form that spans JSON syntax: the answer given up for its redacted text', () => {
		expect(responses.redactBody({ a: 'sk-', b: 'x' }, ['sk-","b'])).toBe('{"a":"***":"x"}');
	});

	test('what holds no form is the same answer, untouched', () => {
		const body = { error: { message: 'bad' } };
		expect(responses.redactBody(body, forms)).toBe(body);
		expect(responses.redactBody('text', [])).toBe('text');
		expect(responses.redactBody(null, forms)).toBeNull();
		expect(responses.redactBody(undefined, forms)).toBeUndefined();
		const withKey = { k: 'sk-secret' };
		expect(responses.redactBody(withKey, [])).toBe(withKey);
	});
});

describe('responses: a 2xx answer that refuses the request', () => {
	test.each([
		['success: false', { success: false, message: 'no' }, true],
		['success: false even with a task', { success: false, task_id: 't1' }, true],
		['success: true', { success: true, data: { task_id: 't1' } }, false],
		['a numeric code of 400', { code: 400, msg: 'bad' }, true],
		['a numeric code of 399', { code: 399, msg: 'odd' }, false],
		['a numeric code 0', { code: 0, msg: 'ok', data: null }, false],
		['a code in digits', { code: '500', msg: 'busy' }, true],
		['a code in digits under 400', { code: '200', msg: 'ok' }, false],
		['a code in words', { code: 'insufficient_user_quota', message: 'x' }, false],
		['a code with a task at the root', { code: 500, task_id: 't1' }, false],
		['a code with an id at the root', { code: 500, id: 'video_1' }, false],
		['a code with a task in data', { code: 500, data: { task_id: 't1' } }, false],
		['a code with an id in data', { code: 500, data: { id: 'v1' } }, false],
		['an empty id is no task', { code: 500, task_id: '', data: { id: '' } }, true],
		['a numeric id is no task', { code: 500, id: 7 }, true],
		['a list in data is work', { code: 500, data: [] }, false],
		['choices are work', { code: 500, choices: [] }, false],
		['a result is work', { code: 500, result: 'x' }, false],
		['an error object with a message', { error: { message: 'no channel' } }, true],
		['an error object with a code', { error: { code: 'model_not_found' } }, true],
		['an empty error object', { error: { message: '', code: '' } }, false],
		['an error object beside a task', { error: { message: 'warning' }, id: 'task_1' }, false],
		['an error that is text', { error: 'no' }, false],
		['an error list', { error: [{ message: 'no' }] }, false],
		['a plain task answer', { id: 'task_1', status: 'queued' }, false],
		['a list', [{ success: false }], false],
		['text', 'success: false', false],
		['null', null, false],
	])('%s', (_, body, refused) => {
		expect(responses.refusedWithSuccess(body)).toBe(refused);
	});
});

describe('responses: a Readable built with the class of a body we hold', () => {
	const { Readable, PassThrough } = require('node:stream');
	async function* source() {
		yield Buffer.from('ab');
		yield Buffer.from('c');
	}

	test('from a Readable of any subclass', async () => {
		const made = responses.readableFrom(new PassThrough(), source());
		expect(made).toBeInstanceOf(Readable);
		const chunks = [];
		for await (const chunk of made) chunks.push(chunk);
		expect(Buffer.concat(chunks).toString()).toBe('abc');
	});

	test('a class named Readable without from, or none: undefined', () => {
		class Readable2 {}
		Object.defineProperty(Readable2, 'name', { value: 'Readable' });
		expect(responses.readableFrom(new Readable2(), source())).toBeUndefined();
		expect(responses.readableFrom({}, source())).toBeUndefined();
		expect(responses.readableFrom(Object.create(null), source())).toBeUndefined();
	});
});
