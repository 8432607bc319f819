'use strict';
// The spend guard's words, as the built engine/spend makes them (spend.test.js runs them through
// n8n against the simulator; here each case the runs rarely meet): the tally of a run per model and
// size, the summary's every field, the executions list's line and its custom-data key, and custom
// data that n8n refuses.
const { tally, usd } = require('../dist/nodes/UnifiedAiGateway/engine/spend/tally.js');
const { runSummary, spendHint, plannedText, customDataKey, writeCustomData } = require('../dist/nodes/UnifiedAiGateway/engine/spend/summary.js');

const NOTE = 'The account plan and the gateway decide the final charge.';
const priced = (model, detail, amountUsd, unitUsd = amountUsd, per = 'call') => ({ model, detail, amountUsd, unitUsd, per });
const unpriced = (model, detail, why) => ({ model, detail, amountUsd: null, ...(why ? { unpriced: why } : {}) });
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
		});
	});

	test('unpriced items: counted apart, with their reason or "no price", each model once', () => {
		const run = tally([unpriced('sora-2', '8 s', 'video cost is not estimated'), unpriced('sora-2', '8 s', 'video cost is not estimated'), unpriced('x-model', '')]);
		expect(run).toMatchObject({
			items: 3,
			totalUsd: 0,
			unpricedItems: 3,
			lines: [],
			unpricedLines: ['2 × sora-2 (8 s): video cost is not estimated', '1 × x-model: no price'],
			unpricedModels: ['sora-2', 'x-model'],
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
	const two = tally([priced('gpt-image-2', '1:1, 1K', 0.015), unpriced('sora-2', '8 s', 'video cost is not estimated')]);

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
		const both = tally([unpriced('sora-2', '8 s'), unpriced('veo-3.1-flash', '8 s')]);
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
