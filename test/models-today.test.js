'use strict';
// The models gateways serve in late 2026 (docs/gateway-contract.md §10.9) and the relay's newest answers, against the
// simulator: rows beyond the contract's table, the unified request's fields for an id without a row,
// the model picker on a relay's 42-model catalogue (and on 20,000 models), a moderated video, an edit task read on its own
// route, what a left-out length is billed.
const { runNode, listSearch } = require('./harness');
const { useSimulator } = require('./support');
const catalog = require('./simulator/catalog');

const ctx = useSimulator({ scenario: { durationMs: 300 } });
const PROMPT = 'A paper boat drifting down a rainy street';
const rl = (value) => ({ __rl: true, mode: 'id', value });
const wait = { pollIntervalSeconds: 0.1 };

function video(model, extra = {}) {
	return { resource: 'video', operation: 'generate', modelId: rl(model), prompt: PROMPT, ...extra, waiting: { ...wait, ...extra.waiting } };
}
function image(operation, model, extra = {}) {
	return { resource: 'image', operation, modelId: rl(model), prompt: PROMPT, ...extra, waiting: { ...wait, ...extra.waiting } };
}
const videoSubmits = () => ctx.sim.requests.filter((r) => r.method === 'POST' && /^\/v1\/(video\/generations|videos)$/.test(r.path));
const run = (parameters, options = {}) => runNode({ parameters, credentials: ctx.creds, ...options });
const prices = (model, usdPerSecond) => ({ videoPrices: { prices: [{ model, usdPerSecond }] } });

describe('a video id without a row: the unified request\'s own fields (docs/gateway-contract.md §4.8, §10.9)', () => {
	beforeEach(() => ctx.sim.setModels(catalog.relayCatalogue()));

	test('sends the fields it was given and nothing else', async () => {
		const result = await run(video('kling-v2-6', {
			download: false,
			videoDuration_otherModelsUnified: 10,
			videoAspectRatio_otherModelsUnified: '9:16',
			videoResolution_otherModelsUnified: '1080p',
			videoMetadataGenerateAudio_otherModelsUnified: true,
			videoMetadataSeed_otherModelsUnified: 7,
			videoReferenceUrls: 'https://example.com/first.png',
		}));
		expect(result.error).toBeUndefined();
		expect(videoSubmits()).toHaveLength(1);
		expect(videoSubmits()[0].body).toEqual({
			model: 'kling-v2-6',
			prompt: PROMPT,
			duration: 10,
			aspect_ratio: '9:16',
			resolution: '1080p',
			images: ['https://example.com/first.png'],
			metadata: { generate_audio: true, seed: 7 },
		});
		const json = result.items[0].json;
		expect(json.estimatedCost).toMatch(/^unknown price/);
		expect(json.note).toMatch(/not in this node's model table/);
	});

	test('left alone, only model and prompt are sent; the spend guard says "unknown price" instead of guessing', async () => {
		const refused = await run(video('viduq2', { download: false, spendGuard: { maxRunCostUsd: 5 } }));
		expect(videoSubmits()).toHaveLength(0);
		expect(refused.error.description).toMatch(/viduq2 \(length set by the channel\): unknown price/);

		const sent = await run(video('viduq2', { download: false }));
		expect(sent.error).toBeUndefined();
		expect(videoSubmits()[0].body).toEqual({ model: 'viduq2', prompt: PROMPT });
	});

	test('the fields are offered for ids without a row only, on the JSON routes', () => {
		const { loadNode } = require('./harness');
		const field = loadNode('unifiedAiGateway').description.properties.find((p) => p.name === 'videoDuration_otherModelsUnified');
		expect(field.displayOptions.show.videoRoute).toEqual(['unified', 'compatibility']);
		expect(field.displayOptions.hide.modelId).toEqual(expect.arrayContaining(['sora-2', 'seedance-2.0', 'doubao-seedance-2-5-260628']));
	});
});

describe('Seedance 2.5: always sent a duration (left out, the model picks 10 s and bills it)', () => {
	const SEEDANCE_25 = 'doubao-seedance-2-5-260628';

	test('its fields left alone still send the 5-second default, and the gateway makes 5 s, not 10', async () => {
		const result = await run(video(SEEDANCE_25, { download: false }));
		expect(result.error).toBeUndefined();
		expect(videoSubmits()[0].body).toEqual({ model: SEEDANCE_25, prompt: PROMPT, duration: 5 });
		expect(ctx.sim.task(result.items[0].json.taskId).params.seconds).toBe('5');
	});

	test('an empty duration (an expression) is refused before anything is sent', async () => {
		const result = await run(video(SEEDANCE_25, { videoDuration_doubaoSeedance25260628: '={{ "" }}' }));
		expect(videoSubmits()).toHaveLength(0);
		expect(result.error.message).toMatch(/Duration \(Seconds\) \(duration\): doubao-seedance-2-5-260628 must be sent a value/);
		expect(result.error.description).toMatch(/bills it/);
	});

	test('-1 (the model picks) is sent, and the spend guard assumes the longest length, 30 s', async () => {
		const result = await run(video(SEEDANCE_25, { download: false, videoDuration_doubaoSeedance25260628: -1, spendGuard: { maxRunCostUsd: 2, ...prices(SEEDANCE_25, 0.1) } }));
		expect(videoSubmits()).toHaveLength(0);
		expect(result.error.message).toBe('Estimated cost 3 USD is over the Max Estimated Cost per Run of 2 USD: nothing was sent.');
		expect(result.error.description).toMatch(/30 s \(no length sent/);
	});
});

describe('Grok: a left-out length is billed at the channel\'s 8 s', () => {
	test('the estimate of an empty Seconds on the unified route is 8 s, not "not estimated"', async () => {
		const result = await run(video('grok-imagine-video-1.5', { download: false, spendGuard: { maxRunCostUsd: 5, ...prices('grok-imagine-video-1.5', 0.05) } }));
		expect(result.error).toBeUndefined();
		expect(videoSubmits()[0].body).toEqual({ model: 'grok-imagine-video-1.5', prompt: PROMPT });
		expect(result.items[0].json.estimatedCost).toMatchObject({ amount: 0.4, seconds: 8, per: 'second' });
	});
});

describe('a completed video with an error object and no file (a moderation block)', () => {
	test('is a failed item naming the error and saying it was billed; /content is never fetched', async () => {
		ctx.sim.scenario('grok-imagine-video-1.5', { durationMs: 300, outcome: 'moderated' });
		// The multipart route: its finished file is fetched from /content with the key (docs/gateway-contract.md §4.9).
		const result = await run(video('grok-imagine-video-1.5', { videoRoute: 'multipart' }), { continueOnFail: true });
		const json = result.items[0].json;
		expect(json.error).toMatch(/moderation_blocked/);
		expect(json.error).toMatch(/billed: this one was charged/);
		expect(json.created).toBe('yes');
		expect(ctx.sim.count('GET', /\/content$/)).toBe(0);
	});
});

describe('a GPT 2.5 edit task the image query does not know is read at /v1/images/edits/{id}', () => {
	test('the paid edit is read there, and the output says which route answered', async () => {
		ctx.sim.scenario('gpt-image-2.5-flare', { durationMs: 300, mode: 'task', editQuery: 'edits' });
		const result = await run(image('edit', 'gpt-image-2.5-flare', { referenceUrls: 'https://example.com/a.png', download: false }));
		expect(result.error).toBeUndefined();
		const json = result.items[0].json;
		expect(json.answeredBy).toBe('GET /v1/images/edits/{id}');
		expect(ctx.sim.count('GET', `/v1/images/edits/${json.taskId}`)).toBeGreaterThan(0);
		expect(json.url).toBe(ctx.sim.task(json.taskId).urls[0]);
	});
});

describe('rows beyond the contract\'s table', () => {
	test('Gemini Omni Flash takes 4, 6, 8 or 10 seconds only', async () => {
		const refused = await run(video('gemini-omni-flash-preview', { videoMetadataDurationSeconds_geminiOmniFlashPreview: '={{ 5 }}' }));
		expect(videoSubmits()).toHaveLength(0);
		expect(refused.error.message).toMatch(/allowed values are 4, 6, 8, 10/);

		const sent = await run(video('gemini-omni-flash-preview', { download: false, videoMetadataDurationSeconds_geminiOmniFlashPreview: 6 }));
		expect(sent.error).toBeUndefined();
		expect(videoSubmits()[0].body).toEqual({ model: 'gemini-omni-flash-preview', prompt: PROMPT, metadata: { durationSeconds: 6 } });
	});

	test('Nano Banana 2 Lite is refused above 1K (it would be served at 1K anyway); the other GA ids send their tier', async () => {
		const refused = await run(image('generate', 'gemini-3.1-flash-lite-image', { imageOptions_gemini31FlashLiteImage: { image_size: '={{ "2K" }}' } }));
		expect(ctx.sim.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
		expect(refused.error.message).toMatch(/Image Size \(image_size\) '2K' is not accepted by .*gemini-3\.1-flash-lite-image.*: it takes 1K/);

		const sent = await run(image('generate', 'gemini-3.1-flash-image', { download: false, imageOptions_gemini31FlashImage: { image_size: '2K', size: '16:9' } }));
		expect(sent.error).toBeUndefined();
		const post = ctx.sim.requests.find((r) => r.method === 'POST');
		expect(post.body).toEqual({ model: 'gemini-3.1-flash-image', prompt: PROMPT, size: '16:9', image_size: '2K' });
	});

	test('GPT Image 2.5 quality xhigh and max are sent', async () => {
		const result = await run(image('generate', 'gpt-image-2.5', { download: false, quality: 'max' }));
		expect(result.error).toBeUndefined();
		expect(ctx.sim.requests.find((r) => r.method === 'POST').body.quality).toBe('max');
	});

	test('sora-2 keeps its row and says it was retired upstream', async () => {
		const result = await run(video('sora-2', { download: false }));
		expect(result.items[0].json.note).toMatch(/Retired upstream.*2026-09-24/);
	});
});

describe('the model picker on a relay\'s 42-model catalogue (docs/gateway-contract.md §10.4)', () => {
	beforeEach(() => ctx.sim.setModels(catalog.relayCatalogue()));

	test('each list holds the ids of its kind; an id nothing classifies is in every list, marked in image and video', async () => {
		const kinds = catalog.relayKinds();
		expect(Object.keys(kinds)).toHaveLength(42);
		const lists = {};
		for (const [group, method] of [['text', 'searchTextModels'], ['image', 'searchImageModels'], ['video', 'searchVideoModels']]) {
			lists[group] = (await listSearch(method, { credentials: ctx.creds })).results;
		}
		const unknown = Object.keys(kinds).filter((id) => kinds[id] === 'unknown');
		for (const group of ['text', 'image', 'video']) {
			const expected = Object.keys(kinds).filter((id) => kinds[id] === group || kinds[id] === 'unknown').sort();
			expect(lists[group].map((r) => r.value).sort()).toEqual(expected);
		}
		for (const group of ['image', 'video']) {
			for (const id of unknown) expect(lists[group].find((r) => r.value === id).name).toBe(`${id} (kind unknown)`);
			for (const entry of lists[group].filter((r) => !unknown.includes(r.value))) expect(entry.name).toBe(entry.value);
		}
		expect(lists.video.find((r) => r.value === 'sora-2').description).toMatch(/Retired upstream/);
	});

	test('the filter narrows each list', async () => {
		const { results } = await listSearch('searchVideoModels', { credentials: ctx.creds, filter: 'WAN' });
		expect(results.map((r) => r.value).sort()).toEqual(['wan2.6-i2v', 'wan2.7-t2v']);
	});

	test('a tag that says the kind (image-generation, openai-video) outranks the name', async () => {
		const image = (await listSearch('searchImageModels', { credentials: ctx.creds })).results.map((r) => r.value);
		const video = (await listSearch('searchVideoModels', { credentials: ctx.creds })).results.map((r) => r.value);
		const text = (await listSearch('searchTextModels', { credentials: ctx.creds })).results.map((r) => r.value);
		expect(image).toContain('ernie-vilg-v2');
		expect(video).toContain('doubao-pro-animate');
		expect(text).not.toContain('ernie-vilg-v2');
		expect(text).not.toContain('doubao-pro-animate');
		// openai-response (grok's video channel) and gemini (Veo's) say nothing of the kind.
		expect(text).toContain('grok-4');
		expect(video).toEqual(expect.arrayContaining(['grok-imagine-video-1.5', 'veo-3.1-fast-generate-preview']));
	});
});

describe('the model picker on 20,000 models: paginated, its own kind first, searchable', () => {
	/** 15,000 chat ids, 3,000 image, 1,500 video, 500 nothing classifies: as a large relay lists them. */
	const many = () => {
		const model = (id, tags) => ({ id, object: 'model', created: 1, owned_by: 'relay', supported_endpoint_types: tags });
		return [
			...Array.from({ length: 15_000 }, (_, i) => model(`gpt-chat-${String(i).padStart(5, '0')}`, ['openai'])),
			...Array.from({ length: 3_000 }, (_, i) => model(`pic-${String(i).padStart(4, '0')}`, ['openai', 'image-generation'])),
			...Array.from({ length: 1_500 }, (_, i) => model(`clip-${String(i).padStart(4, '0')}`, ['openai-video'])),
			...Array.from({ length: 500 }, (_, i) => model(`zz-mystery-${String(i).padStart(3, '0')}`, ['openai'])),
		];
	};
	beforeEach(() => ctx.sim.setModels(many()));

	test('the video picker pages through its 1,500 video models, then the 500 unknown; no chat id', async () => {
		const seen = [];
		let token;
		let pages = 0;
		do {
			const page = await listSearch('searchVideoModels', { credentials: ctx.creds, paginationToken: token });
			expect(page.results.length).toBeLessThanOrEqual(100);
			seen.push(...page.results);
			token = page.paginationToken;
			pages++;
		} while (token);
		expect(pages).toBe(20);
		expect(seen.slice(0, 1500).every((r) => r.value.startsWith('clip-'))).toBe(true);
		expect(seen.slice(1500).every((r) => r.name.endsWith('(kind unknown)'))).toBe(true);
		expect(seen.some((r) => r.value.startsWith('gpt-chat-'))).toBe(false);
		// One read of /v1/models for the first page; the pages after it come from that read.
		expect(ctx.sim.count('GET', '/v1/models')).toBe(1);
	});

	test('a search is answered from the whole list, in pages too', async () => {
		const page = await listSearch('searchImageModels', { credentials: ctx.creds, filter: 'PIC-12' });
		expect(page.results.map((r) => r.value)).toEqual(Array.from({ length: 100 }, (_, i) => `pic-12${String(i).padStart(2, '0')}`));
		expect(page.paginationToken).toBeUndefined();
	});

	test('a slow /v1/models is given up after 10 s, asked once, and the error says to type the ID', async () => {
		ctx.sim.inject({ method: 'GET', path: '/v1/models', kind: 'slow', delayMs: 12_000, times: Infinity });
		const failure = await listSearch('searchVideoModels', { credentials: ctx.creds }).then(() => undefined, (error) => error);
		expect(failure.message).toBe('No answer from the gateway within 10 s while listing the models of this key');
		expect(failure.description).toMatch(/switch the Model field from From List to ID/);
		expect(ctx.sim.count('GET', '/v1/models')).toBe(1);
	}, 30_000);
});

describe('what users are shown first leads with live models', () => {
	test('no example workflow uses a model the registry says is retired', () => {
		const fs = require('node:fs');
		const path = require('node:path');
		const { MODELS } = require('../dist/nodes/UnifiedAiGateway/registry/models');
		const retired = MODELS.filter((m) => /retired/i.test(m.description ?? '')).map((m) => m.id);
		expect(retired).toEqual(['sora-2']);
		const dir = path.join(__dirname, '..', 'examples');
		const used = fs
			.readdirSync(dir)
			.filter((f) => f.endsWith('.json'))
			.flatMap((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')).nodes.map((n) => n.parameters?.modelId?.value).filter(Boolean));
		expect(used.length).toBeGreaterThan(0);
		expect(used.filter((id) => retired.includes(id))).toEqual([]);
	});

	test('Video → Generate starts on a live model, and the nodes panel finds the node by today\'s families', () => {
		const { loadNode } = require('./harness');
		const model = loadNode('unifiedAiGateway').description.properties.find((p) => p.name === 'modelId' && p.displayOptions.show.resource.includes('video'));
		expect(model.default.value).toBe('seedance-2.0');
		const codex = require('../dist/nodes/UnifiedAiGateway/UnifiedAiGateway.node.json');
		expect(codex.alias).toEqual(expect.arrayContaining(['seedance', 'veo', 'kling', 'hailuo', 'vidu', 'wan']));
		expect(codex.alias).not.toContain('sora');
	});
});
