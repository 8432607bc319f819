'use strict';
// The pure parts of a wait (engine/waiting/): when a wait stops before n8n's time limit
// (timeLimit.ts), the Poll Interval per query route (interval.ts), the plan a pending item carries
// between Check Once rounds (checkPlan.ts), what a failed poll means and what the user is told
// (pollPolicy.ts). execution-limit.test.js, waitPolicy.test.js, check-once.test.js and
// faults/poll.test.js run them through n8n; this table holds their edges (the margin's bounds,
// what a plan that does not parse is, the fault of each error), on a fixed clock: no assertion
// here depends on how fast the machine is.
//
// The modules are loaded afresh in each test (fresh-modules.js says why).
const built = require('./fresh-modules').freshEachTest();
const timeLimit = built(() => require('../dist/nodes/UnifiedAiGateway/engine/waiting/timeLimit.js'));
const plans = built(() => require('../dist/nodes/UnifiedAiGateway/engine/waiting/checkPlan.js'));
const waitPolicy = built(() => require('../dist/nodes/UnifiedAiGateway/engine/waiting/pollPolicy.js'));
const interval = built(() => require('../dist/nodes/UnifiedAiGateway/engine/waiting/interval.js'));
const feeds = built(() => require('../dist/nodes/UnifiedAiGateway/engine/waiting/taskFeed.js'));
const reads = built(() => require('../dist/nodes/UnifiedAiGateway/engine/waiting/taskReads.js'));
const requests = built(() => require('../dist/nodes/UnifiedAiGateway/transport/request.js'));


const NODE = { id: '1', name: 'Unified AI Gateway', type: 'n8n-nodes-unified-ai-gateway.unifiedAiGateway', typeVersion: 1, position: [0, 0], parameters: {} };
/** The gateway's answer `httpCode` as the transport throws it (from this test's fresh load). */
function gatewayError(httpCode, transient = false) {
	const error = new requests.GatewayRequestError(NODE, { message: `HTTP ${httpCode}`, httpCode }, { message: `HTTP ${httpCode}`, httpCode });
	error.transient = transient;
	return error;
}

const NOW = 1_800_000_000_000;

describe('executionLimit: when n8n cancels the execution, and when the wait stops', () => {
	beforeEach(() => jest.spyOn(Date, 'now').mockReturnValue(NOW));
	afterEach(() => jest.restoreAllMocks());

	const stamped = (stamp, settings) => ({
		additionalData: { executionTimeoutTimestamp: stamp },
		...(settings === undefined ? {} : { getWorkflowSettings: () => settings }),
	});

	// The time kept for the output: a tenth of what is left, at least 1 s, at most 30 s.
	test.each([
		['100 s left: a tenth', 100_000, 10_000],
		['5 s left: at least 1 s', 5_000, 1_000],
		['10 s left: exactly 1 s', 10_000, 1_000],
		['1000 s left: at most 30 s', 1_000_000, 30_000],
		['300 s left: exactly 30 s', 300_000, 30_000],
		['already past: 1 s', -5_000, 1_000],
	])('the execution timeout timestamp, %s', (_, left, margin) => {
		expect(timeLimit.executionLimit(stamped(NOW + left))).toEqual({ endsAt: NOW + left, waitEndsAt: NOW + left - margin });
	});

	test('the timestamp wins over the workflow setting', () => {
		expect(timeLimit.executionLimit(stamped(NOW + 100_000, { executionTimeout: 7 }), NOW - 1_000)).toEqual({ endsAt: NOW + 100_000, waitEndsAt: NOW + 90_000 });
	});

	test.each([
		['0', 0],
		['negative', -1],
		['not finite', Infinity],
		['NaN', NaN],
		['text', String(NOW + 100_000)],
		['missing', undefined],
	])('a timestamp that is %s: the workflow setting from the run start', (_, stamp) => {
		expect(timeLimit.executionLimit(stamped(stamp, { executionTimeout: 60 }), NOW - 20_000)).toEqual({ endsAt: NOW + 40_000, waitEndsAt: NOW + 36_000 });
	});

	test('the run start defaults to now', () => {
		expect(timeLimit.executionLimit({ getWorkflowSettings: () => ({ executionTimeout: 50 }) })).toEqual({ endsAt: NOW + 50_000, waitEndsAt: NOW + 45_000 });
	});

	test.each([
		['no limit set', {}],
		['a limit of 0', { executionTimeout: 0 }],
		['a negative limit (-1: none)', { executionTimeout: -1 }],
		['a limit that is text', { executionTimeout: '60' }],
		['a limit that is NaN', { executionTimeout: NaN }],
		['a limit that is Infinity', { executionTimeout: Infinity }],
	])('no timestamp and %s: no limit', (_, settings) => {
		expect(timeLimit.executionLimit({ getWorkflowSettings: () => settings }, NOW)).toBeUndefined();
	});

	test('a context without workflow settings, or whose settings throw: no limit', () => {
		expect(timeLimit.executionLimit({}, NOW)).toBeUndefined();
		expect(timeLimit.executionLimit({ additionalData: {} }, NOW)).toBeUndefined();
		expect(timeLimit.executionLimit({ getWorkflowSettings: { executionTimeout: 60 } }, NOW)).toBeUndefined();
		expect(
			timeLimit.executionLimit(
				{
					getWorkflowSettings: () => {
						throw new Error('no workflow');
					},
				},
				NOW,
			),
		).toBeUndefined();
	});
});

describe('checkPlan: the plan a pending item carries to its next Check Once round', () => {
	const plan = { batch: NOW, leaders: 3, leader: true, leadersDone: 2, skipped: 1 };

	test.each([
		['a whole plan', plan, plan],
		['no leaders done yet', { ...plan, leadersDone: undefined }, { ...plan, leadersDone: undefined }],
		['a follower, no skip count', { batch: NOW, leaders: 1, leader: false }, { batch: NOW, leaders: 1, leader: false, leadersDone: undefined, skipped: 0 }],
		['fractions rounded down', { batch: NOW, leaders: 3.7, leader: false, leadersDone: 1.9, skipped: 2.5 }, { batch: NOW, leaders: 3, leader: false, leadersDone: 1, skipped: 2 }],
		['batch 0, none done, none skipped', { batch: 0, leaders: 2, leader: true, leadersDone: 0, skipped: 0 }, { batch: 0, leaders: 2, leader: true, leadersDone: 0, skipped: 0 }],
		['counts that do not parse dropped', { ...plan, leadersDone: -1, skipped: 'x' }, { ...plan, leadersDone: undefined, skipped: 0 }],
		['a skip count that is not finite', { ...plan, skipped: Infinity }, { ...plan, skipped: 0 }],
	])('%s', (_, checkPlan, expected) => {
		expect(plans.checkPlanOf({ checkPlan })).toEqual(expected);
	});

	test.each([
		['none', undefined],
		['null', null],
		['text', 'plan'],
		['a list', [plan]],
		['no batch', { ...plan, batch: undefined }],
		['a negative batch', { ...plan, batch: -1 }],
		['a batch that is text', { ...plan, batch: String(NOW) }],
		['no leaders', { ...plan, leaders: 0 }],
		['fewer than one leader', { ...plan, leaders: 0.5 }],
		['leaders NaN', { ...plan, leaders: NaN }],
		['leader not a switch', { ...plan, leader: 'true' }],
	])('a plan that does not parse (%s): none, the item is read', (_, checkPlan) => {
		expect(plans.checkPlanOf({ checkPlan })).toBeUndefined();
	});

	test('seeded per item of a run: the first √n lead', () => {
		expect([0, 1, 2, 3, 8].map((index) => plans.seedCheckPlan(NOW, index, 9))).toEqual([
			{ batch: NOW, leaders: 3, leader: true, skipped: 0 },
			{ batch: NOW, leaders: 3, leader: true, skipped: 0 },
			{ batch: NOW, leaders: 3, leader: true, skipped: 0 },
			{ batch: NOW, leaders: 3, leader: false, skipped: 0 },
			{ batch: NOW, leaders: 3, leader: false, skipped: 0 },
		]);
		expect(plans.seedCheckPlan(NOW, 0, 1)).toEqual({ batch: NOW, leaders: 1, leader: true, skipped: 0 });
	});

	test('as the item carries it: no leadersDone key until one was counted', () => {
		expect(Object.keys(plans.checkPlanJson({ batch: NOW, leaders: 2, leader: false, skipped: 1 }))).toEqual(['batch', 'leaders', 'leader', 'skipped']);
		expect(plans.checkPlanJson(plan)).toEqual(plan);
		expect(plans.checkPlanJson({ ...plan, leadersDone: 0 })).toEqual({ ...plan, leadersDone: 0 });
		expect(plans.checkPlanOf({ checkPlan: plans.checkPlanJson(plans.seedCheckPlan(NOW, 4, 5)) })).toEqual({ ...plans.seedCheckPlan(NOW, 4, 5), leadersDone: undefined });
	});
});

describe('pollPolicy: what a failed poll means, and what the user is told', () => {
	afterEach(() => jest.restoreAllMocks());

	test.each([
		['a 503', () => gatewayError('503', true), 'transient'],
		['a 404', () => gatewayError('404'), 'doubtful'],
		['a 401', () => gatewayError('401'), 'doubtful'],
		['an error that is no gateway answer (Stop)', () => new Error('The execution was cancelled'), 'stop'],
		['nothing', () => undefined, 'stop'],
	])('%s: %s', (_, error, fault) => {
		expect(waitPolicy.pollFaultOf(error())).toBe(fault);
	});

	test.each([
		['401', true],
		['403', true],
		['404', false],
		['429', false],
		[undefined, false],
	])('HTTP %s refuses the account: %s', (httpCode, refusal) => {
		expect(waitPolicy.isAccountRefusal(gatewayError(httpCode))).toBe(refusal);
	});

	test('a 401 that is not a gateway answer is no refusal of the account', () => {
		expect(waitPolicy.isAccountRefusal(Object.assign(new Error('401'), { httpCode: '401' }))).toBe(false);
	});

	test.each([
		// [interval, failures in a row, Retry-After, random, wait]: backoff from 500 ms doubling to 8 s, half of it jittered
		[3_000, 1, 0, 0, 3_000],
		[3_000, 4, 0, 0.5, 6_000],
		[3_000, 5, 0, 1, 8_000],
		[3_000, 9, 0, 0, 4_000],
		[3_000, 1, 20_000, 1, 20_000],
		[100, 2, undefined, 1, 2_000],
		// A Retry-After is capped at a minute (POLL_POLICY.maxRetryAfterMs), or the interval if longer.
		[3_000, 1, 3_600_000, 0, 60_000],
		[120_000, 1, 3_600_000, 0, 120_000],
		[3_000, 1, Infinity, 0, 60_000],
	])('interval %p, failure %p, Retry-After %p (random %p): wait %p ms', (interval, failures, retryAfter, random, wait) => {
		jest.spyOn(Math, 'random').mockReturnValue(random);
		expect(waitPolicy.failedPollDelay(interval, failures, retryAfter)).toBe(wait);
	});

	test('the report on a task that could not be read says what was seen and not to submit again', () => {
		expect(waitPolicy.doubtfulVerdict('task_1', 3, 'HTTP 404', "'in_progress' at 40%")).toBe(
			"Task task_1 could not be read: 3 checks in a row got no reading of the task (last answer: HTTP 404); it was last seen 'in_progress' at 40%. The task may still be running or finished: check it later with Task → Get or Task → Wait for Completion; do not submit it again.",
		);
		expect(waitPolicy.doubtfulVerdict('task_1', 3, 'HTTP 404')).toBe(
			'Task task_1 could not be read: 3 checks in a row got no reading of the task (last answer: HTTP 404). The task may still be running or finished: check it later with Task → Get or Task → Wait for Completion; do not submit it again.',
		);
	});

	test('the report on a finished task without a file says it may be billed and how to read it again', () => {
		expect(waitPolicy.withoutUrlVerdict('task_2', 'completed', 'read 3 times')).toEqual({
			message: "Task task_2: the gateway reported it completed (status 'completed') without a result URL, read 3 times, so there is nothing to download yet",
			advice:
				'The task is finished on the gateway and may be billed: do not submit it again. A gateway may write the URL later: read the task again in a while with Task → Get or Task → Download Result (this task ID); if it never comes, ask the gateway admin.',
		});
	});
});

describe('pollIntervals: the Poll Interval per query route, never below the gateway\'s advice but on loopback', () => {
	// The advice per route (docs/gateway-contract.md §8): 3 s for generic and image task queries, 5 s for video and the alt host.
	const ROUTES = ['generic', 'image', 'video', 'alt'];
	const gateway = (baseUrl, altBaseUrl = '') => ({ getCredentials: async () => ({ baseUrl, altBaseUrl, apiKey: 'sk-x' }) });
	const each = async (ctx, requestedMs) => {
		const intervals = await interval.pollIntervals(ctx, ROUTES, requestedMs);
		return { of: ROUTES.map((route) => intervals.of(route)), notices: intervals.notices };
	};

	test('left alone: the advice', async () => {
		expect(await each(gateway('https://gateway.example.com/v1'), undefined)).toEqual({ of: [3000, 3000, 5000, 5000], notices: [] });
	});

	test('at or above the advice: obeyed', async () => {
		expect(await each(gateway('https://gateway.example.com'), 5000)).toEqual({ of: [5000, 5000, 5000, 5000], notices: [] });
		expect(await each(gateway('https://gateway.example.com'), 3000)).toEqual({ of: [3000, 3000, 5000, 5000], notices: ['Poll Interval raised from 3 s to 5 s for the video task query, as the gateway advises (faster only adds load)', 'Poll Interval raised from 3 s to 5 s for the alt-host task query, as the gateway advises (faster only adds load)'] });
	});

	test('below it on a remote gateway: raised, once per route, with a notice', async () => {
		const intervals = await interval.pollIntervals(gateway('https://gateway.example.com', 'https://alt.example.com'), ['image', 'image', 'video'], 500);
		expect([intervals.of('image'), intervals.of('video'), intervals.of('alt')]).toEqual([3000, 5000, 5000]);
		expect(intervals.notices).toEqual([
			'Poll Interval raised from 0.5 s to 3 s for the image task query, as the gateway advises (faster only adds load)',
			'Poll Interval raised from 0.5 s to 5 s for the video task query, as the gateway advises (faster only adds load)',
		]);
	});

	test('below it on loopback: obeyed, at least 1 ms; each route by its own host', async () => {
		expect(await each(gateway('http://127.0.0.1:5678/v1', 'https://alt.example.com'), 200)).toEqual({
			of: [200, 200, 200, 5000],
			notices: ['Poll Interval raised from 0.2 s to 5 s for the alt-host task query, as the gateway advises (faster only adds load)'],
		});
		expect((await each(gateway('https://gateway.example.com', 'http://localhost:9000'), 0)).of).toEqual([3000, 3000, 5000, 1]);
	});

	test('a credential that cannot be read: the advice, as on a remote gateway', async () => {
		const ctx = { getCredentials: async () => Promise.reject(new Error('no credential')) };
		expect((await each(ctx, 100)).of).toEqual([3000, 3000, 5000, 5000]);
	});

	test.each([
		['http://127.0.0.1:5678', true],
		['http://localhost', true],
		['http://[::1]:80', true],
		['https://gateway.example.com', false],
		['http://10.0.0.1', false],
		['', false],
		['not a url', false],
	])('%p is loopback: %p', (origin, loopback) => {
		expect(interval.isLoopbackOrigin(origin)).toBe(loopback);
	});

	test('announced in the log as a warning and in the output pane as a hint', () => {
		const warned = [];
		const hints = [];
		interval.announce({ logger: { warn: (message) => warned.push(message) }, addExecutionHints: (hint) => hints.push(hint) }, ['one', 'two']);
		expect(warned).toEqual(['one', 'two']);
		expect(hints).toEqual([
			{ message: 'one', type: 'info', location: 'outputPane' },
			{ message: 'two', type: 'info', location: 'outputPane' },
		]);
	});
});

describe('TaskFeed: tasks handed to a wait as their submits answer', () => {
	test('open until closed, every task kept in order, the expected count as given', () => {
		const feed = new feeds.TaskFeed(3);
		expect([feed.expected, feed.closed, feed.tasks]).toEqual([3, false, []]);
		feed.push('a');
		feed.push('b');
		expect([feed.closed, feed.tasks]).toEqual([false, ['a', 'b']]);
		feed.close();
		expect([feed.closed, feed.tasks]).toEqual([true, ['a', 'b']]);
	});
});

describe('passFault: when one pass over many tasks (a trigger poll) fails as a whole', () => {
	const fault = (httpCode, { transient = false, report = false, cut } = {}) => ({
		kind: 'fault',
		fault: transient ? 'transient' : 'doubtful',
		error: gatewayError(httpCode, transient),
		doubtful: report ? 3 : 1,
		report,
		checkedAt: 1,
		...(cut === undefined ? {} : { cut }),
	});
	const read = { kind: 'read', snapshot: { taskId: 't' }, doubtful: 0, checkedAt: 1 };
	const skipped = { kind: 'skipped' };
	const stopError = new Error('No Alt Base URL');
	const stop = { kind: 'stop', error: stopError, checkedAt: 1 };

	test('nothing asked, or a task read: no failure', () => {
		expect(reads.passFault([])).toBeUndefined();
		expect(reads.passFault([skipped, skipped])).toBeUndefined();
		expect(reads.passFault([fault('503', { transient: true }), read])).toBeUndefined();
		expect(reads.passFault([read, fault('401', { report: true })])).toBeUndefined();
	});

	test('a stop error fails the pass whatever the other reads told', () => {
		expect(reads.passFault([read, stop])).toBe(stopError);
		expect(reads.passFault([skipped, fault('503', { transient: true }), stop])).toBe(stopError);
	});

	test('every read failing transiently (5xx for every task) fails the pass with the first such answer', () => {
		const first = fault('503', { transient: true });
		expect(reads.passFault([fault('404'), first, fault('502', { transient: true })])).toBe(first.error);
	});

	test('a refusal of the key fails the pass only once reported as often as the policy allows', () => {
		expect(reads.passFault([fault('401'), fault('403')])).toBeUndefined();
		const reported = fault('403', { report: true });
		expect(reads.passFault([fault('401'), reported])).toBe(reported.error);
		// A task that is gone, reported: that task's own verdict, not the gateway's.
		expect(reads.passFault([fault('404', { report: true }), fault('404', { report: true })])).toBeUndefined();
	});

	test('reads the deadline cut short are not counted, neither as failures nor as asked', () => {
		expect(reads.passFault([fault('503', { transient: true, cut: true })])).toBeUndefined();
		expect(reads.passFault([fault('503', { transient: true, cut: true }), fault('404')])).toBeUndefined();
		const reported = fault('401', { report: true });
		expect(reads.passFault([fault('503', { transient: true, cut: true }), reported])).toBe(reported.error);
		expect(reads.passFault([fault('503', { transient: true, cut: false })])).toBeInstanceOf(requests.GatewayRequestError);
	});
});

describe('readTaskOnce: a failure that is no gateway answer ends the reads', () => {
	test('credentials n8n cannot give: thrown as the node\'s error, not counted as a doubtful answer', async () => {
		const ctx = { getNode: () => NODE, getCredentials: async () => Promise.reject(new Error('Node does not have any credentials set')) };
		const read = reads.readTaskOnce(ctx, { taskId: 'task_1', route: 'generic' }, 2, { itemIndex: 0 });
		await expect(read).rejects.toThrow('Node does not have any credentials set');
		await expect(read).rejects.not.toBeInstanceOf(requests.GatewayRequestError);
	});
});
