'use strict';
// What the node makes of a gateway's answer, on plain values (no HTTP): the gateway's own words and
// code from whichever envelope it used and the description a failure shows (errors.ts), the words
// each rule of the error table puts together and each fixed word of the relay it matches
// (errorRules.ts), the key as people paste it and the forms it is hidden in (secrets.ts), and an
// answer's bytes: charset, bounds, nesting, parsing, network codes, SSRF blocks, 2xx refusals
// (responses.ts). gateway-errors.test.js holds the table itself (one row per rule, the order where
// two overlap); faults/relay.test.js, faults/submit.test.js, faults/hostile-answers.test.js,
// faults/addresses.test.js and keys.test.js run the same answers and keys through n8n against the
// simulator. This table holds their edges: each envelope and each fixed word, an empty or padded
// text, a code that is not one, each quote a key is pasted in, a limit met exactly, and each
// pattern's edges (a unit's singular, two spaces or none, a two-digit index, a host name's digits).
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
		['a deep indent, and blank lines after it', `${' '.repeat(12)}sk-abc123${'\n'.repeat(12)}`, 'sk-abc123', 'sk-abc123'],
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
		// Spaces inside each pair: a round removes the pair and the spaces it held.
		const spaced = (n) => (n === 0 ? 'sk-abc123' : `" ${spaced(n - 1)} "`);
		expect(secrets.readPastedKey(spaced(4))).toEqual({ key: 'sk-abc123', unwrapped: 'sk-abc123' });
		expect(secrets.readPastedKey(spaced(5))).toEqual({ key: 'sk-abc123', unwrapped: spaced(1) });
		// Bearer and all the spaces after it go in the round that reaches it: the fourth here.
		expect(secrets.readPastedKey(wrapped(4).replace('sk-', 'Bearer  \t sk-'))).toEqual({ key: 'sk-abc123', unwrapped: 'sk-abc123' });
	});

	const EMPTY = "The API Key is empty: paste the key from the gateway's key page";
	test.each([
		['nothing', ''],
		['undefined', undefined],
		['null', null],
		['whitespace', ' \n\t '],
		['quotes only', '""'],
		['quotes around whitespace', '" \u200B "'],
		['the Bearer prefix alone', 'Bearer  '],
		['the Bearer prefix alone, quoted', '"bearer"'],
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
		['a whole header line: Bearer is only a prefix', 'Authorization: Bearer sk-abc', refused('a space (U+0020)', 15, 28)],
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

	test('a field with a character JSON escapes, pasted with spaces: both JSON forms', () => {
		expect(secrets.secretForms({ apiKey: ' sk-a\tb ' })).toEqual(['Bearer sk-a\tb', ' sk-a\\tb ', ' sk-a\tb ', 'sk-a%09b', 'sk-a\\tb', 'sk-a\tb']);
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
		["another of UTF-8's labels goes through the decoder, which drops the byte order mark", Buffer.from('\uFEFF{}'), { 'content-type': 'application/json; charset=unicode-1-1-utf-8' }, '{}'],
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
		['an object with on that cannot be read is no stream', { on: () => undefined, a: 1 }, 10, '{"a":1}', 7, false],
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
		["a code that ends n8n's messages, then the message: apart", { messages: ['connect ECONNREFUSED'], message: 'failed' }, 'ECONNREFUSED'],
		['a code that is a list is not one', { code: ['ECONNRESET'], message: 'nothing' }, undefined],
		['a code with small letters after it is not one', { code: 'ECONNRESETx', message: 'nothing' }, undefined],
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
		['a name that is not text', { name: ['SsrfBlockedIpError'], ip: '10.0.0.5' }, undefined],
		['words that are not text', { message: ['Request blocked because the destination hostname is restricted'] }, undefined],
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

	test('text that is JSON stays text', () => {
		expect(responses.redactBody('{"k":"sk-secret"}', forms)).toBe('{"k":"***"}');
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
		['digits after a space are no code', { code: ' 500', msg: 'x' }, false],
		['digits before a space are no code', { code: '500 ', msg: 'x' }, false],
		['a list of digits is no code', { code: [500], msg: 'x' }, false],
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

describe("responses: an answer's object field (every reader of an answer's fields takes it so)", () => {
	test('an object is itself; a list, text, a number, a switch, null or nothing is none', () => {
		const object = { error: { message: 'no channel' } };
		expect(responses.asObject(object)).toBe(object);
		expect(responses.asObject({})).toEqual({});
		for (const none of [[], [{ message: 'no' }], 'error', '', 7, 0, true, false, null, undefined]) expect(responses.asObject(none)).toBeUndefined();
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
		// A list's class has a from of its own, and is no stream.
		expect(responses.readableFrom([], source())).toBeUndefined();
		const noConstructor = Object.create(Object.create(null, { constructor: { value: undefined } }));
		expect(responses.readableFrom(noConstructor, source())).toBeUndefined();
	});
});

describe("errorRules: each of the relay's fixed words, English and Chinese, and the rule it picks", () => {
	test.each([
		['该令牌额度已用尽', 'key-quota-used-up', 'token_quota_exhausted', "This API key's own quota at the gateway is used up (400) while x"],
		['令牌可用额度已用尽', 'key-quota-used-up', 'token_quota_exhausted', "This API key's own quota at the gateway is used up (400) while x"],
		['TokenStatusExhausted[sk-a***b]', 'key-quota-used-up', 'token_quota_exhausted', "This API key's own quota at the gateway is used up (400) while x"],
		['token quota is exhausted', 'key-quota-used-up', 'token_quota_exhausted', "This API key's own quota at the gateway is used up (400) while x"],
		["token's quota has been exhausted", 'key-quota-used-up', 'token_quota_exhausted', "This API key's own quota at the gateway is used up (400) while x"],
		['token_quota_exhausted', 'key-quota-used-up', 'token_quota_exhausted', "This API key's own quota at the gateway is used up (400) while x"],
		['该令牌已过期', 'key-expired', undefined, 'This API key has expired at the gateway (400) while x'],
		['该 token 已过期', 'key-expired', undefined, 'This API key has expired at the gateway (400) while x'],
		['This token has expired', 'key-expired', undefined, 'This API key has expired at the gateway (400) while x'],
		['token has expired', 'key-expired', undefined, 'This API key has expired at the gateway (400) while x'],
		['该令牌状态不可用', 'key-disabled', undefined, 'This API key is disabled at the gateway (400) while x'],
		['This token status is unavailable', 'key-disabled', undefined, 'This API key is disabled at the gateway (400) while x'],
		['token status is not enabled', 'key-disabled', undefined, 'This API key is disabled at the gateway (400) while x'],
		['insufficient_user_quota', 'balance-too-low', 'insufficient_user_quota', 'Your gateway balance is too low for this request (insufficient_user_quota) while x'],
		['pre_consume_token_quota_failed', 'balance-too-low', 'insufficient_user_quota', 'Your gateway balance is too low for this request (insufficient_user_quota) while x'],
		['user quota is not enough', 'balance-too-low', 'insufficient_user_quota', 'Your gateway balance is too low for this request (insufficient_user_quota) while x'],
		['用户余额不足', 'balance-too-low', 'insufficient_user_quota', 'Your gateway balance is too low for this request (insufficient_user_quota) while x'],
		['用户额度不足', 'balance-too-low', 'insufficient_user_quota', 'Your gateway balance is too low for this request (insufficient_user_quota) while x'],
		['预扣费额度失败', 'balance-too-low', 'insufficient_user_quota', 'Your gateway balance is too low for this request (insufficient_user_quota) while x'],
		['insufficient quota', 'balance-too-low', 'insufficient_user_quota', 'Your gateway balance is too low for this request (insufficient_user_quota) while x'],
		['No available channel for model m1', 'model-not-offered', 'model_not_found', "Model 'm1' is not available to this API key's group (No available channel): the gateway does not offer it to this key (retired upstream, or not in the key's group)"],
		['model_not_found', 'model-not-offered', 'model_not_found', "This model is not available to this API key's group (No available channel): the gateway does not offer it to this key (retired upstream, or not in the key's group)"],
		['分组 default 下模型 m1 无可用渠道', 'model-not-offered', 'model_not_found', "Model 'm1' is not available to this API key's group (No available channel): the gateway does not offer it to this key (retired upstream, or not in the key's group 'default')"],
		['The model `m1` does not exist', 'model-not-offered', 'model_not_found', "Model 'm1' is not available to this API key's group (model does not exist): the gateway does not offer it to this key (retired upstream, or not in the key's group)"],
		['token has no access to model m1', 'model-not-offered', 'model_not_found', "Model 'm1' is not available to this API key's group (the key may not use it): the gateway does not offer it to this key (retired upstream, or not in the key's group)"],
		['该令牌无权访问模型 m1', 'model-not-offered', 'model_not_found', "Model 'm1' is not available to this API key's group (the key may not use it): the gateway does not offer it to this key (retired upstream, or not in the key's group)"],
		['model_price_error', 'model-price-unset', 'model_price_error', 'The gateway has no price set for this model, so it refused the request while x'],
		['model m1 ratio or price not set', 'model-price-unset', 'model_price_error', 'The gateway has no price set for this model, so it refused the request while x'],
		['模型 m1 倍率或价格未配置', 'model-price-unset', 'model_price_error', 'The gateway has no price set for this model, so it refused the request while x'],
		['无权访问 vip 分组', 'group-denied', undefined, "The gateway refused this API key's group (400) while x"],
		['无权访问分组', 'group-denied', undefined, "The gateway refused this API key's group (400) while x"],
		['分组 vip 已被弃用', 'group-denied', undefined, "The gateway refused this API key's group (400) while x"],
		['no permission to access this group', 'group-denied', undefined, "The gateway refused this API key's group (400) while x"],
		['decode_input_reference_failed_at_index_0', 'reference-image-unreadable', 'decode_input_reference_failed_at_index_0', 'The gateway could not read reference image 1 (index 0) while x: it must be a JPEG, PNG or WebP image'],
		['uploaded file must be an image', 'reference-image-unreadable', 'invalid_reference_image', 'The gateway could not read a reference image while x: it must be a JPEG, PNG or WebP image'],
		['do_request_failed', 'upstream-unreachable', 'do_request_failed', 'The gateway could not reach its upstream provider while x (do request failed)'],
		['do request failed', 'upstream-unreachable', 'do_request_failed', 'The gateway could not reach its upstream provider while x (do request failed)'],
		['task_not_exist', 'task-unknown', 'task_not_exist', 'The gateway does not know this task while x (task_not_exist)'],
		['task not exist', 'task-unknown', 'task_not_exist', 'The gateway does not know this task while x (task_not_exist)'],
		['task not found', 'task-unknown', 'task_not_exist', 'The gateway does not know this task while x (task_not_exist)'],
	])('%s', (words, rule, code, message) => {
		const explained = errors.explainGatewayError({ action: 'x', status: 400, body: { error: { message: words } } });
		expect({ rule: explained.rule, code: explained.code, message: explained.message }).toEqual({ rule, code, message });
	});

	test("the gateway's own code wins over the rule's", () => {
		const explained = errors.explainGatewayError({ action: 'x', status: 401, body: { error: { message: '该令牌额度已用尽', code: 'quota_used' } } });
		expect([explained.rule, explained.code]).toEqual(['key-quota-used-up', 'quota_used']);
	});
});

describe('errorRules: the words each rule puts together', () => {
	test.each([
		[
			'a recovery time in 秒',
			{ status: 503, body: { error: { message: 'channel_circuit_open: 渠道熔断，30秒后恢复', code: 'channel_circuit_open' } } },
			{ rule: 'channel-circuit-open', code: 'channel_circuit_open', message: "The gateway paused this model's upstream channel after repeated failures while x: retry after 30 s", description: 'Gateway said: \"channel_circuit_open: 渠道熔断，30秒后恢复\"\nHTTP status: 503, code: channel_circuit_open\nNothing was created. Run the item again once the recovery time has passed.' },
		],
		[
			'a recovery time in 分钟',
			{ status: 503, body: { error: { message: 'channel_circuit_open 2分钟', code: 'channel_circuit_open' } } },
			{ rule: 'channel-circuit-open', code: 'channel_circuit_open', message: "The gateway paused this model's upstream channel after repeated failures while x: retry after 2 min", description: 'Gateway said: \"channel_circuit_open 2分钟\"\nHTTP status: 503, code: channel_circuit_open\nNothing was created. Run the item again once the recovery time has passed.' },
		],
		[
			'a recovery time as a date',
			{ status: 503, body: { error: { message: 'channel_circuit_open until 2026-11-28 10:00', code: 'channel_circuit_open' } } },
			{ rule: 'channel-circuit-open', code: 'channel_circuit_open', message: "The gateway paused this model's upstream channel after repeated failures while x: retry after 2026-11-28 10:00", description: 'Gateway said: channel_circuit_open until 2026-11-28 10:00\nHTTP status: 503, code: channel_circuit_open\nNothing was created. Run the item again once the recovery time has passed.' },
		],
		[
			'a recovery time as an ISO time',
			{ status: 503, body: { error: { message: 'channel_circuit_open until 2026-11-28T10:00:30+08:00, then', code: 'channel_circuit_open' } } },
			{ rule: 'channel-circuit-open', code: 'channel_circuit_open', message: "The gateway paused this model's upstream channel after repeated failures while x: retry after 2026-11-28T10:00:30+08:00", description: 'Gateway said: channel_circuit_open until 2026-11-28T10:00:30+08:00, then\nHTTP status: 503, code: channel_circuit_open\nNothing was created. Run the item again once the recovery time has passed.' },
		],
		[
			'a recovery time in UTC with fractions of a second, at the end of a sentence',
			{ status: 503, body: { error: { message: 'channel_circuit_open: recovers at 2026-11-28T02:00:30.250z.', code: 'channel_circuit_open' } } },
			{ rule: 'channel-circuit-open', code: 'channel_circuit_open', message: "The gateway paused this model's upstream channel after repeated failures while x: retry after 2026-11-28T02:00:30.250z", description: 'Gateway said: channel_circuit_open: recovers at 2026-11-28T02:00:30.250z.\nHTTP status: 503, code: channel_circuit_open\nNothing was created. Run the item again once the recovery time has passed.' },
		],
		[
			'a recovery time with its zone after a space, written without a colon',
			{ status: 503, body: { error: { message: 'channel_circuit_open until 2026-11-28 10:00:30 +0800;', code: 'channel_circuit_open' } } },
			{ rule: 'channel-circuit-open', code: 'channel_circuit_open', message: "The gateway paused this model's upstream channel after repeated failures while x: retry after 2026-11-28 10:00:30 +0800", description: 'Gateway said: channel_circuit_open until 2026-11-28 10:00:30 +0800;\nHTTP status: 503, code: channel_circuit_open\nNothing was created. Run the item again once the recovery time has passed.' },
		],
		[
			'a recovery time in minutes, with a fraction',
			{ status: 503, body: { error: { message: 'channel_circuit_open recovers in 1.5 minutes', code: 'channel_circuit_open' } } },
			{ rule: 'channel-circuit-open', code: 'channel_circuit_open', message: "The gateway paused this model's upstream channel after repeated failures while x: retry after 1.5 minutes", description: 'Gateway said: channel_circuit_open recovers in 1.5 minutes\nHTTP status: 503, code: channel_circuit_open\nNothing was created. Run the item again once the recovery time has passed.' },
		],
		[
			'a recovery time in sec, glued to its number',
			{ status: 503, body: { error: { message: 'channel_circuit_open 45sec', code: 'channel_circuit_open' } } },
			{ rule: 'channel-circuit-open', code: 'channel_circuit_open', message: "The gateway paused this model's upstream channel after repeated failures while x: retry after 45 sec", description: 'Gateway said: channel_circuit_open 45sec\nHTTP status: 503, code: channel_circuit_open\nNothing was created. Run the item again once the recovery time has passed.' },
		],
		[
			'a unit glued to more digits is no unit',
			{ status: 503, body: { error: { message: 'channel_circuit_open 30s2', code: 'channel_circuit_open' } } },
			{ rule: 'channel-circuit-open', code: 'channel_circuit_open', message: "The gateway paused this model's upstream channel after repeated failures while x: retry after the recovery time the gateway names", description: 'Gateway said: channel_circuit_open 30s2\nHTTP status: 503, code: channel_circuit_open\nNothing was created. Run the item again once the recovery time has passed.' },
		],
		[
			'no recovery time named',
			{ status: 503, body: { error: { message: 'channel_circuit_open', code: 'channel_circuit_open' } } },
			{ rule: 'channel-circuit-open', code: 'channel_circuit_open', message: "The gateway paused this model's upstream channel after repeated failures while x: retry after the recovery time the gateway names", description: 'Gateway said: channel_circuit_open\nHTTP status: 503, code: channel_circuit_open\nNothing was created. Run the item again once the recovery time has passed.' },
		],
		[
			'a limit under 1 MB, in KB',
			{ status: 200, refusedAnswer: { limit: 65536, received: 70000 } },
			{ rule: 'answer-refused', code: 'answer_too_large', message: "The gateway's answer was larger than 64 KB (more arrived, counted after decompression) while x: refused unread", description: "HTTP status: 200. No answer of this kind comes near that: the gateway, or a proxy in front of it, sent something else (a compressed or deeply nested bomb, another route's answer). None of it was kept." },
		],
		[
			'a limit of 1.5 MB',
			{ status: 200, refusedAnswer: { limit: 1572864, received: 2000000 } },
			{ rule: 'answer-refused', code: 'answer_too_large', message: "The gateway's answer was larger than 1.5 MB (more arrived, counted after decompression) while x: refused unread", description: "HTTP status: 200. No answer of this kind comes near that: the gateway, or a proxy in front of it, sent something else (a compressed or deeply nested bomb, another route's answer). None of it was kept." },
		],
		[
			'a limit not named',
			{ status: 200, refusedAnswer: { received: 1 } },
			{ rule: 'answer-refused', code: 'answer_too_large', message: "The gateway's answer was larger than 0 KB (more arrived, counted after decompression) while x: refused unread", description: "HTTP status: 200. No answer of this kind comes near that: the gateway, or a proxy in front of it, sent something else (a compressed or deeply nested bomb, another route's answer). None of it was kept." },
		],
		[
			'nested too deep',
			{ status: 200, refusedAnswer: { depth: 64, received: 1 } },
			{ rule: 'answer-refused', code: 'answer_too_deep', message: "The gateway's answer nests lists and objects more than 64 levels deep while x: refused unread", description: "HTTP status: 200. No answer of this kind comes near that: the gateway, or a proxy in front of it, sent something else (a compressed or deeply nested bomb, another route's answer). None of it was kept." },
		],
		[
			'n8n blocked an address: the range and the host name to allow',
			{ blocked: { by: 'n8n', url: 'http://files.lan:9000/x.png', host: 'files.lan:9000', address: '10.0.0.5', settings: true } },
			{ rule: 'request-blocked', code: 'ssrf_blocked', message: "n8n's SSRF protection blocked http://files.lan:9000/x.png before it was sent: files.lan:9000 resolves to the restricted address 10.0.0.5 (while x)", description: "Nothing was sent, so nothing was asked again: the same request is refused the same way. If that host is yours (a gateway or file store on your network), allow it in n8n's environment with N8N_SSRF_ALLOWED_IP_RANGES=10.0.0.5/32 or N8N_SSRF_ALLOWED_HOSTNAMES=files.lan and restart n8n. Or, if the gateway itself is on that host, keep its Base URL and allow it as above." },
		],
		[
			'n8n blocked a host name',
			{ blocked: { by: 'n8n', url: 'http://metadata.internal/x', host: 'metadata.internal', settings: true } },
			{ rule: 'request-blocked', code: 'ssrf_blocked', message: "n8n's SSRF protection blocked http://metadata.internal/x before it was sent: metadata.internal is a restricted host (while x)", description: "Nothing was sent, so nothing was asked again: the same request is refused the same way. If that host is yours (a gateway or file store on your network), allow it in n8n's environment with N8N_SSRF_ALLOWED_HOSTNAMES=metadata.internal and restart n8n. Or, if the gateway itself is on that host, keep its Base URL and allow it as above." },
		],
		[
			'n8n blocked an IPv6 address a redirect named',
			{ blocked: { by: 'n8n', url: 'http://[fd00::1]:80/x', host: '[fd00::1]:80', address: 'fd00::1', settings: true, redirectedFrom: 'https://gw.example.com/v1/x' } },
			{ rule: 'request-blocked', code: 'ssrf_blocked', message: "n8n's SSRF protection blocked http://[fd00::1]:80/x, where https://gw.example.com/v1/x redirected, before it was sent: [fd00::1]:80 resolves to the restricted address fd00::1 (while x)", description: "Nothing was sent, so nothing was asked again: the same request is refused the same way. If that host is yours (a gateway or file store on your network), allow it in n8n's environment with N8N_SSRF_ALLOWED_IP_RANGES=fd00::1/128 and restart n8n. Or, if the gateway itself is on that host, keep its Base URL and allow it as above." },
		],
		[
			'the node refused a loopback address on n8n 1.x',
			{ blocked: { by: 'node', url: 'http://127.0.0.1:5678/x', host: '127.0.0.1:5678', kind: 'loopback', address: '127.0.0.1', settings: false } },
			{ rule: 'request-blocked', code: 'address_refused', message: "http://127.0.0.1:5678/x points at 127.0.0.1:5678, a loopback address (the n8n host itself): the node does not send n8n there on a gateway's word (while x)", description: "Nothing was sent, so nothing was asked again: the same request is refused the same way. n8n 1.x has no SSRF settings to allow it: only a gateway whose Base URL is on the same kind of address may send n8n there (on n8n 2.x, N8N_SSRF_ALLOWED_IP_RANGES / N8N_SSRF_ALLOWED_HOSTNAMES allow it). Otherwise ask the gateway's operator why its answer points there." },
		],
		[
			'the node refused a name that resolves to a metadata address',
			{ blocked: { by: 'node', url: 'http://evil.example.com/x', host: 'evil.example.com', kind: 'metadata', address: '169.254.169.254', settings: true } },
			{ rule: 'request-blocked', code: 'address_refused', message: "http://evil.example.com/x points at evil.example.com (169.254.169.254), a cloud metadata service's address: the node does not send n8n there on a gateway's word (while x)", description: "Nothing was sent, so nothing was asked again: the same request is refused the same way. If that address is really yours, allow it in n8n's environment with N8N_SSRF_ALLOWED_IP_RANGES=169.254.169.254/32 or N8N_SSRF_ALLOWED_HOSTNAMES=evil.example.com and restart n8n: this node follows n8n's SSRF settings whether or not N8N_SSRF_PROTECTION_ENABLED is on. Otherwise ask the gateway's operator why its answer points there." },
		],
		[
			'the node refused a host of no kind named: loopback',
			{ blocked: { by: 'node', url: 'http://localhost/x', host: 'localhost', settings: true } },
			{ rule: 'request-blocked', code: 'address_refused', message: "http://localhost/x points at localhost, a loopback address (the n8n host itself): the node does not send n8n there on a gateway's word (while x)", description: "Nothing was sent, so nothing was asked again: the same request is refused the same way. If that address is really yours, allow it in n8n's environment with N8N_SSRF_ALLOWED_HOSTNAMES=localhost and restart n8n: this node follows n8n's SSRF settings whether or not N8N_SSRF_PROTECTION_ENABLED is on. Otherwise ask the gateway's operator why its answer points there." },
		],
		[
			'the node refused an IPv6 link-local address',
			{ blocked: { by: 'node', url: 'http://[fe80::1]/x', host: '[fe80::1]', kind: 'link-local', address: 'fe80::1', settings: true } },
			{ rule: 'request-blocked', code: 'address_refused', message: "http://[fe80::1]/x points at [fe80::1], a link-local address (169.254.0.0/16, fe80::/10): the node does not send n8n there on a gateway's word (while x)", description: "Nothing was sent, so nothing was asked again: the same request is refused the same way. If that address is really yours, allow it in n8n's environment with N8N_SSRF_ALLOWED_IP_RANGES=fe80::1/128 and restart n8n: this node follows n8n's SSRF settings whether or not N8N_SSRF_PROTECTION_ENABLED is on. Otherwise ask the gateway's operator why its answer points there." },
		],
		[
			'a certificate for another host name',
			{ networkCode: 'ERR_TLS_CERT_ALTNAME_INVALID' },
			{ rule: 'certificate-refused', code: 'ERR_TLS_CERT_ALTNAME_INVALID', message: "The gateway's TLS certificate was refused while x: it is issued for another host name (ERR_TLS_CERT_ALTNAME_INVALID)", description: "n8n reached the gateway but did not trust its certificate, so nothing was sent. If the certificate names another host name, put that name in the credential's Base URL. Either trust the certificate's authority on the n8n host (put its CA file in NODE_EXTRA_CA_CERTS=/path/to/ca.pem in n8n's environment and restart n8n), or turn on Ignore SSL Issues (Insecure) in the Unified AI Gateway API credential (it applies to Base URL and Alt Base URL only; the key then goes to a server whose identity is not checked)." },
		],
		[
			'a host name mismatch',
			{ networkCode: 'HOSTNAME_MISMATCH' },
			{ rule: 'certificate-refused', code: 'HOSTNAME_MISMATCH', message: "The gateway's TLS certificate was refused while x: it is issued for another host name (HOSTNAME_MISMATCH)", description: "n8n reached the gateway but did not trust its certificate, so nothing was sent. If the certificate names another host name, put that name in the credential's Base URL. Either trust the certificate's authority on the n8n host (put its CA file in NODE_EXTRA_CA_CERTS=/path/to/ca.pem in n8n's environment and restart n8n), or turn on Ignore SSL Issues (Insecure) in the Unified AI Gateway API credential (it applies to Base URL and Alt Base URL only; the key then goes to a server whose identity is not checked)." },
		],
		[
			'an expired certificate: no word of host names',
			{ networkCode: 'CERT_HAS_EXPIRED' },
			{ rule: 'certificate-refused', code: 'CERT_HAS_EXPIRED', message: "The gateway's TLS certificate was refused while x: it has expired (CERT_HAS_EXPIRED)", description: "n8n reached the gateway but did not trust its certificate, so nothing was sent. Either trust the certificate's authority on the n8n host (put its CA file in NODE_EXTRA_CA_CERTS=/path/to/ca.pem in n8n's environment and restart n8n), or turn on Ignore SSL Issues (Insecure) in the Unified AI Gateway API credential (it applies to Base URL and Alt Base URL only; the key then goes to a server whose identity is not checked)." },
		],
		[
			'no answer in time, not billed',
			{ networkCode: 'ETIMEDOUT', timeoutMs: 1500 },
			{ rule: 'no-answer-in-time', code: 'ETIMEDOUT', message: 'No answer from the gateway within 2 s while x', description: 'Check the Base URL and that the gateway is reachable from n8n.' },
		],
		[
			'no answer in time, billed, no time named',
			{ networkCode: 'ETIMEDOUT', billed: true, created: 'no' },
			{ rule: 'no-answer-in-time', code: 'ETIMEDOUT', message: 'No answer from the gateway within 0 s while x: the job may have been created and billed', description: "The request was sent but its answer was lost. The gateway may still run (and bill) the job: check the account's task list before running this item again. Our node never resends it by itself." },
		],
		[
			'unreachable, no code',
			{  },
			{ rule: 'unreachable', code: undefined, message: 'Could not reach the gateway while x (connection failed)', description: 'Check the Base URL and that the gateway is reachable from n8n.' },
		],
		[
			'unreachable after the request left, billed',
			{ networkCode: 'ECONNRESET', billed: true },
			{ rule: 'unreachable', code: 'ECONNRESET', message: 'Could not reach the gateway while x (ECONNRESET): the job may have been created and billed', description: "The request was sent but its answer was lost. The gateway may still run (and bill) the job: check the account's task list before running this item again. Our node never resends it by itself." },
		],
		[
			'unreachable before the request left, billed: nothing was created',
			{ networkCode: 'ECONNREFUSED', billed: true },
			{ rule: 'unreachable', code: 'ECONNREFUSED', message: 'Could not reach the gateway while x (ECONNREFUSED)', description: 'Check the Base URL and that the gateway is reachable from n8n.' },
		],
		[
			'a limit of exactly 1 MB',
			{ status: 200, refusedAnswer: { limit: 1024 * 1024, received: 1024 * 1024 + 1 } },
			{ rule: 'answer-refused', code: 'answer_too_large', message: 'The gateway\'s answer was larger than 1 MB (more arrived, counted after decompression) while x: refused unread', description: "HTTP status: 200. No answer of this kind comes near that: the gateway, or a proxy in front of it, sent something else (a compressed or deeply nested bomb, another route's answer). None of it was kept." },
		],
		[
			'a redirect to what is not a URL',
			{ status: 307, unfollowedRedirect: 'not a url' },
			{ rule: 'redirect-not-followed', code: 'redirect_307', message: 'The gateway redirected the request to not a url (HTTP 307) while x; it was not followed', description: "HTTP status: 307\nA request that creates work is never re-sent to another address by the node. If the gateway moved, put its new address in the credential's Base URL." },
		],
		[
			'a redirect refused with 403',
			{ status: 403, redirectedTo: 'https://b.example.com', body: { error: { message: 'no', code: 'c' } } },
			{ rule: 'redirect-refused', code: 'c', message: 'The gateway redirected to https://b.example.com, which refused the request (403) while x', description: 'Gateway said: no\nHTTP status: 403, code: c\nThe API key is only sent to the origins of Base URL and Alt Base URL, never to an address a redirect points to. If the gateway now lives there, put that address in the credential.' },
		],
		[
			'a redirect answered 404 is not a refusal of the key',
			{ status: 404, redirectedTo: 'https://b.example.com', body: '' },
			{ rule: 'not-found', code: undefined, message: 'The gateway answered 404 Not Found while x', description: 'HTTP status: 404\nCheck the Base URL in the credential (for example https://gateway.example.com/v1) and the task ID or route.' },
		],
		[
			'a low balance with its code',
			{ status: 403, body: { code: 'pre_consume_token_quota_failed', message: '预扣费额度失败' } },
			{ rule: 'balance-too-low', code: 'pre_consume_token_quota_failed', message: 'Your gateway balance is too low for this request (pre_consume_token_quota_failed) while x', description: "Gateway said: \"预扣费额度失败\"\nHTTP status: 403, code: pre_consume_token_quota_failed\nTop up the account or the key's quota, or pick a cheaper model. Nothing was retried." },
		],
		[
			'a low balance without a code',
			{ status: 403, body: { message: '余额不足' } },
			{ rule: 'balance-too-low', code: 'insufficient_user_quota', message: 'Your gateway balance is too low for this request (insufficient_user_quota) while x', description: "Gateway said: \"余额不足\"\nHTTP status: 403\nTop up the account or the key's quota, or pick a cheaper model. Nothing was retried." },
		],
		[
			'the model asked for, over the one the text names',
			{ status: 503, model: 'sora-2', body: { error: { message: 'No available channel for model other under group vip' } } },
			{ rule: 'model-not-offered', code: 'model_not_found', message: "Model 'sora-2' is not available to this API key's group (No available channel): the gateway does not offer it to this key (retired upstream, or not in the key's group 'vip')", description: "Gateway said: No available channel for model other under group vip\nHTTP status: 503\nModels are retired upstream while gateways still list their ids (OpenAI switched Sora 2 off on 2026-09-24). Pick a model listed by Account → List Models, or ask the gateway admin to add the model to the key's group." },
		],
		[
			'a quoted model and its group',
			{ status: 503, body: { error: { message: "No available channel for model 'sora-2' under group vip (distributor)" } } },
			{ rule: 'model-not-offered', code: 'model_not_found', message: "Model 'sora-2' is not available to this API key's group (No available channel): the gateway does not offer it to this key (retired upstream, or not in the key's group 'vip')", description: "Gateway said: No available channel for model 'sora-2' under group vip (distributor)\nHTTP status: 503\nModels are retired upstream while gateways still list their ids (OpenAI switched Sora 2 off on 2026-09-24). Pick a model listed by Account → List Models, or ask the gateway admin to add the model to the key's group." },
		],
		[
			'the Chinese text with 对于',
			{ status: 503, body: { error: { message: '当前分组 vip 下对于模型 sora-2 的可用渠道不存在 无可用渠道' } } },
			{ rule: 'model-not-offered', code: 'model_not_found', message: "Model 'sora-2' is not available to this API key's group (No available channel): the gateway does not offer it to this key (retired upstream, or not in the key's group 'vip')", description: "Gateway said: \"当前分组 vip 下对于模型 sora-2 的可用渠道不存在 无可用渠道\"\nHTTP status: 503\nModels are retired upstream while gateways still list their ids (OpenAI switched Sora 2 off on 2026-09-24). Pick a model listed by Account → List Models, or ask the gateway admin to add the model to the key's group." },
		],
		[
			'a model named last',
			{ status: 404, body: { error: { message: 'no available channel for model gpt-x' } } },
			{ rule: 'model-not-offered', code: 'model_not_found', message: "Model 'gpt-x' is not available to this API key's group (No available channel): the gateway does not offer it to this key (retired upstream, or not in the key's group)", description: "Gateway said: no available channel for model gpt-x\nHTTP status: 404\nModels are retired upstream while gateways still list their ids (OpenAI switched Sora 2 off on 2026-09-24). Pick a model listed by Account → List Models, or ask the gateway admin to add the model to the key's group." },
		],
		[
			'no price for the model asked for',
			{ status: 400, model: 'wan', body: { code: 'model_price_error', message: 'x' } },
			{ rule: 'model-price-unset', code: 'model_price_error', message: "The gateway has no price set for model 'wan', so it refused the request while x", description: "Gateway said: x\nHTTP status: 400, code: model_price_error\nNothing was charged. The gateway admin has to set the model's price (ratio) before it can be used; or pick another model." },
		],
		[
			'the field the error names, trimmed',
			{ status: 400, body: { error: { message: 'bad', param: '  size ' } } },
			{ rule: 'invalid-request', code: undefined, message: "The gateway rejected the field 'size' while x: bad", description: 'Gateway said: bad\nHTTP status: 400\nCorrect the parameter it names and run the item again.' },
		],
		[
			'a blank param: the field from the text',
			{ status: 422, body: { error: { message: 'bad image_size value', param: ' ' } } },
			{ rule: 'invalid-request', code: undefined, message: "The gateway rejected the field 'image_size' while x: bad image_size value", description: 'Gateway said: bad image_size value\nHTTP status: 422\nCorrect the parameter it names and run the item again.' },
		],
		[
			'a longer word is no field',
			{ status: 400, body: { error: { message: 'sizes must be listed' } } },
			{ rule: 'invalid-request', code: undefined, message: 'The gateway rejected the request as invalid while x: sizes must be listed', description: 'Gateway said: sizes must be listed\nHTTP status: 400\nCorrect the parameter it names and run the item again.' },
		],
		[
			'a one-letter field',
			{ status: 400, body: { error: { message: 'n must be 1' } } },
			{ rule: 'invalid-request', code: undefined, message: "The gateway rejected the field 'n' while x: n must be 1", description: 'Gateway said: n must be 1\nHTTP status: 400\nCorrect the parameter it names and run the item again.' },
		],
		[
			'no words',
			{ status: 400, body: {  } },
			{ rule: 'invalid-request', code: undefined, message: 'The gateway rejected the request as invalid while x', description: 'HTTP status: 400\nCorrect the parameter it names and run the item again.' },
		],
		[
			'the most specific field first',
			{ status: 400, body: { message: 'output_compression needs output_format' } },
			{ rule: 'invalid-request', code: undefined, message: "The gateway rejected the field 'output_compression' while x: output_compression needs output_format", description: 'Gateway said: output_compression needs output_format\nHTTP status: 400\nCorrect the parameter it names and run the item again.' },
		],
		[
			'a field at the start',
			{ status: 400, body: { message: 'prompt: too long' } },
			{ rule: 'invalid-request', code: undefined, message: "The gateway rejected the field 'prompt' while x: prompt: too long", description: 'Gateway said: prompt: too long\nHTTP status: 400\nCorrect the parameter it names and run the item again.' },
		],
		[
			'404',
			{ status: 404, body: '' },
			{ rule: 'not-found', code: undefined, message: 'The gateway answered 404 Not Found while x', description: 'HTTP status: 404\nCheck the Base URL in the credential (for example https://gateway.example.com/v1) and the task ID or route.' },
		],
		[
			'413',
			{ status: 413, body: {  } },
			{ rule: 'too-large', code: undefined, message: 'The file is too large for the gateway (413) while x', description: 'HTTP status: 413\nUploads and reference images may be at most 20 MB.' },
		],
		[
			'504, not billed',
			{ status: 504, body: {  } },
			{ rule: 'gateway-timeout', code: undefined, message: 'The gateway timed out (504) while x', description: 'HTTP status: 504\nUse an async model or a longer timeout.' },
		],
		[
			'an empty body',
			{ status: 502, body: '  ' },
			{ rule: 'no-explanation', code: undefined, message: 'The gateway answered HTTP 502 with an empty body while x', description: 'HTTP status: 502\nThe gateway gave no explanation. Try again later; if it persists, contact the gateway admin.' },
		],
		[
			'an HTML page in capitals',
			{ status: 502, body: '<HTML>x' },
			{ rule: 'no-explanation', code: undefined, message: 'The gateway answered HTTP 502 with an HTML page instead of JSON while x', description: 'HTTP status: 502\nAn HTML page usually means the Base URL points at a website or proxy, not at the gateway API. Check the Base URL (for example https://gateway.example.com/v1).' },
		],
		[
			'a failure, not billed',
			{ status: 500, body: {  } },
			{ rule: 'gateway-failed', code: undefined, message: 'The gateway failed (HTTP 500) while x', description: 'HTTP status: 500\nTry again later; if it persists, contact the gateway admin.' },
		],
		[
			'a 2xx refusal without words',
			{ status: 200, refusedWith200: true, body: { success: false } },
			{ rule: 'refused-with-200', code: undefined, message: 'The gateway refused the request while x', description: 'HTTP status: 200\nThe gateway answered HTTP 200 but its body is a refusal: nothing was created. Correct what it names and run the item again.' },
		],
		[
			'401',
			{ status: 401, body: {  } },
			{ rule: 'key-rejected', code: undefined, message: 'The gateway rejected the API key (401) while x', description: "HTTP status: 401\nCheck the API Key in the Unified AI Gateway API credential: copy it again from the gateway's key page." },
		],
		[
			'403',
			{ status: 403, body: {  } },
			{ rule: 'forbidden', code: undefined, message: 'The gateway refused the request (403) while x', description: 'HTTP status: 403\nThe key may lack permission for this model or route, or the balance may be too low.' },
		],
		[
			'429',
			{ status: 429, body: {  } },
			{ rule: 'rate-limited', code: undefined, message: 'The gateway is rate limiting requests (429) while x', description: 'HTTP status: 429\nWait a little and run again, or lower the Concurrency option so fewer requests run at once.' },
		],
		[
			'another task',
			{ status: 200, otherTask: { asked: 'a1', named: 'b2' } },
			{ rule: 'another-task', code: 'another_task', message: 'The gateway answered the read of task a1 with another task, b2: not taken as the state of a1', description: 'Task a1 is yours; the answer named b2 and no id of yours, so neither its status nor its files count for a1. The task is read again; if the gateway keeps answering so, ask its operator (a cache or a proxy in front of it may mix answers up). Do not submit a1 again: it may still be running or finished.' },
		],
	])('%s', (_, facts, expected) => {
		const explained = errors.explainGatewayError({ action: 'x', ...facts });
		expect({ rule: explained.rule, code: explained.code, message: explained.message, description: explained.description }).toEqual(expected);
	});
});

describe("errorRules: each pattern's edges, as a message makes the node read another value", () => {
	const circuit = (when) => `The gateway paused this model's upstream channel after repeated failures while x: retry after ${when}`;
	const unnamed = 'the recovery time the gateway names';
	const offered = (model, group, reason = 'No available channel') =>
		`${model ? `Model '${model}'` : 'This model'} is not available to this API key's group (${reason}): the gateway does not offer it to this key (retired upstream, or not in the key's group${group ? ` '${group}'` : ''})`;
	test.each([
		['a recovery time with two decimals', 'channel_circuit_open 1.25 s', circuit('1.25 s')],
		['a recovery time in millisecond', 'channel_circuit_open 500 millisecond', circuit('500 millisecond')],
		['a recovery time in second', 'channel_circuit_open 1 second', circuit('1 second')],
		['a recovery time in min', 'channel_circuit_open 3 min', circuit('3 min')],
		['a recovery time in minute', 'channel_circuit_open 1 minute', circuit('1 minute')],
		['a time with a one-digit minute is no time', 'channel_circuit_open until 2026-11-28 10:5 then', circuit(unnamed)],
		['a time whose seconds are words', 'channel_circuit_open until 2026-11-28 10:00: later', circuit('2026-11-28 10:00')],
		['a model after two spaces', 'No available channel for model  m1 under group vip', offered('m1', 'vip')],
		['two spaces before under group', 'No available channel for model m1  under group vip', offered('m1', 'vip')],
		['two spaces after under group', 'No available channel for model m1 under group  vip', offered('m1', 'vip')],
		['the Chinese text without spaces', '分组vip下模型m1无可用渠道', offered('m1', 'vip')],
		['a model that does not exist, after two spaces', 'The model  m1 does not exist', offered('m1', undefined, 'model does not exist')],
		['two spaces before does not exist', 'The model m1  does not exist', offered('m1', undefined, 'model does not exist')],
		['a retired group without spaces', '分组vip已被弃用', "The gateway refused this API key's group (400) while x"],
		['a reference image index of two digits', 'decode_input_reference_failed_at_index_12', 'The gateway could not read reference image 13 (index 12) while x: it must be a JPEG, PNG or WebP image'],
		['a field in capitals', 'SIZE must be 1280x720', "The gateway rejected the field 'size' while x: SIZE must be 1280x720"],
	])('%s', (_, words, message) => {
		const explained = errors.explainGatewayError({ action: 'x', status: 400, body: { error: { message: words } } });
		expect(explained.message).toBe(message);
	});

	test.each([
		['a text answer at 400: no param to read, the field from the words', { status: 400, body: 'bad size' }, 'invalid-request', "The gateway rejected the field 'size' while x: bad size"],
		['a param and no words', { status: 400, body: { error: { param: 'size' } } }, 'invalid-request', "The gateway rejected the field 'size' while x"],
		['a list whose text is HTML is not an HTML page', { status: 502, body: ['<html>x'] }, 'gateway-failed', 'The gateway failed (HTTP 502) while x'],
		['a text answer with words is not an empty or HTML body', { status: 502, body: 'Stryker was here!' }, 'gateway-failed', 'The gateway failed (HTTP 502) while x: Stryker was here!'],
		['an answer with a status is no certificate refusal', { status: 502, networkCode: 'CERT_HAS_EXPIRED', body: {} }, 'gateway-failed', 'The gateway failed (HTTP 502) while x'],
		['an answer with a status is no timeout', { status: 502, networkCode: 'ETIMEDOUT', body: {} }, 'gateway-failed', 'The gateway failed (HTTP 502) while x'],
		['a low balance for a named charge, without a code', { status: 403, charge: '$0.40', body: { message: '余额不足' } }, 'balance-too-low', 'Gateway balance too low for $0.40 (insufficient_user_quota) while x'],
		['a low balance for a named charge, with its code', { status: 403, charge: '$0.40', body: { code: 'pre_consume_token_quota_failed', message: '预扣费额度失败' } }, 'balance-too-low', 'Gateway balance too low for $0.40 (pre_consume_token_quota_failed) while x'],
	])('%s', (_, facts, rule, message) => {
		const explained = errors.explainGatewayError({ action: 'x', ...facts });
		expect([explained.rule, explained.message]).toEqual([rule, message]);
	});

	test.each([
		['a host name ending in a digit', 'nas2', 'N8N_SSRF_ALLOWED_IP_RANGES=10.0.0.5/32 or N8N_SSRF_ALLOWED_HOSTNAMES=nas2'],
		['a host name starting with a digit', '1files.lan', 'N8N_SSRF_ALLOWED_IP_RANGES=10.0.0.5/32 or N8N_SSRF_ALLOWED_HOSTNAMES=1files.lan'],
		['digits and dots that are no address: no host name to allow', '1.2.3', 'N8N_SSRF_ALLOWED_IP_RANGES=10.0.0.5/32'],
		['digits and dots, no address known: the two settings named, no empty value', '1.2.3', 'N8N_SSRF_ALLOWED_IP_RANGES (its address range) or N8N_SSRF_ALLOWED_HOSTNAMES (its host name)', null],
	])('n8n blocked %s', (_, host, settings, address = '10.0.0.5') => {
		const blocked = { by: 'n8n', url: `http://${host}/x`, host, address: address ?? undefined, settings: true };
		const explained = errors.explainGatewayError({ action: 'x', blocked });
		expect(explained.description).toContain(`allow it in n8n's environment with ${settings} and restart n8n.`);
	});
});

describe('errorRules: what each rule of fixed words tells the user to do', () => {
	test.each([
		['该令牌额度已用尽', "The key is valid, but the spending limit set on this key is reached (the account may still have balance)."],
		['该令牌已过期', "On the gateway's key page extend the key's expiry (or set it to never expire), or create a new key and put it in the Unified AI Gateway API credential."],
		['该令牌状态不可用', "Enable the key on the gateway's key page, or put another key in the Unified AI Gateway API credential."],
		['分组 vip 已被弃用', 'The key is set to a group its account may not use, or the group was retired.'],
	])('%s', (words, advice) => {
		const explained = errors.explainGatewayError({ action: 'x', status: 400, body: { error: { message: words } } });
		expect(explained.description.split('\n')[2]).toContain(advice);
	});
});

describe('errorRules: a billed request that a rule says was refused whatever the status: nothing was created', () => {
	test.each([
		['blocked before it was sent', { blocked: { by: 'n8n', url: 'http://files.lan/x', host: 'files.lan', settings: true } }],
		['a refused certificate', { networkCode: 'CERT_HAS_EXPIRED' }],
		['a paused channel', { status: 503, body: { error: { message: 'channel_circuit_open' } } }],
		["the key's quota used up", { status: 503, body: { error: { message: '该令牌额度已用尽' } } }],
		['a low balance', { status: 503, body: { error: { message: '余额不足' } } }],
		['a model not offered', { status: 503, body: { error: { message: 'model_not_found' } } }],
		['no price for the model', { status: 503, body: { error: { message: 'model_price_error' } } }],
	])('%s', (_, facts) => {
		expect(errors.explainGatewayError({ action: 'x', billed: true, ...facts }).created).toBe('no');
	});
});
