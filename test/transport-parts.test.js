'use strict';
// The pure parts of the transport: the one retry policy (retry.ts: which answers are asked again,
// how long a Retry-After says to wait, the backoff between attempts), whether a failed billed
// request left a job behind (created.ts), the wait that Stop ends (sleep.ts) and the pacing of
// POSTs after a 429 (pacer.ts), these two on jest's clock, and what a node run reads once
// (context.ts: the node, the credential, the signal). faults/submit.test.js, faults/poll.test.js and
// faults/downloads.test.js run them against the simulator through n8n; this table holds their edges
// (each status and network code, each way a Retry-After is written) on a fixed clock and a fixed
// jitter: no assertion here depends on how fast the machine is.
//
// The modules are loaded afresh in each test (fresh-modules.js says why).
const fresh = require('./fresh-modules').freshEachTest();
const retry = fresh(() => require('../dist/nodes/UnifiedAiGateway/transport/retry.js'));
const created = fresh(() => require('../dist/nodes/UnifiedAiGateway/transport/created.js'));
const sleeps = fresh(() => require('../dist/nodes/UnifiedAiGateway/transport/sleep.js'));
const nodeErrors = fresh(() => require('../dist/nodes/UnifiedAiGateway/transport/nodeError.js'));
const pacing = fresh(() => require('../dist/nodes/UnifiedAiGateway/transport/pacer.js'));
const context = fresh(() => require('../dist/nodes/UnifiedAiGateway/transport/context.js'));
const createdAfter = (facts) => created.createdAfter(facts);

const NOW = Date.parse('2026-11-28T08:00:00Z');

describe('retry: which failures are asked again', () => {
	test.each([
		[408, true],
		[425, true],
		[429, true],
		[500, true],
		[502, true],
		[503, true],
		[504, true],
		[400, false],
		[401, false],
		[404, false],
		[501, false],
		[200, false],
	])('HTTP %p: %p', (status, retried) => {
		expect(retry.isRetryableStatus(status)).toBe(retried);
	});

	test.each([
		['ECONNRESET', true],
		['ECONNREFUSED', true],
		['EPIPE', true],
		['ETIMEDOUT', true],
		['ECONNABORTED', true],
		['EAI_AGAIN', true],
		['ERR_BAD_RESPONSE', true],
		['ERR_NETWORK', true],
		['UND_ERR_SOCKET', true],
		['ENOTFOUND', false],
		['CERT_HAS_EXPIRED', false],
		['', false],
		[undefined, false],
	])('network code %p: %p', (code, retried) => {
		expect(retry.isRetryableNetworkCode(code)).toBe(retried);
	});
});

describe('retry: how long a Retry-After says to wait', () => {
	test.each([
		['seconds', '5', 5_000],
		['seconds with spaces', ' 12 ', 12_000],
		['a fraction of a second', '1.5', 1_500],
		['hundredths of a second', '1.25', 1_250],
		['zero', '0', 0],
		['a number', 3, 3_000],
		['the first of a repeated header', ['2', '9'], 2_000],
		['an HTTP date 30 s ahead', 'Sat, 28 Nov 2026 08:00:30 GMT', 30_000],
		['an HTTP date in the past', 'Sat, 28 Nov 2026 07:59:00 GMT', 0],
		['absent', undefined, undefined],
		['null', null, undefined],
		['empty', '', undefined],
		['words', 'soon', undefined],
		['a number after a letter', 'a5', undefined],
		['seconds with a unit', '5s', undefined],
	])('%s (%p): %p ms', (_, value, ms) => {
		expect(retry.parseRetryAfter(value, NOW)).toBe(ms);
	});

	test('an HTTP date is counted from now by default', () => {
		jest.spyOn(Date, 'now').mockReturnValue(NOW);
		try {
			expect(retry.parseRetryAfter('Sat, 28 Nov 2026 08:00:10 GMT')).toBe(10_000);
		} finally {
			jest.restoreAllMocks();
		}
	});
});

describe('retry: the backoff between attempts', () => {
	// From 500 ms, doubling per attempt up to 8 s; the wait is the upper half of that, by the jitter.
	test.each([
		[0, 0, 250],
		[0, 1, 500],
		[1, 0, 500],
		[1, 0.5, 750],
		[1, 1, 1_000],
		[3, 1, 4_000],
		[4, 0, 4_000],
		[4, 1, 8_000],
		[5, 1, 8_000],
		[10, 0, 4_000],
		[2, 0.3, 1_300],
	])('attempt %p, jitter %p: %p ms', (attempt, random, ms) => {
		expect(retry.backoffDelay(attempt, () => random)).toBe(ms);
	});

	test('the jitter is random by default, within the attempt\'s half', () => {
		const seen = new Set(Array.from({ length: 50 }, () => retry.backoffDelay(4)));
		for (const ms of seen) expect(ms >= 4_000 && ms <= 8_000).toBe(true);
		expect(seen.size).toBeGreaterThan(1);
	});
});

describe('createdAfter: whether a failed billed request left a job (and a charge) behind', () => {
	test.each([
		['a 2xx whose body refuses', { status: 200, refused: true }, 'no'],
		['a redirect kept as POST (307)', { redirectStatus: 307 }, 'no'],
		['a redirect kept as POST (308)', { redirectStatus: 308 }, 'no'],
		['a redirect turned into GET (302)', { redirectStatus: 302 }, 'unknown'],
		['a redirect turned into GET (301)', { redirectStatus: 301, status: 200 }, 'unknown'],
		['a refused connection', { networkCode: 'ECONNREFUSED' }, 'no'],
		['an unknown host', { networkCode: 'ENOTFOUND' }, 'no'],
		['a failed lookup', { networkCode: 'EAI_AGAIN' }, 'no'],
		['no route to the host', { networkCode: 'EHOSTUNREACH' }, 'no'],
		['no network', { networkCode: 'ENETUNREACH' }, 'no'],
		['a URL that is not one', { networkCode: 'ERR_INVALID_URL' }, 'no'],
		['a refused certificate', { networkCode: 'CERT_HAS_EXPIRED' }, 'no'],
		['a dropped connection', { networkCode: 'ECONNRESET' }, 'unknown'],
		['a timeout', { networkCode: 'ETIMEDOUT' }, 'unknown'],
		['no answer and no code', {}, 'unknown'],
		['400', { status: 400 }, 'no'],
		['401', { status: 401 }, 'no'],
		['403', { status: 403 }, 'no'],
		['429', { status: 429 }, 'no'],
		['404', { status: 404 }, 'unknown'],
		['500', { status: 500 }, 'unknown'],
		['502 whatever the network code', { status: 502, networkCode: 'ECONNREFUSED' }, 'unknown'],
		['200 whose answer could not be used', { status: 200 }, 'yes'],
		['201', { status: 201 }, 'yes'],
		['299', { status: 299 }, 'yes'],
		['300', { status: 300 }, 'unknown'],
		['199', { status: 199 }, 'unknown'],
	])('%s: created %s', (_, facts, created) => {
		expect(createdAfter(facts)).toBe(created);
	});
});

describe('abortableSleep: a wait that ends the moment the execution is stopped', () => {
	const node = { id: '1', name: 'Unified AI Gateway', type: 'n8n-nodes-unified-ai-gateway.unifiedAiGateway', typeVersion: 1, position: [0, 0], parameters: {} };
	/** A node run's context with its cancel signal, and how many abort listeners it holds. */
	const run = () => {
		const controller = new AbortController();
		const signal = controller.signal;
		const listening = { count: 0 };
		const add = signal.addEventListener.bind(signal);
		const remove = signal.removeEventListener.bind(signal);
		signal.addEventListener = (type, fn, options) => {
			if (type === 'abort') listening.count++;
			add(type, fn, options);
		};
		signal.removeEventListener = (type, fn, options) => {
			if (type === 'abort') listening.count--;
			remove(type, fn, options);
		};
		return { ctx: { getNode: () => node, getExecutionCancelSignal: () => signal }, stop: () => controller.abort(), listening };
	};
	/** Settles `promise` with the fake clock moved on by `ms`; 'pending' if it has not settled. */
	const after = async (promise, ms) => {
		let state = 'pending';
		promise.then(() => (state = 'done'), (error) => (state = error));
		await jest.advanceTimersByTimeAsync(ms);
		return state;
	};
	beforeEach(() => jest.useFakeTimers({ now: NOW }));
	afterEach(() => jest.useRealTimers());

	test('waits the whole time, then leaves no listener behind', async () => {
		const { ctx, listening } = run();
		const wait = sleeps.abortableSleep(2_500, ctx, 0);
		expect(await after(wait, 2_499)).toBe('pending');
		expect(jest.getTimerCount()).toBe(1);
		expect(await after(wait, 1)).toBe('done');
		expect(listening.count).toBe(0);
	});

	test('the time is taken in slices of a second: after Stop, no longer timer keeps the process busy', async () => {
		const { ctx } = run();
		const wait = sleeps.abortableSleep(2_500, ctx, 0);
		// One slice at a time: each timer is a second away, the last one what is left.
		await jest.advanceTimersToNextTimerAsync();
		expect(jest.now() - NOW).toBe(1_000);
		await jest.advanceTimersToNextTimerAsync();
		expect(jest.now() - NOW).toBe(2_000);
		await jest.advanceTimersToNextTimerAsync();
		expect(jest.now() - NOW).toBe(2_500);
		expect(await after(wait, 0)).toBe('done');
	});

	test('Stop ends it at once with the one Stop error, naming the item, and removes its listener', async () => {
		const { ctx, stop, listening } = run();
		const wait = sleeps.abortableSleep(60_000, ctx, 3);
		expect(await after(wait, 1_500)).toBe('pending');
		stop();
		const error = await after(wait, 0);
		expect(error).toBeInstanceOf(nodeErrors.CancelledByStopError);
		expect(error.context).toMatchObject({ stopped: true, itemIndex: 3 });
		expect(error.description).toBe('A wait was cancelled because the workflow was stopped.');
		expect(listening.count).toBe(0);
	});

	test('a run stopped before the wait: the Stop error at once, even for no time at all', async () => {
		const { ctx, stop } = run();
		stop();
		expect(await after(sleeps.abortableSleep(60_000, ctx), 0)).toBeInstanceOf(nodeErrors.CancelledByStopError);
		expect(await after(sleeps.abortableSleep(0, ctx), 0)).toBeInstanceOf(nodeErrors.CancelledByStopError);
		expect(await after(sleeps.unlessStopped(ctx, 1), 0)).toBeInstanceOf(nodeErrors.CancelledByStopError);
	});

	test('a running execution: unlessStopped goes on at once; a negative time is no time', async () => {
		const { ctx } = run();
		expect(await after(sleeps.unlessStopped(ctx), 0)).toBe('done');
		expect(await after(sleeps.abortableSleep(-5, ctx), 0)).toBe('done');
	});

	test('without a context, or one without a cancel signal (a poll, a list load): a plain wait', async () => {
		expect(await after(sleeps.abortableSleep(1_000), 999)).toBe('pending');
		const plain = sleeps.abortableSleep(1_000, { getNode: () => node });
		expect(await after(plain, 999)).toBe('pending');
		expect(await after(plain, 1)).toBe('done');
		expect(await after(sleeps.abortableSleep(-5), 0)).toBe('done');
		expect(await after(sleeps.unlessStopped({ getNode: () => node }), 0)).toBe('done');
	});
});

describe('Pacer: the POSTs of a node run after the gateway says 429', () => {
	beforeEach(() => jest.useFakeTimers({ now: NOW }));
	afterEach(() => jest.useRealTimers());
	/** When each acquire's slot came, in ms from now. */
	const slots = async (pacer, count) => {
		const start = Date.now();
		const at = [];
		const all = Array.from({ length: count }, () => pacer.acquire().then((ticket) => at.push(ticket.sentAt - start)));
		await jest.runAllTimersAsync();
		await Promise.all(all);
		return at;
	};

	test('unlimited until the first 429: every slot at once', async () => {
		const pacer = new pacing.Pacer();
		expect(pacer.requestsPerSecond).toBe(Infinity);
		expect(await slots(pacer, 5)).toEqual([0, 0, 0, 0, 0]);
		pacer.succeeded();
		expect(pacer.requestsPerSecond).toBe(Infinity);
	});

	test('a 429: 0.8 × what got through in the last second, the slots then spaced by that rate', async () => {
		const pacer = new pacing.Pacer();
		const ticket = await pacer.acquire();
		for (let n = 0; n < 5; n++) pacer.succeeded();
		// One success older than the window does not count.
		jest.setSystemTime(NOW + 2_000);
		for (let n = 0; n < 5; n++) pacer.succeeded();
		pacer.limited({ sentAt: NOW + 2_000 });
		expect(pacer.requestsPerSecond).toBe(4);
		jest.setSystemTime(NOW + 2_000);
		expect(await slots(pacer, 3)).toEqual([0, 250, 500]);
		expect(ticket.sentAt).toBe(NOW);
	});

	test('what got through is counted over the last second only, up to the 429 itself', () => {
		const quiet = new pacing.Pacer();
		for (let n = 0; n < 5; n++) quiet.succeeded();
		// Nothing got through in the second before this 429: the rate falls from 1 a second.
		jest.setSystemTime(NOW + 2_000);
		quiet.limited({ sentAt: NOW + 2_000 });
		expect(quiet.requestsPerSecond).toBe(0.8);
		// A success a second ago to the millisecond still counts: 3 × 0.8.
		jest.setSystemTime(NOW + 5_000);
		const late = new pacing.Pacer();
		for (let n = 0; n < 3; n++) late.succeeded();
		jest.setSystemTime(NOW + 6_000);
		late.limited({ sentAt: NOW + 6_000 });
		expect(late.requestsPerSecond).toBeCloseTo(2.4, 10);
	});

	test('a success in the 429\'s own millisecond keeps the ones a second before it counted', () => {
		const pacer = new pacing.Pacer();
		for (let n = 0; n < 3; n++) pacer.succeeded();
		jest.setSystemTime(NOW + 1_000);
		pacer.succeeded();
		pacer.limited({ sentAt: NOW + 1_000 });
		// 4 × 0.8: the three at NOW are a second old to the millisecond, still within it.
		expect(pacer.requestsPerSecond).toBeCloseTo(3.2, 10);
	});

	test('the other 429s of the same burst do not slow it down again; one sent after the slowdown does', async () => {
		const pacer = new pacing.Pacer();
		for (let n = 0; n < 10; n++) pacer.succeeded();
		jest.setSystemTime(NOW + 100);
		pacer.limited({ sentAt: NOW + 50 });
		expect(pacer.requestsPerSecond).toBe(8);
		pacer.limited({ sentAt: NOW + 50 });
		pacer.limited({ sentAt: NOW + 100 });
		expect(pacer.requestsPerSecond).toBe(8);
		jest.setSystemTime(NOW + 200);
		pacer.limited({ sentAt: NOW + 150 });
		expect(pacer.requestsPerSecond).toBeCloseTo(6.4, 10);
	});

	test('each success adds 1 ÷ the rate; the rate never falls below 0.2 a second', async () => {
		const pacer = new pacing.Pacer();
		pacer.limited({ sentAt: NOW + 1 });
		expect(pacer.requestsPerSecond).toBe(0.8);
		pacer.succeeded();
		expect(pacer.requestsPerSecond).toBeCloseTo(0.8 + 1.25, 10);
		for (let n = 2; n < 22; n++) {
			jest.setSystemTime(NOW + n);
			pacer.limited({ sentAt: NOW + n });
		}
		expect(pacer.requestsPerSecond).toBe(0.2);
	});

	test('a Retry-After holds every slot until then, but never past one slot of the rate', async () => {
		const pacer = new pacing.Pacer();
		for (let n = 0; n < 10; n++) pacer.succeeded();
		pacer.limited({ sentAt: NOW + 1 }, 50);
		expect(pacer.requestsPerSecond).toBe(8);
		expect(await slots(pacer, 2)).toEqual([50, 175]);
		const slow = new pacing.Pacer();
		slow.succeeded();
		slow.limited({ sentAt: NOW + 1 }, 60_000);
		// 0.8 a second: a slot every 1.25 s, and the Retry-After held to that.
		expect(await slots(slow, 2)).toEqual([1_250, 2_500]);
	});

	test('one pacer per node run', () => {
		const run = {};
		expect(pacing.pacerFor(run)).toBe(pacing.pacerFor(run));
		expect(pacing.pacerFor({})).not.toBe(pacing.pacerFor(run));
	});
});

describe('CREATED_NOTE: what an error of a billed request says about a job left behind', () => {
	test.each([
		['no', ' (created: no)', 'Created: no. The gateway did not process this request, so nothing was charged: running the item again is safe.'],
		['unknown', ' (created: unknown)', "Created: unknown. The request reached the gateway but its answer failed or was lost: the job may have been created and billed. Check the account's task list before running this item again; the node never resends it by itself."],
		['yes', ' (created: yes, task ID unknown)', "Created: yes. The gateway accepted (and charged) the job, but its answer held no task ID we could read. Do not run the item again: find the job in the account's task list."],
	])('created %s', (verdict, suffix, advice) => {
		expect(created.CREATED_NOTE[verdict]).toEqual({ suffix, advice });
	});
});

describe('context: what one node run reads once', () => {
	const node = { id: '1', name: 'Unified AI Gateway', type: 'n8n-nodes-unified-ai-gateway.unifiedAiGateway', typeVersion: 1, position: [0, 0], parameters: {}, credentials: { unifiedAiGatewayApi: { id: 'c7', name: 'My gateway' } } };
	const data = { baseUrl: 'https://gw.example/v1', apiKey: 'sk-x' };

	test('the cancel signal where n8n gives one; none from a context without it (a poll, a list load)', () => {
		const signal = new AbortController().signal;
		expect(context.cancelSignalOf({ getExecutionCancelSignal: () => signal })).toBe(signal);
		expect(context.cancelSignalOf({})).toBeUndefined();
		expect(context.cancelSignalOf({ getExecutionCancelSignal: 'not a function' })).toBeUndefined();
	});

	test('the node is asked of n8n once per run (getNode copies it whole at every call)', () => {
		const getNode = jest.fn(() => node);
		const ctx = { getNode };
		expect(context.nodeOf(ctx)).toBe(node);
		expect(context.nodeOf(ctx)).toBe(node);
		expect(getNode).toHaveBeenCalledTimes(1);
		context.nodeOf({ getNode });
		expect(getNode).toHaveBeenCalledTimes(2);
	});

	test('the credential is read once per run; a failed read is tried again', async () => {
		const getCredentials = jest.fn().mockRejectedValueOnce(new Error('database busy')).mockResolvedValue(data);
		const ctx = { getNode: () => node, getCredentials };
		await expect(context.gatewayCredentials(ctx)).rejects.toThrow('database busy');
		expect(await context.gatewayCredentials(ctx)).toBe(data);
		expect(await context.gatewayCredentials(ctx)).toBe(data);
		expect(getCredentials).toHaveBeenCalledTimes(2);
		expect(getCredentials).toHaveBeenCalledWith('unifiedAiGatewayApi');
	});

	test('requests are signed with that credential, named as the node names it', async () => {
		const ctx = { getNode: () => node, getCredentials: async () => data };
		expect(await context.signingCredential(ctx)).toEqual({
			credentialsDecrypted: { id: 'c7', name: 'My gateway', type: 'unifiedAiGatewayApi', data },
		});
		const bare = { getNode: () => ({ ...node, credentials: undefined }), getCredentials: async () => data };
		expect(await context.signingCredential(bare)).toEqual({
			credentialsDecrypted: { id: '', name: '', type: 'unifiedAiGatewayApi', data },
		});
		const other = { getNode: () => ({ ...node, credentials: { otherApi: { id: 'x', name: 'y' } } }), getCredentials: async () => data };
		expect((await context.signingCredential(other)).credentialsDecrypted).toMatchObject({ id: '', name: '' });
	});
});
