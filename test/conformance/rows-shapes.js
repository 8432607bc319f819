'use strict';
// Contract rows that show a response shape or a status word (docs/gateway-contract.md §2.3, §2.7, §3, §4.4, §4.5, §4.7,
// §4.8, §4.9, §4.10). Each row: [section and sentence, run(h, ctx)].

const { createTask } = require('../support');

const U = 'https://cdn.example.com/r/one.png';
const U2 = 'https://cdn.example.com/r/two.png';
const V = 'https://cdn.example.com/r/clip.mp4';
const ID = 'task_conformance0000000000000000000000';

/** One row per status word of a context: [word, expected state]. */
function statusRows(section, context, route, wrap, words) {
	return words.map(([word, state]) => [
		`§${section} ${context}: status '${word}' reads as ${state}`,
		async (h) => {
			const json = await h.readAs(route, wrap(word));
			expect(json).toMatchObject({ status: word, state });
		},
	]);
}

const flat = (status) => ({ task_id: ID, status, progress: '50%', ...(status === 'completed' ? { result_url: V } : {}) });
const wrapped = (status) => ({ code: 200, data: { id: ID, status, progress: 50, ...(status === 'completed' ? { result: { images: [{ url: [U] }] } } : {}) } });
const videoQuery = (status) => ({ id: ID, object: 'video', status, progress: 10, ...(status === 'completed' ? { video_url: V } : {}) });
const altQuery = (status) => ({ task_id: ID, status, progress: '10%', ...(status === 'completed' ? { result_url: U } : {}) });

const rows = [
	// 2.3 generic task
	['§2.3 Shape A: status, task_id, progress text, result_url ("read this first"), result.items[] with status success and data[].url', async (h) => {
		const json = await h.readAs('generic', { status: 'completed', task_id: ID, progress: '100%', result_url: U, result: { items: [{ id: 'i0', status: 'success', data: [{ url: U2 }] }] } });
		expect(json).toMatchObject({ taskId: ID, state: 'succeeded', progress: 100, url: U });
		// A finished task with no readable progress says 100 anyway: the progress text is proven read
		// by a running task of the same shape, and by a finished one whose text says less.
		expect(await h.readAs('generic', { status: 'in_progress', task_id: ID, progress: '37%' })).toMatchObject({ state: 'pending', progress: 37 });
		expect(await h.readAs('generic', { status: 'completed', task_id: ID, progress: '99%', result_url: U })).toMatchObject({ state: 'succeeded', progress: 99 });
		expect(json.urls).toEqual([U, U2]);
	}],
	['§2.3 Shape B: code, data.id, data.status, integer progress, data.result.images[] with url as an array of strings, expires_at, timestamps, estimated_time', async (h) => {
		const json = await h.readAs('generic', { code: 200, data: { id: ID, status: 'completed', progress: 100, result: { images: [{ url: [U, U2], expires_at: 1767225600 }] }, created: 1767225000, completed: 1767225100, estimated_time: 40, actual_time: 38 } });
		expect(json).toMatchObject({ taskId: ID, state: 'succeeded', urls: [U, U2], estimatedTimeSeconds: 40 });
	}],
	['§2.3 Shape B: data.error only when failed', async (h) => {
		const json = await h.readAs('generic', { code: 200, data: { id: ID, status: 'failed', progress: 100, error: { message: 'content rejected' } } });
		expect(json).toMatchObject({ state: 'failed', error: 'content rejected' });
	}],
	['§2.3 the upload example variant: id, status, top-level url, fail_reason', async (h) => {
		expect(await h.readAs('generic', { id: ID, status: 'completed', url: U, fail_reason: '' })).toMatchObject({ taskId: ID, state: 'succeeded', url: U });
		expect(await h.readAs('generic', { id: ID, status: 'failed', url: '', fail_reason: 'nsfw' })).toMatchObject({ state: 'failed', error: 'nsfw' });
	}],
	['§2.3 + §2.7 error object: error.message is the failure text', async (h) => {
		expect(await h.readAs('video', { id: ID, status: 'failed', progress: 100, error: { message: 'decode failed' } })).toMatchObject({ state: 'failed', error: 'decode failed' });
	}],
	...['A', 'B', 'url'].map((shape) => [`§2.3 the simulator serves shape '${shape}' and the node reads it end to end`, async (h, ctx) => {
		ctx.sim.scenario('*', { durationMs: 0, shape });
		const id = await createTask(ctx.sim, { model: 'gpt-image-2-async' });
		const [json] = h.ok(await h.run({ resource: 'task', operation: 'waitForCompletion', taskId: id, queryRoute: 'generic', waiting: { pollIntervalSeconds: 0.05 } }));
		expect(json.state).toBe('succeeded');
		expect(json.url).toMatch(/^http/);
	}]),

	// 2.7 video task create and query
	['§2.7 create: id, task_id, request_id all carry the task id; object video; progress 0', async (h, ctx) => {
		const [json] = h.ok(await h.video('sora-2', { videoRoute: 'compatibility', waitForCompletion: false }));
		const created = ctx.sim.task(json.taskId);
		expect(created).toBeDefined();
		expect(json.pending).toBe(true);
	}],
	...['result_url', 'video_url', 'url', 'metadata.url'].map((field) => [`§2.7 query: the video URL in '${field}'`, async (h) => {
		const body = { id: ID, object: 'video', status: 'completed', progress: 100, seconds: '8', size: '1280x720' };
		if (field === 'metadata.url') body.metadata = { url: V };
		else body[field] = V;
		expect(await h.readAs('video', body)).toMatchObject({ state: 'succeeded', url: V });
	}]),
	['§2.7 "present on completion, possibly absent": completed without a URL on /v1/videos reads as the /content file', async (h, ctx) => {
		const json = await h.readAs('video', { id: ID, object: 'video', status: 'completed', progress: 100 });
		expect(json).toMatchObject({ state: 'succeeded', url: `${ctx.sim.mainUrl}/v1/videos/${ID}/content` });
	}],
	['§3 rule 2 on the generic query: completed without a valid result is not success', async (h) => {
		const json = await h.readAs('generic', { task_id: ID, status: 'completed', progress: '100%' });
		expect(json).toMatchObject({ state: 'failed' });
		expect(json.error).toMatch(/no result URL/);
	}],
	['§3 rule 2: progress 100 with in_progress is not success (keep polling)', async (h) => {
		expect(await h.readAs('generic', { task_id: ID, status: 'in_progress', progress: '100%' })).toMatchObject({ state: 'pending', progress: 100 });
	}],

	// 3 status words per context
	...statusRows('3', 'unified/image/video task query', 'generic', flat, [['queued', 'pending'], ['in_progress', 'pending'], ['completed', 'succeeded'], ['failed', 'failed'], ['cancelled', 'failed']]),
	...statusRows('3', 'generic task query, shape B', 'generic', wrapped, [['pending', 'pending'], ['processing', 'pending'], ['completed', 'succeeded'], ['failed', 'failed'], ['cancelled', 'failed']]),
	...statusRows('3', 'video query', 'video', videoQuery, [['queued', 'pending'], ['in_progress', 'pending'], ['processing', 'pending'], ['completed', 'succeeded'], ['failed', 'failed'], ['cancelled', 'failed']]),
	['§3 nano-banana query: data.state succeeded, read data.data.images[0].url', async (h) => {
		expect(await h.readAs('image', { code: 200, msg: 'success', data: { task_id: ID, state: 'succeeded', data: { images: [{ url: U }] } } })).toMatchObject({ status: 'succeeded', state: 'succeeded', url: U });
	}],
	['§3 async image item inside result.items[]: success', async (h) => {
		expect(await h.readAs('generic', { task_id: ID, result: { items: [{ id: 'i0', status: 'success', data: [{ url: U }] }] } })).toMatchObject({ status: 'success', state: 'succeeded', url: U });
	}],
	['§3 + §4.4 submit response of one image page: code, data.id, data.status submitted, data.progress → a task polled to its result', async (h, ctx) => {
		ctx.sim.inject({ method: 'POST', path: '/v1/images/generations', status: 200, body: { code: 200, data: { id: ID, status: 'submitted', progress: 0 } } });
		ctx.sim.inject({ method: 'GET', path: `/v1/images/generations/${ID}`, status: 200, body: { items: [{ id: 'i0', status: 'success', data: [{ url: U }] }] } });
		const [json] = h.ok(await h.image('gpt-image-2'));
		expect(json).toMatchObject({ taskId: ID, url: U });
	}],
	['§3 rule 1: failed and cancelled are terminal (the poller stops at once)', async (h, ctx) => {
		ctx.sim.scenario('*', { durationMs: 0, outcome: 'cancel', shape: 'A' });
		const result = await h.video('sora-2', {}, { continueOnFail: true });
		expect(result.items[0].json.error).toMatch(/cancel/i);
		expect(ctx.sim.find('GET', /^\/v1\/tasks\//)).toHaveLength(1);
	}],

	// 4.4 image generation answers
	['§4.4 sync: image result (2.4) created + data[].url + data[].revised_prompt', async (h) => {
		const [json] = h.ok(await h.image('gpt-image-2'));
		expect(json.url).toMatch(/^http/);
		expect(typeof json.revised_prompt).toBe('string');
	}],
	['§4.4 async: id, status queued, mode generate, model, created_at → polled on 4.5', async (h, ctx) => {
		ctx.sim.scenario('*', { durationMs: 0, imageShape: 'full' });
		const [json] = h.ok(await h.image('gpt-image-2-async'));
		expect(ctx.sim.count('GET', `/v1/images/generations/${json.taskId}`)).toBeGreaterThan(0);
	}],
	['§4.4 nano-banana: code 200, msg success, data.task_id', async (h, ctx) => {
		const [json] = h.ok(await h.image('nano-banana'));
		expect(json.taskId).toMatch(/^task_/);
		expect(ctx.sim.task(json.taskId).model).toBe('nano-banana');
	}],

	// 4.5 image task query
	['§4.5 async GPT: items[0].status success then items[0].data[0].url, no top-level status', async (h) => {
		expect(await h.readAs('image', { items: [{ id: 'i0', status: 'success', data: [{ url: U }] }] })).toMatchObject({ state: 'succeeded', url: U });
	}],
	...['items', 'upload', 'full'].map((imageShape) => [`§4.5 the simulator serves the '${imageShape}' answer and the node reads it end to end`, async (h, ctx) => {
		ctx.sim.scenario('*', { durationMs: 0, imageShape });
		const [json] = h.ok(await h.image('gpt-image-2-async'));
		expect(json.url).toBe(ctx.sim.task(json.taskId).urls[0]);
	}]),
	['§4.5 upload workflow example: top-level status, url, fail_reason', async (h) => {
		expect(await h.readAs('image', { status: 'completed', url: U, fail_reason: '' })).toMatchObject({ state: 'succeeded', url: U });
	}],
	['§4.5 nano-banana: code, msg, data.task_id, data.state, data.data.images[].url', async (h, ctx) => {
		const [json] = h.ok(await h.image('nano-banana-pro'));
		expect(json.url).toBe(ctx.sim.task(json.taskId).urls[0]);
	}],

	// 4.7 alt host
	['§4.7 submit code 200, msg success, data.task_id; GET /v1/tasks on the alt host', async (h, ctx) => {
		const [json] = h.ok(await h.image('gemini-2.5-flash-image'));
		expect(ctx.sim.count('GET', `/v1/tasks/${json.taskId}`, 'alt')).toBeGreaterThan(0);
	}],
	...statusRows('4.7', 'alt-host query', 'alt', altQuery, [['queued', 'pending'], ['in_progress', 'pending'], ['completed', 'succeeded'], ['failed', 'failed']]),
	['§4.7 completed: result_url or result.images[0].url (with file_name)', async (h) => {
		expect(await h.readAs('alt', { task_id: ID, status: 'completed', progress: '100%', result: { images: [{ file_name: 'a.png', url: U }] } })).toMatchObject({ url: U });
	}],

	// 4.8 unified video
	['§4.8 submit: status queued, task_id, progress text, code success; queried on /v1/tasks', async (h, ctx) => {
		ctx.sim.scenario('*', { durationMs: 0, shape: 'A' });
		const [json] = h.ok(await h.video('seedance-2.0'));
		expect(json).toMatchObject({ queryRoute: 'generic', state: 'succeeded' });
		expect(ctx.sim.count('GET', `/v1/tasks/${json.taskId}`)).toBeGreaterThan(0);
	}],
	['§4.8 compatibility route: POST /v1/videos (JSON), queried with GET /v1/videos/{id}', async (h, ctx) => {
		ctx.sim.scenario('*', { durationMs: 0, urlField: 'video_url' });
		const [json] = h.ok(await h.video('veo-3.1-flash', { videoRoute: 'compatibility' }));
		expect(json.queryRoute).toBe('video');
		expect(ctx.sim.count('GET', `/v1/videos/${json.taskId}`)).toBeGreaterThan(0);
	}],

	// 4.9 grok route
	['§4.9 multipart create shape, query on /v1/videos/{id}, file from /content with the Authorization header', async (h, ctx) => {
		const [json] = h.ok(await h.video('grok-imagine-video-1.5', { videoRoute: 'multipart', download: true }));
		const [content] = ctx.sim.find('GET', `/v1/videos/${json.taskId}/content`);
		expect(content.authValid).toBe(true);
	}],

	// 4.10 generic query
	...['zh', 'en', 'ko', 'ja'].map((language) => [`§4.10 language '${language}' is sent as the query parameter`, async (h, ctx) => {
		const id = await createTask(ctx.sim, { model: 'gpt-image-2-async' });
		h.ok(await h.run({ resource: 'task', operation: 'get', taskId: id, queryRoute: 'generic', language }));
		expect(ctx.sim.find('GET', `/v1/tasks/${id}`)[0].query.language).toBe(language);
	}]),
];

module.exports = rows;
