'use strict';
// Video → Generate against the simulator: the exact request per model family and route (unified,
// compatibility, Grok multipart), references by URL or uploaded file, models chosen by expression.
const { binaryBuffer, runNode } = require('../harness');
const { pngFor } = require('../simulator/png');
const { PROMPT, PRICE_NOTE, video, sha256, isMp4, jpeg, imageItem, useVideoSuite } = require('./suite');

const { ctx, generate, submits } = useVideoSuite();

describe('requests per model family and route', () => {
	test('sora-2 on the unified route: seconds as a string, size, one reference as `image`, queried on /v1/tasks', async () => {
		const reference = 'https://example.com/first-frame.png';
		const result = await generate('sora-2', { videoSeconds_sora2: '12', videoSize_sora2: '720x1280', videoReferenceUrls: reference });
		expect(result.error).toBeUndefined();

		const [submit] = submits();
		expect(submit.path).toBe('/v1/video/generations');
		expect(submit.headers['content-type']).toMatch(/^application\/json/);
		expect(submit.body).toEqual({ model: 'sora-2', prompt: PROMPT, seconds: '12', size: '720x1280', image: reference });
		const taskId = result.items[0].json.taskId;
		expect(ctx.sim.count('GET', `/v1/tasks/${taskId}`)).toBeGreaterThan(0);
		expect(ctx.sim.count('GET', `/v1/videos/${taskId}`)).toBe(0);

		const json = result.items[0].json;
		expect(json).toMatchObject({ status: 'completed', model: 'sora-2', seconds: '12', size: '720x1280', estimatedCost: PRICE_NOTE, queryRoute: 'generic' });
		expect(json.urls).toEqual([ctx.sim.task(taskId).urls[0]]);
		expect(json.url).toBe(json.urls[0]);
		expect(json.recommendedModelId).toBeUndefined();
	});

	test('sora-2 defaults: seconds "8" and 1280x720', async () => {
		await generate('sora-2');
		expect(submits()[0].body).toEqual({ model: 'sora-2', prompt: PROMPT, seconds: '8', size: '1280x720' });
	});

	test('Veo 3.1 on the compatibility route: its keys go in metadata, the reference in images, queried on /v1/videos', async () => {
		ctx.sim.scenario('veo-3.1-pro', { durationMs: 300, urlField: 'metadata.url' });
		const reference = 'https://example.com/ref.jpg';
		const result = await generate('veo-3.1-pro', {
			videoRoute: 'compatibility',
			videoReferenceUrls: reference,
			videoMetadataDurationSeconds: 6,
			videoMetadataAspectRatio: '9:16',
			videoMetadataResolution: '1080p',
			videoMetadataNegativePrompt: 'text, logos',
			videoMetadataPersonGeneration: 'dont_allow',
			videoMetadataSeed: 42,
			videoMetadataGenerateAudio: false,
		});
		expect(result.error).toBeUndefined();
		const [submit] = submits();
		expect(submit.path).toBe('/v1/videos');
		expect(submit.body).toEqual({
			model: 'veo-3.1-pro',
			prompt: PROMPT,
			images: [reference],
			metadata: { durationSeconds: 6, aspectRatio: '9:16', resolution: '1080p', negativePrompt: 'text, logos', personGeneration: 'dont_allow', seed: 42, generateAudio: false },
		});
		const json = result.items[0].json;
		expect(ctx.sim.count('GET', `/v1/videos/${json.taskId}`)).toBeGreaterThan(0);
		expect(ctx.sim.count('GET', `/v1/tasks/${json.taskId}`)).toBe(0);
		expect(json).toMatchObject({ queryRoute: 'video', status: 'completed', url: ctx.sim.task(json.taskId).urls[0] });
	});

	test('Veo 3.1 fields left alone send nothing: the channel defaults apply (§4.8: default 8 s; picture and audio by model)', async () => {
		await generate('veo-3.1-flash');
		expect(submits()[0].body).toEqual({ model: 'veo-3.1-flash', prompt: PROMPT });
	});

	test('Veo 3.1: 4k resolution, another aspect ratio and a longer duration are sent as typed (suggestions, not limits)', async () => {
		const result = await generate('veo-3.1-pro', { download: false, videoMetadataResolution: '4k', videoMetadataAspectRatio: '1:1', videoMetadataDurationSeconds: 20 });
		expect(result.error).toBeUndefined();
		expect(submits()[0].body.metadata).toEqual({ resolution: '4k', aspectRatio: '1:1', durationSeconds: 20 });
	});

	test('Allow Unusual Values lets a duration past the plausible bound through', async () => {
		const result = await generate('veo-3.1-pro', { download: false, videoMetadataDurationSeconds: 600, videoAllowUnusualValues: true });
		expect(result.error).toBeUndefined();
		expect(submits()[0].body.metadata).toEqual({ durationSeconds: 600 });
	});

	test('Seedance: integer duration, aspect_ratio, resolution, metadata switches; a binary reference is uploaded first and sent in images', async () => {
		ctx.sim.scenario('seedance-1.0-pro', { durationMs: 300, shape: 'B' });
		const png = pngFor('seedance-ref');
		const result = await generate(
			'seedance-1.0-pro',
			{
				videoReferenceBinaryProperties: 'data',
				videoDuration: 10,
				videoAspectRatio_seedance10Fast: '9:16',
				videoResolution: '1080p',
				videoMetadataGenerateAudio_seedance10Fast: false,
				videoMetadataReturnLastFrame: true,
				videoMetadataCameraFixed: true,
				videoMetadataSeed: 7,
				videoMetadataWatermark: true,
			},
			{ items: await imageItem({ data: [png, 'ref.png', 'image/png'] }) },
		);
		expect(result.error).toBeUndefined();
		const paths = ctx.sim.requests.filter((r) => r.method === 'POST').map((r) => r.path);
		expect(paths).toEqual(['/v1/uploads/images', '/v1/video/generations']);
		const upload = ctx.sim.find('POST', '/v1/uploads/images')[0];
		expect(upload.parts.find((p) => p.name === 'file').sha256).toBe(sha256(png));
		const [submit] = submits();
		expect(submit.body.images).toHaveLength(1);
		expect(submit.body.images[0]).toMatch(new RegExp(`^${ctx.sim.filesUrl}/uploads/`));
		expect(submit.body).toEqual({
			model: 'seedance-1.0-pro',
			prompt: PROMPT,
			duration: 10,
			aspect_ratio: '9:16',
			resolution: '1080p',
			images: submit.body.images,
			metadata: { generate_audio: false, return_last_frame: true, camera_fixed: true, seed: 7, watermark: true },
		});
		// Shape B (data.result_url) of the generic query is read too.
		expect(result.items[0].json).toMatchObject({ status: 'completed', seconds: '10', aspectRatio: '9:16', resolution: '1080p' });
		expect(result.items[0].json.url).toBe(ctx.sim.task(result.items[0].json.taskId).urls[0]);
	});

	test.each(['seedance-1.0-fast', 'seedance-1.0-mini', 'seedance-1.5-pro', 'seedance-2.0', 'seedance-2.0-fast'])('%s sends only model and prompt when its fields are left alone (duration by channel)', async (model) => {
		const result = await generate(model, { download: false });
		expect(result.error).toBeUndefined();
		expect(submits()[0].body).toEqual({ model, prompt: PROMPT });
	});

	test('Seedance: durations outside 4-15 and resolution 4k are sent as typed (by channel), switches only when chosen', async () => {
		const result = await generate('seedance-2.0', { download: false, videoDuration_seedance20: 3, videoResolution: '4k', videoMetadataWatermark: false });
		expect(result.error).toBeUndefined();
		expect(submits()[0].body).toEqual({ model: 'seedance-2.0', prompt: PROMPT, duration: 3, resolution: '4k', metadata: { watermark: false } });
	});

	test('grok on the multipart route: text fields, input_reference repeated per file, no JSON content type; /content downloaded with the key', async () => {
		ctx.sim.scenario('*', { durationMs: 300, urlField: 'video_url' });
		const png = pngFor('grok-ref');
		const jpg = jpeg();
		const result = await generate(
			'grok-imagine-video-1.5',
			{ videoRoute: 'multipart', videoSeconds: '10', videoSize: '720x1280', videoReferenceBinaryProperties: 'first, second' },
			{ items: await imageItem({ first: [png, 'first.png', 'image/png'], second: [jpg, 'second.jpg', 'image/jpeg'] }) },
		);
		expect(result.error).toBeUndefined();
		const [submit] = submits();
		expect(submit.path).toBe('/v1/videos');
		expect(submit.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
		const text = submit.parts.filter((p) => p.value !== undefined).map((p) => [p.name, p.value]);
		expect(text).toEqual([['model', 'grok-imagine-video-1.5'], ['prompt', PROMPT], ['seconds', '10'], ['size', '720x1280'], ['quality', 'high']]);
		const files = submit.parts.filter((p) => p.filename !== undefined);
		expect(files.map((p) => p.name)).toEqual(['input_reference', 'input_reference']);
		expect(files.map((p) => p.sha256)).toEqual([sha256(png), sha256(jpg)]);
		expect(files.map((p) => p.contentType)).toEqual(['image/png', 'image/jpeg']);
		expect(ctx.sim.count('POST', '/v1/uploads/images')).toBe(0);

		const json = result.items[0].json;
		expect(json).toMatchObject({ queryRoute: 'video', seconds: '10', size: '720x1280', url: ctx.sim.task(json.taskId).urls[0] });
		const [content] = ctx.sim.find('GET', `/v1/videos/${json.taskId}/content`);
		expect(content.origin).toBe('main');
		expect(content.hasAuth && content.authValid).toBe(true);
		expect(ctx.sim.requests.filter((r) => r.origin === 'files')).toHaveLength(0);
		const file = await binaryBuffer(result.items[0].binary.data);
		expect(isMp4(file)).toBe(true);
		expect(result.items[0].binary.data.mimeType).toBe('video/mp4');
	});

	test('grok on the unified route: duration by channel, nothing sent unless chosen, several images, no multipart-only quality', async () => {
		const result = await generate('grok-imagine-video-1.5', { download: false, videoReferenceUrls: 'https://example.com/a.png\nhttps://example.com/b.png?sig=a,b' });
		expect(result.error).toBeUndefined();
		expect(submits()[0].body).toEqual({
			model: 'grok-imagine-video-1.5',
			prompt: PROMPT,
			images: ['https://example.com/a.png', 'https://example.com/b.png?sig=a,b'],
		});
	});

	test('reference URLs split by the one rule of edits too: a comma before another URL, never inside a signed query', async () => {
		const result = await generate('seedance-2.0', { download: false, videoReferenceUrls: 'https://example.com/a.png, https://example.com/b.png?sig=a,b' });
		expect(result.error).toBeUndefined();
		expect(submits()[0].body.images).toEqual(['https://example.com/a.png', 'https://example.com/b.png?sig=a,b']);
	});

	test('grok on the JSON routes: seconds outside the multipart list and aspect_ratio instead of size are sent', async () => {
		const result = await generate('grok-imagine-video-1.5', { download: false, videoRoute: 'compatibility', videoSeconds_grokImagineVideo15Unified: '8', videoAspectRatio: '9:16' });
		expect(result.error).toBeUndefined();
		expect(submits()[0].body).toEqual({ model: 'grok-imagine-video-1.5', prompt: PROMPT, seconds: '8', aspect_ratio: '9:16' });
	});

	test('sora-2 takes several references ("images allowed"): one in image, several in images', async () => {
		const result = await generate('sora-2', { download: false, videoReferenceUrls: 'https://example.com/a.png\nhttps://example.com/b.png' });
		expect(result.error).toBeUndefined();
		expect(submits()[0].body.images).toEqual(['https://example.com/a.png', 'https://example.com/b.png']);
		expect(submits()[0].body.image).toBeUndefined();
	});

	test('the legacy grok alias is sent as chosen and the output names the recommended id', async () => {
		const result = await generate('grok-imagine-1.5-video', { download: false, videoRoute: 'multipart' });
		expect(result.error).toBeUndefined();
		expect(submits()[0].parts.find((p) => p.name === 'model').value).toBe('grok-imagine-1.5-video');
		expect(result.items[0].json.recommendedModelId).toBe('grok-imagine-video-1.5');
		expect(result.items[0].json.note).toMatch(/legacy alias.*grok-imagine-video-1\.5/);
	});

	test('a model chosen per item by expression gets its own rules and defaults, not another model\'s', async () => {
		const items = [{ json: { model: 'sora-2' } }, { json: { model: 'grok-imagine-video-1.5' } }, { json: { model: 'veo-3.1-flash' } }, { json: { model: 'seedance-2.0' } }];
		const parameters = { ...video('x', { download: false }), modelId: { __rl: true, mode: 'id', value: '={{ $json.model }}' } };
		const result = await runNode({ parameters, credentials: ctx.creds, items });
		expect(result.error).toBeUndefined();
		const bodies = Object.fromEntries(submits().map((r) => [r.body.model, r.body]));
		expect(bodies['sora-2']).toEqual({ model: 'sora-2', prompt: PROMPT, seconds: '8', size: '1280x720' });
		expect(bodies['grok-imagine-video-1.5']).toEqual({ model: 'grok-imagine-video-1.5', prompt: PROMPT });
		expect(bodies['veo-3.1-flash']).toEqual({ model: 'veo-3.1-flash', prompt: PROMPT });
		expect(bodies['seedance-2.0']).toEqual({ model: 'seedance-2.0', prompt: PROMPT });
	});

	test('a model the registry does not know gets prompt, references in images and the JSON fields only', async () => {
		const parameters = { ...video('x'), modelId: { __rl: true, mode: 'id', value: 'wan-2.5' }, videoReferenceUrls: 'https://example.com/a.png', videoAdditionalBody: '{"seconds":"5"}' };
		const result = await runNode({ parameters, credentials: ctx.creds, continueOnFail: true });
		expect(submits()[0].body).toEqual({ model: 'wan-2.5', prompt: PROMPT, images: ['https://example.com/a.png'], seconds: '5' });
		expect(result.items[0].json.error).toMatch(/Model 'wan-2\.5' is not available to this API key's group/);
		expect(result.items[0].json.created).toBe('no');
	});

	test('Additional Body Fields add channel keys, metadata merged with the fields', async () => {
		await generate('seedance-2.0', { download: false, videoAdditionalBody: '{"callback_url":"https://example.com/cb","metadata":{"fps":24}}' });
		const body = submits()[0].body;
		expect(body.callback_url).toBe('https://example.com/cb');
		expect(body.metadata).toEqual({ fps: 24 });
	});
});
