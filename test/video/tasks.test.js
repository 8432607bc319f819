'use strict';
// The Task resource with video tasks: Wait for Completion, Get and Download Result per query
// route, with the key only on the gateway's own /content route.
const { runNode, binaryBuffer } = require('../harness');
const { PRICE_NOTE, isMp4, useVideoSuite } = require('./suite');

const { ctx, generate, submits } = useVideoSuite();

describe('Task resource with video tasks', () => {
	async function pending(model, route) {
		const result = await generate(model, { waitForCompletion: false, videoRoute: route });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ pending: true, model, estimatedCost: PRICE_NOTE });
		return result.items;
	}

	test('Wait for Completion resumes a unified video on the generic route and downloads it without the key', async () => {
		const items = await pending('seedance-2.0', 'unified');
		expect(items[0].json.queryRoute).toBe('generic');
		const result = await runNode({
			parameters: { resource: 'task', operation: 'waitForCompletion', queryRoute: 'auto', waiting: { pollIntervalSeconds: 0.1 }, download: true },
			credentials: ctx.creds,
			items: items.map((i) => ({ json: i.json })),
		});
		expect(result.error).toBeUndefined();
		expect(ctx.sim.count('GET', `/v1/tasks/${items[0].json.taskId}`)).toBeGreaterThan(0);
		expect(result.items[0].json.status).toBe('completed');
		expect(ctx.sim.requests.find((r) => r.origin === 'files').hasAuth).toBe(false);
		expect(isMp4(await binaryBuffer(result.items[0].binary.data))).toBe(true);
		expect(submits()).toHaveLength(1);
	});

	test('grok multipart task: Wait on the video route, Get, then Download Result through /content with the key', async () => {
		ctx.sim.scenario('*', { durationMs: 300, urlField: 'video_url' });
		const items = await pending('grok-imagine-video-1.5', 'multipart');
		const taskId = items[0].json.taskId;
		expect(items[0].json.queryRoute).toBe('video');
		const waited = await runNode({
			parameters: { resource: 'task', operation: 'waitForCompletion', queryRoute: 'auto', waiting: { pollIntervalSeconds: 0.1 } },
			credentials: ctx.creds,
			items: items.map((i) => ({ json: i.json })),
		});
		expect(waited.items[0].json).toMatchObject({ status: 'completed', queryRoute: 'video' });
		expect(ctx.sim.count('GET', `/v1/videos/${taskId}`)).toBeGreaterThan(0);

		const got = await runNode({ parameters: { resource: 'task', operation: 'get', taskId, queryRoute: 'video' }, credentials: ctx.creds });
		expect(got.items[0].json).toMatchObject({ status: 'completed', url: ctx.sim.task(taskId).urls[0] });

		const downloaded = await runNode({
			parameters: { resource: 'task', operation: 'downloadResult', taskId, queryRoute: 'video', useContentRoute: true },
			credentials: ctx.creds,
		});
		expect(downloaded.error).toBeUndefined();
		const [content] = ctx.sim.find('GET', `/v1/videos/${taskId}/content`);
		expect(content.hasAuth && content.authValid).toBe(true);
		expect(ctx.sim.requests.filter((r) => r.origin === 'files')).toHaveLength(0);
		expect(downloaded.items[0].binary.data.mimeType).toBe('video/mp4');
		expect(isMp4(await binaryBuffer(downloaded.items[0].binary.data))).toBe(true);
	});

	test('Download Result of a compatibility-route task by its result URL, without the key', async () => {
		ctx.sim.scenario('*', { durationMs: 300, urlField: 'video_url' });
		const items = await pending('sora-2', 'compatibility');
		const taskId = items[0].json.taskId;
		await new Promise((resolve) => setTimeout(resolve, 400));
		const downloaded = await runNode({ parameters: { resource: 'task', operation: 'downloadResult', taskId, queryRoute: 'video' }, credentials: ctx.creds });
		expect(downloaded.error).toBeUndefined();
		expect(ctx.sim.find('GET', `/v1/videos/${taskId}`)).toHaveLength(1);
		const [file] = ctx.sim.requests.filter((r) => r.origin === 'files');
		expect(file.path).toBe(new URL(ctx.sim.task(taskId).urls[0]).pathname);
		expect(file.hasAuth).toBe(false);
		expect(isMp4(await binaryBuffer(downloaded.items[0].binary.data))).toBe(true);
	});
});
