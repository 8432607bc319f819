'use strict';
// Image: bad input is refused before any request, with an error naming the field and what it
// accepts; Continue On Fail turns a bad item into an error item.
const { pngFor } = require('../simulator/png');
const { makeBinary } = require('../harness');
const { ok, useImageSuite } = require('./suite');

const { ctx, run, submits } = useImageSuite();

describe('bad input is refused before any request', () => {
	const cases = [
		['a size the model does not take', 'generate', 'gpt-image-2.5', { size_gptImage25: '512x512' }, /Size \(size\) '512x512' is not accepted by model 'gpt-image-2\.5': it takes 1024x1024, 1536x1024/],
		['a gpt-image-2 size that is neither a ratio nor WIDTHxHEIGHT', 'generate', 'gpt-image-2', { size: '0:0' }, /Size \(size\) '0:0' is not accepted by model 'gpt-image-2': An aspect ratio .* or WIDTHxHEIGHT/],
		['a nano-banana size of 99999x99999 (a size no model makes)', 'generate', 'nano-banana', { imageOptions_nanoBanana: { size: '99999x99999' } }, /Size \(size\) '99999x99999' is not accepted by model 'nano-banana': .*64 to 8192 pixels a side/],
		['a nano-banana size of 0:0 (a size no model makes)', 'generate', 'nano-banana', { imageOptions_nanoBanana: { size: '0:0' } }, /Size \(size\) '0:0' is not accepted by model 'nano-banana'/],
		['a reference URL with a space in it', 'edit', 'gpt-image-2.5', { referenceUrls: 'https://x.test/a b.png' }, /'https:\/\/x\.test\/a b\.png' is not a public http\(s\) URL/],
		['a prompt past 32,000 characters', 'generate', 'gpt-image-2', { prompt: 'x'.repeat(32_001) }, /Prompt is 32001 characters long; at most 32000 are accepted/],
		['n above 4', 'generate', 'gpt-image-2', { n: 5 }, /Number of Images \(n\) 5 is out of range for model 'gpt-image-2': it takes a whole number from 1 to 4/],
		['n of 0', 'edit', 'gpt-image-2.5', { n: 0, referenceUrls: 'https://x.test/a.png' }, /\(n\) 0 is out of range .* from 1 to 4/],
		['17 references for gpt-image-2', 'edit', 'gpt-image-2', { referenceUrls: Array.from({ length: 17 }, (_, i) => `https://x.test/${i}.png`).join('\n') }, /Reference Images: 17 given, but model 'gpt-image-2' takes 1 to 16/],
		['11 references on the alt host', 'edit', 'gemini-2.5-flash-image', { referenceUrls: Array.from({ length: 11 }, (_, i) => `https://x.test/${i}.png`).join(',') }, /Reference Images: 11 given, but model 'gemini-2\.5-flash-image' on the alt host takes 1 to 10/],
		['no reference at all (an expression giving nothing; the field is required)', 'edit', 'nano-banana', { referenceUrls: '={{ "" }}' }, /Reference Images: 0 given, but model 'nano-banana' takes at least 1/],
		['a reference that is not a URL', 'edit', 'gpt-image-2.5', { referenceUrls: 'data:image/png;base64,AAAA' }, /'data:image\/png;base64,AAAA' is not a public http\(s\) URL/],
		['a mask without references', 'edit', 'gpt-image-2', { referenceUrls: '={{ [] }}', maskUrl: 'https://x.test/mask.png' }, /Mask URL 'https:\/\/x\.test\/mask\.png' was given without reference images/],
		['compression above 100', 'edit', 'gpt-image-2', { referenceUrls: 'https://x.test/a.png', imageOptions_gptImage2: { output_compression: 150 } }, /Output Compression \(output_compression\) 150 is out of range .* from 0 to 100/],
		['image_size in lower case', 'generate', 'gemini-2.5-flash-image', { imageOptions_gemini25FlashImage: { image_size: '2k' } }, /Image Size \(image_size\) '2k' is not accepted by model 'gemini-2\.5-flash-image' on the alt host: it takes 1K, 2K, 4K/],
		['an empty prompt', 'generate', 'gpt-image-2', { prompt: '   ' }, /Prompt is empty/],
		['JSON that overrides a checked field', 'generate', 'gpt-image-2', { additionalBodyFields: '{"n": 9}' }, /Additional Body Fields \(JSON\): 'n' is already set by the field/],
		['a video model', 'generate', 'sora-2', {}, /'sora-2' is a video model/],
	];
	test.each(cases)('%s', async (_name, operation, model, overrides, message) => {
		const result = await run(operation, model, overrides);
		expect(result.error).toBeDefined();
		expect(result.error.message).toMatch(message);
		expect(result.error.context.itemIndex).toBe(0);
		expect(ctx.sim.requests).toHaveLength(0);
	});

	test('image_size hint names the right case', async () => {
		const result = await run('generate', 'gemini-3.1-flash-image-preview', { imageOptions_gemini25FlashImage: { image_size: '4k' } });
		expect(result.error.description).toContain("Case matters: write '4K'");
		expect(ctx.sim.requests).toHaveLength(0);
	});

	test('an alt-host model with no Alt Base URL in the credential', async () => {
		const result = await run('generate', 'gemini-2.5-flash-image', {}, { credentials: { ...ctx.creds, altBaseUrl: '' } });
		expect(result.error.message).toBe("Model 'gemini-2.5-flash-image' runs on the alt host, but the credential has no Alt Base URL");
		expect(ctx.sim.requests).toHaveLength(0);

		const both = await run('generate', 'gemini-3-pro-image-preview', { imageHost: 'alt' }, { credentials: { ...ctx.creds, altBaseUrl: '' } });
		expect(both.error.description).toContain('set Host to Main');
		expect(ctx.sim.requests).toHaveLength(0);
	});

	test('a bad item stops the run before the good items are uploaded or sent', async () => {
		const items = [
			{ json: { prompt: 'fine' }, binary: { data: await makeBinary(pngFor('ok'), 'ok.png', 'image/png') } },
			{ json: { prompt: 'not an image' }, binary: { data: await makeBinary(Buffer.from('plain text, not a picture'), 'notes.png', 'image/png') } },
		];
		const result = await run('edit', 'gpt-image-2', { referenceSource: 'binary' }, { items });
		expect(result.error.message).toMatch(/Reference Images: 'notes\.png' is not a recognised image/);
		expect(result.error.context.itemIndex).toBe(1);
		expect(ctx.sim.requests).toHaveLength(0);
	});

	test('Continue On Fail: the bad item becomes an error item, the good ones still run', async () => {
		const result = await run('generate', 'gpt-image-2', { size: '={{ $json.size }}' }, {
			continueOnFail: true,
			items: [{ json: { prompt: 'a', size: '1:1' } }, { json: { prompt: 'b', size: '999:1' } }, { json: { prompt: 'c', size: '9:16' } }],
		});
		const items = ok(result);
		expect(submits()).toHaveLength(2);
		expect(items).toHaveLength(3);
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(items[1].json.error).toMatch(/'999:1' is not accepted/);
		expect(items[1].json.created).toBe('no');
		expect(items[2].json.request.size).toBe('9:16');
	});
});
