'use strict';
// Video → Generate: a submit is billed, so quota refusals, timeouts and lost answers are never
// resent and the item says the task may exist.
const { useVideoSuite } = require('./suite');

const { ctx, generate, submits } = useVideoSuite();

describe('money: quota, timeouts, lost answers', () => {
	test('insufficient_user_quota: "balance too low for the video pre-charge", sent once, not retried', async () => {
		ctx.sim.inject({ path: '/v1/video/generations', status: 403, body: { error: { message: 'user quota is not enough', type: 'new_api_error', code: 'insufficient_user_quota' } } });
		const result = await generate('sora-2');
		expect(result.error.message).toMatch(/balance too low for the video pre-charge \(insufficient_user_quota\)/);
		expect(result.error.description).toMatch(/Nothing was retried/);
		expect(submits()).toHaveLength(1);
		expect(ctx.sim.requests.filter((r) => r.method === 'GET' && r.path !== '/api/pricing')).toHaveLength(0);
	});

	test('a submit that times out is not repeated; the item says the task may exist', async () => {
		ctx.sim.inject({ path: '/v1/video/generations', kind: 'slow', delayMs: 2500 });
		const result = await generate('sora-2', { options: { submitTimeoutSeconds: 1 } }, { continueOnFail: true });
		const json = result.items[0].json;
		expect(json.error).toMatch(/No answer from the gateway within 1 s while submitting the video job: the job may have been created and billed/);
		expect(json.description).toMatch(/check the account's task list before running this item again/);
		expect(json.created).toBe('unknown');
		await new Promise((resolve) => setTimeout(resolve, 1700)); // the slow answer arrives: still no second submit
		expect(submits()).toHaveLength(1);
		expect(ctx.sim.requests.filter((r) => r.method === 'GET' && r.path !== '/api/pricing')).toHaveLength(0);
	});

	test('a dropped connection on submit fails the node naming the risk, with one POST', async () => {
		ctx.sim.inject({ path: '/v1/videos', kind: 'drop' });
		const result = await generate('veo-3.1-flash', { videoRoute: 'compatibility' });
		expect(result.error.message).toMatch(/while submitting the video job.*may have been created and billed/);
		expect(result.error.description).toMatch(/check the account's task list before running this item again/);
		expect(submits()).toHaveLength(1);
	});
});
