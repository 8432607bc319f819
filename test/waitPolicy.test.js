'use strict';
// The engine's wait policy seen by a user: the interval floor, how many polls a task costs, and
// what a stop-on-fail error carries of the other items.
const { runNode } = require('./harness');
const { startSimulator } = require('./simulator');
const { API_KEY, useSimulator, createTask, visibleText, taskWaitParameters } = require('./support');
const { captureLogs } = require('./faults/pollMatrix');

const ctx = useSimulator({ scenario: { durationMs: 300 } });

const wait = taskWaitParameters({ waiting: { maxWaitMinutes: 1 } });
const items = (ids) => ids.map((taskId) => ({ json: { taskId } }));

describe('stop-on-fail keeps every other item\'s result', () => {
	test('a failed task: the error lists the others with task id and result URL', async () => {
		const good = [await createTask(ctx.sim, { model: 'nano-banana' })];
		ctx.sim.scenario('*', { durationMs: 300, outcome: 'fail', failMessage: 'content policy violation' });
		const bad = await createTask(ctx.sim, { model: 'nano-banana' });
		ctx.sim.scenario('*', { durationMs: 300 });
		good.push(await createTask(ctx.sim, { model: 'nano-banana' }));
		const result = await runNode({ parameters: wait(), credentials: ctx.creds, items: items([good[0], bad, good[1]]) });
		expect(result.error.message).toMatch(new RegExp(`Task ${bad} failed: content policy violation`));
		for (const [item, id] of [[0, good[0]], [2, good[1]]]) {
			const url = ctx.sim.task(id).urls[0];
			expect(result.error.description).toContain(`item ${item}: task ${id} succeeded: ${url}`);
			expect(result.error.context.results).toContainEqual(expect.objectContaining({ item, taskId: id, state: 'succeeded', urls: [url] }));
		}
		expect(visibleText(result)).not.toContain(API_KEY);
	});

	test('a refused submit: the other items are still waited for and their results ride on the error', async () => {
		ctx.sim.inject({ method: 'POST', path: '/v1/images/generations', status: 400, body: { error: { message: 'prompt rejected', type: 'invalid_request_error', code: 'bad_prompt' } } });
		const result = await runNode({
			parameters: { resource: 'image', operation: 'generate', modelId: { __rl: true, mode: 'id', value: 'gpt-image-2-async' }, prompt: '={{ $json.prompt }}', waiting: { pollIntervalSeconds: 0.1 }, options: { concurrency: 1 } },
			credentials: ctx.creds,
			items: ['a fox', 'a hare', 'a crow'].map((prompt) => ({ json: { prompt } })),
		});
		expect(result.error.message).toMatch(/prompt rejected/);
		expect(result.error.context.itemIndex).toBe(0);
		const results = result.error.context.results;
		expect(results.map((r) => [r.item, r.state])).toEqual([[1, 'succeeded'], [2, 'succeeded']]);
		for (const r of results) {
			expect(r.urls.length).toBeGreaterThan(0);
			expect(result.error.description).toContain(`item ${r.item}: task ${r.taskId} succeeded: ${r.urls[0]}`);
		}
		expect(ctx.sim.count('POST', '/v1/images/generations')).toBe(3);
	});
});

describe('polls per task', () => {
	test('no estimated_time: a task of T seconds costs at most 1.5 × ceil(T / interval) + 2 polls, fewer as it runs long', async () => {
		ctx.sim.scenario('*', { durationMs: 3000 });
		const id = await createTask(ctx.sim, { model: 'nano-banana' });
		const result = await runNode({ parameters: wait(), credentials: ctx.creds, items: items([id]) });
		expect(result.items[0].json.state).toBe('succeeded');
		const polls = ctx.sim.count('GET', `/v1/images/generations/${id}`);
		expect(polls).toBeLessThanOrEqual(1.5 * Math.ceil(3000 / 100) + 2);
		// The adaptive interval: a fixed 0.1 s would need ~30.
		expect(polls).toBeLessThan(20);
		// …and the answer is read soon after the task ends: 15 % of its time by the schedule
		// (test/poll-schedule.test.js holds that on a clock of its own); here, on the simulator's clock
		// with room for a loaded machine, within half of it.
		const task = ctx.sim.task(id);
		const found = ctx.sim.find('GET', `/v1/images/generations/${id}`).at(-1); // a finished task is read no more
		expect(found.at - task.finishedAt).toBeLessThan((task.finishedAt - task.createdAt) / 2);
	});
});

describe('poll interval floor', () => {
	let remote;
	let logs;
	beforeAll(async () => {
		// The same simulator reached through a non-loopback address: the floor applies there.
		const { networkInterfaces } = require('node:os');
		const address = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
		if (address) remote = await startSimulator({ apiKey: API_KEY, host: address });
	});
	afterAll(async () => remote && (await remote.close()));
	beforeEach(() => (logs = captureLogs()));
	afterEach(() => logs.restore());

	test('a 0.1 s interval against a non-loopback gateway is raised to the route\'s 3 s, with a notice', async () => {
		if (!remote) throw new Error('this machine has no non-loopback IPv4 address to test the floor with');
		remote.scenario('*', { durationMs: 1000 });
		const id = await createTask(remote, { model: 'nano-banana' });
		const creds = { baseUrl: `${remote.mainUrl}/v1`, altBaseUrl: remote.altUrl, apiKey: API_KEY };
		const result = await runNode({ parameters: wait(), credentials: creds, items: items([id]) });
		expect(result.items[0].json.state).toBe('succeeded');
		expect(remote.count('GET', `/v1/images/generations/${id}`)).toBe(1); // first poll at 3 s finds it done
		const notice = 'Poll Interval raised from 0.1 s to 3 s for the image task query';
		expect(logs.lines.some((l) => l.level === 'warn' && l.message.startsWith(notice))).toBe(true);
		expect(result.hints).toContainEqual({ message: expect.stringContaining(notice), type: 'info', location: 'outputPane' });
	});

	test('against loopback the interval is obeyed (tests, a local simulator)', async () => {
		// The task advances by reads (readSteps), not by time: it takes five reads on any machine.
		const steps = [10, 30, 60, 90].map((progress) => ({ status: 'in_progress', progress })).concat({ status: 'completed', progress: 100 });
		ctx.sim.scenario('*', { readSteps: steps, estimatedTime: 'none' });
		const id = await createTask(ctx.sim, { model: 'nano-banana' });
		const result = await runNode({ parameters: wait(), credentials: ctx.creds, items: items([id]) });
		expect(result.items[0].json.state).toBe('succeeded');
		expect(ctx.sim.task(id).answers).toEqual(steps);
		expect(logs.lines.some((l) => /Poll Interval raised/.test(l.message))).toBe(false);
		expect(result.hints.some((h) => /Poll Interval raised/.test(h.message))).toBe(false);
		// Raised to the route's 3 s floor, each gap between these reads would be 3 s at least; obeyed, they
		// are some 0.1 s (on the simulator's clock: the harness's start-up does not count).
		const at = ctx.sim.find('GET', `/v1/images/generations/${id}`).map((r) => r.at);
		for (let i = 1; i < at.length; i++) expect(at[i] - at[i - 1]).toBeLessThan(3000);
	});
});
