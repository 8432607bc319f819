'use strict';
// The engine's own floor and deadline: whatever reaches the poll loop (a setting that skipped its
// check, NaN from arithmetic), each task pauses between reads and the wait ends. Called as the
// node calls it, in an n8n-core ExecuteContext, with real HTTP to the simulator.
const path = require('node:path');
const { executeContext } = require('./harness');
const { useSimulator, createTask } = require('./support');

const { waitForTasks } = require(path.resolve(__dirname, '../dist/nodes/UnifiedAiGateway/engine/waiting/waiter.js'));
const ctx = useSimulator({ scenario: { durationMs: 600_000 } });

test('a NaN or zero Poll Interval still pauses at least 50 ms between reads of a task', async () => {
	const taskId = await createTask(ctx.sim, { model: 'gpt-image-2-async' });
	for (const intervalMs of [NaN, 0, -1]) {
		ctx.sim.requests.length = 0;
		const { context } = executeContext({ credentials: ctx.creds });
		const [outcome] = await waitForTasks(context, [{ taskId, route: 'image', startedAt: Date.now() }], { intervalMs, deadlineMs: 1000 });
		// The wait ended (at its 1 s deadline: a wait that did not would run to the test's timeout).
		expect(outcome.kind).toBe('timeout');
		// 1 s at a 50 ms floor: about 20 reads, never the thousands a second of a loop without a pause.
		expect(ctx.sim.find('GET', `/v1/images/generations/${taskId}`).length).toBeLessThanOrEqual(25);
	}
});

test('a NaN, negative or infinite Max Wait falls back to the route window: the wait does not spin, and Stop ends it', async () => {
	const taskId = await createTask(ctx.sim, { model: 'gpt-image-2-async' });
	for (const deadlineMs of [NaN, -5, Infinity]) {
		ctx.sim.requests.length = 0;
		const { context, abort } = executeContext({ credentials: ctx.creds });
		setTimeout(abort, 600);
		const waiting = waitForTasks(context, [{ taskId, route: 'image' }], { intervalMs: 100, deadlineMs });
		await expect(waiting).rejects.toThrow();
		const reads = ctx.sim.find('GET', `/v1/images/generations/${taskId}`).length;
		expect(reads).toBeGreaterThanOrEqual(1);
		expect(reads).toBeLessThanOrEqual(8);
	}
});

test('the execution time limit bounds a wait no Max Wait can extend', async () => {
	const taskId = await createTask(ctx.sim, { model: 'gpt-image-2-async' });
	const { context } = executeContext({ credentials: ctx.creds, executionTimeoutS: 2 });
	const [outcome] = await waitForTasks(context, [{ taskId, route: 'image' }], { intervalMs: 100, deadlineMs: 60 * 60_000 });
	expect(outcome.kind).toBe('timeout');
	expect(outcome.message).toMatch(/neared its time limit/);
	// A wait that kept Max Wait's hour would run to the test's timeout: the outcome says it ended first.
});
