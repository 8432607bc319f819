'use strict';
// docs/gateway-contract.md §2.8 prices, one row per priced model, n and resolution, through the node against the
// simulator: the call's estimate on the item and the run's total in the spend summary. The
// expected figures are written out from the spec table, not read from the registry.
const { useSimulator } = require('./support');
const { runNode } = require('./harness');

const ctx = useSimulator({ scenario: { durationMs: 300 } });

const GPT = 0.015;
const GPT_HIGH = 0.0225; // 2K and 4K: × 1.5
const NANO = 0.02;
const NANO_PRO = 0.03;
const ALT = 0.02;

const GPT25_IDS = ['gpt-image-2.5', 'gpt-image-2.5-flare', 'gpt-image-2.5-sunburst'];
const GPT_ASYNC_IDS = ['gpt-image-2-async', 'gpt-image-2.5-async'];
const NANO_IDS = ['nano-banana', 'nano-banana-2', 'nano-banana-2-lite', 'gemini-3-pro-image-preview'];
const ALT_IDS = ['gemini-2.5-flash-image', 'gemini-3-pro-image-preview', 'gemini-3.1-flash-image-preview'];
// The id served by both hosts has an Options collection per host; the others share their group's.
const nanoOptions = (id) => (id === 'gemini-3-pro-image-preview' ? 'imageOptions_gemini3ProImagePreviewMain' : 'imageOptions_nanoBanana');
const altOptions = (id) => (id === 'gemini-3-pro-image-preview' ? 'imageOptions_gemini3ProImagePreviewAlt' : 'imageOptions_gemini25FlashImage');

// [model, parameters, call price, per]
const ROWS = [
	['gpt-image-2', { resolution: '1k' }, GPT, 'call'],
	['gpt-image-2', { resolution: '2k' }, GPT_HIGH, 'call'],
	['gpt-image-2', { resolution: '4k', size: '16:9' }, GPT_HIGH, 'call'],
	['gpt-image-2', { resolution: '1k', n: 4 }, GPT, 'call'],
	['gpt-image-2', { resolution: '4k', n: 3 }, GPT_HIGH, 'call'],
	...GPT25_IDS.flatMap((id) => [
		[id, { size_gptImage25: '1024x1024' }, GPT, 'call'],
		[id, { size_gptImage25: '1920x1088' }, GPT, 'call'],
		[id, { size_gptImage25: '2048x2048' }, GPT_HIGH, 'call'],
		[id, { size_gptImage25: '3840x2160' }, GPT_HIGH, 'call'],
		[id, { size_gptImage25: '1536x1024', n: 4 }, GPT, 'call'],
		[id, { size_gptImage25: '2880x2880', n: 2 }, GPT_HIGH, 'call'],
	]),
	...GPT_ASYNC_IDS.flatMap((id) => [
		[id, { size_gptImage25: '1024x1536' }, GPT, 'call'],
		[id, { size_gptImage25: '2560x1712' }, GPT_HIGH, 'call'],
		[id, { size_gptImage25: '3840x2880' }, GPT_HIGH, 'call'],
	]),
	...NANO_IDS.flatMap((id) => [
		[id, {}, NANO, 'call'],
		[id, { [nanoOptions(id)]: { size: '16:9' } }, NANO, 'call'],
		[id, { [nanoOptions(id)]: { size: '4096x4096' } }, NANO, 'call'],
	]),
	['nano-banana-pro', {}, NANO_PRO, 'call'],
	['nano-banana-pro', { imageOptions_nanoBanana: { size: '3840x2160' } }, NANO_PRO, 'call'],
	...ALT_IDS.flatMap((id) => ['1K', '2K', '4K'].map((imageSize) => [id, { alt: true, [altOptions(id)]: { image_size: imageSize } }, ALT, 'image'])),
];

function parameters(model, { alt, ...fields }) {
	return {
		resource: 'image',
		operation: 'generate',
		modelId: { __rl: true, mode: 'id', value: model },
		prompt: 'a lighthouse',
		// Task models: the estimate is on the pending item; nothing needs to finish.
		waitForCompletion: false,
		download: false,
		...(alt ? { imageHost: 'alt' } : {}),
		...fields,
	};
}

describe('§2.8: the estimate of one call, for every priced model, n and resolution', () => {
	test.each(ROWS)('%s %j costs %p USD per %s', async (model, fields, callPrice, per) => {
		const result = await runNode({ parameters: parameters(model, fields), credentials: ctx.creds });
		expect(result.error).toBeUndefined();
		const submits = ctx.sim.requests.filter((r) => r.method === 'POST');
		expect(submits).toHaveLength(1);
		if (fields.n) expect(submits[0].body.n).toBe(fields.n);

		const costs = result.items.map((item) => item.json.estimatedCost);
		for (const cost of costs) expect(cost).toMatchObject({ currency: 'USD', per, callAmount: callPrice * (per === 'image' ? cost.images : 1) });
		// n images of one call share its price: the items add up to one call, never n calls.
		const sum = costs.reduce((total, cost) => total + cost.amount, 0);
		expect(sum).toBeCloseTo(costs[0].callAmount, 9);
		expect(result.items[0].json.spendSummary).toMatchObject({ itemsSubmitted: 1, estimatedTotalUsd: callPrice });
	});

	test('the alt host prices each image: a call that makes 2 images costs 2 × 0.02 USD', async () => {
		ctx.sim.scenario('*', { durationMs: 200, images: 2 });
		const result = await runNode({
			parameters: { ...parameters('gemini-2.5-flash-image', {}), waitForCompletion: true, waiting: { pollIntervalSeconds: 0.1 } },
			credentials: ctx.creds,
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		expect(result.items.map((i) => i.json.estimatedCost)).toEqual([0, 1].map(() => expect.objectContaining({ per: 'image', images: 2, callAmount: 0.04, amount: 0.02 })));
	});
});
