'use strict';
// gatewayRequest (request.ts) on a fake context (no HTTP) and jest's clock: the one retry policy
// as it runs. A POST answered 429 (not processed, the one answer after which a POST is sent again):
// its Retry-After, the backoff behind the pacer, the two-minute budget (retry.ts RATE_LIMIT). A GET
// answered 5xx or dropped: five attempts, the backoff, a Retry-After up to a minute, never a billed
// one. Each attempt's timeout cut to the request's deadline, no retry past it. submits.test.js and
// faults/submit.test.js, faults/poll.test.js run the same through n8n against the simulator; this
// table holds the clock's edges, which a real run cannot reach in a few seconds.
//
// The modules are loaded afresh in each test (fresh-modules.js says why).
const fresh = require('./fresh-modules').freshEachTest();
const { settledOnClock } = require('./fake-clock');
const request = fresh(() => require('../dist/nodes/UnifiedAiGateway/transport/request.js'));

const NOW = Date.parse('2026-11-28T08:00:00Z');
const GATEWAY = 'https://gw.example.com';
const LIMITED = { statusCode: 429, headers: {}, body: '' };
const ACCEPTED = { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"task_id":"task_1"}' };

/**
 * A context whose gateway gives `answers` in turn (the last one from then on; an Error is thrown)
 * and records each request's options and when it was sent, in ms of jest's clock from the context's making.
 */
function fakeContext(answers, credential = {}) {
	const sentAt = [];
	const options = [];
	const debug = [];
	const start = Date.now();
	const node = { name: 'Gateway', type: 'unifiedAiGateway', credentials: { unifiedAiGatewayApi: { id: '7', name: 'My gateway' } } };
	// An answer is an object, an Error thrown, or a function that makes it (a stream read once, an
	// attempt that takes time on jest's clock).
	const send = async (sent) => {
		sentAt.push(Date.now() - start);
		options.push(sent);
		const answer = answers[Math.min(sentAt.length - 1, answers.length - 1)];
		if (answer instanceof Error) throw answer;
		return typeof answer === 'function' ? await answer() : { ...answer };
	};
	const ctx = {
		getNode: () => node,
		logger: { debug: (message) => debug.push(message) },
		getCredentials: async () => ({ baseUrl: `${GATEWAY}/v1`, apiKey: 'sk-test', ...credential }),
		helpers: { httpRequestWithAuthentication: async (_, sent) => send(sent), httpRequest: send },
	};
	return { ctx, sentAt, options, debug };
}

/** A billed submit, as the image and video operations send it. */
const submit = (ctx) =>
	request.gatewayRequest.call(ctx, { method: 'POST', path: '/v1/images/generations', body: { prompt: 'a fox' }, billed: true, action: 'submitting the image', itemIndex: 0 });

/** A task read, as the wait loop sends it. */
const read = (ctx, more) => request.gatewayRequest.call(ctx, { method: 'GET', path: '/v1/videos/task_1', action: 'reading the task', itemIndex: 0, ...more });

/** The request's outcome once jest's clock has run every wait it sets. */
const settled = (promise) => settledOnClock(promise, { stepMs: 1_000 });

beforeEach(() => jest.useFakeTimers({ now: NOW }));
afterEach(() => {
	jest.useRealTimers();
	jest.restoreAllMocks();
});

describe('a POST answered 429 is sent again', () => {
	test('after the Retry-After it was given, and the answer that came then is returned', async () => {
		const { ctx, sentAt } = fakeContext([{ ...LIMITED, headers: { 'retry-after': '2' } }, ACCEPTED]);
		const { value } = await settled(submit(ctx));
		expect(sentAt).toEqual([0, 2_000]);
		expect(value).toMatchObject({ status: 200, body: { task_id: 'task_1' } });
	});

	test('without a Retry-After, after a backoff, and no sooner than the pacer gives it a slot', async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0);
		const { ctx, sentAt } = fakeContext([LIMITED, LIMITED, LIMITED, LIMITED, ACCEPTED]);
		const { value } = await settled(submit(ctx));
		// 250 ms: the lower half of the first backoff (500 ms, the jitter at 0). The third and the
		// fourth wait past their own 500 and 1,000 ms for the pacer's next slot (0.8 a second after
		// the first 429, then × 0.8 at each: 1.25 s on, 1.5625 s on); the fifth its 2,000 ms, past
		// the pacer's 1.95 s.
		expect(sentAt).toEqual([0, 250, 1_500, 3_062, 5_062]);
		expect(value.status).toBe(200);
	});

	test('until the next wait would end past two minutes from the first send: then the 429 is the error, not processed', async () => {
		const { ctx, sentAt } = fakeContext([{ ...LIMITED, headers: { 'retry-after': '40' } }]);
		const { error } = await settled(submit(ctx));
		// 0, 40 and 80 s; one more would be sent at 120 s, which is still within; 160 s is not.
		expect(sentAt).toEqual([0, 40_000, 80_000, 120_000]);
		expect(error).toBeInstanceOf(request.GatewayRequestError);
		expect(error.httpCode).toBe('429');
		expect(error.context.created).toBe('no');
	});

	test('a Retry-After past a minute is not waited, nor one past the request\'s deadline: the 429 is the error, not processed', async () => {
		const long = fakeContext([{ ...LIMITED, headers: { 'retry-after': '61' } }]);
		const { error } = await settled(submit(long.ctx));
		expect(long.sentAt).toEqual([0]);
		expect(error).toMatchObject({ httpCode: '429', retryAfterMs: 61_000 });
		expect(error.context.created).toBe('no');
		// A second, and a second for the attempt: past a deadline 1.5 s away.
		const soon = fakeContext([{ ...LIMITED, headers: { 'retry-after': '1' } }, ACCEPTED]);
		const late = await settled(
			request.gatewayRequest.call(soon.ctx, { method: 'POST', path: '/v1/images/generations', body: {}, billed: true, action: 'submitting the image', deadlineAt: Date.now() + 1_500 }),
		);
		expect(soon.sentAt).toEqual([0]);
		expect(late.error.httpCode).toBe('429');
	});
});

describe("a POST refused by the relay's overload guard is sent again as a 429 is", () => {
	// new-api's middleware/performance.go: 503 before the key is checked, nothing billed, no Retry-After.
	const overloaded = (kind = 'cpu', headers = {}) => ({
		statusCode: 503,
		headers: { 'content-type': 'application/json', ...headers },
		body: JSON.stringify({ error: { message: `system ${kind} overloaded`, type: 'new_api_error', param: '', code: `system_${kind}_overloaded` } }),
	});

	test('after the backoff behind the pacer, and the answer that came then is returned', async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0);
		const { ctx, sentAt } = fakeContext([overloaded(), overloaded('memory'), ACCEPTED]);
		const { value } = await settled(submit(ctx));
		// As the 429s above: 250 ms, then the pacer's slot 1.25 s after the first refusal.
		expect(sentAt).toEqual([0, 250, 1_500]);
		expect(value).toMatchObject({ status: 200, body: { task_id: 'task_1' } });
	});

	test('a Retry-After, if a proxy adds one, is honoured', async () => {
		const { ctx, sentAt } = fakeContext([overloaded('disk', { 'retry-after': '3' }), ACCEPTED]);
		const { value } = await settled(submit(ctx));
		expect(sentAt).toEqual([0, 3_000]);
		expect(value.status).toBe(200);
	});

	test('within the two-minute budget; then the refusal is the error: created no, transient', async () => {
		const { ctx, sentAt } = fakeContext([overloaded('cpu', { 'retry-after': '40' })]);
		const { error } = await settled(submit(ctx));
		expect(sentAt).toEqual([0, 40_000, 80_000, 120_000]);
		expect(error.httpCode).toBe('503');
		expect(error.gatewayCode).toBe('system_cpu_overloaded');
		expect(error.context.created).toBe('no');
		expect(error.transient).toBe(true);
		expect(error.message).toMatch(/^The gateway is overloaded .* \(created: no\)$/);
	});

	test('a 503 without the code is not sent again: it may have run (created unknown)', async () => {
		const { ctx, sentAt } = fakeContext([{ statusCode: 503, headers: {}, body: '' }, ACCEPTED]);
		const { error } = await settled(submit(ctx));
		expect(sentAt).toEqual([0]);
		expect(error.context.created).toBe('unknown');
	});
});

describe('a GET (a task read, a list) is asked again after what may pass', () => {
	const UNAVAILABLE = { statusCode: 503, headers: {}, body: '' };
	const dropped = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

	test('a 503: after a backoff doubling from 500 ms, five attempts in all; then the error, marked transient', async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0);
		const { ctx, sentAt } = fakeContext([UNAVAILABLE]);
		const { error } = await settled(read(ctx));
		expect(sentAt).toEqual([0, 250, 750, 1_750, 3_750]);
		expect(error).toBeInstanceOf(request.GatewayRequestError);
		expect(error.httpCode).toBe('503');
		expect(error.transient).toBe(true);
	});

	test('a 503 that passes: the answer is returned', async () => {
		const { ctx, sentAt } = fakeContext([UNAVAILABLE, ACCEPTED]);
		const { value } = await settled(read(ctx));
		expect(sentAt).toHaveLength(2);
		expect(value).toMatchObject({ status: 200, body: { task_id: 'task_1' } });
	});

	test("a dropped connection likewise; the error then says it may pass (transient), a 404 does not and is not asked again", async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0);
		const drops = fakeContext([dropped()]);
		const { error } = await settled(read(drops.ctx));
		expect(drops.sentAt).toEqual([0, 250, 750, 1_750, 3_750]);
		expect(error.transient).toBe(true);
		const missing = fakeContext([{ statusCode: 404, headers: {}, body: '' }]);
		const gone = await settled(read(missing.ctx));
		expect(missing.sentAt).toEqual([0]);
		expect(gone.error.transient).toBe(false);
	});

	test('a Retry-After is waited; one past a minute is not: the error carries it', async () => {
		const { ctx, sentAt } = fakeContext([{ ...UNAVAILABLE, headers: { 'retry-after': '7' } }, ACCEPTED]);
		await settled(read(ctx));
		expect(sentAt).toEqual([0, 7_000]);
		const long = fakeContext([{ ...UNAVAILABLE, headers: { 'retry-after': '61' } }]);
		const { error } = await settled(read(long.ctx));
		expect(long.sentAt).toEqual([0]);
		expect(error.retryAfterMs).toBe(61_000);
	});

	test('within a minute from the first attempt: a wait that would end past it is not made', async () => {
		const { ctx, sentAt } = fakeContext([{ ...UNAVAILABLE, headers: { 'retry-after': '30' } }]);
		await settled(read(ctx));
		// 0 and 30 s; 60 s is still within the minute; the fourth would be at 90 s.
		expect(sentAt).toEqual([0, 30_000, 60_000]);
	});

	test.each([
		['a billed read', { billed: true }],
		['a read that asks for no retries', { retries: false }],
	])('%s is not asked again', async (_, more) => {
		const { ctx, sentAt } = fakeContext([UNAVAILABLE]);
		await settled(read(ctx, more));
		expect(sentAt).toEqual([0]);
	});

	test("before the request's deadline: each attempt's timeout cut to what is left (a second at least), no retry past it", async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0);
		const { ctx, sentAt, options } = fakeContext([UNAVAILABLE]);
		const { error } = await settled(read(ctx, { timeoutMs: 30_000, deadlineAt: NOW + 2_500 }));
		// 0, 250 and 750 ms: each wait plus a second for the attempt ends by 2.5 s; the next (1 s
		// on, then a second) would end at 2.75 s.
		expect(sentAt).toEqual([0, 250, 750]);
		expect(options.map((o) => o.timeout)).toEqual([2_500, 2_250, 1_750]);
		expect(error.httpCode).toBe('503');
		const plain = fakeContext([ACCEPTED]);
		await settled(read(plain.ctx));
		const slow = fakeContext([ACCEPTED]);
		await settled(read(slow.ctx, { timeoutMs: 90_000, deadlineAt: NOW + 500 }));
		const own = fakeContext([ACCEPTED]);
		await settled(read(own.ctx, { timeoutMs: 90_000 }));
		expect([plain.options[0].timeout, own.options[0].timeout, slow.options[0].timeout]).toEqual([60_000, 90_000, 1_000]);
	});
});

const json = (text, more) => ({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: text, ...more });

describe('refused before anything is sent: the credential, the alt host', () => {
	test.each([
		['a model on the alt host, billed: named, and nothing created', { host: 'alt', model: 'gpt-image-1', billed: true }, "Model 'gpt-image-1' runs on the alt host, but the credential has no Alt Base URL (created: no)", 'no'],
		['another request on the alt host', { host: 'alt' }, 'This request runs on the alt host, but the credential has no Alt Base URL', undefined],
	])('%s', async (_, more, message, created) => {
		const { ctx, sentAt } = fakeContext([ACCEPTED]);
		const { error } = await settled(read(ctx, more));
		expect(sentAt).toEqual([]);
		expect(error.message).toBe(message);
		expect(error.description).toBe('Open the Unified AI Gateway API credential and fill in Alt Base URL (the alt-host image service).');
		expect(error.context.itemIndex).toBe(0);
		expect(error.context.created).toBe(created);
	});

	test('with an Alt Base URL, the alt host is where it goes', async () => {
		const { ctx, options } = fakeContext([ACCEPTED], { altBaseUrl: 'https://alt.example.com' });
		const { value } = await settled(read(ctx, { host: 'alt' }));
		expect(options[0].url).toBe('https://alt.example.com/v1/videos/task_1');
		expect(value.body).toEqual({ task_id: 'task_1' });
	});

	test.each([
		['an empty Base URL (the one field a request needs)', { baseUrl: '' }, 'Base URL is empty: use https://host[:port] with an optional path, for example https://gateway.example.com/v1', 'Open the Unified AI Gateway API credential and correct Base URL. Nothing was sent.'],
		['a Base URL that is no URL', { baseUrl: 'not a url' }, 'Base URL is not a URL: use https://host[:port] with an optional path, for example https://gateway.example.com/v1', 'Open the Unified AI Gateway API credential and correct Base URL. Nothing was sent.'],
		['an Alt Base URL that is no URL (the Base URL fine)', { altBaseUrl: 'not a url' }, 'Alt Base URL is not a URL: use https://host[:port] with an optional path, for example https://gateway.example.com/v1', 'Open the Unified AI Gateway API credential and correct Alt Base URL. Nothing was sent.'],
		[
			'a key with a space in it',
			{ apiKey: 'sk-te st' },
			"The API Key contains a space (U+0020) at position 6 of 8: a gateway key has only letters, digits and ASCII signs. Copy the key again from the gateway's key page (in the Unified AI Gateway API credential)",
			'Open the Unified AI Gateway API credential and paste the key again. Nothing was sent.',
		],
	])('%s', async (_, credential, message, description) => {
		const { ctx, sentAt } = fakeContext([ACCEPTED], credential);
		const { error } = await settled(read(ctx));
		expect(sentAt).toEqual([]);
		expect([error.message, error.description]).toEqual([message, description]);
	});
});

describe('what is sent: a body as JSON unless it is a form or a download', () => {
	test('an upload (a form) and a result file go as they are; a request body as JSON', async () => {
		const form = new FormData();
		form.append('purpose', 'video');
		const upload = fakeContext([json('{"id":"file_1"}')]);
		await request.gatewayRequest.call(upload.ctx, { method: 'POST', path: '/v1/files', body: form, action: 'uploading', itemIndex: 0 });
		const plain = fakeContext([ACCEPTED]);
		await submit(plain.ctx);
		const file = fakeContext([{ statusCode: 200, headers: { 'content-type': 'image/png' }, body: 'png' }]);
		await request.fetchResultFile.call(file.ctx, `${GATEWAY}/v1/files/a.png/content`, { action: 'downloading the image', itemIndex: 0 });
		expect([upload.options[0].json, plain.options[0].json, file.options[0].json]).toEqual([false, true, false]);
	});

	test('a result file answered 404 comes back to the download, which names what the host sent (not thrown here)', async () => {
		const { ctx } = fakeContext([{ statusCode: 404, headers: { 'content-type': 'text/plain' }, body: 'no such file' }]);
		const { value } = await settled(request.fetchResultFile.call(ctx, 'https://files.example.com/a.png', { action: 'downloading the image', itemIndex: 0 }));
		expect(value).toEqual({ status: 404, headers: { 'content-type': 'text/plain' }, body: 'no such file', url: 'https://files.example.com/a.png' });
		const bare = fakeContext([{ statusCode: 404, body: '' }]);
		expect((await settled(request.fetchResultFile.call(bare.ctx, 'https://files.example.com/a.png', { action: 'downloading the image', itemIndex: 0 }))).value.headers).toEqual({});
	});
});

describe('a 2xx answer as the node reads it', () => {
	test('an HTML page where JSON belongs is a 502 naming the Base URL, not transient; a blank text is no page', async () => {
		const { error } = await settled(read(fakeContext([json('<html>hi</html>', { headers: { 'content-type': 'text/html' } })]).ctx));
		expect(error.message).toBe('The gateway answered HTTP 502 with an HTML page instead of JSON while reading the task');
		expect([error.httpCode, error.transient]).toEqual(['502', false]);
		const { value } = await settled(read(fakeContext([json('  ', { headers: { 'content-type': 'text/plain' } })]).ctx));
		expect(value.body).toBe('  ');
	});

	test("a billed submit's text answer is returned to the submit (it may hold a task: the receipt's layer decides)", async () => {
		const { value } = await settled(submit(fakeContext([json('<html>hi</html>', { headers: { 'content-type': 'text/html' } })]).ctx));
		expect(value.body).toBe('<html>hi</html>');
	});

	test('a billed request answered 200 with a refusal: the refusal, nothing created', async () => {
		const { error } = await settled(submit(fakeContext([json('{"success":false,"message":"no quota"}')]).ctx));
		expect(error.message).toBe('The gateway refused the request while submitting the image: no quota (created: no)');
		expect(error.context.created).toBe('no');
		expect(error.gatewaySaid).toBe('no quota');
	});

	test('an answer without headers reads as one with none', async () => {
		const { value } = await settled(read(fakeContext([{ statusCode: 200, body: '{"a":1}' }]).ctx));
		expect([value.headers, value.body]).toEqual([{}, { a: 1 }]);
		const { error } = await settled(read(fakeContext([{ statusCode: 404, body: '' }]).ctx));
		expect(error.message).toBe('The gateway answered 404 Not Found while reading the task');
	});

	test('more than the 1 MB of a task read: refused, naming the limit, the code in the context', async () => {
		const { error } = await settled(read(fakeContext([json(`{"a":"${'x'.repeat(1024 * 1024)}"}`)]).ctx));
		expect(error.message).toBe("The gateway's answer was larger than 1 MB (more arrived, counted after decompression) while reading the task: refused unread");
		expect(error.context.gatewayCode).toBe('answer_too_large');
		expect(error.transient).toBe(false);
	});

	test('nested past 64 levels: refused, named', async () => {
		const { error } = await settled(read(fakeContext([json(`${'['.repeat(70)}${']'.repeat(70)}`)]).ctx));
		expect(error.message).toBe("The gateway's answer nests lists and objects more than 64 levels deep while reading the task: refused unread");
	});

	test('a 300 is no success: its words are read once, into the error', async () => {
		const { Readable } = require('node:stream');
		const moved = () => ({ statusCode: 300, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from('{"error":{"message":"moved"}}')]) });
		const { error } = await settled(read(fakeContext([moved]).ctx));
		expect(error.message).toBe('The gateway failed (HTTP 300) while reading the task: moved');
		expect(error.gatewaySaid).toBe('moved');
	});
});

describe('the error: what n8n shows and what the layers above read', () => {
	test("the gateway's words, its code, the advice after the description, the item", async () => {
		const { error } = await settled(submit(fakeContext([{ statusCode: 400, headers: {}, body: '{"error":{"message":"bad size","code":"invalid_size"}}' }]).ctx));
		expect(error.message).toBe("The gateway rejected the field 'size' while submitting the image: bad size (created: no)");
		expect(error.description).toBe(
			'Gateway said: bad size\nHTTP status: 400, code: invalid_size\nCorrect the parameter it names and run the item again.\nCreated: no. The gateway did not process this request, so nothing was charged: running the item again is safe.',
		);
		expect([error.gatewaySaid, error.gatewayCode, error.context.gatewayCode, error.httpCode, error.context.itemIndex]).toEqual(['bad size', 'invalid_size', 'invalid_size', '400', 0]);
		// What n8n keeps as the error's response: our own plain facts, never the HTTP client's error
		// (which carries the request, its Authorization header included).
		expect(error.errorResponse).toStrictEqual({ message: error.message, description: error.description, httpCode: '400' });
	});

	test('without words, code or a billed request: none of them set, no advice line', async () => {
		const { error } = await settled(read(fakeContext([{ statusCode: 400, headers: {}, body: '' }]).ctx));
		expect(error.description).toBe('HTTP status: 400\nCorrect the parameter it names and run the item again.');
		expect(error.gatewaySaid).toBeUndefined();
		expect(error.context).toStrictEqual({ itemIndex: 0 });
	});

	test('a billed request whose answer was lost: no HTTP code, the timeout it waited, created unknown', async () => {
		const { error } = await settled(submit(fakeContext([Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })]).ctx));
		expect(error.message).toBe('No answer from the gateway within 60 s while submitting the image: the job may have been created and billed (created: unknown)');
		expect(error.httpCode).toBeNull();
		expect(error.context).toEqual({ itemIndex: 0, gatewayCode: 'ETIMEDOUT', created: 'unknown' });
	});

	test('answerError (a read the layer above found unusable): the item it names', async () => {
		const error = await request.answerError(fakeContext([]).ctx, { action: 'reading the task', status: 200, body: { x: 1 } }, 3);
		expect(error).toBeInstanceOf(request.GatewayRequestError);
		expect(error.message).toBe('The gateway failed (HTTP 200) while reading the task');
		expect(error.context.itemIndex).toBe(3);
		expect(error.transient).toBe(false);
	});

	test('a redirect to an address on the n8n host: not followed, the block named and kept on the error', async () => {
		const moved = { statusCode: 302, headers: { location: 'http://127.0.0.1:5678/rest/settings' }, body: '' };
		const { ctx, options } = fakeContext([moved, ACCEPTED]);
		const { error } = await settled(read(ctx));
		expect(options.map((o) => o.url)).toEqual([`${GATEWAY}/v1/videos/task_1`]);
		expect(error).toBeInstanceOf(request.GatewayRequestError);
		expect(error.message).toBe(
			`http://127.0.0.1:5678/rest/settings, where ${GATEWAY}/v1/videos/task_1 redirected, points at 127.0.0.1:5678, a loopback address (the n8n host itself): the node does not send n8n there on a gateway's word (while reading the task)`,
		);
		expect(error.blocked).toMatchObject({ by: 'node', kind: 'loopback', address: '127.0.0.1', redirectedFrom: `${GATEWAY}/v1/videos/task_1` });
		expect(error.transient).toBe(false);
	});

	test('an error answer whose body breaks off reads as an empty one', async () => {
		const { Readable } = require('node:stream');
		const broken = () => ({ statusCode: 503, headers: {}, body: new Readable({ read() { this.destroy(new Error('boom')); } }) });
		const { error } = await settled(read(fakeContext([broken]).ctx, { retries: false }));
		expect(error.message).toBe('The gateway answered HTTP 503 with an empty body while reading the task');
	});

	test('a redirect to another host that refuses the key: named', async () => {
		const moved = { statusCode: 302, headers: { location: 'https://other.example.com/v1/videos/task_1' }, body: '' };
		const { error } = await settled(read(fakeContext([moved, { statusCode: 401, headers: {}, body: '' }]).ctx));
		expect(error.message).toBe('The gateway redirected to https://other.example.com, which refused the request (401) while reading the task');
	});
});

describe('stopped: the request cancelled is the stop, not a network failure', () => {
	test.each([
		['the HTTP client says it was cancelled', Object.assign(new Error('canceled'), { code: 'ERR_CANCELED' }), false],
		["the execution's signal fired while it was under way", Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), true],
	])('%s', async (_, thrown, aborted) => {
		const { ctx, sentAt } = fakeContext([thrown]);
		if (aborted) ctx.getExecutionCancelSignal = () => AbortSignal.abort();
		const { error } = await settled(read(ctx));
		expect(sentAt).toEqual([0]);
		expect(error.message).toBe('The execution was stopped');
		expect(error.description).toBe('A request to the gateway was cancelled because the workflow was stopped.');
		expect(error.context.itemIndex).toBe(0);
	});
});

describe("the retry policy's edges", () => {
	test("a GET answered 429 is asked again as a 5xx is: five attempts, not the POST pacer's forty", async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0);
		const { ctx, sentAt, debug } = fakeContext([LIMITED]);
		const { error } = await settled(read(ctx));
		expect(sentAt).toEqual([0, 250, 750, 1_750, 3_750]);
		expect(error.httpCode).toBe('429');
		expect(debug[0]).toBe('Gateway answered 429 while reading the task; retrying in 250 ms');
	});

	test('a POST not billed (a chat) answered 503 is not asked again', async () => {
		const { ctx, sentAt } = fakeContext([{ statusCode: 503, headers: {}, body: '' }]);
		await settled(request.gatewayRequest.call(ctx, { method: 'POST', path: '/v1/chat/completions', body: {}, action: 'chatting', itemIndex: 0 }));
		expect(sentAt).toEqual([0]);
	});

	test('a POST answered 429 without a Retry-After: sent again until two minutes are spent (28 sends at the shortest backoff, within the cap of 40); each logged', async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0);
		const { ctx, sentAt, debug } = fakeContext([LIMITED]);
		await settled(submit(ctx));
		expect(sentAt).toHaveLength(28);
		expect(sentAt.at(-1)).toBeLessThanOrEqual(120_000);
		expect(debug[0]).toBe('Gateway answered 429 while submitting the image; sending again in 250 ms');
	});

	test('a Retry-After of exactly a minute is waited, on a POST and on a GET', async () => {
		const post = fakeContext([{ ...LIMITED, headers: { 'retry-after': '60' } }, ACCEPTED]);
		await settled(submit(post.ctx));
		const get = fakeContext([{ statusCode: 503, headers: { 'retry-after': '60' }, body: '' }, ACCEPTED]);
		await settled(read(get.ctx));
		expect([post.sentAt, get.sentAt]).toEqual([
			[0, 60_000],
			[0, 60_000],
		]);
	});

	test("a retry that ends exactly at the request's deadline (its wait and a second) is made", async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0);
		const { ctx, sentAt } = fakeContext([{ statusCode: 503, headers: {}, body: '' }]);
		await settled(read(ctx, { deadlineAt: NOW + 1_250 }));
		expect(sentAt).toEqual([0, 250]);
	});

	test('a dropped connection is asked again while the wait ends within the minute from the first attempt, to the millisecond', async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0);
		const slowDrop = (ms) => () => new Promise((_, reject) => setTimeout(() => reject(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })), ms));
		// 59.75 s, then the first backoff's 250 ms: exactly the minute, so once more; 50 ms later, not.
		const within = fakeContext([slowDrop(59_750)]);
		const past = fakeContext([slowDrop(59_800)]);
		const [inTime, late] = await Promise.all([settled(read(within.ctx)), settled(read(past.ctx))]);
		expect(within.sentAt).toEqual([0, 60_000]);
		expect(past.sentAt).toEqual([0]);
		expect([inTime.error.transient, late.error.transient]).toEqual([true, true]);
	});
});
