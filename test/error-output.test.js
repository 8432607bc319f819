'use strict';
// On Error = "Continue (using error output)": n8n moves an item to the node's error output only
// when the item carries `error` (or its json holds nothing but error/message/details), and keeps
// only `{ error: message }` of it there. The scheduled-batch Collect example relies on it: failed
// tasks go to the error output with their reason and task id in the message, paired with their
// row; finished and still-running ones stay on the main output.
const { runNode } = require('./harness');
const { useSimulator, createTask, taskWaitParameters } = require('./support');

const ctx = useSimulator();
const wait = taskWaitParameters({ waiting: { maxWaitMinutes: 0.02 } });

async function task(scenario) {
	ctx.sim.scenario('*', scenario);
	return await createTask(ctx.sim);
}

test('Task → Wait for Completion: a failed task goes to the error output with its reason, done and running ones stay on the main output', async () => {
	const done = await task({ durationMs: 100 });
	const failed = await task({ durationMs: 100, outcome: 'fail', failMessage: 'content policy violation' });
	const running = await task({ outcome: 'never' });
	const items = [done, failed, running].map((taskId, row) => ({ json: { taskId, row } }));
	const result = await runNode({ parameters: wait(), credentials: ctx.creds, onError: 'continueErrorOutput', items });
	expect(result.error).toBeUndefined();
	expect(result.items.map((i) => [i.json.taskId, i.json.state ?? 'pending', i.json.pending ?? false])).toEqual([
		[done, 'succeeded', false],
		[running, 'pending', true],
	]);
	expect(result.errorItems).toHaveLength(1);
	// Paired with its input item: the next node reads the table row with $('Node').item.
	expect(result.errorItems[0]).toMatchObject({ pairedItem: { item: 1 } });
	expect(result.errorItems[0].json.error).toMatch(new RegExp(`Task ${failed} failed: .*content policy violation`));
});

test('Image → Generate: a rejected submit goes to the error output, saying no task was created', async () => {
	ctx.sim.inject({ method: 'POST', path: '/v1/images/generations', status: 400, body: { error: { message: 'prompt rejected', code: 'bad_prompt' } } });
	const parameters = { resource: 'image', operation: 'generate', modelId: { __rl: true, mode: 'id', value: 'gpt-image-2-async' }, prompt: '={{ $json.prompt }}', waitForCompletion: false };
	const items = [{ json: { prompt: 'first', row: 7 } }, { json: { prompt: 'second', row: 8 } }];
	const result = await runNode({ parameters, credentials: ctx.creds, onError: 'continueErrorOutput', items });
	expect(result.error).toBeUndefined();
	expect(result.errorItems.map((i) => [i.pairedItem.item, i.json.error])).toEqual([[0, expect.stringMatching(/prompt rejected \(created: no\)/)]]);
	expect(result.items.map((i) => [i.json.pending, typeof i.json.taskId])).toEqual([[true, 'string']]);
	expect(ctx.sim.count('POST', '/v1/images/generations')).toBe(2);
});

test('Task → Get: a task id the gateway does not know goes to the error output', async () => {
	ctx.sim.inject({ method: 'GET', path: '/v1/tasks/task_gone', status: 404, times: Infinity, body: { error: { message: 'task not found' } } });
	const parameters = { resource: 'task', operation: 'get', taskId: '={{ $json.taskId }}', queryRoute: 'generic' };
	const result = await runNode({ parameters, credentials: ctx.creds, onError: 'continueErrorOutput', items: [{ json: { taskId: 'task_gone', row: 3 } }] });
	expect(result.items).toEqual([]);
	expect(result.errorItems.map((i) => [i.pairedItem.item, i.json.error])).toEqual([[0, expect.stringMatching(/does not know this task/)]]);
});

test('Continue (regular output) keeps every field of a failed item: task id, whether it was created', async () => {
	const failed = await task({ durationMs: 100, outcome: 'fail', failMessage: 'content policy violation' });
	const result = await runNode({ parameters: wait(), credentials: ctx.creds, onError: 'continueRegularOutput', items: [{ json: { taskId: failed } }] });
	expect(result.items.map((i) => i.json)).toEqual([expect.objectContaining({ taskId: failed, created: 'yes', error: expect.stringMatching(/content policy violation/) })]);
});
