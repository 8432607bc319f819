'use strict';
// The key's balance on the three builds (docs/gateway-contract.md §10.11): /v1/balance on the
// commercial build, the relay's quota routes on plain new-api and one-api, converted to USD with
// /api/status; read once per node run whatever the number of items (the quota route allows 20 reads
// per 20 minutes per IP), a 429 there reported once and not retried; the credential Test, the Spend
// Guard and the trigger's Balance Below on each build.
const { useSimulator } = require('../support');
const { runNode, pollTrigger, testCredential } = require('../harness');

const ctx = useSimulator({ scenario: { durationMs: 200 } });
const rl = (value) => ({ __rl: true, mode: 'id', value });
const balance = { resource: 'account', operation: 'getTokenBalance' };
const items = (n) => Array.from({ length: n }, () => ({ json: {} }));
const paths = () => ctx.sim.requests.map((r) => `${r.method} ${r.path}`);

async function tokenBalance(options = {}) {
	return await runNode({ parameters: balance, credentials: ctx.creds, items: items(options.items ?? 1), ...options.run });
}

describe('Account → Get Token Balance on each build', () => {
	test('commercial: GET /v1/balance, in the gateway’s own unit, as before', async () => {
		const result = await tokenBalance();
		expect(result.items[0].json).toMatchObject({ remainingBalance: 100.5, usedBalance: 12.25, source: 'GET /v1/balance', unit: 'as configured on the gateway (USD, CNY or tokens)' });
		expect(paths()).toEqual(['GET /v1/balance']);
	});

	test('plain new-api: /v1/balance is missing, the key’s quota comes from /api/usage/token/ in USD, once for three items', async () => {
		ctx.sim.setProfile('plainNewApi');
		ctx.sim.setSiteStatus({ quota_per_unit: 1000000 });
		const result = await tokenBalance({ items: 3 });
		expect(result.error).toBeUndefined();
		for (const item of result.items) {
			expect(item.json).toMatchObject({ remainingBalance: 100.5, usedBalance: 12.25, unit: 'USD', source: 'GET /api/usage/token/', summary: '100.5 USD remaining, 12.25 USD used' });
		}
		// The raw quota, as the relay counts it, converted by the site's own quota per unit.
		expect(result.items[0].json.raw.data.total_available).toBe(100500000);
		expect(ctx.sim.count('GET', '/api/usage/token/')).toBe(1);
		expect(ctx.sim.count('GET', '/api/status')).toBe(1);
		expect(ctx.sim.count('GET', '/v1/balance')).toBeLessThanOrEqual(3);
	});

	test('one-api: no /api/usage/token/, the billing routes answer: granted − used, in USD', async () => {
		ctx.sim.setProfile('oneApi');
		const result = await tokenBalance({ items: 2 });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ remainingBalance: 100.5, usedBalance: 12.25, unit: 'USD', source: 'GET /v1/dashboard/billing/subscription and …/usage' });
		expect(ctx.sim.count('GET', '/v1/dashboard/billing/subscription')).toBe(1);
		expect(ctx.sim.count('GET', '/v1/dashboard/billing/usage')).toBe(1);
		expect(ctx.sim.count('GET', '/api/usage/token/')).toBe(1);
	});

	test('a site that shows CNY: the billing routes’ amounts are turned into USD at its rate', async () => {
		ctx.sim.setProfile('plainNewApi');
		ctx.sim.setSiteStatus({ quota_display_type: 'CNY', usd_exchange_rate: 7.3 });
		ctx.sim.inject({ method: 'GET', path: '/api/usage/token/', status: 404, body: { error: { message: 'Invalid URL (GET /api/usage/token/)', type: 'invalid_request_error' } } });
		const result = await tokenBalance();
		expect(result.items[0].json).toMatchObject({ remainingBalance: 100.5, usedBalance: 12.25, unit: 'USD' });
	});

	test('/api/status unreadable: the quota stays in the gateway’s raw units and says why', async () => {
		ctx.sim.setProfile('plainNewApi');
		ctx.sim.inject({ method: 'GET', path: '/api/status', status: 200, body: '<html><body>Welcome</body></html>', headers: { 'Content-Type': 'text/html' } });
		const result = await tokenBalance();
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ remainingBalance: 50250000, unit: 'raw quota units of the gateway', note: expect.stringMatching(/^Not converted to USD: GET \/api\/status/) });
	});

	test('an unlimited key is unlimited on the quota route too', async () => {
		ctx.sim.setProfile('plainNewApi');
		ctx.sim.setBalance('token', { unlimited: true });
		const result = await tokenBalance();
		expect(result.items[0].json).toMatchObject({ unlimitedQuota: true, remainingBalance: 'unlimited' });
	});

	test('the quota route’s 429 is reported once, not retried: the billing routes answer, and the next run does not ask it again', async () => {
		ctx.sim.setProfile('plainNewApi');
		ctx.sim.inject({ method: 'GET', path: '/api/usage/token/', status: 429, body: '', times: Infinity });
		const first = await tokenBalance({ run: { credentialId: 'limited' } });
		expect(first.error).toBeUndefined();
		expect(first.items[0].json).toMatchObject({ remainingBalance: 100.5, source: 'GET /v1/dashboard/billing/subscription and …/usage', note: expect.stringMatching(/rate limited \(20 reads per 20 minutes per IP\)/) });
		expect(ctx.sim.count('GET', '/api/usage/token/')).toBe(1);
		const second = await tokenBalance({ run: { credentialId: 'limited' } });
		expect(second.items[0].json.source).toBe('GET /v1/dashboard/billing/subscription and …/usage');
		expect(ctx.sim.count('GET', '/api/usage/token/')).toBe(1);
		// A missing /v1/balance is remembered too: the second run did not ask for it again.
		expect(ctx.sim.count('GET', '/v1/balance')).toBe(1);
	});

	test('the simulator’s quota route really limits: its 21st read in 20 minutes is a 429', async () => {
		ctx.sim.setProfile('plainNewApi');
		for (let i = 0; i < 20; i++) await tokenBalance();
		expect(ctx.sim.count('GET', '/api/usage/token/')).toBe(20);
		const limited = await tokenBalance();
		expect(limited.items[0].json.source).toBe('GET /v1/dashboard/billing/subscription and …/usage');
		expect(ctx.sim.count('GET', '/api/usage/token/')).toBe(21);
	});

	test('none of the balance routes answers: one error naming each, and the Base URL to check', async () => {
		const result = await runNode({ parameters: balance, credentials: { ...ctx.creds, baseUrl: `${ctx.sim.mainUrl}/nothing-here/v1` } });
		expect(result.error.message).toBe('The gateway answered none of its balance routes for this key');
		expect(result.error.description).toMatch(/GET \/v1\/balance: HTTP 404[^]*GET \/api\/usage\/token\/: HTTP 404[^]*GET \/v1\/dashboard\/billing\/subscription: HTTP 404[^]*Check that the Base URL/);
	});

	test('User Balance on a build without it says to use the Token Balance', async () => {
		ctx.sim.setProfile('oneApi');
		const result = await runNode({ parameters: { resource: 'account', operation: 'getUserBalance' }, credentials: ctx.creds });
		expect(result.error.message).toBe('This gateway has no user balance route (GET /v1/user/balance answered 404)');
		expect(result.error.description).toMatch(/use Token Balance/);
	});
});

describe('the credential Test on each build', () => {
	test.each(['commercial', 'plainNewApi', 'oneApi'])('%s: a good key passes, a wrong key and a Base URL that is not the gateway fail', async (profile) => {
		ctx.sim.setProfile(profile);
		expect(await testCredential(ctx.creds)).toEqual({ status: 'OK', message: 'Connection successful!' });
		const wrongKey = await testCredential({ ...ctx.creds, apiKey: 'sk-wrong-key' });
		expect(wrongKey).toEqual({ status: 'Error', message: expect.stringMatching(/API key is invalid/) });
		const website = await testCredential({ ...ctx.creds, baseUrl: `${ctx.sim.filesUrl}/files` });
		expect(website.status).toBe('Error');
		expect(ctx.sim.find('GET', '/v1/models').map((r) => r.authValid)).toEqual([true, false]);
	});

	test('the relay’s own refusal of a key (new_api_error, code "") fails the Test, naming the key', async () => {
		ctx.sim.setProfile('plainNewApi');
		ctx.sim.inject({ method: 'GET', path: '/v1/models', status: 401, body: { error: { message: '无效的令牌', type: 'new_api_error', code: '' } } });
		const result = await testCredential(ctx.creds);
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/^The gateway refused this API key/) });
	});
});

describe('the Spend Guard’s balance check on each build', () => {
	const image = (guard) => ({ resource: 'image', operation: 'generate', modelId: rl('gpt-image-2'), prompt: 'a kite', download: false, spendGuard: guard });

	test('plain new-api: one quota read before the submits, none after (the route’s rate limit); USD needs no units per USD', async () => {
		ctx.sim.setProfile('plainNewApi');
		const result = await runNode({ parameters: image({ checkBalance: 'token', balanceUnitsPerUsd: 7 }), credentials: ctx.creds, items: items(2) });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.spendSummary).toMatchObject({
			balanceType: 'token',
			balanceBefore: 100.5,
			balanceSource: 'GET /api/usage/token/',
			balanceUnit: 'USD',
			balanceAfterError: 'Not read again after the run: GET /api/usage/token/ allows 20 reads per 20 minutes per IP',
		});
		expect(result.items[0].json.spendSummary.balanceUnitsPerUsd).toBeUndefined();
		expect(ctx.sim.count('GET', '/api/usage/token/')).toBe(1);
		const firstPost = ctx.sim.find('POST', '/v1/images/generations')[0].at;
		expect(ctx.sim.find('GET', '/api/usage/token/')[0].at).toBeLessThanOrEqual(firstPost);
	});

	test('plain new-api: a balance below the estimate stops the run before anything is billed, in USD', async () => {
		ctx.sim.setProfile('plainNewApi');
		ctx.sim.setBalance('token', { remain: 0.02 });
		const result = await runNode({ parameters: image({ checkBalance: 'token' }), credentials: ctx.creds, items: items(2) });
		expect(result.error.message).toBe('Token balance 0.02 USD, this run needs about 0.04 USD — top up or lower the batch');
		expect(ctx.sim.count('POST', '/v1/images/generations')).toBe(0);
	});

	test('one-api: the billing routes before and after the run, the call taken from the quota between', async () => {
		ctx.sim.setProfile('oneApi');
		const result = await runNode({ parameters: image({ checkBalance: 'token' }), credentials: ctx.creds });
		expect(result.error).toBeUndefined();
		// The simulator's relay charges gpt-image-2 0.02 per call (its own price, not the document's).
		expect(result.items[0].json.spendSummary).toMatchObject({
			balanceBefore: 100.5,
			balanceAfter: 100.48,
			balanceSource: 'GET /v1/dashboard/billing/subscription and …/usage',
		});
		expect(ctx.sim.count('GET', '/v1/dashboard/billing/subscription')).toBe(2);
	});

	test('a balance that cannot be read stops the run only with Stop If Balance Cannot Be Read', async () => {
		ctx.sim.setProfile('plainNewApi');
		for (const path of ['/api/usage/token/', '/v1/dashboard/billing/subscription']) ctx.sim.inject({ method: 'GET', path, status: 500, times: Infinity });
		const goesOn = await runNode({ parameters: image({ checkBalance: 'token' }), credentials: ctx.creds });
		expect(goesOn.error).toBeUndefined();
		expect(goesOn.items[0].json.spendSummary.balanceError).toMatch(/^The balance could not be read, the run went on: The gateway answered none of its balance routes/);
		const stops = await runNode({ parameters: image({ checkBalance: 'token', stopIfBalanceUnreadable: true }), credentials: ctx.creds });
		expect(stops.error.message).toBe('Could not read the token balance before submitting: nothing was sent.');
		expect(ctx.sim.count('POST', '/v1/images/generations')).toBe(1);
	});
});

describe('the trigger’s Balance Below on each build', () => {
	test.each(['plainNewApi', 'oneApi'])('%s: fires when the quota drops below the threshold, naming its source', async (profile) => {
		ctx.sim.setProfile(profile);
		const parameters = { event: 'balanceBelow', balanceType: 'token', threshold: 10 };
		// One context for every poll, as n8n polls an active workflow: each poll reads the quota anew.
		const activation = {};
		const poll = async () => (await pollTrigger({ parameters, credentials: ctx.creds, workflowId: `bal-${profile}`, activation })).result;
		expect(await poll()).toBeNull();
		ctx.sim.setBalance('token', { remain: 4.5 });
		const result = await poll();
		expect(result[0][0].json).toMatchObject({ remainingBalance: 4.5, belowThreshold: true, unit: 'USD' });
		expect(result[0][0].json.source).toMatch(profile === 'oneApi' ? /billing/ : /usage\/token/);
		const route = profile === 'oneApi' ? '/v1/dashboard/billing/subscription' : '/api/usage/token/';
		expect(ctx.sim.count('GET', route)).toBe(2);
	});
});
