'use strict';
// The settled charge (docs/gateway-contract.md §10.11): a plain new-api's task record carries what
// the task cost (`quota`, raw units ÷ /api/status's quota_per_unit = USD; 0 after a failed task's
// refund). It goes on the item, beside the estimate in spendSummary and the execution's custom
// data, with a warning above the output when they differ by more than 20 %; where no answer
// carries a charge the item says "not reported".
const { useSimulator, createTask } = require('../support');
const { runNode, pollTrigger } = require('../harness');

const ctx = useSimulator({ scenario: { durationMs: 200 }, profile: 'plainNewApi' });
const rl = (value) => ({ __rl: true, mode: 'id', value });
const items = (n) => Array.from({ length: n }, () => ({ json: {} }));
const customData = (result) => result.run.data.resultData.metadata ?? {};

function video(model, extra = {}) {
	return { resource: 'video', operation: 'generate', modelId: rl(model), prompt: 'a paper boat', download: false, waiting: { pollIntervalSeconds: 0.1 }, ...extra };
}
async function run(parameters, options = {}) {
	return await runNode({ parameters, credentials: ctx.creds, items: items(options.items ?? 1), continueOnFail: options.continueOnFail });
}

describe('a finished task carries its settled charge', () => {
	test('Seedance on plain new-api: the charge in USD, from the task record, beside the estimate', async () => {
		ctx.sim.setPricing({ 'seedance-2.0': { model_price: 0.45 } });
		const result = await run(video('seedance-2.0'), { items: 2 });
		expect(result.error).toBeUndefined();
		for (const item of result.items) {
			expect(item.json.charge).toEqual({ amount: 0.45, currency: 'USD', quota: 225000, quotaPerUnit: 500000, source: "the gateway's task record (data.quota)" });
			expect(item.json.answeredBy).toBe('GET /v1/video/generations/{id}');
		}
		expect(result.items[0].json.spendSummary).toMatchObject({
			text: '2 items submitted, about 0.9 USD; charged 0.9 USD for 2 items (estimated 0.9 USD)',
			chargedTotalUsd: 0.9,
			itemsCharged: 2,
			estimatedOfChargedUsd: 0.9,
		});
		expect(customData(result).gateway_Gateway_spend).toBe('2 items submitted, about 0.9 USD; charged 0.9 USD for 2 items (estimated 0.9 USD)');
		// /api/status is read once for the run, not once per task.
		expect(ctx.sim.count('GET', '/api/status')).toBe(1);
		expect(result.hints.filter((h) => h.type === 'warning')).toEqual([]);
	});

	test('a Sora-style task billed by the second: seconds × price, in the site’s own quota unit', async () => {
		ctx.sim.setPricing({ 'sora-2': { model_price: 0.1 } });
		ctx.sim.setSiteStatus({ quota_per_unit: 1000000 });
		const result = await run(video('sora-2', { videoSeconds_sora2: '12' }));
		expect(result.items[0].json.charge).toMatchObject({ amount: 1.2, currency: 'USD', quota: 1200000, quotaPerUnit: 1000000 });
		expect(result.items[0].json.estimatedCost).toMatchObject({ amount: 1.2, per: 'second', seconds: 12 });
	});

	test('charged more than 20 % away from the estimate: a warning above the output says by how much', async () => {
		ctx.sim.setPricing({ 'seedance-2.0': { model_price: 0.4 } });
		ctx.sim.scenario('seedance-2.0', { durationMs: 200, chargeUsd: 0.6 });
		const result = await run(video('seedance-2.0'));
		expect(result.items[0].json.spendSummary.text).toBe('1 item submitted, about 0.4 USD; charged 0.6 USD for 1 item (estimated 0.4 USD, +50 %)');
		expect(result.hints).toContainEqual(expect.objectContaining({ type: 'warning', message: "Charged 0.6 USD, estimated 0.4 USD (+50 %): the gateway's prices differ (spendSummary)" }));
	});

	test('within 20 %: no warning', async () => {
		ctx.sim.setPricing({ 'seedance-2.0': { model_price: 0.4 } });
		ctx.sim.scenario('seedance-2.0', { durationMs: 200, chargeUsd: 0.45 });
		const result = await run(video('seedance-2.0'));
		expect(result.items[0].json.spendSummary.chargedTotalUsd).toBe(0.45);
		expect(result.hints.filter((h) => h.type === 'warning')).toEqual([]);
	});

	test('a failed task shows its refund: 0, and the summary counts it apart from the estimate', async () => {
		ctx.sim.scenario('seedance-2.0', { durationMs: 200, outcome: 'fail' });
		const result = await run(video('seedance-2.0'), { continueOnFail: true });
		expect(result.items[0].json).toMatchObject({ error: expect.stringMatching(/failed/), charge: { amount: 0, currency: 'USD', quota: 0, refunded: true, source: "the gateway's task record (data.quota)" } });
		expect(result.items[0].json.spendSummary).toMatchObject({ chargedTotalUsd: 0, itemsCharged: 1 });
		expect(result.items[0].json.spendSummary.text).toMatch(/charged 0 USD for 1 item, 1 refunded$/);
		expect(result.hints.filter((h) => h.type === 'warning')).toEqual([]);
	});

	test('/api/status unreadable: the charge stays in the gateway’s raw units and says why', async () => {
		ctx.sim.inject({ method: 'GET', path: '/api/status', status: 503, times: Infinity });
		const result = await run(video('seedance-2.0'));
		expect(result.items[0].json.charge).toMatchObject({ amount: 200000, currency: 'quota', quota: 200000, note: expect.stringMatching(/^In the gateway's raw quota units, not converted to USD: GET \/api\/status: HTTP 503/) });
		expect(result.items[0].json.spendSummary.chargeNotConverted).toBe(1);
	});

	test('Task → Get shows the charge of the task it reads', async () => {
		ctx.sim.setPricing({ 'seedance-2.0': { model_price: 0.3 } });
		ctx.sim.scenario('*', { durationMs: 0 });
		const id = await createTask(ctx.sim, { model: 'seedance-2.0', path: '/v1/video/generations' });
		const result = await runNode({ parameters: { resource: 'task', operation: 'get', taskId: id, queryRoute: 'generic' }, credentials: ctx.creds });
		expect(result.items[0].json.charge).toMatchObject({ amount: 0.3, currency: 'USD' });
	});
});

describe('every other item of a finished task carries its charge too', () => {
	const CHARGED = { amount: 0.3, currency: 'USD', quota: 150000, quotaPerUnit: 500000, source: "the gateway's task record (data.quota)" };
	const REFUNDED = { amount: 0, currency: 'USD', quota: 0, refunded: true, source: "the gateway's task record (data.quota)", note: 'The task failed and the gateway refunded it: nothing was charged.' };
	const videoTask = async () => await createTask(ctx.sim, { model: 'seedance-2.0', path: '/v1/video/generations' });

	test('the trigger’s Task Finished: each finished task its charge, a failed one its refund; the quota unit read once per poll', async () => {
		ctx.sim.setPricing({ 'seedance-2.0': { model_price: 0.3 } });
		ctx.sim.scenario('*', { durationMs: 0 });
		const done = [await videoTask(), await videoTask()];
		ctx.sim.scenario('*', { durationMs: 0, outcome: 'fail' });
		const failed = await videoTask();
		const parameters = { event: 'taskFinished', taskIds: [...done, failed].join('\n'), queryRoute: 'generic', includeFailures: true, download: true };
		const { result } = await pollTrigger({ parameters, credentials: ctx.creds, workflowId: 'charge-trigger' });
		const byId = Object.fromEntries(result[0].map((item) => [item.json.taskId, item]));
		for (const id of done) {
			expect(byId[id].json).toMatchObject({ state: 'succeeded', charge: CHARGED, answeredBy: 'GET /v1/video/generations/{id}' });
			expect(byId[id].binary.data.mimeType).toBe('video/mp4');
		}
		expect(byId[failed].json).toMatchObject({ state: 'failed', charge: REFUNDED });
		expect(ctx.sim.count('GET', '/api/status')).toBe(1);

		// Fetch Test Event: the first task as it stands, its charge with it.
		const manual = await pollTrigger({ parameters, credentials: ctx.creds, workflowId: 'charge-trigger-test-event', mode: 'manual' });
		expect(manual.result[0][0].json).toMatchObject({ taskId: done[0], charge: CHARGED });
	});

	test('the trigger: a quota unit that does not answer within the poll’s budget leaves the charge in raw units, and the poll ends', async () => {
		ctx.sim.setPricing({ 'seedance-2.0': { model_price: 0.3 } });
		ctx.sim.scenario('*', { durationMs: 0 });
		const id = await videoTask();
		ctx.sim.inject({ method: 'GET', path: '/api/status', kind: 'slow', delayMs: 600_000, times: Infinity });
		const poll = async () => (await pollTrigger({ parameters: { event: 'taskFinished', taskIds: id, queryRoute: 'generic' }, credentials: ctx.creds, workflowId: 'charge-budget', pollBudgetMs: 8000 })).result;
		const [[item]] = await poll();
		expect(item.json.charge).toMatchObject({ amount: 150000, currency: 'quota', quota: 150000, note: expect.stringMatching(/^In the gateway's raw quota units, not converted to USD: GET \/api\/status: no answer/) });
		// The read is left before the poll's 8 s are up (the answer is held 10 minutes): a poll that
		// waited for it would outlast the test's own timeout, so no clock is read here.
		expect(ctx.sim.find('GET', '/api/status')).toHaveLength(1);
		expect(await poll()).toBeNull();
	});

	test('Task → Download Result: its items carry the charge of the task read', async () => {
		ctx.sim.setPricing({ 'seedance-2.0': { model_price: 0.3 } });
		ctx.sim.scenario('*', { durationMs: 0 });
		const id = await videoTask();
		const result = await runNode({ parameters: { resource: 'task', operation: 'downloadResult', taskId: id, queryRoute: 'generic' }, credentials: ctx.creds });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({ taskId: id, charge: CHARGED });
		expect(result.items[0].binary.data.mimeType).toBe('video/mp4');
	});
});

describe('no answer carries a charge: "not reported", never a guess', () => {
	test('a synchronous image where no usage log names its call (the commercial build)', async () => {
		// On plain new-api the relay's usage log has its charge: test/money/sync-charges.test.js.
		ctx.sim.setProfile('commercial');
		const result = await runNode({ parameters: { resource: 'image', operation: 'generate', modelId: rl('gpt-image-2'), prompt: 'a fox', download: false }, credentials: ctx.creds, items: items(2) });
		expect(result.items[0].json.charge).toEqual({ amount: null, source: 'not reported', note: "A synchronous answer carries no charge; the gateway's usage log has it. See estimatedCost." });
		expect(result.items[0].json.spendSummary).toMatchObject({ chargeNotReported: 2 });
		expect(result.items[0].json.spendSummary.chargedTotalUsd).toBeUndefined();
	});

	test('a task on the commercial build (its /v1/tasks answer has no charge); no /api/status read for it', async () => {
		ctx.sim.setProfile('commercial');
		const result = await run(video('seedance-2.0'));
		expect(result.items[0].json.charge).toMatchObject({ amount: null, source: 'not reported' });
		expect(ctx.sim.count('GET', '/api/status')).toBe(0);
	});
});
