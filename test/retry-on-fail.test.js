'use strict';
// The node setting Retry On Fail: n8n-core's WorkflowExecute runs the node again in the same
// execution and process. A retry takes up what the earlier tries created (finished tasks give
// their results, sync answers their URLs) and submits again only what failed or was surely never
// created; a submit whose answer was lost is never sent again.
const { runNode, binaryBuffer } = require('./harness');
const { useSimulator } = require('./support');

const ctx = useSimulator({ scenario: { durationMs: 300 } });
const rl = (value) => ({ __rl: true, mode: 'id', value });
const prompts = (...texts) => texts.map((prompt) => ({ json: { prompt } }));
const RETRY = { retryOnFail: true, maxTries: 3, waitBetweenTries: 1 };
let executions = 0;

function video(extra = {}) {
	return { resource: 'video', operation: 'generate', modelId: rl('sora-2'), prompt: '={{ $json.prompt }}', ...extra, waiting: { pollIntervalSeconds: 0.1, ...extra?.waiting } };
}
function image(model, extra = {}) {
	return { resource: 'image', operation: 'generate', modelId: rl(model), prompt: '={{ $json.prompt }}', ...extra, waiting: { pollIntervalSeconds: 0.1, ...extra?.waiting } };
}
/** Each run is its own execution, as in n8n. */
async function run(parameters, items, options = {}) {
	return await runNode({ parameters, credentials: ctx.creds, items, nodeSettings: RETRY, executionId: `retry-${++executions}`, ...options });
}
const videoSubmits = () => ctx.sim.requests.filter((r) => r.method === 'POST' && /^\/v1\/(video\/generations|videos)$/.test(r.path));
const imageSubmits = () => ctx.sim.find('POST', '/v1/images/generations', 'main');

describe('Retry On Fail takes up what was created', () => {
	test('Video → Generate, 3 items, one task fails every time: 3 + 2 submits (not 9), the others are not billed again', async () => {
		ctx.sim.scenario('sora-2', { durationMs: 300, failEvery: 2 });
		const result = await run(video(), prompts('a boat', 'a kite', 'a lamp'));
		// Try 1: three tasks, the 2nd fails. Try 2: the two finished tasks are taken up, the failed item
		// is submitted again (task 4, fails). Try 3: submitted again (task 5, succeeds).
		expect(videoSubmits()).toHaveLength(5);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(3);
		const ids = result.items.map((item) => item.json.taskId);
		expect(new Set(ids).size).toBe(3);
		for (const item of result.items) {
			expect(item.json.state).toBe('succeeded');
			expect((await binaryBuffer(item.binary.data)).toString('ascii', 4, 8)).toBe('ftyp');
		}
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	test('without Retry On Fail the node still submits each item once', async () => {
		ctx.sim.scenario('sora-2', { durationMs: 300, failEvery: 2 });
		const result = await run(video(), prompts('a boat', 'a kite', 'a lamp'), { nodeSettings: {} });
		expect(videoSubmits()).toHaveLength(3);
		expect(result.error.message).toMatch(/failed/);
	});

	test('a sync image answered in an earlier try is not bought again: its result URLs are reused', async () => {
		// The first item's first submit is refused (400: surely not created); the second item's image was answered.
		ctx.sim.inject({ method: 'POST', path: '/v1/images/generations', status: 400, times: 1, body: { error: { message: 'bad request', type: 'invalid_request_error', code: 'bad' } } });
		const result = await run(image('gpt-image-2', { options: { concurrency: 1 } }), prompts('a red fox', 'a blue owl'));
		expect(result.error).toBeUndefined();
		expect(imageSubmits()).toHaveLength(3);
		expect(imageSubmits().map((r) => r.body.prompt)).toEqual(['a red fox', 'a blue owl', 'a red fox']);
		expect(result.items.map((item) => item.json.request.prompt)).toEqual(['a red fox', 'a blue owl']);
		for (const item of result.items) expect(item.binary.data.mimeType).toBe('image/png');
		// The blue owl's file arrived in try 1: it is output again, not fetched again.
		expect(ctx.sim.requests.filter((r) => r.method === 'GET' && r.origin === 'files')).toHaveLength(2);
	});

	test('a submit whose answer was lost is never sent again by a retry; the error says why', async () => {
		ctx.sim.inject({ method: 'POST', path: '/v1/video/generations', kind: 'drop' });
		const result = await run(video(), prompts('a boat'));
		expect(videoSubmits()).toHaveLength(1);
		expect(result.error.message).toMatch(/may have been created/);
		expect(result.error.description).toMatch(/Retry On Fail did not send it again/);
	});

	test('a finished task whose download failed is read and downloaded again, not submitted again', async () => {
		// One download fails (its task finished): the retry reads the task again and downloads, no new submit.
		ctx.sim.scenario('sora-2', { durationMs: 300 });
		ctx.sim.inject({ method: 'GET', path: /^\/files\//, origin: 'files', status: 404, times: 1 });
		const result = await run(video(), prompts('a boat', 'a kite'));
		expect(videoSubmits()).toHaveLength(2);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
	});

	test('a task still running when a try failed is waited for again, not submitted again', async () => {
		// Max Wait (3 s) with On Timeout = Fail ends try 1 while the task runs; try 2 waits for the same task.
		ctx.sim.scenario('sora-2', { durationMs: 4500 });
		const result = await run(video({ waiting: { maxWaitMinutes: 0.05, onTimeout: 'fail' } }), prompts('a boat'), { nodeSettings: { ...RETRY, maxTries: 2 } });
		expect(videoSubmits()).toHaveLength(1);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.state).toBe('succeeded');
	});

	test('the execution keeps every task id of every try in its custom data', async () => {
		ctx.sim.scenario('sora-2', { durationMs: 300, failEvery: 2 });
		const result = await run(video(), prompts('a boat', 'a kite', 'a lamp'));
		const custom = result.run.data.resultData.metadata ?? {};
		const listed = Object.entries(custom).filter(([key]) => /^gateway_Gateway_generic/.test(key)).flatMap(([, value]) => value.split(' '));
		const created = videoSubmits().length;
		expect(created).toBe(5);
		expect(new Set(listed).size).toBe(5);
	});

	test('Text → Message a Model: answers of an earlier try are output again, only the failed item is asked again', async () => {
		// The first item's call is refused once (400); the retry asks it again but not the second item, answered already.
		ctx.sim.inject({ method: 'POST', path: '/v1/chat/completions', status: 400, times: 1, delayMs: 100 });
		const parameters = { resource: 'text', operation: 'message', modelId: rl('gpt-5.6-sol'), messages: { values: [{ role: 'user', content: '={{ $json.q }}' }] }, options: { concurrency: 1 } };
		const result = await run(parameters, [{ json: { q: 'one' } }, { json: { q: 'two' } }]);
		expect(result.error).toBeUndefined();
		const chats = ctx.sim.find('POST', '/v1/chat/completions').map((r) => r.body.messages[0].content);
		expect(chats).toEqual(['one', 'two', 'one']);
		expect(result.items).toHaveLength(2);
	});
});

describe('Retry On Fail submits again only what the gateway reported failed', () => {
	test('a task that could not be read (3 unclear answers) is read again by the retry, not submitted again', async () => {
		// Three answers in a row without a reading (400 task_not_exist) end try 1: "do not submit it again".
		ctx.sim.scenario('sora-2', { durationMs: 300 });
		ctx.sim.inject({ method: 'GET', path: /^\/v1\/tasks\//, status: 400, times: 3, body: { code: 'task_not_exist', message: 'task_not_exist', data: null } });
		const result = await run(video(), prompts('a boat'), { nodeSettings: { ...RETRY, maxTries: 2 } });
		expect(videoSubmits()).toHaveLength(1);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.state).toBe('succeeded');
	});

	test('a task completed without a result URL (finished and billed) is not submitted again', async () => {
		ctx.sim.scenario('sora-2', { durationMs: 300, outcome: 'noUrl' });
		const result = await run(video(), prompts('a boat'));
		expect(videoSubmits()).toHaveLength(1);
		expect(result.error.message).toMatch(/no result URL/);
	});
});

describe('Retry On Fail keeps what earlier tries did', () => {
	const fileGets = () => ctx.sim.requests.filter((r) => r.method === 'GET' && r.origin === 'files');

	test('a task taken up by a retry gets the whole Max Wait for its download, not the 5 s left over', async () => {
		// Max Wait 9 s. Try 1's download fails (404); Wait Between Tries 5 s; try 2 takes up the task
		// ~5.5 s after its submit and its download takes 7 s: within a fresh Max Wait, past the old one.
		ctx.sim.scenario('sora-2', { durationMs: 300 });
		ctx.sim.inject({ method: 'GET', path: /^\/files\//, origin: 'files', status: 404, times: 1 });
		ctx.sim.inject({ method: 'GET', path: /^\/files\//, origin: 'files', delayMs: 7000, times: 1 });
		const result = await run(video({ waiting: { maxWaitMinutes: 0.15 } }), prompts('a boat'), { nodeSettings: { ...RETRY, maxTries: 2, waitBetweenTries: 5000 } });
		expect(result.error).toBeUndefined();
		expect(videoSubmits()).toHaveLength(1);
		expect(fileGets()).toHaveLength(2);
		expect((await binaryBuffer(result.items[0].binary.data)).toString('ascii', 4, 8)).toBe('ftyp');
	}, 40_000);

	test("a retry keeps the earlier try's \"sending\" record in custom data", async () => {
		// Try 1: item 0's answer is lost (may have been created), item 1 is refused (400). Try 2 sends
		// item 1 again: item 0 must stay listed as sent without an answer.
		ctx.sim.inject({ method: 'POST', path: '/v1/video/generations', kind: 'drop', times: 1 });
		ctx.sim.inject({ method: 'POST', path: '/v1/video/generations', status: 400, times: 1 });
		const result = await run(video({ options: { concurrency: 1 } }), prompts('a boat', 'a kite'), { nodeSettings: { ...RETRY, maxTries: 2 } });
		expect(videoSubmits()).toHaveLength(3);
		expect(result.error.message).toMatch(/may have been created/);
		const custom = result.run.data.resultData.metadata ?? {};
		expect(custom.gateway_Gateway_sending).toMatch(/^items 0 \(submit sent, answer not received/);
	});

	test('a retry outputs the files an earlier try downloaded again without fetching them again', async () => {
		// Try 1: item 0 finishes and is downloaded, item 1's task fails. Try 2 submits item 1 only and
		// downloads only its file; item 0 keeps its file (filesystem mode: the stored reference).
		ctx.sim.scenario('sora-2', { durationMs: 300, failEvery: 2 });
		const result = await run(video({ options: { concurrency: 1 } }), prompts('a boat', 'a kite'), { binaryMode: 'filesystem' });
		expect(result.error).toBeUndefined();
		expect(videoSubmits()).toHaveLength(3);
		expect(fileGets()).toHaveLength(2);
		expect(result.items).toHaveLength(2);
		for (const item of result.items) {
			expect(item.json.state).toBe('succeeded');
			expect((await binaryBuffer(item.binary.data)).toString('ascii', 4, 8)).toBe('ftyp');
		}
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});
});
