'use strict';
// The spend guard's words, as the built engine/spend makes them (spend.test.js runs them through
// n8n against the simulator; here each case the runs rarely meet): the tally of a run per model and
// size, the summary's every field, the executions list's line and its custom-data key, and custom
// data that n8n refuses.
const { tally, usd } = require('../dist/nodes/UnifiedAiGateway/engine/spend/tally.js');
const { runSummary, spendHint, plannedText, customDataKey, writeCustomData } = require('../dist/nodes/UnifiedAiGateway/engine/spend/summary.js');

const NOTE = 'The account plan and the gateway decide the final charge.';
const priced = (model, detail, amountUsd, unitUsd = amountUsd, per = 'call') => ({ model, detail, amountUsd, unitUsd, per });
const unpriced = (model, detail, why, advice) => ({ model, detail, amountUsd: null, ...(why ? { unpriced: why } : {}), ...(advice ? { advice } : {}) });
const VIDEO_ADVICE = "Video is pre-charged by your site's price and the duration; give Spend Guard → Video Prices per Second to include it.";
const settings = (extra = {}) => ({ balanceUnitsPerUsd: 1, stopIfBalanceUnreadable: false, allowUnpriced: false, videoUsdPerSecond: {}, ...extra });

describe('tally: a run counted per model and size', () => {
	test('the same model and size are one line, the dearest line first; a unit price only when it has a unit', () => {
		const run = tally([
			priced('gpt-image-2', '1:1, 1K', 0.015),
			priced('nano-banana-pro', '1:1', 0.04),
			priced('gpt-image-2', '1:1, 1K', 0.015),
			{ model: 'flat', detail: '', amountUsd: 0.001 },
		]);
		expect(run).toEqual({
			fallbacks: [],
			sources: [],
			items: 4,
			totalUsd: 0.071,
			unpricedItems: 0,
			lines: ['1 × nano-banana-pro (1:1) = 0.04 USD (0.04 USD per call)', '2 × gpt-image-2 (1:1, 1K) = 0.03 USD (0.015 USD per call)', '1 × flat = 0.001 USD'],
			unpricedLines: [],
			unpricedModels: [],
			unpricedAdvice: [],
			// No item with its group assumed and a dearer one shown: the cap judges the estimate itself.
			capTotalUsd: 0.071,
			assumedGroups: [],
			dearestGroups: [],
		});
	});

	test('the key\'s group assumed: the cap judges each item at the dearest group shown, each group named once', () => {
		const assumed = { group: 'default', groupRatio: 1, groupAssumed: true };
		const run = tally([
			{ ...priced('gpt-image-2', '1:1', 0.061), ...assumed, dearest: { group: 'vip', ratio: 2 }, capUsd: 0.122 },
			{ ...priced('gpt-image-2', '1:1', 0.061), ...assumed, dearest: { group: 'vip', ratio: 2 }, capUsd: 0.122 },
			{ ...priced('flat', '', 0.01), ...assumed },
			unpriced('sora-2', '8 s'),
		]);
		expect(run).toMatchObject({
			totalUsd: 0.132,
			capTotalUsd: 0.254,
			assumedGroups: ['default (×1)'],
			dearestGroups: ['vip (×2)'],
		});
	});

	test('unpriced items: counted apart, with their reason or "no price", each model once', () => {
		const run = tally([unpriced('sora-2', '8 s', 'video cost is not estimated', VIDEO_ADVICE), unpriced('sora-2', '8 s', 'video cost is not estimated', VIDEO_ADVICE), unpriced('x-model', '')]);
		expect(run).toMatchObject({
			items: 3,
			totalUsd: 0,
			unpricedItems: 3,
			lines: [],
			unpricedLines: ['2 × sora-2 (8 s): video cost is not estimated', '1 × x-model: no price'],
			unpricedModels: ['sora-2', 'x-model'],
			// What would price them, once, and only where an estimate gives it (a chat's reason says its own).
			unpricedAdvice: [VIDEO_ADVICE],
		});
	});

	test('eight lines, then how many kinds more', () => {
		const run = tally(Array.from({ length: 10 }, (_, i) => priced(`m${i}`, '', (i + 1) / 1000)));
		expect(run.lines).toHaveLength(9);
		expect(run.lines[0]).toBe('1 × m9 = 0.01 USD (0.01 USD per call)');
		expect(run.lines[8]).toBe('… and 2 more kinds of item');
		expect(tally(Array.from({ length: 8 }, (_, i) => priced(`m${i}`, '', 0.001))).lines).toHaveLength(8);
	});

	test('totals are rounded to the millionth: 0.1 + 0.2 is 0.3 USD', () => {
		expect(tally([priced('a', '', 0.1), priced('b', '', 0.2)]).totalUsd).toBe(0.3);
		expect(usd(0.1 + 0.2)).toBe('0.3 USD');
	});
});

describe('the summary (spendSummary of the first item)', () => {
	const run = tally([priced('gpt-image-2', '1:1, 1K', 0.015)]);
	const two = tally([priced('gpt-image-2', '1:1, 1K', 0.015), unpriced('sora-2', '8 s', 'video cost is not estimated', VIDEO_ADVICE)]);

	test('one item, no cap, no balance: the fields and nothing else', () => {
		expect(runSummary({ planned: run, submitted: run, settings: settings() })).toEqual({
			text: '1 item submitted, about 0.015 USD',
			itemsSubmitted: 1,
			estimatedTotalUsd: 0.015,
			items: ['1 × gpt-image-2 (1:1, 1K) = 0.015 USD (0.015 USD per call)'],
			itemsPlanned: 1,
			plannedTotalUsd: 0.015,
			note: NOTE,
		});
	});

	test('a cap, the balance in units, read before and after, one item unpriced', () => {
		const reading = { kind: 'user', before: 500000, after: 492500 };
		expect(runSummary({ planned: two, submitted: two, settings: settings({ capUsd: 1, balance: 'user', balanceUnitsPerUsd: 500000 }), reading })).toEqual({
			text: '2 items submitted, about 0.015 USD for 1 priced, cost unknown for 1 not priced; user balance 500000 → 492500',
			itemsSubmitted: 2,
			estimatedTotalUsd: 0.015,
			items: ['1 × gpt-image-2 (1:1, 1K) = 0.015 USD (0.015 USD per call)', '1 × sora-2 (8 s): video cost is not estimated'],
			itemsPlanned: 2,
			plannedTotalUsd: 0.015,
			notEstimated:
				"Cost not estimated for 1 item (sora-2): 1 × sora-2 (8 s): video cost is not estimated. Video is pre-charged by your site's price and the duration; give Spend Guard → Video Prices per Second to include it.",
			maxRunCostUsd: 1,
			balanceType: 'user',
			balanceBefore: 500000,
			balanceAfter: 492500,
			balanceUnitsPerUsd: 500000,
			note: NOTE,
		});
	});

	test('two unpriced items are "items"; a balance that could not be read, before and after', () => {
		const both = tally([unpriced('sora-2', '8 s', undefined, VIDEO_ADVICE), unpriced('veo-3.1-flash', '8 s', undefined, VIDEO_ADVICE)]);
		const summary = runSummary({ planned: both, submitted: both, settings: settings({ balance: 'token' }), reading: { kind: 'token', error: 'HTTP 500', afterError: 'HTTP 502' } });
		expect(summary.notEstimated).toMatch(/^Cost not estimated for 2 items \(sora-2, veo-3\.1-flash\): 1 × sora-2 \(8 s\): no price; 1 × veo-3\.1-flash \(8 s\): no price\. /);
		expect(summary).toMatchObject({
			text: '2 items submitted, cost unknown (2 not priced); token balance not read',
			balanceType: 'token',
			balanceBefore: null,
			balanceError: 'The balance could not be read, the run went on: HTTP 500',
			balanceAfterError: 'HTTP 502',
		});
		expect(summary).not.toHaveProperty('balanceAfter');
		expect(summary).not.toHaveProperty('balanceUnitsPerUsd');
	});

	test('a refused run: nothing submitted, and why', () => {
		const none = tally([]);
		const summary = runSummary({ planned: run, submitted: none, settings: settings({ capUsd: 0.01 }), refused: 'Estimated cost 0.015 USD is over …' });
		expect(summary).toMatchObject({ text: 'Nothing submitted: Estimated cost 0.015 USD is over …', itemsSubmitted: 0, itemsPlanned: 1, refused: 'Estimated cost 0.015 USD is over …' });
	});

	test('an unlimited balance reads as such', () => {
		const summary = runSummary({ planned: run, submitted: run, settings: settings({ balance: 'token' }), reading: { kind: 'token', before: 'unlimited' } });
		expect(summary.text).toBe('1 item submitted, about 0.015 USD; token balance unlimited');
	});
});

describe('the short lines', () => {
	test("the output pane's hint, singular and plural, unpriced and refused", () => {
		expect(spendHint(tally([priced('a', '', 0.5)]), undefined)).toBe('Estimated spend: 1 item submitted, about 0.5 USD (details: spendSummary, first item)');
		expect(spendHint(tally([priced('a', '', 0.5), unpriced('b', '')]), undefined)).toBe('Estimated spend: 2 items submitted, about 0.5 USD for 1 priced, cost unknown for 1 not priced');
		expect(spendHint(tally([]), 'over the cap')).toBe("Spend guard: nothing submitted (each item's error says why)");
	});

	test('what custom data says before the first submit', () => {
		expect(plannedText(tally([priced('a', '', 0.5)]))).toBe('Submitting 1 item, about 0.5 USD');
		expect(plannedText(tally([priced('a', '', 0.5), unpriced('b', ''), unpriced('c', '')]))).toBe('Submitting 3 items, about 0.5 USD for 1 priced, cost unknown for 2 not priced');
	});

	test('the custom-data key: the node name in the characters n8n keeps, at most 28 of them', () => {
		expect(customDataKey('Gateway')).toBe('gateway_Gateway_spend');
		expect(customDataKey('  Make pictures (batch #2)!  ')).toBe('gateway_Make_pictures_batch_2_spend');
		expect(customDataKey('画像')).toBe('gateway_node_spend');
		expect(customDataKey('A'.repeat(40))).toBe(`gateway_${'A'.repeat(28)}_spend`);
	});
});

describe('custom data', () => {
	const node = { name: 'My Gateway' };
	const context = (customData, proxied) => {
		const warnings = [];
		return {
			warnings,
			ctx: {
				...(customData ? { customData } : {}),
				getNode: () => node,
				getWorkflowDataProxy: () => ({ $execution: proxied ? { customData: proxied } : {} }),
				logger: { warn: (message) => warnings.push(message) },
			},
		};
	};

	test("on the context (n8n 2.x), cut to n8n's 255 characters", () => {
		const set = [];
		const { ctx } = context({ set: (key, value) => set.push([key, value]) });
		writeCustomData(ctx, 'x'.repeat(300));
		expect(set).toEqual([['gateway_My_Gateway_spend', 'x'.repeat(255)]]);
	});

	test('else on the expression proxy (n8n 1.x)', () => {
		const set = [];
		const { ctx } = context(undefined, { set: (key, value) => set.push([key, value]) });
		writeCustomData(ctx, 'hello');
		expect(set).toEqual([['gateway_My_Gateway_spend', 'hello']]);
	});

	test('refused by n8n (more than ten keys): a warning in the log, the run goes on', () => {
		const { ctx, warnings } = context({
			set: () => {
				throw new Error('Custom data can only have 10 keys');
			},
		});
		expect(() => writeCustomData(ctx, 'hello')).not.toThrow();
		expect(warnings).toEqual(["Could not write the spend summary to the execution's custom data: Custom data can only have 10 keys"]);
	});

	test('nowhere to write: nothing happens', () => {
		const { ctx, warnings } = context(undefined, undefined);
		expect(() => writeCustomData(ctx, 'hello')).not.toThrow();
		expect(warnings).toEqual([]);
	});
});

describe('where the prices come from', () => {
	test('sources by how many items each priced, most first; a price-list problem said once per reason, naming its models', () => {
		const run = tally([
			{ ...priced('a', '', 0.1), source: 'document', fallback: 'the price list has no a' },
			{ ...priced('a', '', 0.1), source: 'document', fallback: 'the price list has no a' },
			{ ...priced('b', '', 0.1), source: 'gateway' },
			{ ...unpriced('c', ''), fallback: 'the price list has no a' },
			{ ...unpriced('d', ''), fallback: 'the price list could not be read' },
		]);
		expect(run.sources).toEqual(["the document's list price", "the gateway's price list"]);
		expect(run.fallbacks).toEqual(['a, c: the price list has no a', 'd: the price list could not be read']);
		expect(runSummary({ planned: run, submitted: run, settings: settings() })).toMatchObject({
			priceSources: ["the document's list price", "the gateway's price list"],
			priceListProblems: ['a, c: the price list has no a', 'd: the price list could not be read'],
		});
		const plain = runSummary({ planned: tally([priced('a', '', 0.1)]), submitted: tally([priced('a', '', 0.1)]), settings: settings() });
		expect(plain).not.toHaveProperty('priceSources');
		expect(plain).not.toHaveProperty('priceListProblems');
	});

	test('the same model priced and unpriced are two lines', () => {
		const run = tally([priced('a', '', 0.1), unpriced('a', '', 'no size')]);
		expect(run.lines).toEqual(['1 × a = 0.1 USD (0.1 USD per call)']);
		expect(run.unpricedLines).toEqual(['1 × a: no size']);
	});

	test('the most-used source first whatever came first; the three sources in words', () => {
		// tally.js loaded inside the test: its words are a table built while the module loads, which
		// a mutation tool credits only to the tests during which it loaded.
		let fresh;
		jest.isolateModules(() => ({ tally: fresh } = require('../dist/nodes/UnifiedAiGateway/engine/spend/tally.js')));
		const run = fresh([
			{ ...priced('b', '', 0.1), source: 'gateway' },
			{ ...priced('a', '', 0.1), source: 'yours' },
			{ ...priced('a', '', 0.1), source: 'yours' },
			{ ...priced('c', '', 0.1), source: 'document' },
			{ ...priced('c', '', 0.1), source: 'document' },
			{ ...priced('c', '', 0.1), source: 'document' },
		]);
		expect(run.sources).toEqual(["the document's list price", 'your price per second (Spend Guard)', "the gateway's price list"]);
	});

	test('an item without a price is never counted into a priced line of the same model and unit', () => {
		const run = tally([priced('a', '', 0.1), { model: 'a', detail: '', amountUsd: null, unitUsd: 0.1, per: 'call' }]);
		expect(run.lines).toEqual(['1 × a = 0.1 USD (0.1 USD per call)']);
		expect(run.unpricedLines).toEqual(['1 × a: no price']);
		expect([run.totalUsd, run.unpricedItems]).toEqual([0.1, 1]);
	});

	test('equal totals keep the order they came in; a unit price needs both the price and the unit', () => {
		const run = tally([priced('x', '', 0.2), priced('y', '', 0.2), { model: 'z', detail: '', amountUsd: 0.2, unitUsd: 0.1 }, { model: 'w', detail: '', amountUsd: 0.2, per: 'call' }]);
		expect(run.lines).toEqual(['1 × x = 0.2 USD (0.2 USD per call)', '1 × y = 0.2 USD (0.2 USD per call)', '1 × z = 0.2 USD', '1 × w = 0.2 USD']);
	});
});

describe('the balance read as USD, and read once per run', () => {
	test('in USD: the unit on both amounts, its route and note; no units per USD', () => {
		const reading = { kind: 'token', before: 12.5, after: 12.485, inUsd: true, source: 'GET /api/usage/token/', note: 'converted from quota' };
		expect(runSummary({ planned: tally([priced('a', '', 0.015)]), submitted: tally([priced('a', '', 0.015)]), settings: settings({ balance: 'token', balanceUnitsPerUsd: 500000 }), reading })).toEqual({
			text: '1 item submitted, about 0.015 USD; token balance 12.5 USD → 12.485 USD',
			itemsSubmitted: 1,
			estimatedTotalUsd: 0.015,
			items: ['1 × a = 0.015 USD (0.015 USD per call)'],
			itemsPlanned: 1,
			plannedTotalUsd: 0.015,
			balanceType: 'token',
			balanceBefore: 12.5,
			balanceAfter: 12.485,
			balanceSource: 'GET /api/usage/token/',
			balanceUnit: 'USD',
			balanceNote: 'converted from quota',
			note: NOTE,
		});
	});

	test('an unlimited balance in USD has no unit; a route read once says why it was not read again', () => {
		const summary = runSummary({
			planned: tally([priced('a', '', 0.015)]),
			submitted: tally([priced('a', '', 0.015)]),
			settings: settings({ balance: 'token' }),
			reading: { kind: 'token', before: 'unlimited', inUsd: true, source: 'GET /api/usage/token/', rateLimited: true, afterSkipped: true },
		});
		expect(summary.text).toBe('1 item submitted, about 0.015 USD; token balance unlimited');
		expect(summary.balanceAfterError).toBe('Not read again after the run: GET /api/usage/token/ allows 20 reads per 20 minutes per IP');
	});
});

describe("the gateway's charge beside the estimate", () => {
	const { NOT_REPORTED } = require('../dist/nodes/UnifiedAiGateway/api/charges.js');
	const { tallyCharges, chargeText, chargeHint } = require('../dist/nodes/UnifiedAiGateway/engine/spend/charged.js');
	const out = (item, charge) => ({ json: charge === undefined ? {} : { charge }, pairedItem: { item } });
	const estimate = (amountUsd) => ({ model: 'm', detail: '', amountUsd });
	const charged = (items, totalUsd, compared, extra = {}) => ({ items, totalUsd, refunded: 0, unconverted: 0, notReported: 0, compared, ...extra });

	test("per submitted item once: USD counted, refunds apart, raw quota and \"not reported\" counted apart, the task's own amount first", () => {
		const output = [
			{ json: {} },
			out(0, { amount: 0.3, currency: 'USD' }),
			out(0, { amount: 0.3, currency: 'USD' }),
			out(1, { taskAmount: 0.2, amount: 0.9, currency: 'USD' }),
			out(2, { amount: 0, currency: 'USD', refunded: true }),
			out(3, { source: NOT_REPORTED }),
			out(4, { amount: 225000, currency: 'quota' }),
			out(5),
			out(6, { amount: 0.1, currency: 'USD' }),
			out(7, { amount: 5, currency: 'USD' }),
			out(8, 'free'),
		];
		const estimates = new Map([
			[0, estimate(0.25)],
			[1, estimate(0.1)],
			[2, estimate(0.1)],
			[6, estimate(null)],
		]);
		expect(tallyCharges(output, [0, 1, 2, 3, 4, 5, 6, 8], estimates)).toEqual({
			items: 4,
			totalUsd: 0.6,
			refunded: 1,
			unconverted: 1,
			notReported: 1,
			compared: { items: 2, estimatedUsd: 0.35, chargedUsd: 0.5 },
		});
	});

	test('sums are rounded to the millionth', () => {
		const tallied = tallyCharges([out(0, { amount: 0.1, currency: 'USD' }), out(1, { amount: 0.2, currency: 'USD' })], [0, 1], new Map([[0, estimate(0.1)], [1, estimate(0.2)]]));
		expect(tallied.totalUsd).toBe(0.3);
		expect(tallied.compared).toEqual({ items: 2, estimatedUsd: 0.3, chargedUsd: 0.3 });
	});

	test('the summary line: the charge, refunds, and the estimate of the items compared, by how much they differ', () => {
		expect(chargeText(charged(0, 0, { items: 0, estimatedUsd: 0, chargedUsd: 0 }))).toBeUndefined();
		expect(chargeText(charged(4, 0.6, { items: 2, estimatedUsd: 0.35, chargedUsd: 0.5 }, { refunded: 1 }))).toBe(
			'charged 0.6 USD for 4 items, 1 refunded (estimated 0.35 USD for 2 of them, +43 %)',
		);
		expect(chargeText(charged(1, 0.4, { items: 1, estimatedUsd: 0.5, chargedUsd: 0.4 }))).toBe('charged 0.4 USD for 1 item (estimated 0.5 USD, -20 %)');
		expect(chargeText(charged(1, 0.5, { items: 1, estimatedUsd: 0.5, chargedUsd: 0.501 }))).toBe('charged 0.5 USD for 1 item (estimated 0.5 USD)');
		expect(chargeText(charged(1, 0.2, { items: 0, estimatedUsd: 0, chargedUsd: 0 }))).toBe('charged 0.2 USD for 1 item');
		expect(chargeText(charged(1, 0.2, { items: 1, estimatedUsd: 0, chargedUsd: 0.2 }))).toBe('charged 0.2 USD for 1 item (estimated 0 USD)');
	});

	test("the output pane's warning: only beyond 20 % off the estimate, or a charge on an estimate of 0", () => {
		expect(chargeHint(charged(1, 0.2, { items: 0, estimatedUsd: 0, chargedUsd: 0 }))).toBeUndefined();
		expect(chargeHint(charged(1, 6, { items: 1, estimatedUsd: 5, chargedUsd: 6 }))).toBeUndefined();
		expect(chargeHint(charged(1, 4, { items: 1, estimatedUsd: 5, chargedUsd: 4 }))).toBeUndefined();
		expect(chargeHint(charged(1, 3.9, { items: 1, estimatedUsd: 5, chargedUsd: 3.9 }))).toBe(
			"Charged 3.9 USD, estimated 5 USD (-22 %): the gateway's prices differ (spendSummary)",
		);
		expect(chargeHint(charged(1, 7, { items: 1, estimatedUsd: 5, chargedUsd: 7 }))).toBe("Charged 7 USD, estimated 5 USD (+40 %): the gateway's prices differ (spendSummary)");
		expect(chargeHint(charged(1, 0.2, { items: 1, estimatedUsd: 0, chargedUsd: 0.2 }))).toBe("Charged 0.2 USD, estimated 0 USD: the gateway's prices differ (spendSummary)");
		expect(chargeHint(charged(1, 0, { items: 1, estimatedUsd: 0, chargedUsd: 0 }))).toBeUndefined();
	});

	test('in the summary and the hint: the charge, what was not reported or not converted', () => {
		const run = tally([priced('a', '', 0.015)]);
		const paid = charged(2, 0.03, { items: 1, estimatedUsd: 0.015, chargedUsd: 0.015 }, { notReported: 1, unconverted: 1 });
		expect(runSummary({ planned: run, submitted: run, settings: settings(), charged: paid })).toEqual({
			text: '1 item submitted, about 0.015 USD; charged 0.03 USD for 2 items (estimated 0.015 USD for 1 of them)',
			itemsSubmitted: 1,
			estimatedTotalUsd: 0.015,
			items: ['1 × a = 0.015 USD (0.015 USD per call)'],
			itemsPlanned: 1,
			plannedTotalUsd: 0.015,
			chargedTotalUsd: 0.03,
			itemsCharged: 2,
			estimatedOfChargedUsd: 0.015,
			chargeNotReported: 1,
			chargeNotConverted: 1,
			note: NOTE,
		});
		const uncompared = runSummary({ planned: run, submitted: run, settings: settings(), charged: charged(1, 0.03, { items: 0, estimatedUsd: 0, chargedUsd: 0 }) });
		expect(uncompared).toMatchObject({ chargedTotalUsd: 0.03, itemsCharged: 1 });
		expect(uncompared).not.toHaveProperty('estimatedOfChargedUsd');
		const none = runSummary({ planned: run, submitted: run, settings: settings(), charged: charged(0, 0, { items: 0, estimatedUsd: 0, chargedUsd: 0 }) });
		expect(Object.keys(none)).toEqual(['text', 'itemsSubmitted', 'estimatedTotalUsd', 'items', 'itemsPlanned', 'plannedTotalUsd', 'note']);
		expect(spendHint(run, undefined, paid)).toBe('Estimated spend: 1 item submitted, about 0.015 USD, charged 0.03 USD (details: spendSummary, first item)');
		expect(spendHint(run, undefined, charged(0, 0, { items: 0, estimatedUsd: 0, chargedUsd: 0 }))).toBe('Estimated spend: 1 item submitted, about 0.015 USD (details: spendSummary, first item)');
	});
});
