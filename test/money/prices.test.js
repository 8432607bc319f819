'use strict';
// Estimates from the gateway's own price list (GET /api/pricing, docs/gateway-contract.md §10.11)
// on each build: read once per node run (kept a minute across runs of one credential), the price ×
// the default group's ratio × the images asked, or × seconds and a size ratio where the relay bills
// by the second; the Spend Guard caps on the same figure; an answer that is missing, refused, a web
// page, another shape or absurd never fails a generation: the estimate falls back and says why.
const { useSimulator } = require('../support');
const { runNode } = require('../harness');

const ctx = useSimulator({ scenario: { durationMs: 200 }, profile: 'plainNewApi' });
const rl = (value) => ({ __rl: true, mode: 'id', value });
const items = (n) => Array.from({ length: n }, (_, i) => ({ json: { prompt: `picture ${i + 1}` } }));

function image(model, extra = {}) {
	return { resource: 'image', operation: 'generate', modelId: rl(model), prompt: '={{ $json.prompt }}', download: false, ...extra };
}
function video(model, extra = {}) {
	return { resource: 'video', operation: 'generate', modelId: rl(model), prompt: 'a paper boat', waitForCompletion: false, ...extra };
}
async function run(parameters, options = {}) {
	return await runNode({ parameters, credentials: ctx.creds, items: items(options.items ?? 1), ...options.run });
}

const GUESS = new RegExp(
	"the default group's ratio \\(a guess: the key's own group is not readable with the key; " +
		'Spend Guard → Key Group names it\\)',
);

describe('images priced by the gateway', () => {
	test('a gateway charging 0.061 per gpt-image-2 call: the item says so, and says where it comes from', async () => {
		ctx.sim.setPricing({ 'gpt-image-2': { model_price: 0.061 } });
		const result = await run(image('gpt-image-2'));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.estimatedCost).toMatchObject({ amount: 0.061, callAmount: 0.061, currency: 'USD', per: 'image', source: "the gateway's price list", basePrice: 0.061, groupRatio: 1, images: 1, note: expect.stringMatching(GUESS) });
		expect(result.items[0].json.spendSummary).toMatchObject({ estimatedTotalUsd: 0.061, priceSources: ["the gateway's price list"], items: ['1 × gpt-image-2 (1:1) = 0.061 USD (0.061 USD per image)'] });
	});

	test('the Spend Guard caps on the same figure: a 0.05 USD cap no longer lets a 0.061 USD call through', async () => {
		ctx.sim.setPricing({ 'gpt-image-2': { model_price: 0.061 } });
		const result = await run(image('gpt-image-2', { spendGuard: { maxRunCostUsd: 0.05 } }));
		expect(result.error.message).toBe('Estimated cost 0.061 USD is over the Max Estimated Cost per Run of 0.05 USD: nothing was sent.');
		expect(ctx.sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/pricing']);
	});

	test('× the images asked (the relay bills an image call per image) × the default group ratio', async () => {
		ctx.sim.setPricing({ 'gpt-image-2': { model_price: 0.05 } }, { groupRatio: { default: 1.5, vip: 0.8 } });
		const result = await run(image('gpt-image-2', { n: 3 }));
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(3);
		expect(result.items[0].json.estimatedCost).toMatchObject({ callAmount: 0.225, amount: 0.075, groupRatio: 1.5, images: 3 });
		expect(result.items[0].json.spendSummary.estimatedTotalUsd).toBe(0.225);
	});

	test('read once per node run however many items, and kept across runs of one credential, not another', async () => {
		ctx.sim.setPricing({ 'gpt-image-2': { model_price: 0.03 } });
		await run(image('gpt-image-2'), { items: 4, run: { credentialId: 'kept' } });
		expect(ctx.sim.count('GET', '/api/pricing')).toBe(1);
		await run(image('gpt-image-2'), { items: 2, run: { credentialId: 'kept' } });
		expect(ctx.sim.count('GET', '/api/pricing')).toBe(1);
		await run(image('gpt-image-2'), { items: 2, run: { credentialId: 'another' } });
		expect(ctx.sim.count('GET', '/api/pricing')).toBe(2);
	});
});

describe('videos priced by the gateway', () => {
	test('Seedance is billed per call', async () => {
		ctx.sim.setPricing({ 'seedance-2.0': { model_price: 0.45 } });
		const result = await run(video('seedance-2.0', { videoDuration_seedance20: 10 }));
		expect(result.items[0].json.estimatedCost).toMatchObject({ amount: 0.45, per: 'call', source: "the gateway's price list", basePrice: 0.45, groupRatio: 1 });
	});

	test('Veo bills by the second: the seconds asked × the 4k ratio, or its default 8 s', async () => {
		ctx.sim.setPricing({ 'veo-3.1-flash': { model_price: 0.15 } });
		const asked = await run(video('veo-3.1-flash', { videoMetadataDurationSeconds: 6, videoMetadataResolution: '4k' }));
		expect(asked.items[0].json.estimatedCost).toMatchObject({ amount: 1.35, per: 'second', seconds: 6, sizeRatio: 1.5 });
		const left = await run(video('veo-3.1-flash'));
		expect(left.items[0].json.estimatedCost).toMatchObject({ amount: 1.2, per: 'second', seconds: 8, sizeRatio: 1 });
		expect(left.items[0].json.spendSummary.items).toEqual(["1 × veo-3.1-flash (8 s (no length sent: the channel's default)) = 1.2 USD (0.15 USD per second)"]);
	});

	test('Sora-style and Wan bill by the second too; the gateway’s price outranks your price per second', async () => {
		ctx.sim.setPricing({ 'sora-2': { model_price: 0.1 }, 'wan2.7-t2v': { model_price: 0.08 } });
		const sora = await run(video('sora-2', { videoSeconds_sora2: '12', spendGuard: { videoPrices: { prices: [{ model: 'sora-2', usdPerSecond: 0.5 }] } } }));
		expect(sora.items[0].json.estimatedCost).toMatchObject({ amount: 1.2, per: 'second', seconds: 12, source: "the gateway's price list" });
		const wan = await run(video('wan2.7-t2v'));
		expect(wan.items[0].json.estimatedCost).toMatchObject({ amount: 0.4, seconds: 5 });
	});

	test('a model the list does not price keeps your price per second, and says why', async () => {
		ctx.sim.setPricing({ 'sora-2': null });
		const result = await run(video('sora-2', { videoSeconds_sora2: '8', spendGuard: { videoPrices: { prices: [{ model: 'sora-2', usdPerSecond: 0.2 }] } } }));
		expect(result.items[0].json.estimatedCost).toMatchObject({ amount: 1.6, source: 'your price per second (Spend Guard)', fallback: "the model is not in the gateway's price list" });
	});
});

describe('a price list that cannot be used never fails a generation: the document’s price, and why', () => {
	const NOT_JSON = { status: 200, body: '<!doctype html><html><body>Login</body></html>', headers: { 'Content-Type': 'text/html' } };
	test.each([
		['missing (404)', { status: 404, body: { error: { message: 'Invalid URL (GET /api/pricing)', type: 'invalid_request_error' } } }, /could not be read \(GET \/api\/pricing: HTTP 404/],
		['refused by the admin (403)', { status: 403, body: { success: false, message: 'pricing is disabled' } }, /does not make its price list public \(GET \/api\/pricing: HTTP 403/],
		['login required (401)', { status: 401, body: { success: false, message: 'login required' } }, /does not make its price list public/],
		['a web page', NOT_JSON, /could not be read/],
		['another shape', { status: 200, body: { success: true, data: { models: {} } } }, /another shape \(no data list\)/],
		['empty', { status: 200, body: { success: true, data: [], group_ratio: { default: 1 } } }, /price list is empty/],
		['refused with success: false', { status: 200, body: { success: false, message: 'disabled' } }, /refused its price list \(disabled\)/],
		['an unusable default ratio', { status: 200, body: { success: true, data: [{ model_name: 'gpt-image-2', quota_type: 1, model_price: 0.05 }], group_ratio: { default: 'cheap' } } }, /no usable ratio for the default group/],
	])('%s', async (_name, fault, reason) => {
		ctx.sim.inject({ method: 'GET', path: '/api/pricing', ...fault });
		const result = await run(image('gpt-image-2', { spendGuard: { maxRunCostUsd: 1 } }));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.estimatedCost).toMatchObject({ amount: 0.015, source: "the document's list price", fallback: expect.stringMatching(reason) });
		expect(result.items[0].json.spendSummary.priceListProblems).toEqual([expect.stringMatching(new RegExp(`^gpt-image-2: .*${reason.source}`))]);
		expect(ctx.sim.count('POST', '/v1/images/generations')).toBe(1);
	});

	test.each([
		['the relay’s placeholder 37.5', { quota_type: 0, model_ratio: 37.5, model_price: 0 }, /has set no price for it \(model_ratio 37\.5/],
		['a token price', { quota_type: 0, model_ratio: 2.5 }, /prices it by tokens/],
		['a negative price', { quota_type: 1, model_price: -0.5 }, /no usable per-call price \(model_price -0\.5\)/],
		['NaN', { quota_type: 1, model_price: 'NaN' }, /no usable per-call price/],
		['text', { quota_type: 1, model_price: 'cheap' }, /no usable per-call price \(model_price "cheap"\)/],
		['an unknown quota type', { quota_type: 7, model_price: 0.1 }, /unknown quota_type \(7\)/],
	])('an entry with %s', async (_name, entry, reason) => {
		ctx.sim.setPricing({ 'nano-banana': entry });
		const result = await run(image('nano-banana', { waitForCompletion: false }));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.estimatedCost).toMatchObject({ amount: 0.02, source: "the document's list price", fallback: expect.stringMatching(reason) });
	});

	test('a price written as text is the gateway’s price', async () => {
		ctx.sim.setPricing({ 'gpt-image-2': { model_price: '0.04' } });
		const result = await run(image('gpt-image-2'));
		expect(result.items[0].json.estimatedCost).toMatchObject({ amount: 0.04, source: "the gateway's price list" });
	});

	test('a 429 on the price list is not retried, and not kept: the next run asks again', async () => {
		ctx.sim.inject({ method: 'GET', path: '/api/pricing', status: 429, body: '' });
		const first = await run(image('gpt-image-2'), { run: { credentialId: 'busy' } });
		expect(first.items[0].json.estimatedCost.fallback).toMatch(/HTTP 429/);
		expect(ctx.sim.count('GET', '/api/pricing')).toBe(1);
		const second = await run(image('gpt-image-2'), { run: { credentialId: 'busy' } });
		expect(second.items[0].json.estimatedCost.source).toBe("the gateway's price list");
		expect(ctx.sim.count('GET', '/api/pricing')).toBe(2);
	});
});

describe('the other builds', () => {
	test('one-api has no price list: the document’s price, and why', async () => {
		ctx.sim.setProfile('oneApi');
		const result = await run(image('gpt-image-2'));
		expect(result.items[0].json.estimatedCost).toMatchObject({ amount: 0.015, source: "the document's list price", fallback: expect.stringMatching(/GET \/api\/pricing: HTTP 404/) });
	});

	test('the commercial build as before, and its own price list where it serves one', async () => {
		ctx.sim.setProfile('commercial');
		const before = await run(image('gpt-image-2', { resolution: '2k' }));
		expect(before.items[0].json.estimatedCost).toMatchObject({ amount: 0.0225, per: 'call', resolutionTier: '2K', source: "the document's list price" });
		ctx.sim.setPricing({ 'gpt-image-2': { model_price: 0.03 } });
		const listed = await run(image('gpt-image-2', { resolution: '2k' }));
		expect(listed.items[0].json.estimatedCost).toMatchObject({ amount: 0.03, source: "the gateway's price list" });
	});

	test('alt-host models keep the document’s price per image', async () => {
		ctx.sim.setProfile('commercial');
		ctx.sim.setPricing({ 'gemini-2.5-flash-image': { model_price: 9 } });
		const result = await run(image('gemini-2.5-flash-image', { waitForCompletion: false }));
		expect(result.items[0].json.estimatedCost).toMatchObject({ amount: 0.02, per: 'image', fallback: "the alt host's models are not in the Base URL's price list" });
	});
});
