'use strict';
// Image → Edit: references by URL list, array expression or uploaded binary files, per model
// family and host, and a model without an edit variant refused.
const crypto = require('node:crypto');
const { pngFor } = require('../simulator/png');
const { makeBinary } = require('../harness');
const { ok, expectPng, useImageSuite } = require('./suite');

const { ctx, run, submits, polls, refUrl } = useImageSuite();

describe('Edit', () => {
	test('gpt-image-2.5: images[] from a URL list, every edit field sent', async () => {
		const urls = `${refUrl('a')}\n${refUrl('b')}`;
		const items = ok(
			await run('edit', 'gpt-image-2.5', {
				referenceUrls: urls, size_gptImage25: '1536x2048', background: 'transparent', output_format: 'webp', imageOptions_gptImage2: { output_compression: 60 },
			}),
		);
		const sent = submits('/v1/images/edits');
		expect(sent).toHaveLength(1);
		expect(sent[0].body).toEqual({
			model: 'gpt-image-2.5', prompt: 'a red fox', images: [refUrl('a'), refUrl('b')], size: '1536x2048', quality: 'auto', n: 1,
			background: 'transparent', output_format: 'webp', output_compression: 60, response_format: 'url',
		});
		expect(submits()).toHaveLength(0);
		expect(items[0].json.operation).toBe('edit');
		expect(items[0].json.estimatedCost.amount).toBe(0.0225);
		await expectPng(items[0]);
	});

	test('gpt-image-2: image_urls fusion from an array expression, mask_url, ratio size and resolution', async () => {
		const items = ok(
			await run(
				'edit',
				'gpt-image-2',
				{ referenceUrls: '={{ $json.refs }}', maskUrl: refUrl('mask'), size: '4:3', resolution: '4k', n: 2 },
				{ items: [{ json: { prompt: 'fuse', refs: [refUrl('r1'), refUrl('r2'), refUrl('r3')] } }] },
			),
		);
		expect(submits('/v1/images/edits')[0].body).toEqual({
			model: 'gpt-image-2', prompt: 'fuse', image_urls: [refUrl('r1'), refUrl('r2'), refUrl('r3')], mask_url: refUrl('mask'),
			size: '4:3', resolution: '4k', quality: 'auto', n: 2, background: 'auto', output_format: 'png',
		});
		expect(items).toHaveLength(2);
		expect(items[1].json.estimatedCost).toMatchObject({ callAmount: 0.0225, amount: 0.01125, per: 'call', resolutionTier: '4K' });
	});

	test('nano-banana: images[] and a task on the image route', async () => {
		const items = ok(await run('edit', 'nano-banana-2', { referenceUrls: `${refUrl('a')}, ${refUrl('b')}` }));
		expect(submits('/v1/images/edits')[0].body).toEqual({ model: 'nano-banana-2', prompt: 'a red fox', images: [refUrl('a'), refUrl('b')] });
		expect(items[0].json.taskId).toMatch(/^task_/);
		expect(polls(/^\/v1\/images\/generations\/task_/).length).toBeGreaterThan(0);
		await expectPng(items[0]);
	});

	test('reference URLs split by the one rule of videos too: a signed query keeps its commas', async () => {
		ok(await run('edit', 'nano-banana-2', { referenceUrls: `${refUrl('a')}?sig=x,y\n${refUrl('b')}` }));
		expect(submits('/v1/images/edits')[0].body.images).toEqual([`${refUrl('a')}?sig=x,y`, refUrl('b')]);
	});

	test('alt host: image_urls on the alt origin with its options', async () => {
		const items = ok(
			await run('edit', 'gemini-3.1-flash-image-preview', { referenceUrls: refUrl('a'), imageOptions_gemini25FlashImage: { aspect_ratio: 'auto', image_size: '1K' } }),
		);
		expect(submits('/v1/images/edits', 'alt')[0].body).toEqual({
			model: 'gemini-3.1-flash-image-preview', prompt: 'a red fox', image_urls: [refUrl('a')], aspect_ratio: 'auto', image_size: '1K',
		});
		expect(items[0].json.host).toBe('alt');
		await expectPng(items[0]);
	});

	test('binary references: checked, uploaded, then the edit uses the uploaded URLs (two items)', async () => {
		const first = pngFor('ref-one');
		const second = pngFor('ref-two', 32);
		const third = pngFor('ref-three', 48);
		const items = [
			{ json: { prompt: 'one' }, binary: { data: await makeBinary(first, 'one.png', 'image/png'), extra: await makeBinary(second, 'two.png', 'image/png') } },
			{ json: { prompt: 'two' }, binary: { data: await makeBinary(third, 'three.png', 'image/png') } },
		];
		const out = ok(
			await run('edit', 'gpt-image-2', { referenceSource: 'binary', referenceBinaryProperties: '={{ $json.prompt === "one" ? "data, extra" : "data" }}' }, { items }),
		);
		const uploads = ctx.sim.find('POST', '/v1/uploads/images');
		expect(uploads).toHaveLength(3);
		const part = (name) => uploads.map((u) => u.parts[0]).find((p) => p.filename === name);
		expect(part('one.png')).toMatchObject({ name: 'file', contentType: 'image/png', size: first.length, sha256: crypto.createHash('sha256').update(first).digest('hex') });
		expect(part('three.png')).toMatchObject({ name: 'file', size: third.length, sha256: crypto.createHash('sha256').update(third).digest('hex') });
		const edits = submits('/v1/images/edits');
		expect(edits).toHaveLength(2);
		const editOne = edits.find((r) => r.body.prompt === 'one');
		expect(editOne.body.image_urls).toHaveLength(2);
		expect(editOne.body.image_urls[0]).toMatch(new RegExp(`^${ctx.sim.filesUrl}/uploads/\\w+/one\\.png$`));
		expect(editOne.body.image_urls[1]).toMatch(/\/two\.png$/);
		// Each edit went out after its own uploads.
		expect(editOne.at).toBeGreaterThanOrEqual(Math.max(...uploads.filter((u) => /one|two/.test(u.parts[0].filename)).map((u) => u.at)));
		expect(out).toHaveLength(2);
		expect(out[0].json.uploadedReferences.map((u) => u.url)).toEqual(editOne.body.image_urls);
		expect(out[0].json.request.image_urls).toEqual(editOne.body.image_urls);
		expect(out[1].json.request.image_urls[0]).toMatch(/\/three\.png$/);
		await expectPng(out[1]);
	});

	test('a model without an edit variant is refused', async () => {
		const result = await run('edit', 'gpt-image-2-async', { referenceUrls: refUrl('a') });
		expect(result.error.message).toMatch(/gpt-image-2-async.*no edit variant/);
		expect(result.error.description).toContain('gpt-image-2.5');
		expect(ctx.sim.requests).toHaveLength(0);
	});
});
