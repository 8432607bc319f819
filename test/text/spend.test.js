'use strict';
// Money for chats as everywhere (issue 55 item 4, issue 56 item 6; docs/gateway-contract.md §10.11):
// Text → Message a Model and the Analyze operations are billed calls, so the Spend Guard, the estimate
// and the run's summary apply. new-api prices a chat by tokens (model_ratio 1 = 2 USD per million input
// tokens, output × completion_ratio, × the key's group ratio): the estimate guesses the text at 4
// characters a token and the answer at its Maximum Number of Tokens, says it is a guess, and a chat
// without a bound cannot be judged by a cap. The charge comes from the relay's usage log, beside the
// estimate in the summary. Run through n8n's execution code against the simulator's plain new-api,
// whose price list gives text models model_ratio 1.25 and completion_ratio 4.
const { useSimulator } = require('../support');
const { runNode } = require('../harness');
const { MODEL, params } = require('./suite');

const ctx = useSimulator({ profile: 'plainNewApi' });
const chats = () => ctx.sim.count('POST', '/v1/chat/completions');
/** 400 characters: 100 tokens at 4 characters a token. */
const TEXT = 'a'.repeat(400);

async function chat(options = {}, count = 1, extra = {}) {
	return await runNode({
		parameters: params({ messages: { values: [{ role: 'user', content: TEXT }] }, options, ...extra }),
		credentials: ctx.creds,
		items: Array.from({ length: count }, () => ({ json: {} })),
	});
}

describe('a chat priced by tokens', () => {
	test('estimated from the price list as a guess, charged from the usage log, both in the summary', async () => {
		const result = await chat({ maxTokens: 100 }, 2);
		expect(result.error).toBeUndefined();
		// (100 input × 2.5 + 100 output × 10) USD per million, in the default group (ratio 1).
		for (const item of result.items) {
			expect(item.json.estimatedCost).toMatchObject({
				amount: 0.00125,
				currency: 'USD',
				source: "the gateway's price list",
				per: 'call',
				inputTokens: 100,
				maxOutputTokens: 100,
				inputUsdPerMillion: 2.5,
				outputUsdPerMillion: 10,
				groupRatio: 1,
				groupAssumed: true,
				note: expect.stringMatching(/^A guess: the gateway's token prices \(GET \/api\/pricing\)/),
			});
			expect(item.json.charge).toMatchObject({
				currency: 'USD',
				source: "the gateway's usage log (GET /api/log/token, the call's request id)",
			});
			expect(item.json.charge.amount).toBeGreaterThan(0);
		}
		const charged = result.items.reduce((sum, i) => sum + i.json.charge.amount, 0);
		expect(result.items[0].json.spendSummary).toMatchObject({
			itemsSubmitted: 2,
			estimatedTotalUsd: 0.0025,
			items: [`2 × ${MODEL} (≈100 input tokens + at most 100 output tokens) = 0.0025 USD (0.00125 USD per call)`],
			chargedTotalUsd: expect.closeTo(charged, 6),
			itemsCharged: 2,
			estimatedOfChargedUsd: 0.0025,
		});
		expect(chats()).toBe(2);
	});

	test('a cap below the estimate refuses the run before anything is sent', async () => {
		const result = await chat({ maxTokens: 100 }, 1, { spendGuard: { maxRunCostUsd: 0.001 } });
		expect(result.error.message).toBe(
			'Estimated cost 0.00125 USD is over the Max Estimated Cost per Run of 0.001 USD: nothing was sent.',
		);
		expect(chats()).toBe(0);
	});

	test('a key in a group at ratio 2, named in Key Group: twice the estimate', async () => {
		ctx.sim.setPricing({}, { groupRatio: { default: 1, vip: 2 } });
		ctx.sim.setKeyGroup('vip');
		const result = await chat({ maxTokens: 100 }, 1, { spendGuard: { keyGroup: 'vip' } });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.estimatedCost).toMatchObject({ amount: 0.0025, group: 'vip', groupRatio: 2, groupAssumed: false });
	});

	test('an answer without a bound cannot be judged: with a cap it is refused, saying what to add', async () => {
		const result = await chat({}, 1, { spendGuard: { maxRunCostUsd: 1 } });
		expect(result.error.message).toBe(
			'1 of 1 items have no known price, so the Max Estimated Cost per Run of 1 USD cannot be checked: nothing was sent.',
		);
		expect(`${result.error.message} ${result.error.description}`).toContain(
			"the answer's length is not bounded: add Options → Maximum Number of Tokens so that its cost can be judged",
		);
		expect(chats()).toBe(0);
	});

	test('without a cap the unbounded chat is sent, its estimate saying why it has none', async () => {
		const result = await chat();
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.estimatedCost).toEqual({
			amount: null,
			currency: 'USD',
			unpriced: "the answer's length is not bounded: add Options → Maximum Number of Tokens so that its cost can be judged",
		});
		expect(result.items[0].json.spendSummary.notEstimated).toMatch(/^Cost not estimated for 1 item \(gpt-5\.6-sol\): /);
		expect(result.items[0].json.spendSummary.notEstimated).not.toMatch(/Video/);
	});

	test('files are not counted, and said so', async () => {
		const result = await runNode({
			parameters: {
				resource: 'image',
				operation: 'analyze',
				modelId: { __rl: true, mode: 'id', value: MODEL },
				text: TEXT,
				inputType: 'url',
				urls: 'https://shop.example.com/a.png, https://shop.example.com/b.png',
				options: { maxTokens: 100 },
			},
			credentials: ctx.creds,
			items: [{ json: {} }],
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.estimatedCost).toMatchObject({ amount: 0.00125, inputTokens: 100 });
		expect(result.items[0].json.spendSummary.items).toEqual([
			`1 × ${MODEL} (≈100 input tokens + at most 100 output tokens, 2 files not counted) = 0.00125 USD (0.00125 USD per call)`,
		]);
	});
});
