'use strict';
// The charge of a synchronous image (issue 55 item 4; docs/gateway-contract.md §10.11): its answer
// carries none, so after the run the node reads the relay's usage log once (GET /api/log/token,
// new-api, rate-limited with the quota route) and gives each item what its row says, found by the
// answer's X-Oneapi-Request-Id, labelled with that source, beside the estimate; the run's summary
// puts the charged total beside the estimated one. Run through n8n's execution code against the
// simulator's plain new-api, which logs every billed synchronous call as new-api's RecordConsumeLog.
const { useSimulator } = require('../support');
const { runNode } = require('../harness');
const { rl, image, runner } = require('./image-run');

const ctx = useSimulator({ scenario: { durationMs: 200 }, profile: 'plainNewApi' });
const run = runner(ctx);
const LOG_SOURCE = "the gateway's usage log (GET /api/log/token, the call's request id)";
const logReads = () => ctx.sim.count('GET', '/api/log/token');

describe('a synchronous image shows its charge', () => {
	test('a key in a group at ratio 2: estimated 0.061 in the default group, charged 0.122, group named', async () => {
		ctx.sim.setPricing({ 'gpt-image-2': { model_price: 0.061 } }, { groupRatio: { default: 1, vip: 2 } });
		ctx.sim.setKeyGroup('vip');
		const result = await run(image(), 3);
		expect(result.error).toBeUndefined();
		for (const item of result.items) {
			expect(item.json.estimatedCost).toMatchObject({ amount: 0.061, groupAssumed: true });
			expect(item.json.charge).toEqual({
				amount: 0.122,
				currency: 'USD',
				quota: 61000,
				quotaPerUnit: 500000,
				source: LOG_SOURCE,
				requestId: expect.stringMatching(/^\w+$/),
				group: 'vip',
				groupRatio: 2,
			});
		}
		// Each item its own call's row: three request ids, one read of the rate-limited log for the run.
		expect(new Set(result.items.map((i) => i.json.charge.requestId)).size).toBe(3);
		expect(logReads()).toBe(1);
		expect(result.items[0].json.spendSummary).toMatchObject({
			estimatedTotalUsd: 0.183,
			chargedTotalUsd: 0.366,
			itemsCharged: 3,
			estimatedOfChargedUsd: 0.183,
		});
		expect(result.items[0].json.spendSummary.text).toMatch(/charged 0\.366 USD for 3 items \(estimated 0\.183 USD/);
	});

	test("one call of two images: each item carries half, the call's whole beside it", async () => {
		ctx.sim.setPricing({ 'gpt-image-2': { model_price: 0.05 } });
		const result = await run(image({ n: 2 }));
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		for (const item of result.items)
			expect(item.json.charge).toMatchObject({ amount: 0.05, taskAmount: 0.1, source: LOG_SOURCE, group: 'default' });
		expect(result.items[0].json.spendSummary).toMatchObject({ chargedTotalUsd: 0.1, itemsCharged: 1 });
	});

	test('the log refused (429): the charge stays "not reported" and says why; the run is not failed', async () => {
		ctx.sim.setPricing({ 'gpt-image-2': { model_price: 0.061 } });
		ctx.sim.inject({ path: '/api/log/token', status: 429, body: '' });
		// One saved credential's runs: the 429 is kept for it.
		const limited = () => runNode({ parameters: image(), credentials: ctx.creds, credentialId: 'limited' });
		const result = await limited();
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.charge).toMatchObject({
			amount: null,
			source: 'not reported',
			note: expect.stringMatching(/The usage log could not be read: GET \/api\/log\/token: HTTP 429/),
		});
		expect(result.items[0].json.spendSummary).toMatchObject({ chargeNotReported: 1 });
		// Remembered ten minutes: the next run does not spend the limit it shares with the quota route.
		const next = await limited();
		expect(next.items[0].json.charge.note).toMatch(/HTTP 429.*\(not asked again for ten minutes\)/);
		expect(logReads()).toBe(1);
	});
});

describe('the group the usage log named prices the next runs', () => {
	test('learned from one run: the next is estimated at ratio 2, a cap between refuses, one above passes', async () => {
		ctx.sim.setPricing({ 'gpt-image-2': { model_price: 0.061 } }, { groupRatio: { default: 1, vip: 2 } });
		ctx.sim.setKeyGroup('vip');
		// Kept per credential, as the price list is: the runs of one saved credential.
		const run = (parameters) => runNode({ parameters, credentials: ctx.creds, credentialId: 'learn' });
		const first = await run(image());
		expect(first.items[0].json.estimatedCost).toMatchObject({ amount: 0.061, groupAssumed: true });
		const refused = await run(image({ spendGuard: { maxRunCostUsd: 0.1 } }));
		expect(refused.error.message).toBe(
			'Estimated cost 0.122 USD is over the Max Estimated Cost per Run of 0.1 USD: nothing was sent.',
		);
		const passed = await run(image({ spendGuard: { maxRunCostUsd: 0.13 } }));
		expect(passed.error).toBeUndefined();
		expect(passed.items[0].json.estimatedCost).toMatchObject({
			amount: 0.122,
			group: 'vip',
			groupAssumed: false,
			note: expect.stringMatching(/× the vip group's ratio \(the group the gateway's usage log last billed this key/),
		});
		expect(passed.items[0].json.estimatedCost).not.toHaveProperty('dearestGroup');
		expect(ctx.sim.count('POST', '/v1/images/generations')).toBe(2);
	});
});

describe('a chat shows its charge', () => {
	const chat = (extra = {}) => ({
		resource: 'text',
		operation: 'message',
		modelId: rl('gpt-5.6-sol'),
		messages: { values: [{ role: 'user', content: 'hello' }] },
		...extra,
	});

	test('billed by its tokens in the key\'s group: each item its own row, one log read for the run', async () => {
		ctx.sim.setPricing({}, { groupRatio: { default: 1, vip: 2 } });
		ctx.sim.setKeyGroup('vip');
		const result = await run(chat(), 2);
		expect(result.error).toBeUndefined();
		// What the relay took from the key for the two chats is what the items say, to the quota unit.
		const used = ctx.sim.requests.filter((r) => r.path === '/v1/chat/completions').length;
		expect(used).toBe(2);
		const charges = result.items.map((i) => i.json.charge);
		for (const charge of charges)
			expect(charge).toMatchObject({ currency: 'USD', source: LOG_SOURCE, group: 'vip', groupRatio: 2 });
		const total = charges.reduce((sum, c) => sum + c.amount, 0);
		expect(total).toBeGreaterThan(0);
		expect(total).toBeCloseTo(ctx.sim.balances.token.used - 12.25, 5);
		expect(logReads()).toBe(1);
		expect(result.items[0].json.text).toMatch(/hello/);
	});

	test('streamed: the same charge from the log', async () => {
		const result = await run(chat({ options: { stream: true } }));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.charge).toMatchObject({ source: LOG_SOURCE, group: 'default' });
		const sent = ctx.sim.requests.find((r) => r.path === '/v1/chat/completions');
		expect(sent.body.stream).toBe(true);
	});
});

describe('where the gateway has no usage log', () => {
	test('the commercial build: no request id to look up, no read, "not reported"', async () => {
		ctx.sim.setProfile('commercial');
		const result = await run(image());
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.charge).toMatchObject({ amount: null, source: 'not reported' });
		expect(result.items[0].json.charge).not.toHaveProperty('requestId');
		expect(logReads()).toBe(0);
	});

	test('a chat on the commercial build: no request id, no charge field, no read', async () => {
		ctx.sim.setProfile('commercial');
		const parameters = { resource: 'text', operation: 'message', modelId: rl('gpt-5.6-sol') };
		const result = await run({ ...parameters, messages: { values: [{ role: 'user', content: 'hi' }] } });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).not.toHaveProperty('charge');
		expect(logReads()).toBe(0);
	});
});
