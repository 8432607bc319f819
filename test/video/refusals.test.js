'use strict';
// Video → Generate: bad input is refused before sending anything, with an error naming the field
// and what it accepts.
const { pngFor } = require('../simulator/png');
const { imageItem, useVideoSuite } = require('./suite');

const { ctx, generate } = useVideoSuite();

describe('refused before sending', () => {
	const cases = [
		['sora seconds other than 8/12', 'sora-2', { videoSeconds_sora2: '10' }, /Seconds \(seconds\): "10".*sora-2.*allowed values are 8, 12/],
		['sora size other than the two', 'sora-2', { videoSize_sora2: '1024x1024' }, /Size \(size\): "1024x1024".*allowed values are 1280x720, 720x1280/],
		['grok seconds outside the list', 'grok-imagine-video-1.5', { videoRoute: 'multipart', videoSeconds: '8' }, /Seconds \(seconds\): "8".*allowed values are 6, 10, 12, 16, 20/],
		['a Veo duration far beyond any model (past the plausibility bound, §8)', 'veo-3.1-pro', { videoMetadataDurationSeconds: 100000 }, /Duration \(Seconds\) \(metadata\.durationSeconds\): 100000 is far beyond any video model's range; without Allow Unusual Values it takes at most 60/],
		['grok JSON seconds far beyond any model', 'grok-imagine-video-1.5', { videoSeconds_grokImagineVideo15Unified: '100000' }, /Seconds \(seconds\): "100000" is far beyond/],
		['a prompt past 32,000 characters', 'sora-2', { prompt: 'x'.repeat(32_001) }, /Prompt is 32001 characters long; at most 32000 are accepted \(the gateway gives no bound/],
		['a reference URL with a space', 'seedance-2.0', { videoReferenceUrls: 'https://example.com/a b.png' }, /'https:\/\/example\.com\/a b\.png' is not a public http\(s\) URL \(a URL has no spaces/],
		['an empty prompt', 'sora-2', { prompt: '   ' }, /Prompt is empty/],
		['the multipart route for a model without it', 'sora-2', { videoRoute: 'multipart' }, /Grok Multipart route is only for grok-imagine-video-1\.5, grok-imagine-1\.5-video/],
		['URLs on the multipart route', 'grok-imagine-video-1.5', { videoRoute: 'multipart', videoReferenceUrls: 'https://example.com/a.png' }, /takes reference images as files only/],
		['two references for Veo', 'veo-3.1-flash', { videoReferenceUrls: 'https://example.com/a.png\nhttps://example.com/b.png' }, /veo-3\.1-flash takes at most 1 reference image, got 2/],
		['a reference that is not a URL', 'seedance-2.0', { videoReferenceUrls: 'file:///etc/passwd' }, /not a public http\(s\) URL/],
		['an image model', 'gpt-image-2', {}, /'gpt-image-2' is an image model, not a video model/],
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
		const result = await generate('sora-2', { videoSeconds_sora2: '={{ $json.s }}' }, { items });
		expect(result.error.message).toMatch(/"9".*allowed values are 8, 12/);
		expect(result.error.context.itemIndex).toBe(2);
		expect(ctx.sim.requests).toHaveLength(0);
	});
});
