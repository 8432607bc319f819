'use strict';
// Video → Generate: waiting through the task states, results and failures, files fetched from
// the files origin without the key, and a large video streamed to disk.
const { Container } = require('@n8n/di');
const core = require('n8n-core');
const { binaryBuffer, runNode } = require('../harness');
const { createTask } = require('../support');
const { PRICE_NOTE, isMp4, useVideoSuite } = require('./suite');

const { ctx, generate, submits } = useVideoSuite();

describe('waiting and results', () => {
	// The task's lifecycle advances by reads (scenario readSteps), so what the wait saw is the same
	// on any machine: no count of reads against the clock.
	const step = (status, progress) => ({ status, progress });
	const answers = (id) => ctx.sim.task(id).answers;

	test('waits through queued and in_progress to completed: reads until completed, and not after', async () => {
		const steps = [step('queued', 0), step('in_progress', 25), step('in_progress', 50), step('in_progress', 75), step('completed', 100)];
		ctx.sim.scenario('*', { readSteps: steps, estimatedTime: 'none' });
		const result = await generate('sora-2', { download: false });
		expect(result.error).toBeUndefined();
		expect(submits()).toHaveLength(1);
		const { taskId } = result.items[0].json;
		// Every state was read once, the wait ended at the read that saw completed.
		expect(answers(taskId)).toEqual(steps);
		expect(result.items[0].json).toMatchObject({ status: 'completed', progress: 100 });
	});

	test('100% with in_progress is not success and not an error: it keeps waiting until completed', async () => {
		const steps = [step('in_progress', 50), step('in_progress', 100), step('in_progress', 100), step('in_progress', 100), step('completed', 100)];
		ctx.sim.scenario('*', { readSteps: steps, estimatedTime: 'none' });
		const result = await generate('sora-2', { download: false });
		expect(result.error).toBeUndefined();
		const { taskId } = result.items[0].json;
		expect(answers(taskId)).toEqual(steps);
		expect(result.items[0].json).toMatchObject({ status: 'completed', state: 'succeeded' });
		expect(result.items[0].json.url).toBe(ctx.sim.task(taskId).urls[0]);
	});

	test('stuck at 100% past Max Wait gives a pending item to resume, not a failure', async () => {
		ctx.sim.scenario('*', { durationMs: 200, outcome: 'stuck100', shape: 'A' });
		const result = await generate('sora-2', { waiting: { maxWaitMinutes: 0.01 } });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ pending: true, status: 'in_progress', progress: 100, queryRoute: 'generic', model: 'sora-2', estimatedCost: PRICE_NOTE });
		expect(result.items[0].json.message).toMatch(/do not submit it again/);
		expect(submits()).toHaveLength(1);
	});

	test('completed without a video URL fails, keeping the task id', async () => {
		ctx.sim.scenario('*', { durationMs: 300, outcome: 'noUrl' });
		const result = await generate('sora-2', {}, { continueOnFail: true });
		const json = result.items[0].json;
		expect(json.error).toMatch(/completed but the gateway gave no result URL/);
		expect(json.taskId).toMatch(/^task_/);
		expect(json.created).toBe('yes');
		expect(ctx.sim.requests.filter((r) => r.origin === 'files')).toHaveLength(0);

		ctx.sim.reset();
		ctx.sim.scenario('*', { durationMs: 300, outcome: 'noUrl' });
		const thrown = await generate('sora-2');
		expect(thrown.error.message).toMatch(/^Task task_\w+ failed: .*no result URL/);
	});

	test('a failed task is reported with the gateway reason', async () => {
		ctx.sim.scenario('*', { durationMs: 300, outcome: 'fail', failMessage: 'content policy violation' });
		const result = await generate('seedance-2.0', {}, { continueOnFail: true });
		expect(result.items[0].json.error).toMatch(/failed: content policy violation/);
		expect(result.items[0].json.taskId).toMatch(/^task_/);
	});

	test('a result URL is fetched from the files origin WITHOUT the key, as video/mp4', async () => {
		const result = await generate('veo-3.1-flash', { options: { binaryPropertyOutput: 'clip' } });
		expect(result.error).toBeUndefined();
		const [file] = ctx.sim.requests.filter((r) => r.origin === 'files');
		expect(file.path).toBe(new URL(result.items[0].json.url).pathname);
		expect(file.hasAuth).toBe(false);
		expect(ctx.sim.requests.filter((r) => r.path.endsWith('/content'))).toHaveLength(0);
		const binary = result.items[0].binary.clip;
		expect(binary.mimeType).toBe('video/mp4');
		expect(binary.fileName).toMatch(/\.mp4$/);
		expect(isMp4(await binaryBuffer(binary))).toBe(true);
	});

	test('submits counted = items: one POST per item, outputs paired in order', async () => {
		const items = [{ json: { p: 'first' } }, { json: { p: 'second' } }, { json: { p: 'third' } }];
		const result = await generate('sora-2', { prompt: '={{ $json.p }}', download: false }, { items });
		expect(result.error).toBeUndefined();
		expect(submits().map((r) => r.body.prompt).sort()).toEqual(['first', 'second', 'third']);
		expect(result.items.map((i) => i.pairedItem.item)).toEqual([0, 1, 2]);
		expect(new Set(result.items.map((i) => i.json.taskId)).size).toBe(3);
		result.items.forEach((item, i) => expect(ctx.sim.task(item.json.taskId).params.prompt).toBe(items[i].json.p));
	});
});

describe('large downloads', () => {
	test('a 200 MB video streams into filesystem binary data with RSS growth under 64 MB', async () => {
		const bytes = 200 * 1024 * 1024;
		await generate('sora-2', {}, { binaryMode: 'filesystem' }); // warm-up: code paths loaded, buffers allocated
		ctx.sim.reset();
		ctx.sim.scenario('*', { durationMs: 300, videoBytes: bytes });

		const before = process.memoryUsage().rss;
		let peak = before;
		const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
		let result;
		try {
			result = await generate('sora-2', {}, { binaryMode: 'filesystem' });
		} finally {
			clearInterval(sampler);
		}
		peak = Math.max(peak, process.memoryUsage().rss);
		expect(result.error).toBeUndefined();
		const binary = result.items[0].binary.data;
		expect(binary.id).toMatch(/^filesystem/);
		expect(binary.data.length).toBeLessThan(100); // a reference to the file on disk, not the bytes
		const stored = await Container.get(core.BinaryDataService).getMetadata(binary.id);
		expect(stored.fileSize).toBe(bytes);
		expect(ctx.sim.requests.find((r) => r.origin === 'files').hasAuth).toBe(false);
		expect(peak - before).toBeLessThan(64 * 1024 * 1024);
	}, 120_000);
});

describe("n8n's database binary mode", () => {
	test('three finished 20 MB videos collected at once are stored whole, one at a time (n8n holds each whole in memory)', async () => {
		const bytes = 20 * 1024 * 1024;
		ctx.sim.scenario('*', { durationMs: 0, urlField: 'result_url', videoBytes: bytes });
		// Finished before the collect starts: the first pass reads all three, their downloads start together.
		const ids = [];
		for (const p of ['one', 'two', 'three']) ids.push(await createTask(ctx.sim, { model: 'sora-2', path: '/v1/videos', prompt: p, extra: { seconds: '8' } }));
		await new Promise((resolve) => setTimeout(resolve, 50));
		const result = await runNode({
			parameters: { resource: 'task', operation: 'waitForCompletion', taskId: '={{ $json.taskId }}', queryRoute: 'video', download: true, waiting: { pollIntervalSeconds: 0.1 } },
			credentials: ctx.creds,
			items: ids.map((taskId) => ({ json: { taskId } })),
			binaryMode: 'database',
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(3);
		for (const item of result.items) {
			expect(item.binary.data.id).toMatch(/^database:/);
			expect((await binaryBuffer(item.binary.data)).length).toBe(bytes);
		}
		// The answers that delivered a whole file never overlap: each was stored before the next was read.
		const delivered = ctx.sim.requests.filter((r) => r.origin === 'files' && r.answeredAt !== undefined).sort((a, b) => a.at - b.at);
		expect(delivered).toHaveLength(3);
		for (let i = 1; i < delivered.length; i++) expect(delivered[i].at).toBeGreaterThanOrEqual(delivered[i - 1].answeredAt);
	}, 60_000);
});

describe('finished results fetched at once', () => {
	// Eight tasks finished before the wait starts: the first pass finds them all, and each file
	// answers after 200 ms, so the files in flight at once show the limit the node kept.
	async function collectEight(binaryMode) {
		ctx.sim.scenario('*', { durationMs: 0, urlField: 'result_url' });
		const ids = [];
		for (let n = 0; n < 8; n++) ids.push(await createTask(ctx.sim, { model: 'sora-2', path: '/v1/videos', prompt: `clip ${n}`, extra: { seconds: '8' } }));
		await new Promise((resolve) => setTimeout(resolve, 50));
		ctx.sim.inject({ method: 'GET', origin: 'files', path: /./, delayMs: 200, times: Infinity });
		const result = await runNode({
			parameters: { resource: 'task', operation: 'waitForCompletion', taskId: '={{ $json.taskId }}', queryRoute: 'video', download: true, waiting: { pollIntervalSeconds: 0.1 }, options: { concurrency: 2 } },
			credentials: ctx.creds,
			items: ids.map((taskId) => ({ json: { taskId } })),
			binaryMode,
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.taskId)).toEqual(ids);
		for (const item of result.items) expect(isMp4(await binaryBuffer(item.binary.data))).toBe(true);
		const files = ctx.sim.requests.filter((r) => r.origin === 'files');
		expect(files).toHaveLength(8);
		// The most file answers under way at one moment.
		return Math.max(...files.map((f) => files.filter((g) => g.at <= f.at && f.at < g.answeredAt).length));
	}

	test('where n8n streams files to disk, more than the Concurrency once a file has shown it', async () => {
		const most = await collectEight('filesystem');
		expect(most).toBeGreaterThan(2);
		expect(most).toBeLessThanOrEqual(8);
	}, 60_000);

	test('where n8n holds each file in memory, no more than the Concurrency', async () => {
		expect(await collectEight('default')).toBe(2);
	}, 60_000);
});
