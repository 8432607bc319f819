'use strict';
// The spend guard's run (engine/spend/guard.ts) against a fake gateway (the context's request
// helper answers from a table; no HTTP, no n8n run): what it reads before the submits and after
// them, the refusals' words, and what the run's first item, the output pane's hint and custom data
// receive, for the cases the node runs rarely meet (an empty run, an earlier try's item taken up,
// a reading after the run that fails or turns unlimited, a hint of exactly 120 characters).
// spend.test.js, spend-summary.test.js and test/money/ run the same guard through n8n against the
// simulator.
//
// The modules are loaded afresh in each test (fresh-modules.js says why).
const { Readable } = require('node:stream');
const fresh = require('./fresh-modules').freshEachTest();
const guard = fresh(() => require('../dist/nodes/UnifiedAiGateway/engine/spend/guard.js'));
const summary = fresh(() => require('../dist/nodes/UnifiedAiGateway/engine/spend/summary.js'));

const NODE = { id: '1', name: 'Gateway', type: 'n8n-nodes-unified-ai-gateway.unifiedAiGateway', typeVersion: 1, position: [0, 0], parameters: {}, credentials: { unifiedAiGatewayApi: { id: '1', name: 'Gateway' } } };
const NOTE = 'The account plan and the gateway decide the final charge.';

const settings = (extra = {}) => ({ balanceUnitsPerUsd: 1, stopIfBalanceUnreadable: false, allowUnpriced: false, videoUsdPerSecond: {}, ...extra });
// An item's estimate is its own: `{ model, usd }` (usd null: no price).
const estimate = ({ model, usd }) => ({ model, detail: '', amountUsd: usd, ...(usd === null ? {} : { unitUsd: usd, per: 'image' }) });
const items = (...prepared) => prepared.map((p, itemIndex) => ({ itemIndex, prepared: p }));
const balance = (remain) => ({ status: 200, json: { success: true, remain_balance: remain, used_balance: 1 } });
const notFound = { status: 404, json: { error: { message: 'Invalid URL (GET /x)' } } };

/**
 * A context on a gateway whose answers are `answers[path]` (a list: one answer per request, the
 * last one repeated; `{ status, json }`), recording each request's path, the hints and custom data.
 */
function gateway(answers = {}) {
	const sent = [];
	const hints = [];
	const data = {};
	const count = {};
	const ctx = {
		getNode: () => NODE,
		getCredentials: async () => ({ baseUrl: 'https://gw.example.com', apiKey: 'sk-test' }),
		getExecutionCancelSignal: () => undefined,
		addExecutionHints: (...added) => hints.push(...added),
		customData: { set: (key, value) => (data[key] = value) },
		helpers: {
			httpRequestWithAuthentication: async (_type, options) => {
				const path = new URL(options.url).pathname;
				sent.push(path);
				const list = answers[path] ?? [notFound];
				const a = list[Math.min(count[path] ?? 0, list.length - 1)];
				count[path] = (count[path] ?? 0) + 1;
				return { statusCode: a.status, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from(JSON.stringify(a.json))]) };
			},
		},
	};
	return { ctx, sent, hints, data, balanceReads: () => sent.filter((p) => p !== '/api/pricing') };
}

const output = (n) => Array.from({ length: n }, () => ({ json: {} }));

describe('before the submits: the refusals', () => {
	test('over the balance: "Nothing was sent." first in the description, one item in the singular', async () => {
		const gw = gateway({ '/v1/balance': [balance(0.01)] });
		const run = guard.createSpendGuard(gw.ctx, () => settings({ balance: 'token' }), estimate);
		const refusal = await run.beforeSubmit(items({ model: 'gpt-image-2', usd: 0.04 }));
		expect(refusal.message).toBe('Token balance 0.01, this run needs about 0.04 USD — top up or lower the batch');
		expect(refusal.description).toBe("Nothing was sent. The run's 1 item: 1 × gpt-image-2 = 0.04 USD (0.04 USD per image).");
	});

	test('a cap with items of two models unpriced names both models', async () => {
		const gw = gateway();
		const run = guard.createSpendGuard(gw.ctx, () => settings({ capUsd: 1 }), estimate);
		const refusal = await run.beforeSubmit(items({ model: 'x-video', usd: null }, { model: 'y-video', usd: null }));
		expect(refusal.message).toBe('2 of 2 items have no known price, so the Max Estimated Cost per Run of 1 USD cannot be checked: nothing was sent.');
		expect(refusal.description).toMatch(/ Give a price for x-video, y-video \(Spend Guard/);
	});
});

describe('a run with nothing to submit', () => {
	test('(every item failed or was taken up from an earlier try): nothing read, no settings asked, no summary after it', async () => {
		const gw = gateway({ '/v1/balance': [balance(5)] });
		const readSettings = jest.fn(() => settings({ balance: 'token', capUsd: 1 }));
		const run = guard.createSpendGuard(gw.ctx, readSettings, estimate);
		expect(await run.beforeSubmit([])).toBeUndefined();
		const out = output(1);
		await run.afterRun(out, [0]);
		expect(readSettings).not.toHaveBeenCalled();
		expect(gw.sent).toEqual([]);
		expect(out).toEqual(output(1));
		expect(gw.hints).toEqual([]);
		expect(gw.data).toEqual({});
	});
});

describe('after the run: the summary, the balance read again, the hint', () => {
	test('an item submitted by an earlier try (taken up, never estimated) is not counted; the hint is info; the note', async () => {
		const gw = gateway();
		const run = guard.createSpendGuard(gw.ctx, () => settings(), estimate);
		await run.beforeSubmit([{ itemIndex: 1, prepared: { model: 'gpt-image-2', usd: 0.04 } }]);
		const out = output(2);
		await run.afterRun(out, [0, 1]);
		expect(out[0].json.spendSummary).toMatchObject({ itemsSubmitted: 1, estimatedTotalUsd: 0.04, itemsPlanned: 1, note: NOTE });
		expect(gw.hints).toEqual([{ message: 'Estimated spend: 1 item submitted, about 0.04 USD (details: spendSummary, first item)', type: 'info', location: 'outputPane' }]);
		expect(gw.data).toEqual({ gateway_Gateway_spend: '1 item submitted, about 0.04 USD' });
	});

	test("a charge the gateway reports far from the estimate: a warning beside the info hint, naming both", async () => {
		const gw = gateway();
		const run = guard.createSpendGuard(gw.ctx, () => settings(), estimate);
		await run.beforeSubmit(items({ model: 'gpt-image-2', usd: 0.04 }));
		const out = [{ json: { charge: { amount: 0.08, currency: 'USD', source: 'task' } }, pairedItem: { item: 0 } }];
		await run.afterRun(out, [0]);
		expect(gw.hints.map((h) => h.type)).toEqual(['info', 'warning']);
		expect(gw.hints[1]).toEqual({ message: expect.stringMatching(/^Charged 0\.08 USD, estimated 0\.04 USD \(.*\): the gateway's prices differ \(spendSummary\)$/), type: 'warning', location: 'outputPane' });
	});

	test('nothing submitted: the balance is read once, not again after the run', async () => {
		const gw = gateway({ '/v1/balance': [balance(5)] });
		const run = guard.createSpendGuard(gw.ctx, () => settings({ balance: 'token' }), estimate);
		await run.beforeSubmit(items({ model: 'gpt-image-2', usd: 0.04 }));
		const out = output(1);
		await run.afterRun(out, []);
		expect(gw.balanceReads()).toEqual(['/v1/balance']);
		expect(out[0].json.spendSummary).toMatchObject({ itemsSubmitted: 0, balanceBefore: 5 });
		expect(out[0].json.spendSummary).not.toHaveProperty('balanceAfter');
	});

	test('a balance that could not be read before the run is not read after it; the summary has no field left empty', async () => {
		const gw = gateway({ '/v1/balance': [{ status: 200, json: { success: false, message: 'token disabled' } }] });
		const run = guard.createSpendGuard(gw.ctx, () => settings({ balance: 'token' }), estimate);
		await run.beforeSubmit(items({ model: 'gpt-image-2', usd: 0.04 }));
		const out = output(1);
		await run.afterRun(out, [0]);
		expect(gw.balanceReads()).toEqual(['/v1/balance']);
		const got = out[0].json.spendSummary;
		expect(got.balanceError).toBe('The balance could not be read, the run went on: The gateway could not read the token balance: token disabled');
		expect(Object.keys(got).sort()).toEqual(['balanceBefore', 'balanceError', 'balanceType', 'estimatedTotalUsd', 'items', 'itemsPlanned', 'itemsSubmitted', 'note', 'plannedTotalUsd', 'text']);
	});

	test('read again after the run: unlimited by then', async () => {
		const gw = gateway({ '/v1/balance': [balance(5), { status: 200, json: { success: true, unlimited_quota: true } }] });
		const run = guard.createSpendGuard(gw.ctx, () => settings({ balance: 'token' }), estimate);
		await run.beforeSubmit(items({ model: 'gpt-image-2', usd: 0.04 }));
		const out = output(1);
		await run.afterRun(out, [0]);
		expect(gw.balanceReads()).toEqual(['/v1/balance', '/v1/balance']);
		expect(out[0].json.spendSummary).toMatchObject({ balanceBefore: 5, balanceAfter: 'unlimited', balanceSource: 'GET /v1/balance' });
		expect(Object.keys(out[0].json.spendSummary)).not.toContain('balanceAfterError');
		expect(Object.keys(out[0].json.spendSummary)).not.toContain('balanceNote');
	});

	test('read again after the run: the read fails, and the summary says why', async () => {
		const gw = gateway({ '/v1/balance': [balance(5), { status: 200, json: { success: false, message: 'token disabled' } }] });
		const run = guard.createSpendGuard(gw.ctx, () => settings({ balance: 'token' }), estimate);
		await run.beforeSubmit(items({ model: 'gpt-image-2', usd: 0.04 }));
		const out = output(1);
		await run.afterRun(out, [0]);
		expect(out[0].json.spendSummary).toMatchObject({ balanceBefore: 5, balanceAfterError: 'The gateway could not read the token balance: token disabled' });
		expect(out[0].json.spendSummary).not.toHaveProperty('balanceAfter');
	});

	test("the relay's quota route: its note carried into the summary, not read again after the run (20 reads per 20 minutes)", async () => {
		const gw = gateway({ '/api/usage/token/': [{ status: 200, json: { code: true, data: { total_available: 500000, total_used: 0 } } }] });
		const run = guard.createSpendGuard(gw.ctx, () => settings({ balance: 'token' }), estimate);
		await run.beforeSubmit(items({ model: 'gpt-image-2', usd: 0.04 }));
		const out = output(1);
		await run.afterRun(out, [0]);
		expect(gw.balanceReads().filter((p) => p === '/api/usage/token/')).toHaveLength(1);
		expect(out[0].json.spendSummary).toMatchObject({
			balanceBefore: 500000,
			balanceSource: 'GET /api/usage/token/',
			balanceNote: expect.stringMatching(/^Not converted to USD: /),
			balanceAfterError: 'Not read again after the run: GET /api/usage/token/ allows 20 reads per 20 minutes per IP',
		});
	});
});

describe("the output pane's hint: within n8n's 120 characters", () => {
	const line = 'Estimated spend: 1234 items submitted, about 15.185088 USD, charged 12345.123456 USD';
	test.each([
		['exactly 120 with the details: kept', { items: 1234, unpricedItems: 0, totalUsd: 15.185088 }, `${line} (details: spendSummary, first item)`],
		['121 with them: the line alone', { items: 12345, unpricedItems: 0, totalUsd: 15.185088 }, line.replace('1234 items', '12345 items')],
	])('%s', (_name, submitted, hint) => {
		const got = summary.spendHint(submitted, undefined, { items: 1, totalUsd: 12345.123456 });
		expect(got).toBe(hint);
		expect(got.length).toBeLessThanOrEqual(120);
	});
});
