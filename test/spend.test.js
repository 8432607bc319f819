'use strict';
// The spend guard through n8n-core against the simulator: a run over its cap or over the
// balance sends nothing (the simulator's records prove it), unlimited quota and a failing
// balance call let it through, unpriced video is said plainly, and every run reports what it
// submitted in its first item and in the execution's custom data.
const { useSimulator } = require('./support');
const { runNode, makeBinary, loadNode } = require('./harness');
const { pngFor } = require('./simulator/png');

const ctx = useSimulator({ scenario: { durationMs: 300 } });

const rl = (value) => ({ __rl: true, mode: 'id', value });
const prompts = (n) => Array.from({ length: n }, (_, i) => ({ json: { prompt: `picture ${i + 1}` } }));

function image(model, extra = {}) {
	return { resource: 'image', operation: 'generate', modelId: rl(model), prompt: '={{ $json.prompt }}', download: false, ...extra, waiting: { pollIntervalSeconds: 0.1, ...extra?.waiting } };
}

function video(model, extra = {}) {
	return { resource: 'video', operation: 'generate', modelId: rl(model), prompt: 'a paper boat', waitForCompletion: false, ...extra };
}

async function run(parameters, options = {}) {
	return await runNode({ parameters, credentials: ctx.creds, items: prompts(options.items ?? 3), continueOnFail: options.continueOnFail });
}

const posts = () => ctx.sim.requests.filter((r) => r.method === 'POST');
// The gateway's price list is read before the cap is checked (the cap weighs the gateway's own prices): a free read, nothing billed.
const besidesPrices = () => ctx.sim.requests.filter((r) => r.path !== '/api/pricing');
const customData = (result) => result.run.data.resultData.metadata ?? {};

describe('the Spend Guard options', () => {
	const properties = loadNode('unifiedAiGateway').description.properties;
	const guards = properties.filter((p) => p.name === 'spendGuard');

	test('one Spend Guard collection on each billed operation, with video prices for video only', () => {
		// Every billed call has one: the chats (Text → Message a Model, the Analyze operations) too.
		const shown = guards.map((g) => g.displayOptions.show);
		expect(shown).toEqual(expect.arrayContaining([
			{ resource: ['image'], operation: ['analyze'] },
			{ resource: ['image'], operation: ['generate', 'edit'] },
			{ resource: ['video'], operation: ['generate'] },
			{ resource: ['video'], operation: ['analyze'] },
			{ resource: ['audio'], operation: ['speech'] },
			{ resource: ['audio'], operation: ['transcribe'] },
			{ resource: ['audio'], operation: ['translate'] },
			{ resource: ['file'], operation: ['analyzeDocument'] },
			{ resource: ['text'], operation: ['message'] },
			{ resource: ['music'], operation: ['generate'] },
			{ resource: ['music'], operation: ['writeLyrics'] },
		]));
		expect(shown).toHaveLength(11);
		const names = (g) => g.options.map((o) => o.displayName);
		const imageGuard = guards[shown.findIndex((s) => s.operation.includes('generate') && s.resource[0] === 'image')];
		const videoGuard = guards[shown.findIndex((s) => s.resource[0] === 'video' && s.operation[0] === 'generate')];
		for (const g of guards) if (g !== videoGuard) expect(names(g)).not.toContain('Video Prices per Second');
		expect(names(imageGuard)).toEqual([
			'Allow Unpriced Items', 'Balance Units per USD', 'Check Balance Before Submitting', 'Key Group',
			'Max Estimated Cost per Run (USD)', 'Stop If Balance Cannot Be Read',
		]);
		expect(names(videoGuard)).toContain('Video Prices per Second');
		expect(imageGuard.options.find((o) => o.name === 'checkBalance').options.map((o) => o.value)).toEqual(['token', 'user']);
	});

	test('a cap that is not an amount is refused, naming the field', async () => {
		const result = await run(image('gpt-image-2', { spendGuard: { maxRunCostUsd: -1 } }));
		expect(result.error.message).toBe('Max Estimated Cost per Run (USD): -1 is out of range; it takes a number from 0 to 1000000 USD');
		expect(besidesPrices()).toHaveLength(0);
	});
});

describe('a cap is a cap: set, it must give an amount for every item', () => {
	const budget = { spendGuard: { maxRunCostUsd: '={{ $json.budget }}' } };
	const withBudgets = (...budgets) => budgets.map((budget, i) => ({ json: { prompt: `picture ${i + 1}`, ...(budget === undefined ? {} : { budget }) } }));

	test.each([
		['no column', [undefined, undefined], 'empty (the field or its expression gave no value)', 0],
		['the column on the first item only', [5, undefined], 'empty (the field or its expression gave no value)', 1],
		['null', [null], 'empty (the field or its expression gave no value)', 0],
		['"abc"', ['abc'], '"abc" is not a number', 0],
		['[1]', [[1]], '[1] is a list, not a number', 0],
		['an object', [{ usd: 1 }], '{"usd":1} is an object, not a number', 0],
		['-1', [-1], '-1 is out of range', 0],
		['NaN', [Number.NaN], 'NaN is not a number', 0],
	])('Max Estimated Cost per Run from %s refuses the run before anything is sent, naming the item', async (_name, budgets, why, item) => {
		for (const parameters of [image('gpt-image-2', budget), video('sora-2', { ...budget, spendGuard: { ...budget.spendGuard, videoPrices: { prices: [{ model: 'sora-2', usdPerSecond: 0.1 }] } } })]) {
			ctx.fresh();
			const result = await runNode({ parameters, credentials: ctx.creds, items: withBudgets(...budgets) });
			const itemWords = budgets.length > 1 ? ` (item ${item})` : '';
			expect(result.error.message).toBe(`Max Estimated Cost per Run (USD): ${why}; it takes a number from 0 to 1000000 USD${itemWords}`);
			expect(result.error.description).toMatch(/^Nothing was sent\./);
			expect(ctx.sim.requests).toHaveLength(0);
		}
	});

	test('items that give different caps are held to the lowest', async () => {
		const result = await runNode({ parameters: image('gpt-image-2', budget), credentials: ctx.creds, items: withBudgets(5, 0.02, 5) });
		expect(result.error.message).toBe('Estimated cost 0.045 USD is over the Max Estimated Cost per Run of 0.02 USD: nothing was sent.');
		// the estimate is the gateway's own price, so its price list is read (once); nothing billed goes out
		expect(ctx.sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/pricing']);
	});

	test('Stop If Balance Cannot Be Read from an expression giving "yes" is refused', async () => {
		const result = await run(image('gpt-image-2', { spendGuard: { checkBalance: 'token', stopIfBalanceUnreadable: '={{ "yes" }}' } }));
		expect(result.error.message).toBe('Stop If Balance Cannot Be Read: "yes" is a string, not a switch; it takes true or false');
		expect(ctx.sim.requests).toHaveLength(0);
	});

	test('left out of the Spend Guard, there is no cap', async () => {
		const result = await run(image('gpt-image-2', { spendGuard: { checkBalance: 'token' } }));
		expect(result.error).toBeUndefined();
		expect(posts()).toHaveLength(3);
	});
});

describe('Max Estimated Cost per Run', () => {
	test('over the cap: no request at all, and the error names the total, the cap and the items per model and size', async () => {
		const result = await run(image('gpt-image-2', { resolution: '2k', spendGuard: { maxRunCostUsd: 0.05 } }));
		expect(besidesPrices()).toHaveLength(0);
		expect(result.error.message).toBe('Estimated cost 0.0675 USD is over the Max Estimated Cost per Run of 0.05 USD: nothing was sent.');
		expect(result.error.description).toContain("The run's 3 items: 3 × gpt-image-2 (1:1, 2K) = 0.0675 USD (0.0225 USD per call).");
		expect(customData(result).gateway_Gateway_spend).toMatch(/^Nothing submitted: Estimated cost 0\.0675 USD is over/);
	});

	test('items of several models and sizes (from expressions) are counted per model and size', async () => {
		const items = [
			{ json: { prompt: 'a', model: 'gpt-image-2.5', size: '2048x2048' } },
			{ json: { prompt: 'b', model: 'gpt-image-2.5', size: '2048x2048' } },
			{ json: { prompt: 'c', model: 'gpt-image-2.5', size: '1024x1024' } },
		];
		const parameters = image('gpt-image-2.5', { modelId: rl('={{ $json.model }}'), size_gptImage25: '={{ $json.size }}', n: 4, spendGuard: { maxRunCostUsd: 0.05 } });
		const result = await runNode({ parameters, credentials: ctx.creds, items });
		expect(besidesPrices()).toHaveLength(0);
		expect(result.error.message).toMatch(/^Estimated cost 0\.06 USD is over the Max Estimated Cost per Run of 0\.05 USD/);
		expect(result.error.description).toContain('2 × gpt-image-2.5 (2048x2048, 2K, n=4) = 0.045 USD (0.0225 USD per call); 1 × gpt-image-2.5 (1024x1024, 1K, n=4) = 0.015 USD (0.015 USD per call)');
	});

	test('under the cap the run goes on; the summary is in the first item and in custom data', async () => {
		const result = await run(image('gpt-image-2', { spendGuard: { maxRunCostUsd: 0.05 } }));
		expect(result.error).toBeUndefined();
		expect(posts()).toHaveLength(3);
		expect(result.items).toHaveLength(3);
		expect(result.items[0].json.spendSummary).toMatchObject({
			text: '3 items submitted, about 0.045 USD',
			itemsSubmitted: 3,
			estimatedTotalUsd: 0.045,
			items: ['3 × gpt-image-2 (1:1, 1K) = 0.045 USD (0.015 USD per call)'],
			maxRunCostUsd: 0.05,
		});
		expect(result.items[1].json.spendSummary).toBeUndefined();
		expect(customData(result)).toMatchObject({ gateway_Gateway_spend: '3 items submitted, about 0.045 USD' });
	});

	test('an estimate exactly at the cap is sent; the cap a hundredth of a cent under it sends nothing', async () => {
		// 3 × gpt-image-2 (1:1, 1K) at 0.015 USD a call = 0.045 USD: the cap is a most, not a less-than.
		const at = await run(image('gpt-image-2', { spendGuard: { maxRunCostUsd: 0.045 } }));
		expect(at.error).toBeUndefined();
		expect(posts()).toHaveLength(3);
		expect(at.items[0].json.spendSummary).toMatchObject({ estimatedTotalUsd: 0.045, maxRunCostUsd: 0.045 });
		ctx.fresh();
		const under = await run(image('gpt-image-2', { spendGuard: { maxRunCostUsd: 0.0449 } }));
		expect(under.error.message).toBe('Estimated cost 0.045 USD is over the Max Estimated Cost per Run of 0.0449 USD: nothing was sent.');
		expect(besidesPrices()).toHaveLength(0);
	});

	test('a run that fails after its submits still says in custom data what it was sending', async () => {
		ctx.sim.inject({ method: 'POST', path: '/v1/images/generations', status: 400 });
		const result = await run(image('gpt-image-2', { spendGuard: { maxRunCostUsd: 1 } }));
		expect(result.error).toBeDefined();
		expect(posts()).toHaveLength(3);
		expect(customData(result).gateway_Gateway_spend).toBe('Submitting 3 items, about 0.045 USD');
	});

	test('with Continue On Fail a refused run gives one error item per input, still with nothing sent', async () => {
		const result = await run(image('nano-banana-pro', { spendGuard: { maxRunCostUsd: 0.05 } }), { continueOnFail: true });
		expect(besidesPrices()).toHaveLength(0);
		expect(result.items).toHaveLength(3);
		for (const item of result.items) expect(item.json).toMatchObject({ error: expect.stringMatching(/^Estimated cost 0\.09 USD is over/), created: 'no' });
		expect(result.items[0].json.spendSummary).toMatchObject({ itemsSubmitted: 0, estimatedTotalUsd: 0, plannedTotalUsd: 0.09, refused: expect.any(String) });
	});

	test('Image → Edit: a refused run uploads none of its binary references either', async () => {
		const items = [];
		for (const name of ['one', 'two']) items.push({ json: { prompt: name }, binary: { data: await makeBinary(pngFor(name), `${name}.png`, 'image/png') } });
		const parameters = { ...image('gpt-image-2.5', { size_gptImage25: '2048x2048', spendGuard: { maxRunCostUsd: 0.04 } }), operation: 'edit', referenceSource: 'binary' };
		const result = await runNode({ parameters, credentials: ctx.creds, items });
		expect(result.error.message).toBe('Estimated cost 0.045 USD is over the Max Estimated Cost per Run of 0.04 USD: nothing was sent.');
		expect(besidesPrices()).toHaveLength(0);
	});

	test('a model missing from the price list is not guessed: refused under a cap unless unpriced items are allowed', async () => {
		const refused = await run(image('flux-pro-x', { spendGuard: { maxRunCostUsd: 5 } }), { items: 1 });
		expect(besidesPrices()).toHaveLength(0);
		expect(refused.error.message).toBe('1 of 1 items have no known price, so the Max Estimated Cost per Run of 5 USD cannot be checked: nothing was sent.');
		expect(refused.error.description).toBe(
			"The run's 1 item: 1 × flux-pro-x: not in the price list. Give a price for flux-pro-x (Spend Guard → Video Prices per Second, for a video model), or turn on Allow Unpriced Items to let them through uncounted.",
		);

		const allowed = await run(image('flux-pro-x', { spendGuard: { maxRunCostUsd: 5, allowUnpricedItems: true } }), { items: 1, continueOnFail: true });
		expect(posts()).toHaveLength(1);
		expect(allowed.items[0].json.spendSummary.notEstimated).toMatch(/^Cost not estimated for 1 item \(flux-pro-x\)/);
	});
});

describe('Check Balance Before Submitting', () => {
	test('an estimate over the balance sends nothing but the one balance read', async () => {
		ctx.sim.setBalance('token', { remain: 0.05 });
		const result = await run(image('gpt-image-2', { resolution: '4k', spendGuard: { checkBalance: 'token' } }));
		expect(result.error.message).toBe('Token balance 0.05, this run needs about 0.0675 USD — top up or lower the batch');
		expect(result.error.description).toMatch(/^Nothing was sent\. The run's 3 items: 3 × gpt-image-2 \(1:1, 4K\)/);
		expect(ctx.sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/pricing', 'GET /v1/balance']);
	});

	test('an estimate exactly at the balance is sent; a balance a hundredth of a cent under it sends nothing', async () => {
		ctx.sim.setBalance('token', { remain: 0.045 });
		const at = await run(image('gpt-image-2', { spendGuard: { checkBalance: 'token' } }));
		expect(at.error).toBeUndefined();
		expect(posts()).toHaveLength(3);
		ctx.fresh();
		ctx.sim.setBalance('token', { remain: 0.0449 });
		const under = await run(image('gpt-image-2', { spendGuard: { checkBalance: 'token' } }));
		expect(under.error.message).toBe('Token balance 0.0449, this run needs about 0.045 USD — top up or lower the batch');
		expect(ctx.sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/pricing', 'GET /v1/balance']);
	});

	test('the user balance, in the gateway units per USD the user gives', async () => {
		ctx.sim.setBalance('user', { remain: 20000 });
		const result = await run(image('nano-banana', { waitForCompletion: false, spendGuard: { checkBalance: 'user', balanceUnitsPerUsd: 500000 } }));
		expect(result.error.message).toBe('User balance 20000, this run needs about 30000 (0.06 USD at 500000 per USD) — top up or lower the batch');
		expect(ctx.sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/pricing', 'GET /v1/user/balance']);
	});

	test('enough balance: the run goes on, and the summary has the balance before and after', async () => {
		ctx.sim.inject({ method: 'GET', path: '/v1/balance', status: 200, body: { success: true, remain_balance: 10, used_balance: 1, unlimited_quota: false } });
		ctx.sim.setBalance('token', { remain: 9.955 });
		const result = await run(image('gpt-image-2', { spendGuard: { checkBalance: 'token', maxRunCostUsd: 1 } }));
		expect(result.error).toBeUndefined();
		expect(posts()).toHaveLength(3);
		expect(ctx.sim.count('GET', '/v1/balance')).toBe(2);
		// Read once before the first submit, once after the last.
		const balanceReads = ctx.sim.requests.filter((r) => r.path === '/v1/balance').map((r) => r.at);
		const submits = posts().map((r) => r.at);
		expect(balanceReads[0]).toBeLessThanOrEqual(Math.min(...submits));
		expect(balanceReads[1]).toBeGreaterThanOrEqual(Math.max(...submits));
		expect(result.items[0].json.spendSummary).toMatchObject({ itemsSubmitted: 3, estimatedTotalUsd: 0.045, balanceType: 'token', balanceBefore: 10, balanceAfter: 9.955 });
		expect(customData(result).gateway_Gateway_spend).toBe('3 items submitted, about 0.045 USD; token balance 10 → 9.955');
	});

	test('unlimited quota passes, whatever the estimate', async () => {
		ctx.sim.setBalance('token', { unlimited: true });
		const result = await run(image('gpt-image-2', { resolution: '4k', spendGuard: { checkBalance: 'token' } }));
		expect(result.error).toBeUndefined();
		expect(posts()).toHaveLength(3);
		expect(result.items[0].json.spendSummary).toMatchObject({ balanceBefore: 'unlimited', itemsSubmitted: 3 });
	});

	test('a failing balance call does not block the run, and the summary says so', async () => {
		ctx.sim.setBalance('token', { message: 'token not found or deleted' });
		const result = await run(image('gpt-image-2', { spendGuard: { checkBalance: 'token' } }));
		expect(result.error).toBeUndefined();
		expect(posts()).toHaveLength(3);
		expect(result.items[0].json.spendSummary).toMatchObject({
			balanceBefore: null,
			balanceError: 'The balance could not be read, the run went on: The gateway could not read the token balance: token not found or deleted',
		});
		expect(customData(result).gateway_Gateway_spend).toBe('3 items submitted, about 0.045 USD; token balance not read');
	});

	test('a failing balance call stops the run when the user asks for that', async () => {
		ctx.sim.inject({ method: 'GET', path: '/v1/balance', status: 500, headers: { 'Retry-After': '0' }, times: Infinity });
		const result = await run(image('gpt-image-2', { spendGuard: { checkBalance: 'token', stopIfBalanceUnreadable: true } }));
		expect(result.error.message).toBe('Could not read the token balance before submitting: nothing was sent.');
		expect(result.error.description).toMatch(/Stop If Balance Cannot Be Read is on/);
		expect(posts()).toHaveLength(0);
	});

	test('over the cap: not even the balance is read', async () => {
		const result = await run(image('gpt-image-2', { spendGuard: { checkBalance: 'token', maxRunCostUsd: 0.01 } }));
		expect(result.error.message).toMatch(/over the Max Estimated Cost per Run of 0\.01 USD/);
		expect(besidesPrices()).toHaveLength(0);
	});
});

describe('video and unknown prices', () => {
	test('no price per second: the summary says plainly video cost is not estimated', async () => {
		const result = await run(video('sora-2', { videoSeconds_sora2: '12' }), { items: 2 });
		expect(result.error).toBeUndefined();
		expect(posts()).toHaveLength(2);
		expect(result.items[0].json.spendSummary).toMatchObject({
			itemsSubmitted: 2,
			estimatedTotalUsd: 0,
			// Unpriced is unknown, never "about 0 USD".
			text: '2 items submitted, cost unknown (2 not priced)',
			notEstimated: expect.stringMatching(/^Cost not estimated for 2 items \(sora-2\): 2 × sora-2 \(12 s\): video cost is not estimated \(no price per second given\)/),
		});
	});

	test('with a cap and no price, the guard refuses to guess unless unpriced items are allowed', async () => {
		const refused = await run(video('sora-2', { spendGuard: { maxRunCostUsd: 10 } }), { items: 2 });
		expect(besidesPrices()).toHaveLength(0);
		expect(refused.error.message).toBe('2 of 2 items have no known price, so the Max Estimated Cost per Run of 10 USD cannot be checked: nothing was sent.');
		expect(refused.error.description).toMatch(/Give a price for sora-2 \(Spend Guard → Video Prices per Second, for a video model\), or turn on Allow Unpriced Items/);

		const allowed = await run(video('sora-2', { spendGuard: { maxRunCostUsd: 10, allowUnpricedItems: true } }), { items: 2 });
		expect(allowed.error).toBeUndefined();
		expect(posts()).toHaveLength(2);
	});

	test('a price per second prices the requested length: over the cap nothing is sent, under it each item carries its cost', async () => {
		const prices = { videoPrices: { prices: [{ model: 'sora-2', usdPerSecond: 0.1 }] } };
		const over = await run(video('sora-2', { videoSeconds_sora2: '12', spendGuard: { maxRunCostUsd: 2, ...prices } }), { items: 2 });
		expect(besidesPrices()).toHaveLength(0);
		expect(over.error.message).toBe('Estimated cost 2.4 USD is over the Max Estimated Cost per Run of 2 USD: nothing was sent.');
		expect(over.error.description).toContain('2 × sora-2 (12 s) = 2.4 USD (0.1 USD per second)');

		// The model's default length (8 s) when the user leaves Seconds alone.
		const under = await run(video('sora-2', { spendGuard: { maxRunCostUsd: 2, ...prices } }), { items: 2 });
		expect(under.error).toBeUndefined();
		expect(posts()).toHaveLength(2);
		expect(under.items[0].json.estimatedCost).toMatchObject({ amount: 0.8, per: 'second', pricePerSecond: 0.1, seconds: 8 });
		expect(under.items[0].json.spendSummary).toMatchObject({ itemsSubmitted: 2, estimatedTotalUsd: 1.6 });
	});
});
