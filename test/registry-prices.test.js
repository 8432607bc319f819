'use strict';
// docs/gateway-contract.md §2.8: which resolution tier a request names, by whichever field says it
// (`resolution`, the alt host's `image_size`, a pixel `size` by the GPT 2.5 size table), and the
// multipliers the option labels show. The values that decide the tier are written out from the
// spec (the standard sizes stop at 1920 px), not read from the code; cost.test.js checks the
// same prices on the items of a run through n8n.
//
// The module is loaded afresh in each test (fresh-modules.js says why: its tier order and tier
// tables are built while it loads).
const built = require('./fresh-modules').freshEachTest();
const prices = built(() => require('../dist/nodes/UnifiedAiGateway/registry/prices.js'));

describe('tierOfValue: the tier one body value names', () => {
	test.each([
		['resolution', '2k', '2K'],
		['resolution', ' 4K ', '4K'],
		['resolution', '1K', '1K'],
		['resolution', '8K', undefined],
		['resolution', '16:9', undefined],
		['image_size', '2K', '2K'],
		['image_size', '4k', '4K'],
		['image_size', '', undefined],
		['size', '1024x1024', '1K'],
		['size', ' 1536X1024 ', '1K'],
		['size', '1920x1080', '1K'],
		['size', '1921x1080', '2K'],
		['size', '2048x2048', '2K'],
		['size', '2999x1000', '2K'],
		['size', '3000x1000', '4K'],
		['size', '3840x2160', '4K'],
		['size', 'a1024x1024', undefined],
		['size', '1024x1024px', undefined],
		['size', '2k', undefined],
		['aspect_ratio', '2048x2048', undefined],
		['aspect_ratio', '2K', undefined],
		['quality', 'high', undefined],
	])('%s = %p → %p', (key, value, tier) => {
		expect(prices.tierOfValue(key, value)).toBe(tier);
	});

	test('a value that is not text (an expression gave a number or nothing) names no tier', () => {
		expect(prices.tierOfValue('resolution', undefined)).toBeUndefined();
		expect(prices.tierOfValue('size', null)).toBeUndefined();
		expect(prices.tierOfValue('size', 1024)).toBeUndefined();
	});
});

describe('requestTier: the highest tier the request names, 1K when none', () => {
	test.each([
		[{}, '1K'],
		[{ aspect_ratio: '16:9' }, '1K'],
		[{ image_size: '4K' }, '4K'],
		[{ image_size: '2K' }, '2K'],
		[{ resolution: '2k', size: '3840x2160' }, '4K'],
		[{ resolution: '4k', size: '1024x1024' }, '4K'],
		[{ size: '2048x2048' }, '2K'],
	])('%p → %s', (request, tier) => {
		expect(prices.requestTier(request)).toBe(tier);
	});
});

describe('valueMultipliers: the option labels of values priced above 1×', () => {
	const gpt = () => ({ baseUsd: 0.015, per: 'image', tiers: prices.GPT_TIERS });

	test('GPT tiers: the 2K and 4K values, by the value as written', () => {
		expect(prices.valueMultipliers(gpt(), 'resolution', ['1k', '2k', '4k', '16:9'])).toEqual({ '2k': 1.5, '4k': 1.5 });
		expect(prices.valueMultipliers(gpt(), 'size', ['1024x1024', '2048x2048', 'auto'])).toEqual({ '2048x2048': 1.5 });
	});

	test('nothing above 1×, no price, or a field that names no tier: no labels', () => {
		expect(prices.valueMultipliers({ baseUsd: 0.02, per: 'image', tiers: prices.NANO_TIERS }, 'image_size', ['1K', '2K', '4K'])).toBeUndefined();
		expect(prices.valueMultipliers({ baseUsd: 0.02, per: 'image' }, 'image_size', ['1K', '2K', '4K'])).toBeUndefined();
		expect(prices.valueMultipliers(undefined, 'resolution', ['2k', '4k'])).toBeUndefined();
		expect(prices.valueMultipliers(gpt(), 'aspect_ratio', ['2K', '2048x2048'])).toBeUndefined();
	});
});

describe('listPrice: one request at list price (docs/gateway-contract.md §2.8)', () => {
	test('per image: base × the tier multiplier × the images, rounded to a micro-dollar', () => {
		const gpt = { baseUsd: 0.015, per: 'image', tiers: prices.GPT_TIERS };
		expect(prices.listPrice(gpt, { resolution: '2k' }, 3)).toEqual({ amount: 0.0675, basePrice: 0.015, per: 'image', tier: '2K', multiplier: 1.5, units: 3 });
		expect(prices.listPrice(gpt, { size: '1024x1024' }, 1)).toEqual({ amount: 0.015, basePrice: 0.015, per: 'image', tier: '1K', multiplier: 1, units: 1 });
	});

	test('per call: the images do not multiply it', () => {
		expect(prices.listPrice({ baseUsd: 0.4, per: 'call', tiers: { '4K': 2 } }, { image_size: '4K' }, 4)).toEqual({ amount: 0.8, basePrice: 0.4, per: 'call', tier: '4K', multiplier: 2, units: 1 });
	});

	test("per image, priced so the float product is off: the amount as a person reckons it", () => {
		expect(0.07 * 1 * 3).not.toBe(0.21);
		expect(prices.listPrice({ baseUsd: 0.07, per: 'image' }, {}, 3).amount).toBe(0.21);
	});

	test('roundUsd: to a micro-dollar', () => {
		expect(prices.roundUsd(0.1 + 0.2)).toBe(0.3);
		expect(prices.roundUsd(1.2345674)).toBe(1.234567);
		expect(prices.roundUsd(0.0000004)).toBe(0);
	});
});
