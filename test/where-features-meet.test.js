'use strict';
// Where two features meet: the download bounds and the execution's time limit, Download Options
// from expressions and the number rule, the task-id rule on every path a task id takes (the
// relay's fallback routes, a submit's answer), and what Check Once carries from round to round.
const path = require('node:path');
const { runNode } = require('./harness');
const { useSimulator, createTask } = require('./support');

const ctx = useSimulator({ scenario: { durationMs: 50, signedUrls: true } });
const rl = (value) => ({ __rl: true, mode: 'id', value });
const FILE = /\/files\/[^/]+\.(png|mp4)$/;
const syncImage = (extra = {}) => ({ resource: 'image', operation: 'generate', modelId: rl('gpt-image-2'), prompt: 'a red bicycle', download: true, ...extra });
const submits = () => ctx.sim.requests.filter((r) => r.method === 'POST');

describe('a download never outlives the execution', () => {
	test('a file host that trickles: the download ends before Timeout Workflow, naming it, with the full signed URL', async () => {
		ctx.sim.inject({ origin: 'files', path: FILE, kind: 'trickle', everyMs: 200, times: Infinity });
		const result = await runNode({ parameters: syncImage(), credentials: ctx.creds, continueOnFail: true, executionTimeoutS: 5, executionId: 'meet-1' });
		// Not cancelled: the harness cancels at the 5 s limit as n8n does, so the download ended before it.
		expect(result.status).not.toBe('canceled');
		const failed = result.items.find((i) => i.json.error);
		expect(failed.json.error).toMatch(/did not finish within the workflow's time limit \(Timeout Workflow\)/);
		expect(failed.json.url).toMatch(/\?X-Expires=\d+&X-Signature=/);
		expect(submits()).toHaveLength(1);
	}, 20_000);

	test('a file host that sends nothing before the time limit: the error names the limit, not an unreachable host', async () => {
		ctx.sim.inject({ origin: 'files', path: FILE, delayMs: 60_000, times: Infinity });
		const result = await runNode({ parameters: syncImage(), credentials: ctx.creds, continueOnFail: true, executionTimeoutS: 5, executionId: 'meet-2' });
		// Not cancelled: the harness cancels at the 5 s limit as n8n does, so the download ended before it.
		expect(result.status).not.toBe('canceled');
		const failed = result.items.find((i) => i.json.error);
		expect(failed.json.error).toMatch(/did not finish within the workflow's time limit \(Timeout Workflow\) \(0 bytes received\)/);
		expect(failed.json.error).not.toMatch(/Could not reach/);
		expect(failed.json.url).toMatch(/\?X-Expires=\d+&X-Signature=/);
		expect(submits()).toHaveLength(1);
	}, 20_000);
});

describe('Download limits (Options) from an expression', () => {
	test.each([
		['text', { maxFileSizeMb: '={{ "big" }}' }, /^Options → Max File Size \(MB\): "big" is not a number; it takes a number from 0\.001 to 20480 MB, or 0 for the default of the file kind$/],
		['past its bound', { maxFileSizeMb: 1e9 }, /^Options → Max File Size \(MB\): 1000000000 is out of range/],
		['negative', { downloadTimeoutSeconds: -5 }, /^Options → Download Timeout \(Seconds\): -5 is out of range/],
	])('%s is refused naming the field, before anything is billed', async (_name, options, message) => {
		const result = await runNode({ parameters: syncImage({ options }), credentials: ctx.creds });
		expect(result.error.message).toMatch(message);
		expect(submits()).toHaveLength(0);
	});

	test('0 keeps the default and a sound value is used', async () => {
		const result = await runNode({ parameters: syncImage({ options: { maxFileSizeMb: 0, downloadTimeoutSeconds: 120 } }), credentials: ctx.creds });
		expect(result.error).toBeUndefined();
		expect(result.items[0].binary.data.mimeType).toBe('image/png');
	});
});

describe('the task-id rule on every path a task id takes', () => {
	test("the relay's fallback routes build no path from an id that leaves its segment", () => {
		const { QUERY_ROUTES } = require(path.resolve(__dirname, '../dist/nodes/UnifiedAiGateway/api/tasks/routes.js'));
		for (const fallback of QUERY_ROUTES.generic.fallbacks) {
			expect(() => fallback.path('..')).toThrow(/would address the folder above the task/);
			expect(fallback.path('task_ok')).toMatch(/\/task_ok$/);
			if (fallback.contentPath) expect(() => fallback.contentPath('a/b')).toThrow();
		}
	});

	test("a submit answered with an id that cannot be read back is accepted (created: yes), named, and not polled", async () => {
		ctx.sim.inject({ method: 'POST', path: '/v1/video/generations', status: 200, body: { task_id: '..', status: 'queued' } });
		const result = await runNode({
			parameters: { resource: 'video', operation: 'generate', modelId: rl('sora-2'), prompt: 'a boat', waiting: { pollIntervalSeconds: 0.1 } },
			credentials: ctx.creds,
			continueOnFail: true,
		});
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json.error).toMatch(/^The gateway accepted the video job but its task ID "\.\." cannot be read back: it would address the folder above the task/);
		expect(result.items[0].json.created).toBe('yes');
		// Nothing read but the gateway's price list, before the submit.
		expect(ctx.sim.requests.filter((r) => r.method === 'GET').map((r) => r.path)).toEqual(['/api/pricing']);
	});
});

describe('Check Once carries only what still holds', () => {
	test("a pending round does not carry the last round's expiry, route or error into the item", async () => {
		ctx.sim.scenario('*', { outcome: 'never' });
		const taskId = await createTask(ctx.sim, { model: 'nano-banana' });
		const stale = { taskId, queryRoute: 'image', pending: true, checks: 2, expiresAt: '2020-01-01T00:00:00.000Z', answeredBy: 'GET /v1/videos/{id}', downloadFailed: true, created: 'yes', row: 7 };
		const result = await runNode({
			parameters: { resource: 'task', operation: 'checkOnce', taskId: '={{ $json.taskId }}', queryRoute: 'auto' },
			credentials: ctx.creds,
			items: [{ json: stale }],
		});
		const json = result.items[0].json;
		expect(json).toMatchObject({ taskId, pending: true, checks: 3, row: 7 });
		for (const key of ['expiresAt', 'answeredBy', 'downloadFailed', 'created']) expect(json).not.toHaveProperty(key);
	});
});
