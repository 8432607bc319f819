'use strict';
// Task ids that would leave their path (., .., /, ?, #, control characters, empty, blank) are
// refused by one rule in Task → Get, Download Result, Wait for Completion and the trigger:
// nothing is requested, so no other address is read with the key and shown as the task.
const { runNode, pollTrigger } = require('./harness');
// A workflow id of its own per run (the trigger's state is per workflow), from the tests' seed.
const workflowIds = require('./seed').seededRandom('task-ids workflows');
const { useSimulator } = require('./support');

const ctx = useSimulator({ scenario: { durationMs: 200 } });
const BAD = [['.'], ['..'], ['../balance'], ['a/b'], ['t1?x=1'], ['t1#x'], ['a\\b'], ['t\u0000x'], ['a b'], ['   ']];

const operations = {
	get: (taskId) => ({ resource: 'task', operation: 'get', taskId, queryRoute: 'generic' }),
	downloadResult: (taskId) => ({ resource: 'task', operation: 'downloadResult', taskId, queryRoute: 'video' }),
	waitForCompletion: (taskId) => ({ resource: 'task', operation: 'waitForCompletion', taskId, queryRoute: 'image', waiting: { pollIntervalSeconds: 0.1 } }),
};

describe.each(Object.keys(operations))('Task → %s', (operation) => {
	test.each(BAD)('task id %j is refused, nothing is requested', async (taskId) => {
		const result = await runNode({ parameters: operations[operation](taskId), credentials: ctx.creds });
		expect(result.error?.message).toMatch(/^Task ID (is empty|".*" (would address|contains))/);
		expect(ctx.sim.requests).toHaveLength(0);
	});
});

test('Task → Get: an id from an expression that gives an object is refused', async () => {
	const result = await runNode({ parameters: operations.get('={{ $json.task }}'), credentials: ctx.creds, items: [{ json: { task: { id: 't1' } } }] });
	expect(result.error.message).toBe('Task ID is an object, not one id');
	expect(ctx.sim.requests).toHaveLength(0);
});

describe('trigger', () => {
	test.each(BAD.filter(([id]) => id.trim() !== '' && !/\s/.test(id)))('task id %j in Task IDs is refused, nothing is requested', async (taskId) => {
		const run = pollTrigger({
			parameters: { event: 'taskFinished', taskIds: ['task_ok', taskId], queryRoute: 'generic' },
			credentials: ctx.creds,
			mode: 'manual',
			workflowId: `ids-${workflowIds.next()}`,
		});
		await expect(run).rejects.toThrow(/^Task IDs: ".*" (would address|contains)/);
		expect(ctx.sim.requests).toHaveLength(0);
	});
});
