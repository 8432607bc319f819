'use strict';
// Text → Message a Model over several items: concurrent calls under the cap, outputs in input
// order with pairedItem, one failing item not hiding the others.
const { answerOf, useTextSuite } = require('./suite');

const { ctx, chat } = useTextSuite();

describe('several items', () => {
	const items = [0, 1, 2, 3].map((n) => ({ json: { q: `question ${n}` } }));
	const byExpression = { messages: { values: [{ role: 'user', content: '={{ $json.q }}' }] } };

	test('run concurrently, come out in input order with pairedItem', async () => {
		// Each answer held 1.5 s: a client sending one at a time could not start the next one sooner,
		// however busy the machine is.
		ctx.sim.inject({ path: '/v1/chat/completions', delayMs: 1500, times: 4 });
		const result = await chat({ ...byExpression, options: { concurrency: 5 } }, { items });
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.text)).toEqual(items.map((i) => answerOf(i.json.q)));
		expect(result.items.map((i) => i.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		const calls = ctx.sim.find('POST', '/v1/chat/completions');
		expect(calls).toHaveLength(4);
		// All four were in flight at once: the last arrived before the first answer was handed over
		// (an order on the simulator's clock; one at a time, each would arrive after the one before answered).
		expect(Math.max(...calls.map((r) => r.at))).toBeLessThan(Math.min(...calls.map((r) => r.answeredAt)));
	});

	test('the concurrency cap holds: 2 at a time', async () => {
		ctx.sim.inject({ path: '/v1/chat/completions', delayMs: 300, times: 4 });
		const result = await chat({ ...byExpression, options: { stream: true, concurrency: 2 } }, { items });
		expect(result.items.map((i) => i.json.text)).toEqual(items.map((i) => answerOf(i.json.q)));
		const arrivals = ctx.sim.find('POST', '/v1/chat/completions').map((r) => r.at).sort((a, b) => a - b);
		expect(arrivals[2] - arrivals[0]).toBeGreaterThanOrEqual(250);
		expect(result.durationMs).toBeGreaterThanOrEqual(600);
	});

	test('one failing item does not hide the others (Continue On Fail)', async () => {
		ctx.sim.inject({ path: '/v1/chat/completions', kind: 'breakStream' });
		const one = [{ json: { q: 'a' } }];
		const result = await chat({ ...byExpression, options: { stream: true, concurrency: 1 } }, { items: [...one, ...items.slice(1, 3)], continueOnFail: true });
		expect(result.items).toHaveLength(3);
		expect(result.items[0].json.error).toMatch(/cut off/);
		expect(result.items[1].json.text).toBe(answerOf('question 1'));
		expect(result.items[2].json.text).toBe(answerOf('question 2'));
		expect(result.items.map((i) => i.pairedItem.item)).toEqual([0, 1, 2]);
	});
});
