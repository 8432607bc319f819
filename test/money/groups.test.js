'use strict';
// The key's group in every figure (issue 55 item 3; docs/gateway-contract.md §10.11): new-api bills a
// call at the price list's price × the ratio of the key's group, and tells a key its group in no
// answer (its anonymous /api/pricing shows the ratios of the groups a user may pick). So: with
// Spend Guard → Key Group the estimate and the cap use that group's ratio; without it the estimate
// says which group it assumed, and the cap judges each call at the dearest group the list shows,
// so a key in a dearer group never crosses it. Run through n8n's execution code against the
// simulator's plain new-api, whose key sits in a group of its own (sim.setKeyGroup).
const { useSimulator } = require('../support');
const { rl, image, runner } = require('./image-run');

const ctx = useSimulator({ scenario: { durationMs: 200 }, profile: 'plainNewApi' });
const run = runner(ctx);
const submits = () => ctx.sim.count('POST', '/v1/images/generations');

/** The real server's case: gpt-image-2 listed at 0.061, the key in a group whose ratio is 2. */
function groupAtTwo() {
	ctx.sim.setPricing({ 'gpt-image-2': { model_price: 0.061 } }, { groupRatio: { default: 1, vip: 2 } });
	ctx.sim.setKeyGroup('vip');
}

describe('a key in a group at ratio 2', () => {
	test('named in Key Group: estimated at twice the list price, and a cap between the two refuses it', async () => {
		groupAtTwo();
		const result = await run(image({ spendGuard: { keyGroup: 'vip', maxRunCostUsd: 0.1 } }));
		expect(result.error.message).toBe(
			'Estimated cost 0.122 USD is over the Max Estimated Cost per Run of 0.1 USD: nothing was sent.',
		);
		expect(result.error.description).toMatch(
			/^The run's 1 item: 1 × gpt-image-2 \(1:1\) = 0\.122 USD \(0\.122 USD per image\)\./,
		);
		expect(submits()).toBe(0);
	});

	test('named in Key Group, under the cap: the item says the group and its ratio, the gateway charged it', async () => {
		groupAtTwo();
		const result = await run(image({ spendGuard: { keyGroup: 'vip', maxRunCostUsd: 0.2 } }));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.estimatedCost).toMatchObject({
			amount: 0.122, basePrice: 0.061, groupRatio: 2, group: 'vip', groupAssumed: false,
			note: expect.stringMatching(/× the vip group's ratio \(the key's group, Spend Guard → Key Group\)/),
		});
		expect(result.items[0].json.estimatedCost).not.toHaveProperty('dearestGroup');
		expect(result.items[0].json.spendSummary).toMatchObject({
			estimatedTotalUsd: 0.122,
			items: ['1 × gpt-image-2 (1:1) = 0.122 USD (0.122 USD per image)'],
		});
		// What the gateway took from the key: the same 0.122 (12.25 used before the run).
		expect(ctx.sim.balances.token.used - 12.25).toBeCloseTo(0.122, 9);
		expect(submits()).toBe(1);
	});

	test('not named: the estimate says the default group was assumed; the cap judges at the dearest group', async () => {
		groupAtTwo();
		const result = await run(image({ spendGuard: { maxRunCostUsd: 0.1 } }));
		expect(result.error.message).toBe(
			'Estimated cost 0.061 USD in the default (×1) group assumed is 0.122 USD in the dearest group the ' +
				"gateway's price list shows (vip (×2)), over the Max Estimated Cost per Run of 0.1 USD: nothing was sent.",
		);
		expect(result.error.description).toMatch(
			/Name the key's group in Spend Guard → Key Group \(the gateway's token page shows it\)/,
		);
		expect(submits()).toBe(0);
		expect(ctx.sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/pricing']);
	});

	test('not named, no cap: estimated in the default group, said to be assumed, the dearest group beside', async () => {
		groupAtTwo();
		const result = await run(image());
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.estimatedCost).toMatchObject({
			amount: 0.061, groupRatio: 1, group: 'default', groupAssumed: true,
			dearestGroup: { group: 'vip', ratio: 2, amount: 0.122 },
			note: expect.stringMatching(
				/the default group's ratio \(a guess: the key's own group is not readable with the key; Spend Guard → Key/,
			),
		});
	});

	test('a group the list does not show: its ratio as a number is taken; a name it does not show refuses', async () => {
		ctx.sim.setPricing({ 'gpt-image-2': { model_price: 0.061 } }, { groupRatio: { default: 1, vip: 0.8, partner: 2 } });
		ctx.sim.setKeyGroup('partner');
		const byRatio = await run(image({ spendGuard: { keyGroup: '2', maxRunCostUsd: 0.2 } }));
		expect(byRatio.items[0].json.estimatedCost).toMatchObject({
			amount: 0.122,
			groupRatio: 2,
			groupAssumed: false,
			note: expect.stringMatching(/× the group ratio given in Spend Guard → Key Group/),
		});
		ctx.fresh();
		ctx.sim.setPricing({ 'gpt-image-2': { model_price: 0.061 } }, { groupRatio: { default: 1, vip: 0.8, partner: 2 } });
		const byName = await run(image({ spendGuard: { keyGroup: 'partner' } }));
		expect(byName.error.message).toBe(
			'Key Group "partner" is not a group the gateway\'s price list shows (default, vip), nor a ratio: ' +
				'nothing was sent.',
		);
		expect(submits()).toBe(0);
	});

	test('a Key Group whose expression gives nothing refuses the run: it is not "left out"', async () => {
		groupAtTwo();
		const result = await run(image({ spendGuard: { keyGroup: '={{ $json.group }}' } }));
		expect(result.error.message).toBe(
			"Key Group gives nothing: it takes the key's group name (for example vip) or its ratio as a number",
		);
		expect(submits()).toBe(0);
	});
});

describe('the dearest group is the dearest the model is sold in', () => {
	test('a dearer group the model is not enabled in does not count', async () => {
		ctx.sim.setPricing(
			{ 'gpt-image-2': { model_price: 0.061, enable_groups: ['default'] } },
			{ groupRatio: { default: 1, vip: 3 } },
		);
		const result = await run(image({ spendGuard: { maxRunCostUsd: 0.1 } }));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.estimatedCost).not.toHaveProperty('dearestGroup');
		expect(submits()).toBe(1);
	});

	test('no group dearer than the default: the cap judges the estimate itself', async () => {
		ctx.sim.setPricing({ 'gpt-image-2': { model_price: 0.061 } }, { groupRatio: { default: 1, vip: 0.8 } });
		const result = await run(image({ spendGuard: { maxRunCostUsd: 0.07 } }), 1);
		expect(result.error).toBeUndefined();
		expect(submits()).toBe(1);
	});

	test('videos too: a Seedance call in the dearest group is what the cap judges', async () => {
		ctx.sim.setPricing({ 'seedance-2.0': { model_price: 0.45 } }, { groupRatio: { default: 1, vip: 2 } });
		const video = { resource: 'video', operation: 'generate', modelId: rl('seedance-2.0'), prompt: 'a paper boat' };
		const result = await run({ ...video, waitForCompletion: false, spendGuard: { maxRunCostUsd: 0.5 } });
		expect(result.error.message).toMatch(
			/^Estimated cost 0\.45 USD in the default \(×1\) group assumed is 0\.9 USD in the dearest group/,
		);
		expect(ctx.sim.count('POST', '/v1/video/generations')).toBe(0);
	});
});
