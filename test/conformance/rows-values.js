'use strict';
// Contract rows that show an accepted value or a rejection (docs/gateway-contract.md §2.4-§2.8, §4.4-§4.9, §4.11, §4.12,
// §7, §8, §9). Accepted: the value reaches the gateway as the contract writes it. Rejected: refused
// before sending, naming the field and what it takes. Each row: [section and sentence, run(h, ctx)].
const { pngFor } = require('../simulator/png');

const refs = (n) => Array.from({ length: n }, (_, i) => `https://x.test/${i}.png`).join('\n');
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'binary');
const big = () => {
	const buffer = Buffer.alloc(20 * 1024 * 1024 + 1);
	buffer.set(pngFor('big').subarray(0, 16), 0);
	return buffer;
};

const rows = [
	// 2.4-2.8 records
	['§2.4 image result: one output item per data[] element (n = 2)', async (h) => {
		expect(h.ok(await h.image('gpt-image-2.5', { n: 2 }))).toHaveLength(2);
	}],
	['§2.5 uploaded image: url, filename, content_type, bytes, created_at', async (h) => {
		const [json] = h.ok(await h.run({ resource: 'file', operation: 'uploadImage', binaryPropertyName: 'data' }, { items: await h.binaryItem() }));
		expect(json).toMatchObject({ filename: 'ref.png', content_type: 'image/png' });
		expect(typeof json.url === 'string' && typeof json.bytes === 'number' && typeof json.created_at === 'number').toBe(true);
	}],
	['§2.6 chat completion: text at choices[0].message.content', async (h, ctx) => {
		const content = 'Exactly what the gateway answered (§2.6).';
		const answer = { id: 'chatcmpl-conformance', object: 'chat.completion', created: 1767225600, model: 'gpt-5.6-sol', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 8, total_tokens: 9 } };
		ctx.sim.inject({ method: 'POST', path: '/v1/chat/completions', status: 200, body: answer });
		const [json] = h.ok(await h.run({ resource: 'text', operation: 'message', modelId: { __rl: true, mode: 'id', value: 'gpt-5.6-sol' }, messages: { values: [{ role: 'user', content: 'hi' }] }, simplifyOutput: true, options: {} }));
		expect(json.text).toBe(content);
		expect(ctx.sim.find('POST', '/v1/chat/completions')[0].body.messages).toEqual([{ role: 'user', content: 'hi' }]);
	}],
	['§2.8 gpt-image-2: 0.015 USD per call at 1K, 2K = 1.5 (0.0225 USD)', async (h) => {
		const [one] = h.ok(await h.image('gpt-image-2', { resolution: '1k' }));
		expect(one.estimatedCost.amount).toBe(0.015);
	}],
	['§2.8 nano-banana-pro: 0.030 USD per call', async (h) => {
		expect(h.ok(await h.image('nano-banana-pro'))[0].estimatedCost.amount).toBe(0.03);
	}],

	// 4.4 generation values
	['§4.4 gpt-image-2 size default 1024x1024 (a pixel size) is accepted', async (h) => {
		h.ok(await h.image('gpt-image-2', { size: '1024x1024' }));
		expect(h.sent('/v1/images/generations').size).toBe('1024x1024');
	}],
	['§4.4 gpt-image-2: "a ratio such as 16:9 or 1:1" with resolution 1k/2k/4k', async (h) => {
		h.ok(await h.image('gpt-image-2', { size: '16:9', resolution: '4k' }));
		expect(h.sent('/v1/images/generations')).toMatchObject({ size: '16:9', resolution: '4k' });
	}],
	...['auto', 'low', 'medium', 'high'].map((quality) => [`§4.4 quality '${quality}'`, async (h) => {
		h.ok(await h.image('gpt-image-2.5', { quality }));
		expect(h.sent('/v1/images/generations').quality).toBe(quality);
	}]),
	['§4.4 response_format only url (sent as url)', async (h) => {
		h.ok(await h.image('gpt-image-2.5'));
		expect(h.sent('/v1/images/generations').response_format).toBe('url');
	}],
	['§4.4 size table of the GPT 2.5 models: a high-resolution size (3840x2160) is accepted', async (h) => {
		h.ok(await h.image('gpt-image-2.5', { size_gptImage25: '3840x2160' }));
		expect(h.sent('/v1/images/generations').size).toBe('3840x2160');
	}],
	['§4.4 size table of the GPT 2.5 models: a size outside it is rejected', async (h) => {
		h.refused(await h.image('gpt-image-2.5', { size_gptImage25: '512x512' }), /Size \(size\) '512x512' is not accepted.*1024x1024/);
	}],
	['§4.4 + §8 n: 1 to 4 (4 accepted)', async (h) => {
		h.ok(await h.image('gpt-image-2', { n: 4 }));
		expect(h.sent('/v1/images/generations').n).toBe(4);
	}],
	['§4.4 + §8 n: 5 rejected', async (h) => h.refused(await h.image('gpt-image-2', { n: 5 }), /\(n\) 5 .* from 1 to 4/)],
	['§4.4 + §8 n: 0 rejected', async (h) => h.refused(await h.image('gpt-image-2.5', { n: 0 }), /\(n\) 0 .* from 1 to 4/)],
	['§4.4 nano-banana takes model, prompt, size (a size typed is sent)', async (h) => {
		h.ok(await h.image('nano-banana', { imageOptions_nanoBanana: { size: '5:4' } }));
		expect(h.sent('/v1/images/generations')).toEqual({ model: 'nano-banana', prompt: 'a red fox', size: '5:4' });
	}],
	['§4.4 bad input: nano-banana size 99999x99999 refused', async (h) => h.refused(await h.image('nano-banana', { imageOptions_nanoBanana: { size: '99999x99999' } }), /Size \(size\) '99999x99999'/)],

	// 4.6 edits
	['§4.6 gpt-image-2.5 variant: images array even for one image', async (h) => {
		h.ok(await h.edit('gpt-image-2.5'));
		expect(h.sent('/v1/images/edits').images).toEqual(['https://x.test/a.png']);
	}],
	['§4.6 gpt-image-2 variant: image_urls, up to 16 (16 accepted)', async (h) => {
		h.ok(await h.edit('gpt-image-2', { referenceUrls: refs(16) }));
		expect(h.sent('/v1/images/edits').image_urls).toHaveLength(16);
	}],
	['§4.6 + §8 gpt-image-2 edit: 17 references rejected', async (h) => h.refused(await h.edit('gpt-image-2', { referenceUrls: refs(17) }), /17 given, but model 'gpt-image-2' takes 1 to 16/)],
	['§4.6 images/image_urls are required: none rejected (the field is required; an expression gives none)', async (h) => h.refused(await h.edit('nano-banana', { referenceUrls: '={{ "" }}' }), /0 given, but model 'nano-banana' takes at least 1/)],
	['§4.6 mask_url used together with image_urls', async (h) => {
		h.ok(await h.edit('gpt-image-2', { maskUrl: 'https://x.test/mask.png' }));
		expect(h.sent('/v1/images/edits').mask_url).toBe('https://x.test/mask.png');
	}],
	...[['background', 'transparent'], ['output_format', 'webp'], ['output_compression', 0], ['output_compression', 100]].map(([key, value]) => [`§4.6 ${key} ${value} accepted`, async (h) => {
		h.ok(await h.edit('gpt-image-2', key === 'output_compression' ? { imageOptions_gptImage2: { [key]: value } } : { [key]: value }));
		expect(h.sent('/v1/images/edits')[key]).toBe(value);
	}]),
	['§4.6 + §8 output_compression 0 to 100: 101 rejected', async (h) => h.refused(await h.edit('gpt-image-2', { imageOptions_gptImage2: { output_compression: 101 } }), /Output Compression \(output_compression\) 101 .* from 0 to 100/)],
	['§4.6 reference URLs "must be reachable": a URL with a space is refused', async (h) => h.refused(await h.edit('gpt-image-2.5', { referenceUrls: 'https://x.test/a b.png' }), /is not a public http\(s\) URL/)],

	// 4.7 alt host
	...['auto', '21:9'].map((ratio) => [`§4.7 aspect_ratio '${ratio}' accepted`, async (h) => {
		h.ok(await h.image('gemini-2.5-flash-image', { imageOptions_gemini25FlashImage: { aspect_ratio: ratio } }));
		expect(h.sent('/v1/images/generations', 'alt').aspect_ratio).toBe(ratio);
	}]),
	['§4.7 aspect_ratio outside the allowed list rejected', async (h) => h.refused(await h.image('gemini-2.5-flash-image', { imageOptions_gemini25FlashImage: { aspect_ratio: '7:5' } }), /Aspect Ratio \(aspect_ratio\) '7:5'/)],
	['§4.7 image_size 1K/2K/4K accepted', async (h) => {
		h.ok(await h.image('gemini-2.5-flash-image', { imageOptions_gemini25FlashImage: { image_size: '4K' } }));
		expect(h.sent('/v1/images/generations', 'alt').image_size).toBe('4K');
	}],
	['§4.7 image_size: capital K required (2k rejected)', async (h) => h.refused(await h.image('gemini-2.5-flash-image', { imageOptions_gemini25FlashImage: { image_size: '2k' } }), /'2k' is not accepted.*1K, 2K, 4K/)],
	['§4.7 size: OpenAI-style sizes (1280x720 accepted)', async (h) => {
		h.ok(await h.image('gemini-2.5-flash-image', { imageOptions_gemini25FlashImage: { size: '1280x720' } }));
		expect(h.sent('/v1/images/generations', 'alt').size).toBe('1280x720');
	}],
	['§4.7 + §8 edit image_urls 1 to 10 (10 accepted)', async (h) => {
		h.ok(await h.edit('gemini-2.5-flash-image', { referenceUrls: refs(10) }));
		expect(h.sent('/v1/images/edits', 'alt').image_urls).toHaveLength(10);
	}],
	['§4.7 + §8 edit image_urls: 11 rejected', async (h) => h.refused(await h.edit('gemini-2.5-flash-image', { referenceUrls: refs(11) }), /11 given, but model 'gemini-2\.5-flash-image' on the alt host takes 1 to 10/)],
	['§4.7 edit: base64 is not accepted', async (h) => h.refused(await h.edit('gemini-2.5-flash-image', { referenceUrls: 'data:image/png;base64,AAAA' }), /not a public http\(s\) URL/)],

	// 4.8 unified video
	['§4.8 sora-2 seconds 8 or 12 (12 accepted, as a string)', async (h) => {
		h.ok(await h.video('sora-2', { videoSeconds_sora2: '12', waitForCompletion: false }));
		expect(h.sent('/v1/video/generations').seconds).toBe('12');
	}],
	['§4.8 + §8 sora-2 "other values are rejected at routing": 10 refused', async (h) => h.refused(await h.video('sora-2', { videoSeconds_sora2: '10' }), /Seconds \(seconds\): "10" .*8, 12/)],
	['§4.8 sora-2 picture 1280x720 or 720x1280: 1024x1024 refused', async (h) => h.refused(await h.video('sora-2', { videoSize_sora2: '1024x1024' }), /Size \(size\): "1024x1024" .*1280x720, 720x1280/)],
	['§4.8 sora-2 "images allowed": several references sent', async (h) => {
		h.ok(await h.video('sora-2', { videoReferenceUrls: refs(2), waitForCompletion: false }));
		expect(h.sent('/v1/video/generations').images).toHaveLength(2);
	}],
	['§4.8 Veo: metadata keys durationSeconds, aspectRatio, resolution (4k: "support depends on the model")', async (h) => {
		h.ok(await h.video('veo-3.1-pro', { videoMetadataDurationSeconds: 8, videoMetadataAspectRatio: '16:9', videoMetadataResolution: '4k', waitForCompletion: false }));
		expect(h.sent('/v1/video/generations').metadata).toEqual({ durationSeconds: 8, aspectRatio: '16:9', resolution: '4k' });
	}],
	['§4.8 Seedance: duration (integer, by channel) and resolution 4k sent as chosen', async (h) => {
		h.ok(await h.video('seedance-2.0', { videoDuration_seedance20: 15, videoResolution: '4k', waitForCompletion: false }));
		expect(h.sent('/v1/video/generations')).toMatchObject({ duration: 15, resolution: '4k' });
	}],
	['§4.8 Seedance metadata keys only when chosen (generate_audio false sent, the rest not)', async (h) => {
		h.ok(await h.video('seedance-1.5-pro', { videoMetadataGenerateAudio_seedance10Fast: false, waitForCompletion: false }));
		expect(h.sent('/v1/video/generations').metadata).toEqual({ generate_audio: false });
	}],
	['§4.8 Grok: duration "set by channel", "size or aspect_ratio" on the JSON routes', async (h) => {
		h.ok(await h.video('grok-imagine-video-1.5', { videoSeconds_grokImagineVideo15Unified: '15', videoAspectRatio: '16:9', waitForCompletion: false }));
		expect(h.sent('/v1/video/generations')).toMatchObject({ seconds: '15', aspect_ratio: '16:9' });
	}],
	['§4.8 bad input: a duration far beyond any model refused unless Allow Unusual Values', async (h) => h.refused(await h.video('veo-3.1-flash', { videoMetadataDurationSeconds: 100000 }), /far beyond any video model's range/)],

	// 4.9 grok multipart
	...['6', '10', '12', '16', '20'].map((seconds) => [`§4.9 + §8 grok multipart seconds '${seconds}' accepted`, async (h) => {
		h.ok(await h.video('grok-imagine-video-1.5', { videoRoute: 'multipart', videoSeconds: seconds, waitForCompletion: false }));
		expect(h.sent('/v1/videos')).toMatchObject({ seconds, size: '1280x720', quality: 'high' });
	}]),
	['§4.9 grok multipart seconds outside the list rejected', async (h) => h.refused(await h.video('grok-imagine-video-1.5', { videoRoute: 'multipart', videoSeconds: '8' }), /Seconds \(seconds\): "8" .*6, 10, 12, 16, 20/)],
	['§4.9 grok multipart size outside the two rejected', async (h) => h.refused(await h.video('grok-imagine-video-1.5', { videoRoute: 'multipart', videoSize: '1024x1024' }), /Size \(size\): "1024x1024" .*1280x720, 720x1280/)],
	['§4.9 input_reference repeated per image (not input_reference[], image or images)', async (h, ctx) => {
		const items = [{ json: {}, binary: { ...(await h.binaryItem())[0].binary, b: (await h.binaryItem(pngFor('b'), 'b.png'))[0].binary.data } }];
		h.ok(await h.video('grok-imagine-video-1.5', { videoRoute: 'multipart', videoReferenceBinaryProperties: 'data\nb', waitForCompletion: false }, { items }));
		expect(ctx.sim.find('POST', '/v1/videos')[0].parts.filter((p) => p.filename).map((p) => p.name)).toEqual(['input_reference', 'input_reference']);
	}],
	['§4.9 + §8 grok reference: JPEG, PNG or WebP only (GIF refused)', async (h) => h.refused(await h.video('grok-imagine-video-1.5', { videoRoute: 'multipart', videoReferenceBinaryProperties: 'data' }, { items: await h.binaryItem(GIF, 'a.gif', 'image/gif') }), /gif|GIF/)],
	['§4.9 + §8 grok reference: at most 20 MB each', async (h) => h.refused(await h.video('grok-imagine-video-1.5', { videoRoute: 'multipart', videoReferenceBinaryProperties: 'data' }, { items: await h.binaryItem(big(), 'big.png') }), /20 MB/)],

	// 4.11 / 8 upload, 4.12 models, 7 errors, 9 versioning
	['§4.11 + §8 upload: GIF accepted', async (h) => {
		h.ok(await h.run({ resource: 'file', operation: 'uploadImage', binaryPropertyName: 'data' }, { items: await h.binaryItem(GIF, 'a.gif', 'image/gif') }));
	}],
	['§4.11 + §8 upload: over 20 MB rejected', async (h) => h.refused(await h.run({ resource: 'file', operation: 'uploadImage', binaryPropertyName: 'data' }, { items: await h.binaryItem(big(), 'big.png') }), /20 MB/)],
	['§4.12 GET /v1/models lists the ids visible to the key', async (h) => {
		expect(h.ok(await h.run({ resource: 'account', operation: 'listModels' })).map((m) => m.id)).toContain('sora-2');
	}],
	['§7 401: the message says the key was rejected', async (h, ctx) => {
		const result = await h.run({ resource: 'account', operation: 'listModels' }, { credentials: { ...ctx.creds, apiKey: 'sk-wrong' } });
		expect(result.error.message).toMatch(/API key|401/);
	}],
	['§7 503 No available channel: the message names the model', async (h, ctx) => {
		ctx.sim.setModels([{ id: 'gpt-image-2' }]);
		const result = await h.video('sora-2');
		expect(result.error.message).toMatch(/sora-2.*No available channel/);
	}],
	['§9 Base URL without the trailing /v1 reaches the /v1 paths', async (h, ctx) => {
		const result = await h.run({ resource: 'account', operation: 'listModels' }, { credentials: { ...ctx.creds, baseUrl: ctx.sim.mainUrl } });
		expect(result.error).toBeUndefined();
		expect(ctx.sim.count('GET', '/v1/models')).toBe(1);
	}],
	['§9 the alias grok-imagine-1.5-video is sent as chosen, with the recommended id named', async (h) => {
		const [json] = h.ok(await h.video('grok-imagine-1.5-video', { waitForCompletion: false }));
		expect(json.recommendedModelId).toBe('grok-imagine-video-1.5');
	}],
];

module.exports = rows;
