'use strict';
// Image → Generate / Edit through n8n-core's execution engine against the gateway simulator:
// the exact bodies sent per model family (spec 4.4, 4.6, 4.7), sync and task models over
// several items, uploads of binary references, refusals before any request, costs, files.
const crypto = require('node:crypto');
const { API_KEY, useSimulator } = require('./support');
const { pngFor } = require('./simulator/png');
const { runNode, binaryBuffer, makeBinary, loadNode } = require('./harness');

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const NOTE = 'List price per call (spec 2.8): one charge per request, whatever the number of images. Estimate from the gateway price list; the account plan decides the final charge.';

const ctx = useSimulator({ scenario: { durationMs: 300 } });

function params(operation, model, overrides = {}) {
	return {
		resource: 'image',
		operation,
		modelId: { __rl: true, mode: 'id', value: model },
		prompt: '={{ $json.prompt }}',
		waitIntervalSeconds: 0.1,
		...overrides,
	};
}

const prompts = (...texts) => texts.map((prompt) => ({ json: { prompt } }));

async function run(operation, model, overrides = {}, options = {}) {
	const result = await runNode({
		parameters: params(operation, model, overrides),
		credentials: options.credentials ?? ctx.creds,
		items: options.items ?? prompts('a red fox'),
		continueOnFail: options.continueOnFail,
	});
	// Nothing a user sees carries the key, and the files origin never gets it.
	const visible = JSON.stringify({ items: result.items.map((i) => i.json), error: result.error && { m: result.error.message, d: result.error.description } });
	expect(visible).not.toContain(API_KEY);
	expect(ctx.sim.find('GET', /^\/(files|uploads)\//, 'files').every((r) => !r.hasAuth)).toBe(true);
	return result;
}

function ok(result) {
	if (result.error) throw new Error(`node failed: ${result.error.message} | ${result.error.description}`);
	return result.items;
}

async function expectPng(item, field = 'data') {
	const binary = item.binary?.[field];
	expect(binary).toBeDefined();
	expect(binary.mimeType).toBe('image/png');
	expect(binary.fileName).toMatch(/\.png$/);
	const bytes = await binaryBuffer(binary);
	expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
	return bytes;
}

const submits = (path = '/v1/images/generations', origin = 'main') => ctx.sim.find('POST', path, origin);
const polls = (pattern, origin = 'main') => ctx.sim.find('GET', pattern, origin);
const fileGets = () => ctx.sim.find('GET', /^\/files\//, 'files');
const refUrl = (name) => `${ctx.sim.filesUrl}/files/${name}.png`;

describe('node description', () => {
	const node = loadNode('unifiedAiGateway');
	const props = node.description.properties;
	const resource = props.find((p) => p.name === 'resource');
	const imageProps = props.filter((p) => p.displayOptions?.show?.resource?.includes('image'));
	const forModel = (name, id, operation = 'generate') =>
		imageProps.filter((p) => p.name === name && p.displayOptions.show.operation?.includes(operation) && p.displayOptions.show['/modelId']?.includes(id));

	test('Image is the first resource and the default, with Generate and Edit', () => {
		expect(resource.options[0].value).toBe('image');
		expect(resource.default).toBe('image');
		const operation = imageProps.find((p) => p.name === 'operation');
		expect(operation.options.map((o) => o.value)).toEqual(['generate', 'edit']);
		expect(operation.options.every((o) => /Returns/.test(o.description) && /cost/i.test(o.description))).toBe(true);
	});

	test('fields are derived from the registry rows, per model', () => {
		const size25 = forModel('size', 'gpt-image-2.5');
		expect(size25).toHaveLength(1);
		expect(size25[0].options.map((o) => o.value)).toHaveLength(21);
		expect(size25[0].options.find((o) => o.value === '2048x2048').name).toBe('2048x2048 (1.5× Price)');
		const size2 = forModel('size', 'gpt-image-2');
		expect(size2[0].options.map((o) => o.value)).toContain('16:9');
		expect(forModel('resolution', 'gpt-image-2')[0].options.map((o) => o.value)).toEqual(['1k', '2k', '4k']);
		expect(forModel('resolution', 'gpt-image-2.5')).toHaveLength(0);
		expect(forModel('n', 'nano-banana')).toHaveLength(0);
		const altOptions = forModel('imageOptions', 'gemini-2.5-flash-image', 'edit')[0];
		expect(altOptions.options.map((o) => o.name).sort()).toEqual(['aspect_ratio', 'image_size', 'size']);
		expect(altOptions.options.find((o) => o.name === 'image_size').options.map((o) => o.value)).toEqual(['1K', '2K', '4K']);
		const host = imageProps.find((p) => p.name === 'imageHost');
		expect(host.displayOptions.show['/modelId']).toEqual(['gemini-3-pro-image-preview']);
		expect(forModel('maskUrl', 'gpt-image-2', 'edit')).toHaveLength(1);
		expect(forModel('maskUrl', 'gpt-image-2.5', 'edit')).toHaveLength(0);
	});
});

describe('Generate: sync GPT models', () => {
	test('gpt-image-2: three items, three concurrent calls, one image item each with its PNG', async () => {
		ctx.sim.scenario('gpt-image-2', { syncDelayMs: 400 });
		const items = ok(await run('generate', 'gpt-image-2', {}, { items: prompts('fox', 'owl', 'bear') }));
		const sent = submits();
		expect(sent).toHaveLength(3);
		expect(sent.map((r) => r.body.prompt).sort()).toEqual(['bear', 'fox', 'owl']);
		expect(sent.find((r) => r.body.prompt === 'fox').body).toEqual({
			model: 'gpt-image-2', prompt: 'fox', size: '1:1', resolution: '1k', quality: 'auto', n: 1, response_format: 'url',
		});
		// Submitted together, not one after another (each call is held 400 ms).
		const arrivals = sent.map((r) => r.at);
		expect(Math.max(...arrivals) - Math.min(...arrivals)).toBeLessThan(300);
		expect(polls(/^\/v1\/(images\/generations|tasks)\//)).toHaveLength(0);
		expect(items).toHaveLength(3);
		for (const [i, prompt] of ['fox', 'owl', 'bear'].entries()) {
			const item = items[i];
			expect(item.pairedItem).toEqual({ item: i });
			expect(item.json.url).toMatch(new RegExp(`^${ctx.sim.filesUrl}/files/img-\\w+-1\\.png$`));
			expect(item.json.revised_prompt).toBe(prompt);
			expect(item.json.taskId).toBeUndefined();
			expect(item.json.model).toBe('gpt-image-2');
			expect(item.json.request).toEqual(sent.find((r) => r.body.prompt === prompt).body);
			expect(item.json.estimatedCost).toMatchObject({ amount: 0.015, currency: 'USD', images: 1, note: NOTE });
			await expectPng(item);
		}
		expect(fileGets()).toHaveLength(3);
	});

	test('gpt-image-2 takes pixel sizes (the spec default 1024x1024, sent without resolution) and any ratio typed', async () => {
		ok(await run('generate', 'gpt-image-2', { size: '1024x1024', resolution: '2k' }));
		expect(submits()[0].body).toEqual({ model: 'gpt-image-2', prompt: 'a red fox', size: '1024x1024', quality: 'auto', n: 1, response_format: 'url' });
		ctx.fresh();
		ok(await run('generate', 'gpt-image-2', { size: '7:5', resolution: '2k' }));
		expect(submits()[0].body).toMatchObject({ size: '7:5', resolution: '2k' });
	});

	test('gpt-image-2 at 2k: ratio size and resolution sent, estimate 0.0225 USD', async () => {
		const items = ok(await run('generate', 'gpt-image-2', { size: '16:9', resolution: '2k', quality: 'high' }));
		expect(submits()[0].body).toEqual({
			model: 'gpt-image-2', prompt: 'a red fox', size: '16:9', resolution: '2k', quality: 'high', n: 1, response_format: 'url',
		});
		expect(items[0].json.estimatedCost).toEqual({
			amount: 0.0225, callAmount: 0.0225, currency: 'USD', per: 'call', basePrice: 0.015, resolutionTier: '2K', multiplier: 1.5, images: 1, note: NOTE,
		});
	});

	test('gpt-image-2.5: n = 2 gives two items paired with the one input; one call at 1.5× for a high-resolution size, shared by its items', async () => {
		const items = ok(await run('generate', 'gpt-image-2.5', { size: '2048x2048', n: 2 }));
		expect(submits()).toHaveLength(1);
		expect(submits()[0].body).toEqual({
			model: 'gpt-image-2.5', prompt: 'a red fox', size: '2048x2048', quality: 'auto', n: 2, response_format: 'url',
		});
		expect(items).toHaveLength(2);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
		expect(items[0].json.url).not.toBe(items[1].json.url);
		expect(items.map((i) => i.json.imageIndex)).toEqual([0, 1]);
		// Spec 2.8 prices per call: n = 2 is one call of 0.0225 USD, each item carries half of it.
		expect(items.map((i) => i.json.estimatedCost)).toEqual([0, 1].map(() => expect.objectContaining({ per: 'call', callAmount: 0.0225, amount: 0.01125, images: 2 })));
		const [a, b] = [await expectPng(items[0]), await expectPng(items[1])];
		expect(a.equals(b)).toBe(false);
		expect(items[0].binary.data.fileName).not.toBe(items[1].binary.data.fileName);
	});

	test('Download off: URLs only, no file fetched', async () => {
		const items = ok(await run('generate', 'gpt-image-2.5', { download: false }));
		expect(items[0].json.url).toMatch(/\.png$/);
		expect(items[0].binary).toBeUndefined();
		expect(fileGets()).toHaveLength(0);
	});

	test('a custom output field name holds the file', async () => {
		const items = ok(await run('generate', 'gpt-image-2', { binaryPropertyOutput: 'picture' }));
		await expectPng(items[0], 'picture');
		expect(items[0].binary.data).toBeUndefined();
	});
});

describe('Generate: task models', () => {
	test('gpt-image-2-async: three items, three submits, one wait, results downloaded', async () => {
		const items = ok(await run('generate', 'gpt-image-2-async', { size: '1536x1024' }, { items: prompts('a', 'b', 'c') }));
		const sent = submits();
		expect(sent).toHaveLength(3);
		expect(sent.find((r) => r.body.prompt === 'a').body).toEqual({ model: 'gpt-image-2-async', prompt: 'a', size: '1536x1024', quality: 'auto' });
		expect(polls(/^\/v1\/images\/generations\/task_/).length).toBeGreaterThanOrEqual(3);
		expect(items).toHaveLength(3);
		const ids = new Set();
		for (const [i, item] of items.entries()) {
			expect(item.pairedItem).toEqual({ item: i });
			expect(item.json.taskId).toMatch(/^task_/);
			ids.add(item.json.taskId);
			expect(item.json.url).toContain(item.json.taskId);
			expect(item.json.request.prompt).toBe(['a', 'b', 'c'][i]);
			expect(item.json.estimatedCost.amount).toBe(0.015);
			await expectPng(item);
		}
		expect(ids.size).toBe(3);
	});

	test('Wait for Completion off: the task id comes back at once, nothing polled', async () => {
		const items = ok(await run('generate', 'gpt-image-2.5-async', { waitForCompletion: false }));
		expect(submits()).toHaveLength(1);
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ pending: true, queryRoute: 'image', model: 'gpt-image-2.5-async' });
		expect(items[0].json.estimatedCost.amount).toBe(0.015);
		expect(items[0].json.taskId).toMatch(/^task_/);
		expect(polls(/^\/v1\//)).toHaveLength(0);
	});

	test('nano-banana family: size from Options, task on the image route, 0.02 / 0.03 USD', async () => {
		const items = ok(await run('generate', 'nano-banana', { imageOptions: { size: '16:9' } }, { items: prompts('x', 'y') }));
		expect(submits()).toHaveLength(2);
		expect(submits().find((r) => r.body.prompt === 'x').body).toEqual({ model: 'nano-banana', prompt: 'x', size: '16:9' });
		expect(items.map((i) => i.json.estimatedCost.amount)).toEqual([0.02, 0.02]);
		await expectPng(items[1]);

		ctx.fresh();
		const pro = ok(await run('generate', 'nano-banana-pro'));
		expect(submits()[0].body).toEqual({ model: 'nano-banana-pro', prompt: 'a red fox' });
		expect(pro[0].json.estimatedCost.amount).toBe(0.03);
		expect(pro[0].json.taskId).toMatch(/^task_/);
	});

	test('gpt-image-2.5-flare: the answer decides (sync by default, a task when the gateway says so)', async () => {
		const sync = ok(await run('generate', 'gpt-image-2.5-flare'));
		expect(sync[0].json.taskId).toBeUndefined();
		expect(polls(/^\/v1\/images\/generations\//)).toHaveLength(0);

		ctx.fresh();
		ctx.sim.scenario('gpt-image-2.5-sunburst', { mode: 'task', durationMs: 300 });
		const task = ok(await run('generate', 'gpt-image-2.5-sunburst', { size: '1024x1536' }));
		expect(submits()[0].body).toEqual({ model: 'gpt-image-2.5-sunburst', prompt: 'a red fox', size: '1024x1536', quality: 'auto', n: 1, response_format: 'url' });
		expect(task[0].json.taskId).toMatch(/^task_/);
		expect(polls(/^\/v1\/images\/generations\/task_/).length).toBeGreaterThan(0);
		await expectPng(task[0]);
	});

	test('alt host: body on the alt origin, polled on its /v1/tasks, 0.02 USD per image', async () => {
		const items = ok(
			await run('generate', 'gemini-2.5-flash-image', { imageOptions: { aspect_ratio: '16:9', image_size: '2K', size: '1280x720' } }, { items: prompts('p', 'q') }),
		);
		expect(submits('/v1/images/generations', 'main')).toHaveLength(0);
		const sent = submits('/v1/images/generations', 'alt');
		expect(sent).toHaveLength(2);
		expect(sent.find((r) => r.body.prompt === 'p').body).toEqual({
			model: 'gemini-2.5-flash-image', prompt: 'p', aspect_ratio: '16:9', image_size: '2K', size: '1280x720',
		});
		expect(polls(/^\/v1\/tasks\//, 'alt').length).toBeGreaterThanOrEqual(2);
		expect(items).toHaveLength(2);
		expect(items[0].json).toMatchObject({ host: 'alt', model: 'gemini-2.5-flash-image' });
		expect(items[0].json.estimatedCost.amount).toBe(0.02);
		await expectPng(items[0]);
	});

	test('gemini-3-pro-image-preview runs on the main host by default and on the alt host when Host is Alt', async () => {
		const main = ok(await run('generate', 'gemini-3-pro-image-preview'));
		expect(submits('/v1/images/generations', 'main')[0].body).toEqual({ model: 'gemini-3-pro-image-preview', prompt: 'a red fox' });
		expect(submits('/v1/images/generations', 'alt')).toHaveLength(0);
		expect(main[0].json.host).toBeUndefined();

		ctx.fresh();
		const alt = ok(await run('generate', 'gemini-3-pro-image-preview', { imageHost: 'alt', imageOptions: { image_size: '4K' } }));
		expect(submits('/v1/images/generations', 'main')).toHaveLength(0);
		expect(submits('/v1/images/generations', 'alt')[0].body).toEqual({ model: 'gemini-3-pro-image-preview', prompt: 'a red fox', image_size: '4K' });
		expect(alt[0].json.host).toBe('alt');
		await expectPng(alt[0]);
	});

	test('a model chosen per item by expression: its rules still apply, values come from Options', async () => {
		const items = ok(
			await run(
				'generate',
				'={{ $json.model }}',
				{ imageOptions: { size: '2048x1152', n: 1 } },
				{ items: [{ json: { prompt: 'a', model: 'gpt-image-2.5' } }, { json: { prompt: 'b', model: 'nano-banana' } }] },
			),
		);
		expect(submits().find((r) => r.body.prompt === 'a').body).toEqual({
			model: 'gpt-image-2.5', prompt: 'a', size: '2048x1152', quality: 'auto', n: 1, response_format: 'url',
		});
		// nano-banana takes size but not n or quality: only what its row allows is sent.
		expect(submits().find((r) => r.body.prompt === 'b').body).toEqual({ model: 'nano-banana', prompt: 'b', size: '2048x1152' });
		expect(items.map((i) => i.json.estimatedCost.amount)).toEqual([0.0225, 0.02]);
		expect(items[1].json.taskId).toMatch(/^task_/);

		// n8n fills every model's fields when the model is an expression: each model still gets its own defaults.
		ctx.fresh();
		ok(await run('generate', '={{ $json.model }}', {}, { items: [{ json: { prompt: 'c', model: 'gpt-image-2' } }, { json: { prompt: 'd', model: 'gpt-image-2.5' } }] }));
		expect(submits().find((r) => r.body.prompt === 'c').body).toEqual({
			model: 'gpt-image-2', prompt: 'c', size: '1:1', resolution: '1k', quality: 'auto', n: 1, response_format: 'url',
		});
		expect(submits().find((r) => r.body.prompt === 'd').body).toEqual({
			model: 'gpt-image-2.5', prompt: 'd', size: '1024x1024', quality: 'auto', n: 1, response_format: 'url',
		});
		// A value the user chose is still checked against the item's model.
		ctx.fresh();
		const refused = await run('generate', '={{ $json.model }}', { size: '0:0' }, { items: [{ json: { prompt: 'e', model: 'gpt-image-2' } }] });
		expect(refused.error.message).toMatch(/'0:0' is not accepted by model 'gpt-image-2'/);
		expect(ctx.sim.requests).toHaveLength(0);
	});

	test('a model the registry does not know: common fields + JSON, a sync answer or a task', async () => {
		ctx.sim.inject({ method: 'POST', path: '/v1/images/generations', status: 200, body: { created: 1, data: [{ url: refUrl('custom-1') }] } });
		const items = ok(
			await run('generate', 'my-image-model', { imageOptions: { size: '1024x1024', n: 1, quality: 'high' }, additionalBodyFields: '{"seed": 7}' }),
		);
		expect(submits()[0].body).toEqual({ model: 'my-image-model', prompt: 'a red fox', size: '1024x1024', n: 1, quality: 'high', seed: 7 });
		expect(items[0].json.url).toBe(refUrl('custom-1'));
		expect(items[0].json.estimatedCost.amount).toBeNull();
		await expectPng(items[0]);

		ctx.fresh();
		ctx.sim.inject({ method: 'POST', path: '/v1/images/generations', status: 200, body: { id: 'task_custom', status: 'queued' } });
		ctx.sim.inject({ method: 'GET', path: '/v1/images/generations/task_custom', status: 200, body: { id: 'task_custom', status: 'completed', data: [{ url: refUrl('custom-2') }] } });
		const task = ok(await run('generate', 'my-image-model'));
		expect(submits()[0].body).toEqual({ model: 'my-image-model', prompt: 'a red fox' });
		expect(task[0].json).toMatchObject({ taskId: 'task_custom', url: refUrl('custom-2') });
	});
});

describe('Edit', () => {
	test('gpt-image-2.5: images[] from a URL list, every edit field sent', async () => {
		const urls = `${refUrl('a')}\n${refUrl('b')}`;
		const items = ok(
			await run('edit', 'gpt-image-2.5', {
				referenceUrls: urls, size: '1536x2048', background: 'transparent', output_format: 'webp', imageOptions: { output_compression: 60 },
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

	test('alt host: image_urls on the alt origin with its options', async () => {
		const items = ok(
			await run('edit', 'gemini-3.1-flash-image-preview', { referenceUrls: refUrl('a'), imageOptions: { aspect_ratio: 'auto', image_size: '1K' } }),
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

describe('bad input is refused before any request', () => {
	const cases = [
		['a size the model does not take', 'generate', 'gpt-image-2.5', { size: '512x512' }, /Size \(size\) '512x512' is not accepted by model 'gpt-image-2\.5': it takes 1024x1024, 1536x1024/],
		['a gpt-image-2 size that is neither a ratio nor WIDTHxHEIGHT', 'generate', 'gpt-image-2', { size: '0:0' }, /Size \(size\) '0:0' is not accepted by model 'gpt-image-2': An aspect ratio .* or WIDTHxHEIGHT/],
		['a nano-banana size of 99999x99999 (issue 16)', 'generate', 'nano-banana', { imageOptions: { size: '99999x99999' } }, /Size \(size\) '99999x99999' is not accepted by model 'nano-banana': .*64 to 8192 pixels a side/],
		['a nano-banana size of 0:0 (issue 16)', 'generate', 'nano-banana', { imageOptions: { size: '0:0' } }, /Size \(size\) '0:0' is not accepted by model 'nano-banana'/],
		['a reference URL with a space in it', 'edit', 'gpt-image-2.5', { referenceUrls: 'https://x.test/a b.png' }, /'https:\/\/x\.test\/a b\.png' is not an http\(s\) URL/],
		['a prompt past 32,000 characters', 'generate', 'gpt-image-2', { prompt: 'x'.repeat(32_001) }, /Prompt is 32001 characters long; at most 32000 are accepted/],
		['n above 4', 'generate', 'gpt-image-2', { n: 5 }, /Number of Images \(n\) 5 is out of range for model 'gpt-image-2': it takes a whole number from 1 to 4/],
		['n of 0', 'edit', 'gpt-image-2.5', { n: 0, referenceUrls: 'https://x.test/a.png' }, /\(n\) 0 is out of range .* from 1 to 4/],
		['17 references for gpt-image-2', 'edit', 'gpt-image-2', { referenceUrls: Array.from({ length: 17 }, (_, i) => `https://x.test/${i}.png`).join('\n') }, /Reference Images: 17 given, but model 'gpt-image-2' takes 1 to 16/],
		['11 references on the alt host', 'edit', 'gemini-2.5-flash-image', { referenceUrls: Array.from({ length: 11 }, (_, i) => `https://x.test/${i}.png`).join(',') }, /Reference Images: 11 given, but model 'gemini-2\.5-flash-image' on the alt host takes 1 to 10/],
		['no reference at all', 'edit', 'nano-banana', { referenceUrls: '' }, /Reference Images: 0 given, but model 'nano-banana' takes at least 1/],
		['a reference that is not a URL', 'edit', 'gpt-image-2.5', { referenceUrls: 'data:image/png;base64,AAAA' }, /'data:image\/png;base64,AAAA' is not an http\(s\) URL/],
		['a mask without references', 'edit', 'gpt-image-2', { referenceUrls: '', maskUrl: 'https://x.test/mask.png' }, /Mask URL 'https:\/\/x\.test\/mask\.png' was given without reference images/],
		['compression above 100', 'edit', 'gpt-image-2', { referenceUrls: 'https://x.test/a.png', imageOptions: { output_compression: 150 } }, /Output Compression \(output_compression\) 150 is out of range .* from 0 to 100/],
		['image_size in lower case', 'generate', 'gemini-2.5-flash-image', { imageOptions: { image_size: '2k' } }, /Image Size \(image_size\) '2k' is not accepted by model 'gemini-2\.5-flash-image' on the alt host: it takes 1K, 2K, 4K/],
		['an empty prompt', 'generate', 'gpt-image-2', { prompt: '   ' }, /Prompt is empty/],
		['JSON that overrides a checked field', 'generate', 'gpt-image-2', { additionalBodyFields: '{"n": 9}' }, /Additional Body Fields sets 'n'/],
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
		const result = await run('generate', 'gemini-3.1-flash-image-preview', { imageOptions: { image_size: '4k' } });
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
		expect(items[1].json.taskCreated).toBe(false);
		expect(items[2].json.request.size).toBe('9:16');
	});
});
