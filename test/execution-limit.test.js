'use strict';
// A wait never outlives the execution: with the workflow's Timeout Workflow (settings.executionTimeout,
// which n8n turns into the execution's timeout timestamp and a cancel), the node's wait ends early
// enough to output its pending items, with their task ids and how to resume, instead of being cancelled.
const { runNode } = require('./harness');
const { useSimulator, createTask } = require('./support');

const ctx = useSimulator({ scenario: { durationMs: 60_000 } });
const rl = (value) => ({ __rl: true, mode: 'id', value });
const video = (extra = {}) => ({ resource: 'video', operation: 'generate', modelId: rl('sora-2'), prompt: '={{ $json.prompt }}', ...extra, waiting: { pollIntervalSeconds: 0.2, ...extra?.waiting } });

describe('Timeout Workflow', () => {
	/*
	 * These runs race a clock on purpose: n8n cancels an execution by a timer at its limit, and what
	 * is under test is that the node's wait ends before it (a tenth of the time left, at least 1 s,
	 * kept for the output: engine/waiting/timeLimit.ts) and the pending items come out in that time.
	 * n8n has loaded the node and run its code long before a workflow's limit starts; a test file's
	 * first run here has not: it loads modules and compiles every function of the submit, the wait
	 * and the output inside its 4 s, which at load 20 on 2 cores took 2 s before the first request
	 * and 1 s of output, past the limit. One run beforehand pays that, outside every limit.
	 */
	beforeAll(async () => {
		ctx.fresh();
		await runNode({ parameters: video(), credentials: ctx.creds, items: [{ json: { prompt: 'warm-up' } }], executionTimeoutS: 4, executionId: 'limit-warm-up' });
	}, 60_000);

	test('Video → Generate (Max Wait 30 min) in a 4 s execution: pending items are output before n8n cancels', async () => {
		const result = await runNode({
			parameters: video(),
			credentials: ctx.creds,
			items: [{ json: { prompt: 'a boat' } }, { json: { prompt: 'a kite' } }],
			executionTimeoutS: 4,
			executionId: 'limit-1',
		});
		// Not cancelled: the harness cancels at the 4 s limit as n8n does, so this is the run ending before it
		// (a run-time budget on top said the same again).
		expect(result.status).not.toBe('canceled');
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		for (const item of result.items) {
			expect(item.json).toMatchObject({ pending: true, queryRoute: 'generic' });
			expect(item.json.taskId).toEqual(expect.any(String));
			expect(item.json.message).toMatch(/neared its time limit .*Timeout Workflow.*resume it with Task → Wait for Completion/);
		}
		// One submit per item, nothing resent.
		expect(ctx.sim.find('POST', '/v1/video/generations')).toHaveLength(2);
	});

	test('Task → Wait for Completion in a 3 s execution outputs the pending task', async () => {
		const taskId = await createTask(ctx.sim, { model: 'gpt-image-2-async' });
		const result = await runNode({
			parameters: { resource: 'task', operation: 'waitForCompletion', taskId: '={{ $json.taskId }}', queryRoute: 'image', waiting: { pollIntervalSeconds: 0.2 } },
			credentials: ctx.creds,
			items: [{ json: { taskId } }],
			executionTimeoutS: 3,
			executionId: 'limit-2',
		});
		expect(result.status).not.toBe('canceled');
		expect(result.items[0].json).toMatchObject({ taskId, pending: true });
	});

	test('On Timeout = Fail: the item fails with its task id instead of the execution being cancelled', async () => {
		const result = await runNode({
			parameters: video({ waiting: { onTimeout: 'fail' } }),
			credentials: ctx.creds,
			items: [{ json: { prompt: 'a boat' } }],
			executionTimeoutS: 3,
			executionId: 'limit-3',
		});
		expect(result.status).not.toBe('canceled');
		expect(result.error.message).toMatch(/^Task \S+ was still running .*time limit/);
	});
});
