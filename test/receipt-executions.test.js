'use strict';
// Receipt executions (docs/receipts.md): while a billed node runs, its receipts are written as
// small executions of the same workflow (n8n saves a sub-workflow execution in its database as it
// runs), so a killed n8n loses none whatever the log level. The real kill is test/e2e/kill-keeps-receipts.js;
// here, through n8n-core's execution code, what each one holds and when it is written. And the hint
// above the output where an in-node wait cannot outlive n8n.
const { runNode } = require('./harness');
const { captureLogs } = require('./faults/pollMatrix');
const { API_KEY, createTask, useSimulator } = require('./support');

const ctx = useSimulator({ scenario: { durationMs: 300 } });

const rl = (value) => ({ __rl: true, mode: 'list', value });
const IMAGE_SUBMIT = '/v1/images/generations';
const VIDEO_SUBMIT = /^\/v1\/(video\/generations|videos)$/;
const items = (n) => Array.from({ length: n }, (_, i) => ({ json: { prompt: `a lighthouse, take ${i}` } }));
const newest = (result) => result.subExecutions.at(-1);
const entries = (sub) => sub.items.map((i) => i.json);

describe('receipt executions', () => {
	test('three tasks: written while the node still waits, as an execution of the same workflow that n8n keeps whatever its save settings', async () => {
		ctx.sim.scenario('*', { outcome: 'never' });
		const result = await runNode({
			parameters: { resource: 'image', operation: 'generate', modelId: rl('gpt-image-2-async'), prompt: '={{ $json.prompt }}', waiting: { maxWaitMinutes: 0.05, pollIntervalSeconds: 0.2 }, download: false },
			credentials: ctx.creds,
			items: items(3),
		});
		expect(result.error).toBeUndefined();
		const ids = result.items.map((i) => i.json.taskId);
		expect(new Set(ids).size).toBe(3);
		// A receipt execution listing every task was written before the wait's last read: mid-wait.
		const lastRead = Math.max(...ctx.sim.requests.filter((r) => r.method === 'GET').map((r) => r.at));
		const complete = result.subExecutions.find((s) => entries(s).filter((e) => e.receipt === 'task').length === 3);
		expect(complete).toBeDefined();
		expect(complete.at).toBeLessThan(lastRead);
		expect(entries(newest(result))).toEqual(
			ids.map((taskId, item) => ({ execution: 'exec-1', node: 'Gateway', item, receipt: 'task', taskId, queryRoute: 'image', recordedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) })),
		);
		const sub = newest(result);
		expect(sub.parentExecution).toEqual(expect.objectContaining({ executionId: 'exec-1', workflowId: 'wf-test', shouldResume: false }));
		// n8n's sub-workflow trigger passes the entries through; the workflow's own save settings do not apply.
		expect(sub.workflow.id).toBe('wf-test');
		expect(sub.workflow.nodes.find((n) => n.name === 'Receipts')).toMatchObject({ type: 'n8n-nodes-base.executeWorkflowTrigger', parameters: { inputSource: 'passthrough' } });
		expect(sub.workflow.settings).toMatchObject({ saveDataSuccessExecution: 'all', saveDataErrorExecution: 'all', saveManualExecutions: true });
		expect(JSON.stringify(result.subExecutions)).not.toContain(API_KEY);
		// A quick burst of answers is one write, not one per answer.
		expect(result.subExecutions.length).toBeLessThan(3);
	});

	test('a sync image: its full result URL, signed query included', async () => {
		ctx.sim.scenario('*', { signedUrls: true });
		const result = await runNode({
			parameters: { resource: 'image', operation: 'generate', modelId: rl('gpt-image-2'), prompt: 'a lighthouse', download: false },
			credentials: ctx.creds,
		});
		expect(result.error).toBeUndefined();
		const url = result.items[0].json.url;
		expect(url).toMatch(/\?X-Expires=/);
		expect(entries(newest(result))).toEqual([expect.objectContaining({ item: 0, receipt: 'result', resultUrls: [url] })]);
	});

	test('a submit whose answer never came: listed as unanswered (it may have been created)', async () => {
		ctx.sim.inject({ method: 'POST', path: VIDEO_SUBMIT, kind: 'drop' });
		const result = await runNode({
			parameters: { resource: 'video', operation: 'generate', modelId: rl('seedance-2.0'), prompt: '={{ $json.prompt }}', waiting: { pollIntervalSeconds: 0.2 }, download: false },
			credentials: ctx.creds,
			items: items(2),
			continueOnFail: true,
		});
		const dropped = result.items.findIndex((i) => i.json.created === 'unknown');
		expect(dropped).toBeGreaterThanOrEqual(0);
		const listed = entries(newest(result));
		expect(listed.find((e) => e.item === dropped)).toMatchObject({ receipt: 'unanswered' });
		expect(listed.find((e) => e.item !== dropped)).toMatchObject({ receipt: 'task', taskId: result.items[1 - dropped].json.taskId });
	});

	test('a refused submit (nothing created) writes no receipt execution', async () => {
		ctx.sim.inject({ method: 'POST', path: IMAGE_SUBMIT, status: 400 });
		const result = await runNode({
			parameters: { resource: 'image', operation: 'generate', modelId: rl('gpt-image-2-async'), prompt: 'a lighthouse', download: false },
			credentials: ctx.creds,
			continueOnFail: true,
		});
		expect(result.items[0].json.created).toBe('no');
		expect(result.subExecutions).toEqual([]);
	});

	test('Retry On Fail: the last try\'s receipt execution still holds the tasks earlier tries created', async () => {
		ctx.sim.scenario('seedance-2.0', { durationMs: 300, failEvery: 2 });
		const result = await runNode({
			parameters: { resource: 'video', operation: 'generate', modelId: rl('seedance-2.0'), prompt: '={{ $json.prompt }}', waiting: { pollIntervalSeconds: 0.1 }, download: false },
			credentials: ctx.creds,
			items: items(3),
			nodeSettings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 1 },
		});
		expect(result.error).toBeUndefined();
		// Try 1 made three tasks (the second failed); the later tries took up items 0 and 2 and sent item 1 again.
		expect(ctx.sim.taskIds()).toHaveLength(5);
		expect(entries(newest(result)).map((e) => [e.item, e.receipt, e.taskId])).toEqual(result.items.map((i, item) => [item, 'task', i.json.taskId]));
	});

	test('an n8n that refuses sub-workflow executions: every receipt is in the log at warn, the level production hosts keep', async () => {
		const logs = captureLogs();
		try {
			const result = await runNode({
				parameters: { resource: 'image', operation: 'generate', modelId: rl('gpt-image-2-async'), prompt: '={{ $json.prompt }}', waiting: { pollIntervalSeconds: 0.2 }, download: false },
				credentials: ctx.creds,
				items: items(3),
				subWorkflows: 'fail',
			});
			expect(result.error).toBeUndefined();
			const warned = logs.lines.filter((l) => l.level === 'warn').map((l) => l.message).join('\n');
			expect(warned).toContain('could not save its receipts as an execution of this workflow (sub-workflow executions are refused here)');
			for (const item of result.items) expect(warned).toContain(item.json.taskId);
		} finally {
			logs.restore();
		}
	});
});

describe('the hint where an in-node wait cannot outlive n8n', () => {
	const video = (extra = {}) => ({ resource: 'video', operation: 'generate', modelId: rl('seedance-2.0'), prompt: 'rain', download: false, ...extra });
	const loopHints = (result) => result.hints.filter((h) => /Long renders that survive a restart/.test(h.message) && /ends this wait/.test(h.message));

	test('Max Wait over 5 minutes (video\'s default 30): a restart ends the wait; at most 120 characters', async () => {
		const result = await runNode({ parameters: video({ waiting: { pollIntervalSeconds: 0.2 } }), credentials: ctx.creds });
		expect(result.error).toBeUndefined();
		expect(loopHints(result)).toEqual([
			{ message: 'A restart of n8n ends this wait of up to 30 min. Use a Wait-node loop: README "Long renders that survive a restart"', type: 'info', location: 'outputPane' },
		]);
		for (const hint of result.hints.filter((h) => /ends this wait/.test(h.message))) expect(hint.message.length).toBeLessThanOrEqual(120);
	});

	test('Max Wait of 5 minutes, Wait for Completion off, a sync image, an agent\'s tool: no such hint', async () => {
		const short = await runNode({ parameters: video({ waiting: { maxWaitMinutes: 5, pollIntervalSeconds: 0.2 } }), credentials: ctx.creds });
		const off = await runNode({ parameters: video({ waitForCompletion: false }), credentials: ctx.creds });
		const sync = await runNode({ parameters: { resource: 'image', operation: 'generate', modelId: rl('gpt-image-2'), prompt: 'rain', download: false }, credentials: ctx.creds });
		const tool = await runNode({ node: 'unifiedAiGatewayTool', parameters: video({ waiting: { pollIntervalSeconds: 0.2 } }), credentials: ctx.creds });
		for (const result of [short, off, sync, tool]) {
			expect(result.error).toBeUndefined();
			expect(loopHints(result)).toEqual([]);
		}
	});

	test('n8n Cloud (told by the instance address) and an execution time limit: every in-node wait gets it', async () => {
		const cloud = await runNode({ parameters: video({ waiting: { maxWaitMinutes: 1, pollIntervalSeconds: 0.2 } }), credentials: ctx.creds, instanceBaseUrl: 'https://acme.app.n8n.cloud/' });
		expect(loopHints(cloud).map((h) => h.message)).toEqual(['On n8n Cloud a restart or time limit ends this wait. Use a Wait-node loop: README "Long renders that survive a restart"']);
		const limited = await runNode({ parameters: video({ waiting: { maxWaitMinutes: 1, pollIntervalSeconds: 0.2 } }), credentials: ctx.creds, executionTimeoutS: 600 });
		expect(loopHints(limited).map((h) => h.message)).toEqual(['A time limit or restart of n8n ends this wait. Use a Wait-node loop: README "Long renders that survive a restart"']);
		for (const hint of [...loopHints(cloud), ...loopHints(limited)]) expect(hint.message.length).toBeLessThanOrEqual(120);
	});

	test('the README section the hint names is there, and says how to build the loop', () => {
		const readme = require('node:fs').readFileSync(require('node:path').join(__dirname, '..', 'README.md'), 'utf8');
		expect(readme).toMatch(/^### Long renders that survive a restart$/m);
		expect(readme).toContain('examples/long-render-loop.json');
	});

	test('Task → Wait for Completion with Max Wait 0 follows the route (video: 30 min): the hint too', async () => {
		const taskId = await createTask(ctx.sim, { model: 'seedance-2.0', path: '/v1/video/generations' });
		const result = await runNode({
			parameters: { resource: 'task', operation: 'waitForCompletion', taskId, queryRoute: 'video', waiting: { pollIntervalSeconds: 0.2 } },
			credentials: ctx.creds,
		});
		expect(result.error).toBeUndefined();
		expect(loopHints(result).map((h) => h.message)).toEqual(['A restart of n8n ends this wait of up to 30 min. Use a Wait-node loop: README "Long renders that survive a restart"']);
	});
});
