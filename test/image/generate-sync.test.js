'use strict';
// Image → Generate with the sync GPT models through n8n-core's execution engine against the
// gateway simulator: exact bodies (docs/gateway-contract.md §4.4), concurrent items, costs, downloaded files.
const { NOTE, prompts, ok, expectPng, useImageSuite } = require('./suite');

const { ctx, run, submits, polls, fileGets } = useImageSuite();

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
		// Submitted together, not one after another (each call is held 400 ms): every call arrived
		// before the first answer went out, so all three were in flight at once, however slow the machine.
		const firstAnswer = Math.min(...sent.map((r) => r.answeredAt));
		expect(Math.max(...sent.map((r) => r.at))).toBeLessThan(firstAnswer);
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
			// This gateway (the simulator's commercial build) has no price list of its own: the document's price, and why.
			source: "the document's list price",
			fallback: expect.stringMatching(/^the gateway's price list could not be read \(GET \/api\/pricing: HTTP 404/),
		});
	});

	test('gpt-image-2.5: n = 2 gives two items paired with the one input; one call at 1.5× for a high-resolution size, shared by its items', async () => {
		const items = ok(await run('generate', 'gpt-image-2.5', { size_gptImage25: '2048x2048', n: 2 }));
		expect(submits()).toHaveLength(1);
		expect(submits()[0].body).toEqual({
			model: 'gpt-image-2.5', prompt: 'a red fox', size: '2048x2048', quality: 'auto', n: 2, response_format: 'url',
		});
		expect(items).toHaveLength(2);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
		expect(items[0].json.url).not.toBe(items[1].json.url);
		expect(items.map((i) => i.json.imageIndex)).toEqual([0, 1]);
		// docs/gateway-contract.md §2.8 prices per call: n = 2 is one call of 0.0225 USD, each item carries half of it.
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
		const items = ok(await run('generate', 'gpt-image-2', { options: { binaryPropertyOutput: 'picture' } }));
		await expectPng(items[0], 'picture');
		expect(items[0].binary.data).toBeUndefined();
	});
});
