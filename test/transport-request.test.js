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
const request = fresh(() => require('../dist/nodes/UnifiedAiGateway/transport/request.js'));

const NOW = Date.parse('2026-11-28T08:00:00Z');
const GATEWAY = 'https://gw.example.com';
const LIMITED = { statusCode: 429, headers: {}, body: '' };
const ACCEPTED = { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"task_id":"task_1"}' };

/**
 * A context whose gateway gives `answers` in turn (the last one from then on; an Error is thrown)
 * and records each request's options and when it was sent, in ms of jest's clock from the context's making.
 */
function fakeContext(answers) {
	const sentAt = [];
	const options = [];
	const start = Date.now();
	const node = { name: 'Gateway', type: 'unifiedAiGateway', credentials: { unifiedAiGatewayApi: { id: '7', name: 'My gateway' } } };
	const ctx = {
		getNode: () => node,
		getCredentials: async () => ({ baseUrl: `${GATEWAY}/v1`, apiKey: 'sk-test' }),
		helpers: {
			httpRequestWithAuthentication: async (_, sent) => {
				sentAt.push(Date.now() - start);
				options.push(sent);
				const answer = answers[Math.min(sentAt.length - 1, answers.length - 1)];
				if (answer instanceof Error) throw answer;
				return { ...answer };
			},
		},
	};
	return { ctx, sentAt, options };
}

/** A billed submit, as the image and video operations send it. */
const submit = (ctx) =>
	request.gatewayRequest.call(ctx, { method: 'POST', path: '/v1/images/generations', body: { prompt: 'a fox' }, billed: true, action: 'submitting the image', itemIndex: 0 });

/** The request's outcome once jest's clock has run every wait it sets. */
async function settled(promise) {
	let outcome;
	promise.then(
		(value) => (outcome = { value }),
		(error) => (outcome = { error }),
	);
	while (outcome === undefined) await jest.advanceTimersByTimeAsync(1_000);
	return outcome;
}

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

describe('a GET (a task read, a list) is asked again after what may pass', () => {
	const UNAVAILABLE = { statusCode: 503, headers: {}, body: '' };
	const read = (ctx, more) => request.gatewayRequest.call(ctx, { method: 'GET', path: '/v1/videos/task_1', action: 'reading the task', itemIndex: 0, ...more });
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
