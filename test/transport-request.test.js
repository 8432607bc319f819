'use strict';
// gatewayRequest (request.ts) on a fake context (no HTTP) and jest's clock: how a POST answered 429
// (not processed, the one answer after which a POST is sent again) is sent again, and when it is
// not: the Retry-After, the backoff without one, the time budget of a request (retry.ts
// RATE_LIMIT). submits.test.js and faults/submit.test.js run the same through n8n against the
// simulator; this table holds the clock's edges, which a real run cannot reach in a few seconds.
//
// The modules are loaded afresh in each test (fresh-modules.js says why).
const fresh = require('./fresh-modules').freshEachTest();
const request = fresh(() => require('../dist/nodes/UnifiedAiGateway/transport/request.js'));

const NOW = Date.parse('2026-11-28T08:00:00Z');
const GATEWAY = 'https://gw.example.com';
const LIMITED = { statusCode: 429, headers: {}, body: '' };
const ACCEPTED = { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"task_id":"task_1"}' };

/**
 * A context whose gateway gives `answers` in turn (the last one from then on) and records when
 * each request was sent, in ms of jest's clock from NOW.
 */
function fakeContext(answers) {
	const sentAt = [];
	const node = { name: 'Gateway', type: 'unifiedAiGateway', credentials: { unifiedAiGatewayApi: { id: '7', name: 'My gateway' } } };
	const ctx = {
		getNode: () => node,
		getCredentials: async () => ({ baseUrl: `${GATEWAY}/v1`, apiKey: 'sk-test' }),
		helpers: {
			httpRequestWithAuthentication: async () => {
				sentAt.push(Date.now() - NOW);
				return { ...answers[Math.min(sentAt.length - 1, answers.length - 1)] };
			},
		},
	};
	return { ctx, sentAt };
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
		const { ctx, sentAt } = fakeContext([LIMITED, LIMITED, ACCEPTED]);
		const { value } = await settled(submit(ctx));
		// 250 ms: the lower half of the first backoff (500 ms, the jitter at 0). The third waits past
		// its own 500 ms for the pacer's next slot: 0.8 a second after the first 429, 1.25 s on.
		expect(sentAt).toEqual([0, 250, 1_500]);
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
});
