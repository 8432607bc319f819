'use strict';
// How often a wait reads a task (engine/waiting/pollSchedule.ts), as the gateway sees it: tasks of one wait
// learn from each other, a task running long is read less and less often, and the deadline and
// Stop still end a wait whose tasks are waiting for their leaders.
const { runNode } = require('./harness');
const { useSimulator, createTask, taskWaitParameters } = require('./support');

const ctx = useSimulator({ scenario: { durationMs: 300 } });

const wait = taskWaitParameters({ waiting: { maxWaitMinutes: 1 } });
const items = (ids) => ids.map((taskId) => ({ json: { taskId } }));
const reads = (id, route = '/v1/images/generations') => ctx.sim.count('GET', `${route}/${id}`);
async function tasks(n, scenario) {
	ctx.sim.scenario('*', scenario);
	// Created together: the wait counts an existing task's age from when the wait began, so tasks
	// created one after another would look shorter the earlier they were made (a busy machine makes
	// that gap large enough to move a task between the leaders' readings).
	return Promise.all(Array.from({ length: n }, () => createTask(ctx.sim)));
}

test('20 tasks of similar time: the leaders find out how long they take, the others are read about twice', async () => {
	const ids = await tasks(20, { durationMs: [2000, 2400] });
	const result = await runNode({ parameters: wait(), credentials: ctx.creds, items: items(ids) });
	expect(result.items.map((i) => i.json.state)).toEqual(ids.map(() => 'succeeded'));
	const counts = ids.map((id) => reads(id));
	// The first √20 items lead (read from the interval on, like a task alone); the later 15 wait for
	// them: a first read once half the leaders are done, one more each time another leader that ran
	// as long is done, and one at the tail if it outlasts them all. Which of these a task needs
	// depends on where its time falls among the leaders' (on the machine's speed, by a few ms).
	const followers = counts.slice(5);
	for (const count of followers) expect(count).toBeLessThanOrEqual(4);
	expect(followers.reduce((a, b) => a + b, 0) / followers.length).toBeLessThanOrEqual(2.5);
	// A fixed 0.1 s interval would read each ~22 times; the leaders cost some 15 reads each.
	expect(counts.reduce((a, b) => a + b, 0) / ids.length).toBeLessThan(6);
	// How late after its end each task is found is the schedule's, asserted on a clock of its own
	// (waiting-schedule.test.js): on the simulator's, a loaded machine's late timers would count against the schedule.
	// A follower the wait stopped reading would not come out succeeded (above) before Max Wait.
});

test('a task running long is read less and less often: twice the time costs a few reads more, not twice as many', async () => {
	// Each alone in its wait (no peers to learn from), at the 50 ms floor.
	const [short] = await tasks(1, { durationMs: 4000 });
	const [long] = await tasks(1, { durationMs: 8000 });
	const [a, b] = await Promise.all(
		[short, long].map((id) => runNode({ parameters: wait({ waiting: { pollIntervalSeconds: 0.05 } }), credentials: ctx.creds, items: items([id]) })),
	);
	expect([a.items[0].json.state, b.items[0].json.state]).toEqual(['succeeded', 'succeeded']);
	const [r4, r8] = [reads(short), reads(long)];
	// Reads grow with the log of the time: doubling it adds ln 2 / ln 1.15 ≈ 5 reads (a gap capped
	// at a few intervals would add 4 s ÷ 0.3 s ≈ 13).
	expect(r8 - r4).toBeLessThanOrEqual(7);
	expect(r8).toBeLessThan(35);
	// Found within ~15 % of its time: waiting-schedule.test.js, on a clock of its own.
});

test('estimated_time in an answer: the next read waits for it', async () => {
	// Shape B (docs/gateway-contract.md §2.3) carries estimated_time; the generic route reads it. The
	// task advances by reads (readSteps), so how many reads it takes does not depend on the clock.
	const steps = [{ status: 'in_progress', progress: 10 }, { status: 'completed', progress: 100 }];
	const [id] = await tasks(1, { readSteps: steps, estimatedTime: 3, shape: 'B' });
	const waitBegan = Date.now();
	const result = await runNode({ parameters: wait({ queryRoute: 'generic' }), credentials: ctx.creds, items: items([id]) });
	expect(result.items[0].json.state).toBe('succeeded');
	// One read at the interval learns the estimate, the next finds the task done…
	expect(ctx.sim.task(id).answers).toEqual(steps);
	// …and came no sooner than the estimate after the wait began (read at the 0.1 s interval, it
	// would have come within a second; a slow machine only makes it later).
	const [, second] = ctx.sim.find('GET', `/v1/tasks/${id}`);
	expect(second.at - waitBegan).toBeGreaterThanOrEqual(3000);
});

test('Max Wait ends the wait on time for tasks waiting for their leaders, with every task read', async () => {
	// Running, their progress moving every 0.2 s: a record that sat unchanged for a second (a task at
	// 99 % forever) would look like a relay refreshing in rounds, whose pace reads every task
	// (refreshPace.ts): on a loaded machine the leaders' reads lag enough to show it.
	const ids = await tasks(9, { outcome: 'never', durationMs: 20_000 });
	const result = await runNode({ parameters: wait({ waiting: { maxWaitMinutes: 0.05 } }), credentials: ctx.creds, items: items(ids) });
	expect(result.items.map((i) => i.json.pending)).toEqual(ids.map(() => true));
	for (const item of result.items) expect(item.json.message).toMatch(/did not finish within 3 s/);
	// The 6 that followed the leaders are read once, at the deadline (not before: a lower bound a slow
	// machine cannot miss), so each item says its last status.
	for (const id of ids.slice(3)) {
		expect(reads(id)).toBe(1);
		expect(ctx.sim.find('GET', `/v1/images/generations/${id}`)[0].at - ctx.sim.task(id).createdAt).toBeGreaterThanOrEqual(3000);
	}
	// A wait that outlived its deadline for tasks that never finish would read the leaders again and
	// run to the test's timeout: the counts above and the pending items say it ended at Max Wait.
});

test('Stop ends a wait whose tasks are waiting for their leaders at once, not at the leaders\' next read', async () => {
	const ids = await tasks(9, { outcome: 'never' });
	// Stopped 0.3 s into the leaders' 60 s interval: a wait that ignored Stop would sleep it out (past
	// the test's timeout) and read the leaders; ended by Stop, no task is read and it is over in a fraction of it.
	const result = await runNode({ parameters: wait({ waiting: { pollIntervalSeconds: 60 } }), credentials: ctx.creds, items: items(ids), stopAfterMs: 300 });
	expect(result.status).toBe('canceled');
	// Ignoring Stop, it would sleep out the 60 s (past the test's timeout) and then read the leaders.
	for (const id of ids) expect(reads(id)).toBe(0);
});

describe('submitting and waiting at once (Image → Generate with Wait for Completion)', () => {
	const generate = (extra = {}) => ({
		resource: 'image',
		operation: 'generate',
		modelId: { __rl: true, mode: 'id', value: 'gpt-image-2-async' },
		prompt: '={{ $json.prompt }}',
		waitForCompletion: true,
		waiting: { pollIntervalSeconds: 0.3, maxWaitMinutes: 1 },
		download: false,
		...extra,
	});
	const prompts = (n) => Array.from({ length: n }, (_, i) => ({ json: { prompt: `shot ${i}` } }));
	const SUBMIT = '/v1/images/generations';
	// Each submit is answered 150 ms after it arrives, and the gateway creates the task then: the
	// submits of 16 items one at a time take some 2.4 s, longer than the first tasks run.
	const slowSubmits = () => ctx.sim.inject({ method: 'POST', path: SUBMIT, delayMs: 150, times: Infinity });
	const readsOf = (id) => ctx.sim.find('GET', `${SUBMIT}/${id}`);

	test('the first tasks are read (and found done) while the last items are still being submitted', async () => {
		ctx.sim.scenario('*', { durationMs: 400 });
		slowSubmits();
		const result = await runNode({ parameters: generate({ options: { concurrency: 1 } }), credentials: ctx.creds, items: prompts(16) });
		// A result URL per item: every task was found done.
		expect(result.items.map((i) => typeof i.json.url)).toEqual(prompts(16).map(() => 'string'));
		const lastSubmitAnswered = Math.max(...ctx.sim.find('POST', SUBMIT).map((r) => r.answeredAt ?? r.at));
		const first = result.items[0].json.taskId;
		// Submitted first, done 0.4 s later: a wait that began only after the 16th submit (≥ 2.4 s)
		// would read it only then.
		expect(readsOf(first).length).toBeGreaterThan(0);
		expect(readsOf(first)[0].at).toBeLessThan(lastSubmitAnswered);
		expect(readsOf(first).some((r) => r.at >= ctx.sim.task(first).finishedAt && r.at < lastSubmitAnswered)).toBe(true);
	});

	test("a task's age counts from its submit's answer: no read comes before the task has run one interval", async () => {
		ctx.sim.scenario('*', { durationMs: 1000 });
		slowSubmits();
		const result = await runNode({ parameters: generate({ options: { concurrency: 2 } }), credentials: ctx.creds, items: prompts(6) });
		expect(result.items.map((i) => typeof i.json.url)).toEqual(prompts(6).map(() => 'string'));
		for (const item of result.items) {
			const task = ctx.sim.task(item.json.taskId);
			// The gateway created it 150 ms after the node sent it: counted from the send, the first
			// read (after one 0.3 s interval) would come when the task had run only ~0.15 s.
			expect(readsOf(task.id)[0].at - task.createdAt).toBeGreaterThanOrEqual(300);
		}
	});
});
