'use strict';
// Image → Generate with task models (docs/gateway-contract.md §4.6, §4.7): submits, waits and results over several
// items, the alt host, models chosen per item by expression and models the registry does not know.
const { prompts, ok, expectPng, useImageSuite } = require('./suite');

const { ctx, run, submits, polls, refUrl } = useImageSuite();

describe('Generate: task models', () => {
	test('gpt-image-2-async: three items, three submits, one wait, results downloaded', async () => {
		const result = await run('generate', 'gpt-image-2-async', { size_gptImage25: '1536x1024' }, { items: prompts('a', 'b', 'c') });
		const items = ok(result);
		// Every submit and poll is signed with the credential read once for the run: n8n would
		// otherwise load and decrypt it from its database for each of them.
		expect(result.credentialReads).toBe(1);
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
		const items = ok(await run('generate', 'nano-banana', { imageOptions_nanoBanana: { size: '16:9' } }, { items: prompts('x', 'y') }));
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
		const task = ok(await run('generate', 'gpt-image-2.5-sunburst', { size_gptImage25: '1024x1536' }));
		expect(submits()[0].body).toEqual({ model: 'gpt-image-2.5-sunburst', prompt: 'a red fox', size: '1024x1536', quality: 'auto', n: 1, response_format: 'url' });
		expect(task[0].json.taskId).toMatch(/^task_/);
		expect(polls(/^\/v1\/images\/generations\/task_/).length).toBeGreaterThan(0);
		await expectPng(task[0]);
	});

	test('alt host: body on the alt origin, polled on its /v1/tasks, 0.02 USD per image', async () => {
		const items = ok(
			await run('generate', 'gemini-2.5-flash-image', { imageOptions_gemini25FlashImage: { aspect_ratio: '16:9', image_size: '2K', size: '1280x720' } }, { items: prompts('p', 'q') }),
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
		const alt = ok(await run('generate', 'gemini-3-pro-image-preview', { imageHost: 'alt', imageOptions_gemini3ProImagePreviewAlt: { image_size: '4K' } }));
		expect(submits('/v1/images/generations', 'main')).toHaveLength(0);
		expect(submits('/v1/images/generations', 'alt')[0].body).toEqual({ model: 'gemini-3-pro-image-preview', prompt: 'a red fox', image_size: '4K' });
		expect(alt[0].json.host).toBe('alt');
		await expectPng(alt[0]);
	});

	test('a model chosen per item by expression: each model reads its own fields, under its own rules', async () => {
		const items = ok(
			await run(
				'generate',
				'={{ $json.model }}',
				{ size_gptImage25: '2048x1152', n: 1, imageOptions_nanoBanana: { size: '2048x1152' } },
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

	test('a model from an expression: a value set only in another model\'s field is refused, naming both fields', async () => {
		// The user set gpt-image-2.5's Size; the item resolves to nano-banana, whose own Size (an Options entry) is not set.
		const refused = await run('generate', '={{ $json.model }}', { size_gptImage25: '2048x1152' }, { items: [{ json: { prompt: 'a', model: 'nano-banana' } }] });
		expect(refused.error.message).toBe(
			"Size (size_gptImage25) is set, but it belongs to gpt-image-2.5, gpt-image-2-async, gpt-image-2.5-async, gpt-image-2.5-flare, gpt-image-2.5-sunburst; this item's model is 'nano-banana', whose field is Options → Size (imageOptions_nanoBanana.size)",
		);
		expect(refused.error.description).toMatch(/each model reads only its own fields.*Nothing was sent/);
		expect(ctx.sim.requests).toHaveLength(0);
		// Set for the item's own model too, each model reads its own value (nothing is guessed).
		ctx.fresh();
		ok(await run('generate', '={{ $json.model }}', { size_gptImage25: '2048x1152', imageOptions_nanoBanana: { size: '16:9' } }, { items: [{ json: { prompt: 'a', model: 'nano-banana' } }] }));
		expect(submits()[0].body).toEqual({ model: 'nano-banana', prompt: 'a', size: '16:9' });
		// A field the item's model does not take (Quality) is not sent, as its field would be hidden for that model.
		ctx.fresh();
		ok(await run('generate', '={{ $json.model }}', { quality: 'high' }, { items: [{ json: { prompt: 'a', model: 'nano-banana' } }] }));
		expect(submits()[0].body).toEqual({ model: 'nano-banana', prompt: 'a' });
	});

	test('a model the registry does not know: common fields + JSON, a sync answer or a task', async () => {
		ctx.sim.inject({ method: 'POST', path: '/v1/images/generations', status: 200, body: { created: 1, data: [{ url: refUrl('custom-1') }] } });
		const items = ok(
			await run('generate', 'my-image-model', { imageOptions_otherModels: { size: '1024x1024', n: 1, quality: 'high' }, additionalBodyFields: '{"seed": 7}' }),
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
