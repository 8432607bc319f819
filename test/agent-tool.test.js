'use strict';
// The node as an AI Agent's tool (the `unifiedAiGatewayTool` type n8n generates from usableAsTool):
// a short bounded wait, a pending answer a model can act on, never a file. And the lines n8n shows
// above the output (execution hints), as n8n-core records them on the run.
const { runNode } = require('./harness');
const { createTask, useSimulator } = require('./support');

const ctx = useSimulator({ scenario: { durationMs: 300 } });

const rl = (value) => ({ __rl: true, mode: 'list', value });
const TOOL = 'unifiedAiGatewayTool';
const videoSubmits = () => ctx.sim.requests.filter((r) => r.method === 'POST' && /^\/v1\/(video\/generations|videos)$/.test(r.path));
const fileReads = () => ctx.sim.requests.filter((r) => r.origin === 'files');

describe('as an AI Agent tool', () => {
	test('a long video: the tool answers pending within a minute (not Max Wait\'s 30), with how to check it, and no second submit', async () => {
		ctx.sim.scenario('*', { outcome: 'never', progressSteps: [30] });
		const result = await runNode({
			node: TOOL,
			// Max Wait left at its 30 min default, On Timeout = Fail: a tool call neither waits that long nor fails.
			parameters: { resource: 'video', operation: 'generate', modelId: rl('seedance-2.0'), prompt: 'a lighthouse at dawn', waiting: { onTimeout: 'fail' } },
			credentials: ctx.creds,
		});
		expect(result.error).toBeUndefined();
		expect(result.durationMs).toBeGreaterThanOrEqual(59_000);
		// Not Max Wait's 30 minutes: the test's 90 s timeout holds that, and no clock bound is asserted.
		expect(result.items).toHaveLength(1);
		const [item] = result.items;
		const taskId = item.json.taskId;
		expect(ctx.sim.task(taskId)).toBeDefined();
		expect(item.json).toMatchObject({ pending: true, queryRoute: 'generic' });
		expect(item.binary).toBeUndefined();
		expect(item.json.submitResponse).toBeUndefined();
		expect(item.json.message).toMatch(new RegExp(`^Task ${taskId} is still running \\(status '[^']+'`));
		expect(item.json.message).toContain(`Task → Get (or Task → Wait for Completion) with task id ${taskId} and query route generic`);
		expect(item.json.message).toContain('Do not call this tool again for it');
		expect(videoSubmits()).toHaveLength(1);
	}, 90_000);

	test('a finished image: its URL, no file downloaded or attached (Download Result is on by default)', async () => {
		const result = await runNode({
			node: TOOL,
			parameters: { resource: 'image', operation: 'generate', modelId: rl('gpt-image-2-async'), prompt: 'a lighthouse', waiting: { pollIntervalSeconds: 0.1 } },
			credentials: ctx.creds,
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\//);
		expect(result.items[0].binary).toBeUndefined();
		expect(fileReads()).toHaveLength(0);
	});

	test('an inline (b64_json) image has no URL to give: it is kept as the binary, so the paid image stays in the execution', async () => {
		const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4a00000000049454e44ae426082', 'hex');
		ctx.sim.inject({ method: 'POST', path: '/v1/images/generations', status: 200, body: { created: 1, data: [{ b64_json: png.toString('base64') }] } });
		const result = await runNode({
			node: TOOL,
			parameters: { resource: 'image', operation: 'generate', modelId: rl('gpt-image-2'), prompt: 'a lighthouse' },
			credentials: ctx.creds,
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.url).toMatch(/^data:image\/png;base64,… \(inline image\/png/);
		expect(result.items[0].binary.data.mimeType).toBe('image/png');
		expect(fileReads()).toHaveLength(0);
	});

	test('Task → Wait for Completion as a tool: a shorter Max Wait stays, and the answer says to call the same tool again', async () => {
		ctx.sim.scenario('*', { outcome: 'never' });
		const taskId = await createTask(ctx.sim, { model: 'nano-banana' });
		const result = await runNode({
			node: TOOL,
			parameters: { resource: 'task', operation: 'waitForCompletion', taskId, queryRoute: 'image', waiting: { maxWaitMinutes: 0.05, pollIntervalSeconds: 0.5, onTimeout: 'fail' } },
			credentials: ctx.creds,
		});
		expect(result.error).toBeUndefined();
		// Max Wait's 3 s kept, not raised to the tool's minute: every 0.5 s at most (a busy machine reads
		// less often, never more), a wait of 3 s reads the task about 6 times, one of a minute about 120.
		expect(ctx.sim.count('GET', `/v1/images/generations/${taskId}`)).toBeLessThanOrEqual(12);
		expect(result.items[0].json).toMatchObject({ taskId, pending: true });
		expect(result.items[0].json.message).toMatch(new RegExp(`^Task ${taskId} is still running .*Call this tool again with task id ${taskId} and query route image in about a minute\\.$`));
	});

	test('Task → Download Result as a tool gives the URLs, not the file', async () => {
		const taskId = await createTask(ctx.sim, { model: 'nano-banana' });
		await new Promise((r) => setTimeout(r, 600));
		const result = await runNode({ node: TOOL, parameters: { resource: 'task', operation: 'downloadResult', taskId, queryRoute: 'image' }, credentials: ctx.creds });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.url).toBe(ctx.sim.task(taskId).urls[0]);
		expect(result.items[0].binary).toBeUndefined();
		expect(fileReads()).toHaveLength(0);
	});

	test('the same operation as a plain node still waits and downloads (tool mode is only for tools)', async () => {
		const result = await runNode({
			parameters: { resource: 'image', operation: 'generate', modelId: rl('gpt-image-2-async'), prompt: 'a lighthouse', waiting: { pollIntervalSeconds: 0.1 } },
			credentials: ctx.creds,
		});
		expect(result.items[0].binary.data).toBeDefined();
		expect(fileReads()).toHaveLength(1);
	});
});

describe('hints in the output pane', () => {
	const messages = (result) => result.hints.map((h) => h.message);

	test('items still pending: how many, and what to connect next', async () => {
		const result = await runNode({
			parameters: { resource: 'video', operation: 'generate', modelId: rl('seedance-2.0'), prompt: 'rain', waitForCompletion: false },
			credentials: ctx.creds,
			items: [{ json: {} }, { json: {} }],
		});
		expect(result.error).toBeUndefined();
		const hint = result.hints.find((h) => /submitted without waiting/.test(h.message));
		expect(hint).toEqual({ message: '2 tasks submitted without waiting: collect them with Task → Wait for Completion (re-running this node bills again)', type: 'info', location: 'outputPane' });
		expect(messages(result)).toContain('Long renders: a Wait node (70 s or more), then Task → Check Once in a loop, keeps waiting through n8n restarts');
	});

	test('still running after Max Wait: a warning naming the items', async () => {
		ctx.sim.scenario('*', { outcome: 'never' });
		const result = await runNode({
			parameters: { resource: 'image', operation: 'generate', modelId: rl('nano-banana'), prompt: 'rain', waiting: { maxWaitMinutes: 0.02, pollIntervalSeconds: 0.2 } },
			credentials: ctx.creds,
		});
		expect(result.items[0].json.pending).toBe(true);
		expect(result.hints).toContainEqual({ message: expect.stringMatching(/^1 item still running after Max Wait/), type: 'warning', location: 'outputPane' });
	});

	test('Task → Wait for Completion with tasks still running: run it again later (reading is free), no word of billing', async () => {
		ctx.sim.scenario('*', { outcome: 'never' });
		const taskId = await createTask(ctx.sim, { model: 'nano-banana' });
		const result = await runNode({
			parameters: { resource: 'task', operation: 'waitForCompletion', taskId, queryRoute: 'image', waiting: { maxWaitMinutes: 0.02, pollIntervalSeconds: 0.2 } },
			credentials: ctx.creds,
		});
		expect(result.items[0].json.pending).toBe(true);
		const hint = result.hints.find((h) => /still running/.test(h.message));
		expect(hint).toEqual({ message: '1 task still running after Max Wait (pending: true): run Task → Wait for Completion later; reading is free', type: 'warning', location: 'outputPane' });
		expect(messages(result).some((m) => /bill/.test(m))).toBe(false);
	});

	test('Retry On Fail on: what a retry does with tasks already created; off: no such line', async () => {
		const parameters = { resource: 'image', operation: 'generate', modelId: rl('gpt-image-2-async'), prompt: 'rain', waiting: { pollIntervalSeconds: 0.1 }, download: false };
		const on = await runNode({ parameters, credentials: ctx.creds, nodeSettings: { retryOnFail: true, maxTries: 3 } });
		expect(on.hints).toContainEqual({
			message: 'Retry On Fail is on: a retry re-uses tasks this execution already created; items whose submit failed are submitted again',
			type: 'info',
			location: 'outputPane',
		});
		const off = await runNode({ parameters, credentials: ctx.creds });
		expect(messages(off).some((m) => /Retry On Fail/.test(m))).toBe(false);
		// Nothing billed (Task → Get): nothing for a retry to re-bill, so no line either.
		const taskId = await createTask(ctx.sim, { model: 'nano-banana' });
		const read = await runNode({ parameters: { resource: 'task', operation: 'get', taskId, queryRoute: 'image' }, credentials: ctx.creds, nodeSettings: { retryOnFail: true } });
		expect(messages(read).some((m) => /Retry On Fail/.test(m))).toBe(false);
	});

	test('the run\'s estimated spend', async () => {
		const result = await runNode({
			parameters: { resource: 'image', operation: 'generate', modelId: rl('gpt-image-2-async'), prompt: 'rain', waiting: { pollIntervalSeconds: 0.1 }, download: false },
			credentials: ctx.creds,
			items: [{ json: {} }, { json: {} }],
		});
		const summary = result.items[0].json.spendSummary;
		expect(summary.itemsSubmitted).toBe(2);
		expect(result.hints).toContainEqual({
			message: expect.stringMatching(/^Estimated spend: 2 items submitted, about \d[\d.]* USD \(details: spendSummary, first item\)$/),
			type: 'info',
			location: 'outputPane',
		});
		expect(summary.text).toMatch(/^2 items submitted, about \d/);
	});
});
