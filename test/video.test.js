'use strict';
// Video → Generate against the simulator: exact requests per model family and route, waiting,
// results, streamed downloads, refusals before any request, and money-safe failures.
const crypto = require('node:crypto');
const { Container } = require('@n8n/di');
const core = require('n8n-core');
const { API_KEY, useSimulator } = require('./support');
const { runNode, binaryBuffer, makeBinary } = require('./harness');
const { pngFor } = require('./simulator/png');

const PROMPT = 'A paper boat drifting down a rainy street';
const PRICE_NOTE = 'site price applies; video is pre-charged by duration';

const ctx = useSimulator({ scenario: { durationMs: 300 } });

const rl = (value) => ({ __rl: true, mode: 'list', value });

function video(model, extra = {}) {
	return { resource: 'video', operation: 'generate', modelId: rl(model), prompt: PROMPT, waitIntervalSeconds: 0.1, ...extra };
}

async function generate(model, extra = {}, options = {}) {
	return await runNode({ parameters: video(model, extra), credentials: ctx.creds, ...options });
}

const submits = () => ctx.sim.requests.filter((r) => r.method === 'POST' && /^\/v1\/(video\/generations|videos)$/.test(r.path));
const sha256 = (buffer) => crypto.createHash('sha256').update(buffer).digest('hex');
const isMp4 = (buffer) => buffer.toString('ascii', 4, 8) === 'ftyp';

function jpeg(size = 2048) {
	const buffer = Buffer.alloc(size, 7);
	buffer.set([0xff, 0xd8, 0xff, 0xe0], 0);
	return buffer;
}

async function imageItem(files) {
	const binary = {};
	for (const [property, [buffer, name, mime]] of Object.entries(files)) binary[property] = await makeBinary(buffer, name, mime);
	return [{ json: {}, binary }];
}

describe('requests per model family and route', () => {
	test('sora-2 on the unified route: seconds as a string, size, one reference as `image`, queried on /v1/tasks', async () => {
		const reference = 'https://example.com/first-frame.png';
		const result = await generate('sora-2', { videoSeconds: '12', videoSize: '720x1280', videoReferenceUrls: reference });
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

	test('Veo 3.1 fields left alone send nothing: the channel defaults apply (spec 4.8: default 8 s; picture and audio by model)', async () => {
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
				videoAspectRatio: '9:16',
				videoResolution: '1080p',
				videoMetadataGenerateAudio: false,
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
		const result = await generate('seedance-2.0', { download: false, videoDuration: 3, videoResolution: '4k', videoMetadataWatermark: false });
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

	test('grok on the JSON routes: seconds outside the multipart list and aspect_ratio instead of size are sent', async () => {
		const result = await generate('grok-imagine-video-1.5', { download: false, videoRoute: 'compatibility', videoSeconds: '8', videoAspectRatio: '9:16' });
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
		expect(result.items[0].json.taskCreated).toBe(false);
	});

	test('Additional Body Fields add channel keys, metadata merged with the fields', async () => {
		await generate('seedance-2.0', { download: false, videoAdditionalBody: '{"callback_url":"https://example.com/cb","metadata":{"fps":24}}' });
		const body = submits()[0].body;
		expect(body.callback_url).toBe('https://example.com/cb');
		expect(body.metadata).toEqual({ fps: 24 });
	});
});

describe('waiting and results', () => {
	test('waits through queued and in_progress to completed, polling every interval', async () => {
		ctx.sim.scenario('*', { durationMs: 1200, progressSteps: [0, 25, 50, 75] });
		const result = await generate('sora-2', { download: false });
		expect(result.error).toBeUndefined();
		const [submit] = submits();
		const polls = ctx.sim.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/tasks/'));
		expect(polls.length).toBeGreaterThanOrEqual(5);
		// Polls started while the task was still running and went on until it finished.
		expect(polls[0].at - submit.at).toBeLessThan(600);
		expect(polls[polls.length - 1].at - submit.at).toBeGreaterThanOrEqual(1200);
		expect(result.items[0].json).toMatchObject({ status: 'completed', progress: 100 });
	});

	test('100% with in_progress is not success and not an error: it keeps waiting until completed', async () => {
		ctx.sim.scenario('*', { durationMs: 300, outcome: 'stuck100', stuckMs: 1000 });
		const result = await generate('sora-2', { download: false });
		expect(result.error).toBeUndefined();
		const [submit] = submits();
		const polls = ctx.sim.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/tasks/'));
		const stuckPolls = polls.filter((p) => p.at - submit.at > 400 && p.at - submit.at < 1250);
		expect(stuckPolls.length).toBeGreaterThanOrEqual(3);
		expect(result.items[0].json).toMatchObject({ status: 'completed', state: 'succeeded' });
		expect(result.items[0].json.url).toBe(ctx.sim.task(result.items[0].json.taskId).urls[0]);
	});

	test('stuck at 100% past Max Wait gives a pending item to resume, not a failure', async () => {
		ctx.sim.scenario('*', { durationMs: 200, outcome: 'stuck100', shape: 'A' });
		const result = await generate('sora-2', { waitDeadlineMinutes: 0.01 });
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
		expect(json.taskCreated).toBe(true);
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
		const result = await generate('veo-3.1-flash', { binaryPropertyOutput: 'clip' });
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

describe('refused before sending', () => {
	const cases = [
		['sora seconds other than 8/12', 'sora-2', { videoSeconds: '10' }, /Seconds \(seconds\): "10".*sora-2.*allowed values are 8, 12/],
		['sora size other than the two', 'sora-2', { videoSize: '1024x1024' }, /Size \(size\): "1024x1024".*allowed values are 1280x720, 720x1280/],
		['grok seconds outside the list', 'grok-imagine-video-1.5', { videoRoute: 'multipart', videoSeconds: '8' }, /Seconds \(seconds\): "8".*allowed values are 6, 10, 12, 16, 20/],
		['a Veo duration far beyond any model (issue 16)', 'veo-3.1-pro', { videoMetadataDurationSeconds: 100000 }, /Duration \(Seconds\) \(metadata\.durationSeconds\): 100000 is far beyond any video model's range; without Allow Unusual Values it takes at most 60/],
		['grok JSON seconds far beyond any model', 'grok-imagine-video-1.5', { videoSeconds: '100000' }, /Seconds \(seconds\): "100000" is far beyond/],
		['a prompt past 32,000 characters', 'sora-2', { prompt: 'x'.repeat(32_001) }, /Prompt is 32001 characters long; at most 32000 are accepted \(the spec gives no bound/],
		['a reference URL with a space', 'seedance-2.0', { videoReferenceUrls: 'https://example.com/a b.png' }, /'https:\/\/example\.com\/a b\.png' is not a public http\(s\) URL \(a URL has no spaces/],
		['an empty prompt', 'sora-2', { prompt: '   ' }, /Prompt is empty/],
		['the multipart route for a model without it', 'sora-2', { videoRoute: 'multipart' }, /Grok Multipart route is only for grok-imagine-video-1\.5, grok-imagine-1\.5-video/],
		['URLs on the multipart route', 'grok-imagine-video-1.5', { videoRoute: 'multipart', videoReferenceUrls: 'https://example.com/a.png' }, /takes reference images as files only/],
		['two references for Veo', 'veo-3.1-flash', { videoReferenceUrls: 'https://example.com/a.png\nhttps://example.com/b.png' }, /veo-3\.1-flash takes at most 1 reference image, got 2/],
		['a reference that is not a URL', 'seedance-2.0', { videoReferenceUrls: 'file:///etc/passwd' }, /not a public http\(s\) URL/],
		['an image model', 'gpt-image-2', {}, /'gpt-image-2' is not a video model \(it is listed as image\)/],
		['Additional Body Fields replacing a checked field', 'sora-2', { videoAdditionalBody: '{"seconds":"10"}' }, /'seconds' is already set by the field Seconds/],
		['Additional Body Fields replacing a metadata field', 'veo-3.1-flash', { videoMetadataDurationSeconds: 6, videoAdditionalBody: '{"metadata":{"durationSeconds":30}}' }, /'metadata\.durationSeconds' is already set by the field Duration \(Seconds\)/],
		['Additional Body Fields that are not JSON', 'sora-2', { videoAdditionalBody: '{seconds: 8' }, /not valid JSON/],
	];

	test.each(cases)('%s', async (_name, model, extra, message) => {
		const result = await generate(model, extra);
		expect(result.error).toBeDefined();
		expect(result.error.message).toMatch(message);
		expect(ctx.sim.requests).toHaveLength(0);
	});

	test('a reference file over 20 MB', async () => {
		const big = Buffer.alloc(21 * 1024 * 1024);
		big.set(pngFor('x').subarray(0, 16), 0);
		const result = await generate('grok-imagine-video-1.5', { videoRoute: 'multipart', videoReferenceBinaryProperties: 'data' }, { items: await imageItem({ data: [big, 'huge.png', 'image/png'] }) });
		expect(result.error.message).toMatch(/'huge\.png' is 21\.0 MB; the gateway accepts at most 20 MB/);
		expect(ctx.sim.requests).toHaveLength(0);
	});

	test('a reference file of another type (GIF for grok, text for anyone)', async () => {
		const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(64)]);
		const grok = await generate('grok-imagine-video-1.5', { videoRoute: 'multipart', videoReferenceBinaryProperties: 'data' }, { items: await imageItem({ data: [gif, 'anim.gif', 'image/gif'] }) });
		expect(grok.error.message).toMatch(/'anim\.gif' is image\/gif .*accepts JPEG, PNG, WEBP$/);
		const text = await generate('seedance-2.0', { videoReferenceBinaryProperties: 'data' }, { items: await imageItem({ data: [Buffer.from('hello there, not an image'), 'notes.png', 'image/png'] }) });
		expect(text.error.message).toMatch(/'notes\.png' is not a recognised image/);
		expect(ctx.sim.requests).toHaveLength(0);
	});

	test('one bad item among good ones: nothing at all is sent', async () => {
		const items = [{ json: { s: '8' } }, { json: { s: '12' } }, { json: { s: '9' } }];
		const result = await generate('sora-2', { videoSeconds: '={{ $json.s }}' }, { items });
		expect(result.error.message).toMatch(/"9".*allowed values are 8, 12/);
		expect(result.error.context.itemIndex).toBe(2);
		expect(ctx.sim.requests).toHaveLength(0);
	});
});

describe('money: quota, timeouts, lost answers', () => {
	test('insufficient_user_quota: "balance too low for the video pre-charge", sent once, not retried', async () => {
		ctx.sim.inject({ path: '/v1/video/generations', status: 403, body: { error: { message: 'user quota is not enough', type: 'new_api_error', code: 'insufficient_user_quota' } } });
		const result = await generate('sora-2');
		expect(result.error.message).toMatch(/balance too low for the video pre-charge \(insufficient_user_quota\)/);
		expect(result.error.description).toMatch(/Nothing was retried/);
		expect(submits()).toHaveLength(1);
		expect(ctx.sim.requests.filter((r) => r.method === 'GET')).toHaveLength(0);
	});

	test('a submit that times out is not repeated; the item says the task may exist', async () => {
		ctx.sim.inject({ path: '/v1/video/generations', kind: 'slow', delayMs: 2500 });
		const result = await generate('sora-2', { videoSubmitTimeoutSeconds: 1 }, { continueOnFail: true });
		const json = result.items[0].json;
		expect(json.error).toMatch(/No answer from the gateway within 1 s while submitting the video job: the job may have been created and billed/);
		expect(json.description).toMatch(/check the account's task list before running this item again/);
		expect(json.taskCreated).toBe('unknown');
		await new Promise((resolve) => setTimeout(resolve, 1700)); // the slow answer arrives: still no second submit
		expect(submits()).toHaveLength(1);
		expect(ctx.sim.requests.filter((r) => r.method === 'GET')).toHaveLength(0);
	});

	test('a dropped connection on submit fails the node naming the risk, with one POST', async () => {
		ctx.sim.inject({ path: '/v1/videos', kind: 'drop' });
		const result = await generate('veo-3.1-flash', { videoRoute: 'compatibility' });
		expect(result.error.message).toMatch(/while submitting the video job.*may have been created and billed/);
		expect(result.error.description).toMatch(/check the account's task list before running this item again/);
		expect(submits()).toHaveLength(1);
	});
});

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
			parameters: { resource: 'task', operation: 'waitForCompletion', queryRoute: 'auto', waitIntervalSeconds: 0.1, download: true },
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
			parameters: { resource: 'task', operation: 'waitForCompletion', queryRoute: 'auto', waitIntervalSeconds: 0.1 },
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
