'use strict';
// Fault matrix, poll half: every poll fault × every query route through Task → Wait for
// Completion, plus Stop mid-submit and mid-wait on Video → Generate. Each row checks what the
// user gets, what the gateway received, and that the key shows up nowhere (custom data and log
// lines included).
const { runNode, pollTrigger } = require('../harness');
const { useSimulator } = require('../support');
const { ROUTES, statusAnswer, DOUBTFUL, API_KEY, everythingVisible, captureLogs, idsInCustomData, sleep } = require('./pollMatrix');
const { expectNoKey } = require('./runner');

const ctx = useSimulator({ scenario: { durationMs: 400 } });

const wait = (route, extra = {}) => ({
	resource: 'task',
	operation: 'waitForCompletion',
	taskId: '={{ $json.taskId }}',
	queryRoute: route,
	...extra, waiting: { maxWaitMinutes: 1, pollIntervalSeconds: 0.1, ...extra?.waiting },
});

let logs;
beforeEach(() => (logs = captureLogs()));
afterEach(() => logs.restore());

async function waitFor(route, ids, extra = {}, options = {}) {
	return await runNode({ parameters: wait(route, extra), credentials: ctx.creds, items: ids.map((taskId) => ({ json: { taskId } })), ...options });
}

const polls = (route, id) => ctx.sim.count('GET', ROUTES[route].path(id), ROUTES[route].origin);
const submits = () => ctx.sim.requests.filter((r) => r.method === 'POST').length;
const keyless = (result) => {
	expect(everythingVisible(result, logs.lines)).not.toContain(API_KEY); // custom data included
	expectNoKey({ result, logs: logs.lines.map((l) => `${l.message} ${JSON.stringify(l.meta ?? {})}`) }, ctx.sim);
};

describe.each(Object.keys(ROUTES))('%s route', (route) => {
	test.each(Object.entries(DOUBTFUL))('one %s while polling is a passing fault: the task is waited for to the end', async (_name, fault) => {
		const id = await ROUTES[route].create(ctx.sim);
		ctx.sim.inject({ method: 'GET', origin: ROUTES[route].origin, path: ROUTES[route].path(id), ...fault });
		const result = await waitFor(route, [id]);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ taskId: id, state: 'succeeded' });
		expect(polls(route, id)).toBeGreaterThanOrEqual(2);
		expect(submits()).toBe(1); // the task's own creation: waiting never submits
		keyless(result);
	});

	test.each(Object.entries(DOUBTFUL))('%s three times in a row is reported with the task id and the last answer', async (_name, fault) => {
		const id = await ROUTES[route].create(ctx.sim);
		ctx.sim.inject({ method: 'GET', origin: ROUTES[route].origin, path: ROUTES[route].path(id), times: Infinity, ...fault });
		const result = await waitFor(route, [id], {}, { continueOnFail: true });
		const json = result.items[0].json;
		expect(json).toMatchObject({ taskId: id, created: 'yes' });
		expect(json.error).toMatch(new RegExp(`Task ${id} could not be read: 3 checks in a row .*last answer: .+\\).*do not submit it again`));
		expect(polls(route, id)).toBe(3);
		expect(submits()).toBe(1);
		keyless(result);
	});

	test('a hanging poll delays only its own task', async () => {
		ctx.sim.scenario('*', { durationMs: 1500 });
		const slow = await ROUTES[route].create(ctx.sim);
		const others = [await ROUTES[route].create(ctx.sim), await ROUTES[route].create(ctx.sim)];
		ctx.sim.inject({ method: 'GET', origin: ROUTES[route].origin, path: ROUTES[route].path(slow), kind: 'slow', delayMs: 4500 });
		const started = Date.now();
		const result = await waitFor(route, [slow, ...others]);
		expect(result.items.map((i) => [i.json.taskId, i.json.state])).toEqual([slow, ...others].map((id) => [id, 'succeeded']));
		// The others were polled to their end while the slow answer was still on its way: their last
		// read arrived before the hanging read was answered (an order, not a wall-clock budget).
		const reads = (ids) => ctx.sim.requests.filter((r) => r.method === 'GET' && ids.some((id) => r.path === ROUTES[route].path(id)));
		const lastOther = Math.max(...reads(others).map((r) => r.at));
		const hangingAnswered = Math.min(...reads([slow]).map((r) => r.at)) + 4500;
		expect(lastOther).toBeLessThan(hangingAnswered);
		expect(lastOther).toBeGreaterThanOrEqual(started);
		expect(result.durationMs).toBeGreaterThanOrEqual(4500);
		keyless(result);
	});

	test('100 % in progress is not done: the wait goes on until completed', async () => {
		ctx.sim.scenario('*', { durationMs: 200, outcome: 'stuck100', stuckMs: 600 });
		const id = await ROUTES[route].create(ctx.sim);
		const result = await waitFor(route, [id]);
		expect(result.items[0].json).toMatchObject({ taskId: id, state: 'succeeded' });
		expect(result.durationMs).toBeGreaterThanOrEqual(500);
		keyless(result);
	});

	test('an unknown status word keeps the task waiting, and a timeout names it', async () => {
		const id = await ROUTES[route].create(ctx.sim);
		ctx.sim.inject({ method: 'GET', origin: ROUTES[route].origin, path: ROUTES[route].path(id), times: Infinity, status: 200, body: statusAnswer(route, id, 'defrosting') });
		const result = await waitFor(route, [id], { waiting: { maxWaitMinutes: 0.005 } });
		expect(result.items[0].json).toMatchObject({ taskId: id, pending: true, status: 'defrosting' });
		expect(result.items[0].json.message).toMatch(/a status this node does not know/);
		expect(submits()).toBe(1);
		keyless(result);
	});
});

describe('the trigger follows the same policy', () => {
	test.each(Object.entries(DOUBTFUL))('one %s is not a verdict: the task is emitted when it finishes', async (_name, fault) => {
		ctx.sim.scenario('*', { durationMs: 300 });
		const id = await ROUTES.generic.create(ctx.sim);
		const staticData = {};
		const poll = async () => (await pollTrigger({ parameters: { event: 'taskFinished', taskIds: id, queryRoute: 'generic', includeFailures: true }, credentials: ctx.creds, staticData })).result;
		ctx.sim.inject({ method: 'GET', path: ROUTES.generic.path(id), ...fault });
		expect(await poll()).toBeNull();
		await sleep(400);
		const emitted = (await poll())[0].map((i) => i.json);
		expect(emitted).toEqual([expect.objectContaining({ taskId: id, state: 'succeeded' })]);
		expect(polls('generic', id)).toBe(2);
		expect(JSON.stringify(emitted)).not.toContain(API_KEY);
	});
});

describe('Stop', () => {
	const video = (extra = {}) => ({
		resource: 'video',
		operation: 'generate',
		modelId: { __rl: true, mode: 'list', value: 'sora-2' },
		prompt: '={{ $json.prompt }}',
		...extra, waiting: { pollIntervalSeconds: 0.1, ...extra?.waiting },
	});
	const prompts = (n) => Array.from({ length: n }, (_, i) => ({ json: { prompt: `boat ${i}` } }));

	test('mid-wait: every created id is in the custom data and the log, and Task → Wait resumes them without a new submit', async () => {
		ctx.sim.scenario('*', { durationMs: 8000 });
		// Stop once all four submits have answered (a busy machine can take seconds for that).
		const stopped = await runNode({ parameters: video(), credentials: ctx.creds, items: prompts(4), stopAfterMs: 4000 });
		expect(stopped.status).toBe('canceled');
		const kept = idsInCustomData(stopped);
		const [route] = Object.keys(kept);
		expect(kept[route]).toHaveLength(4);
		expect(new Set(kept[route]).size).toBe(4);
		for (const id of kept[route]) {
			expect(ctx.sim.task(id)).toBeDefined();
			expect(logs.lines.some((l) => l.level === 'info' && l.message.includes(id) && /execution exec-1 .*item \d/.test(l.message))).toBe(true);
		}
		expect(submits()).toBe(4);
		keyless(stopped);

		const resumed = await waitFor(route, kept[route]);
		expect(resumed.items.map((i) => i.json.state)).toEqual(kept[route].map(() => 'succeeded'));
		expect(submits()).toBe(4);
	});

	// One Stop error wherever Stop lands (mid-request, mid-wait): n8n marks the run canceled, not
	// failed, and the error says what was cancelled (transport/nodeError.ts stopError).
	test.each([
		['mid-request (a slow submit, not waited for)', { waitForCompletion: false }, { method: 'POST', path: /^\/v1\/(videos|video\/generations)$/, kind: 'slow', delayMs: 1500 }, 400, /A request to the gateway was cancelled because the workflow was stopped/],
		['mid-wait (between polls)', {}, undefined, 1200, /A wait was cancelled because the workflow was stopped/],
	])('%s: the run ends canceled with the one Stop error', async (_where, extra, fault, stopAfterMs, cancelled) => {
		ctx.sim.scenario('*', { durationMs: 8000 });
		if (fault) ctx.sim.inject(fault);
		const stopped = await runNode({ parameters: video({ ...extra, waiting: { pollIntervalSeconds: 5 } }), credentials: ctx.creds, items: prompts(1), stopAfterMs });
		expect(stopped.status).toBe('canceled');
		expect(stopped.error).toMatchObject({ message: 'The execution was stopped', description: expect.stringMatching(cancelled) });
		keyless(stopped);
	});

	test('mid-submit: the item in flight is listed as possibly created, and nothing more is sent after Stop', async () => {
		ctx.sim.scenario('*', { durationMs: 300 });
		ctx.sim.inject({ method: 'POST', path: /^\/v1\/(videos|video\/generations)$/, kind: 'slow', delayMs: 1200 });
		const stopped = await runNode({ parameters: video({ options: { concurrency: 1 } }), credentials: ctx.creds, items: prompts(3), stopAfterMs: 400 });
		// n8n aborts the request in flight; the gateway may still create the task (this one does).
		const metadata = stopped.run.data.resultData.metadata;
		expect(metadata.gateway_Gateway_sending).toBe('items 0 (submit sent, answer not received: may have been created)');
		await sleep(1500);
		expect(submits()).toBe(1);
		keyless(stopped);
	});
});
