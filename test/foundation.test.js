'use strict';
const { runNode, testCredential } = require('./harness');
const { API_KEY, useSimulator, visibleText } = require('./support');

const ctx = useSimulator();
const balance = { resource: 'account', operation: 'getTokenBalance' };

describe('credential', () => {
	test('the Test button says OK for a good key', async () => {
		expect(await testCredential(ctx.creds)).toEqual({ status: 'OK', message: 'Connection successful!' });
		const [request] = ctx.sim.find('GET', '/v1/models');
		expect(request.hasAuth && request.authValid).toBe(true);
	});

	test('the Test button fails for a bad key and says the key was refused', async () => {
		const result = await testCredential({ ...ctx.creds, apiKey: 'sk-wrong-key' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/the API key is invalid/);
	});

	test('the Test button fails for a base URL that is not the gateway', async () => {
		const result = await testCredential({ ...ctx.creds, baseUrl: `${ctx.sim.filesUrl}/files` });
		expect(result.status).toBe('Error');
	});

	test.each([['/v1'], ['/v1/'], [''], ['/'], ['//']])('base URL ending in %p reaches /v1/balance', async (suffix) => {
		const result = await runNode({ parameters: balance, credentials: { ...ctx.creds, baseUrl: ctx.sim.mainUrl + suffix } });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.remainingBalance).toBe(100.5);
		expect(ctx.sim.count('GET', '/v1/balance')).toBe(1);
	});

	test('the key is sent as a Bearer token', async () => {
		await runNode({ parameters: balance, credentials: ctx.creds });
		expect(ctx.sim.find('GET', '/v1/balance')[0].headers.authorization).toBe('Bearer ***ood');
	});
});

describe('error messages', () => {
	const rows = [
		['401 bad key', { status: 401 }, /rejected the API key \(401\)/, /Check the API Key/],
		['400 naming the field', { status: 400, body: { error: { message: 'invalid size 13x13', type: 'invalid_request_error', param: 'size', code: '' } } }, /rejected the field 'size'.*invalid size 13x13/, /Correct the parameter/],
		['400 naming the field in its text', { status: 400, body: { error: { message: 'image_size must be 1K, 2K or 4K', param: '' } } }, /field 'image_size'/, /image_size must be/],
		['403 insufficient_user_quota', { status: 403, body: { error: { message: 'user quota is not enough', type: 'new_api_error', code: 'insufficient_user_quota' } } }, /balance is too low/, /Top up/],
		['403 pre_consume_token_quota_failed', { status: 403, body: { error: { message: 'pre-consume failed', code: 'pre_consume_token_quota_failed' } } }, /balance is too low/, /pre-consume failed/],
		['503 No available channel', { status: 503, body: { error: { message: 'No available channel for model x under group default (request id: 1)', code: 'model_not_found' } } }, /not available to this API key's group \(No available channel\)/, /List Models/],
		['504 timeout', { status: 504, body: '' }, /timed out \(504\)/, /async model/],
		['429 with an empty body', { status: 429, body: '' }, /rate limiting requests \(429\)/, /Concurrency/],
		['500 do request failed', { status: 500, body: { error: { message: 'upstream error: do request failed', code: 'do_request_failed' } } }, /could not reach its upstream provider while checking the token balance \(do request failed\)/, /not a problem with your input/],
		['channel_circuit_open', { status: 503, body: { error: { message: 'channel_circuit_open: recovering, retry after 30s', code: 'channel_circuit_open' } } }, /retry after 30 s/, /recovery time/],
		['decode_input_reference_failed_at_index_N', { status: 400, body: { code: 'decode_input_reference_failed_at_index_1', message: 'decode failed', data: null } }, /reference image 2 \(index 1\)/, /JPEG, PNG or WebP/],
		['Uploaded file must be an image', { status: 400, body: { error: { message: 'Uploaded file must be an image' } } }, /could not read a reference image/, /JPEG, PNG or WebP/],
		['task_not_exist as 400', { status: 400, body: { code: 'task_not_exist', message: 'task_not_exist', data: null } }, /does not know this task while checking the token balance \(task_not_exist\)/, /same API key/],
		['empty body', { status: 502, body: '' }, /HTTP 502 with an empty body/, /no explanation/],
		['non-JSON body', { status: 500, body: 'upstream exploded' }, /failed \(HTTP 500\).*upstream exploded/, /Gateway said: upstream exploded/],
		['HTML error page', { status: 502, body: '<html><body>Bad gateway</body></html>' }, /HTTP 502 with an HTML page instead of JSON/, /Base URL/],
		['Chinese message', { status: 400, body: { error: { message: '提示词不能为空 prompt', param: 'prompt' } } }, /field 'prompt'.*提示词不能为空/, /提示词/],
	];

	test.each(rows)('%s', async (_name, fault, message, description) => {
		// Retry-After: 0 lets the GET retries of 429/5xx run at once; every attempt gets the fault.
		ctx.sim.inject({ method: 'GET', path: '/v1/balance', times: Infinity, headers: { 'Retry-After': '0' }, ...fault });
		const result = await runNode({ parameters: balance, credentials: ctx.creds });
		expect(result.items).toEqual([]);
		expect(result.error.message).toMatch(message);
		expect(result.error.description).toMatch(description);
		expect(visibleText(result)).not.toContain(API_KEY);
	});

	test('success: false with HTTP 200 is an error carrying the gateway message', async () => {
		ctx.sim.setBalance('token', { message: 'token not found or deleted' });
		const result = await runNode({ parameters: balance, credentials: ctx.creds });
		expect(result.error.message).toBe('The gateway could not read the token balance: token not found or deleted');
	});

	test('a connection refused names the failure, not the key', async () => {
		const result = await runNode({ parameters: balance, credentials: { ...ctx.creds, baseUrl: 'http://127.0.0.1:9/v1' } });
		expect(result.error.message).toMatch(/Could not reach the gateway while checking the token balance \(ECONNREFUSED\)/);
		expect(visibleText(result)).not.toContain(API_KEY);
	});

	test('with Continue On Fail the error becomes an item paired with its input', async () => {
		ctx.sim.inject({ method: 'GET', path: '/v1/balance', status: 401 });
		const result = await runNode({ parameters: balance, credentials: ctx.creds, continueOnFail: true, items: [{ json: {} }, { json: {} }] });
		expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(result.items[0].json.error).toMatch(/401/);
		expect(result.items[1].json.remainingBalance).toBe(100.5);
	});
});

describe('retries of idempotent reads', () => {
	test('a GET is retried after 429 and waits the Retry-After it was given', async () => {
		ctx.sim.inject({ method: 'GET', path: '/v1/balance', status: 429, headers: { 'Retry-After': '1' }, body: '' });
		const result = await runNode({ parameters: balance, credentials: ctx.creds });
		const [first, second] = ctx.sim.find('GET', '/v1/balance');
		expect(result.error).toBeUndefined();
		expect(ctx.sim.count('GET', '/v1/balance')).toBe(2);
		expect(second.at - first.at).toBeGreaterThanOrEqual(950);
		// …and not a multiple of it: on the simulator's clock (the harness's start-up does not count),
		// with 3× room for a loaded machine.
		expect(second.at - first.at).toBeLessThan(3 * 1000);
	});

	test('a Retry-After given as an HTTP date is honoured too', async () => {
		const when = new Date(Date.now() + 2000).toUTCString();
		ctx.sim.inject({ method: 'GET', path: '/v1/balance', status: 503, headers: { 'Retry-After': when } });
		const result = await runNode({ parameters: balance, credentials: ctx.creds });
		const [first, second] = ctx.sim.find('GET', '/v1/balance');
		expect(result.error).toBeUndefined();
		expect(second.at - first.at).toBeGreaterThanOrEqual(900);
	});

	test('a GET is retried after a dropped connection', async () => {
		ctx.sim.inject({ method: 'GET', path: '/v1/models', kind: 'drop' });
		const result = await runNode({ parameters: { resource: 'account', operation: 'listModels', modelGroup: 'video' }, credentials: ctx.creds });
		expect(result.error).toBeUndefined();
		expect(ctx.sim.count('GET', '/v1/models')).toBe(2);
		expect(result.items.map((i) => i.json.id)).toContain('sora-2');
	});

	test('retries are bounded: a gateway that keeps failing gives up with its message', async () => {
		ctx.sim.inject({ method: 'GET', path: '/v1/balance', status: 500, headers: { 'Retry-After': '0' }, times: Infinity });
		const result = await runNode({ parameters: balance, credentials: ctx.creds });
		expect(ctx.sim.count('GET', '/v1/balance')).toBe(5);
		expect(result.error.message).toMatch(/HTTP 500|do request failed/);
	});

	test('a 400 is not retried', async () => {
		ctx.sim.inject({ method: 'GET', path: '/v1/balance', status: 400, times: Infinity });
		await runNode({ parameters: balance, credentials: ctx.creds });
		expect(ctx.sim.count('GET', '/v1/balance')).toBe(1);
	});
});

describe('account', () => {
	test('unlimited quota is said plainly', async () => {
		ctx.sim.setBalance('user', { unlimited: true, used: 3 });
		const result = await runNode({ parameters: { resource: 'account', operation: 'getUserBalance' }, credentials: ctx.creds });
		expect(result.items[0].json).toMatchObject({ unlimitedQuota: true, remainingBalance: 'unlimited', summary: 'Unlimited quota (3 used)' });
		expect(ctx.sim.count('GET', '/v1/user/balance')).toBe(1);
	});

	test('list models classifies by the spec table before tags and names', async () => {
		const result = await runNode({ parameters: { resource: 'account', operation: 'listModels', modelGroup: 'all' }, credentials: ctx.creds });
		const type = Object.fromEntries(result.items.map((i) => [i.json.id, i.json.type]));
		expect(type).toMatchObject({ 'gpt-image-2': 'image', 'nano-banana': 'image', 'sora-2': 'video', 'gpt-5.6-sol': 'text' });
		expect(result.items.every((i) => i.pairedItem.item === 0)).toBe(true);
	});
});

describe('a billed submit is sent exactly once', () => {
	const generate = (model) => ({
		resource: 'image',
		operation: 'generate',
		modelId: { __rl: true, mode: 'id', value: model },
		prompt: 'a red bicycle',
		download: false,
		waiting: { pollIntervalSeconds: 0.1 },
	});

	test.each([
		['429 asking to wait longer than the node waits', { status: 429, headers: { 'Retry-After': '3600' }, body: '' }, /rate limiting.*\(created: no\)/],
		['500', { status: 500 }, /upstream provider|HTTP 500/],
		['502 HTML page', { status: 502, body: '<html>Bad gateway</html>' }, /HTML page/],
		['503 no channel', { status: 503, body: { error: { message: 'No available channel for model gpt-image-2 under group default', code: 'model_not_found' } } }, /Model 'gpt-image-2' is not available/],
		['504', { status: 504, body: '' }, /timed out \(504\)/],
		['a dropped connection', { kind: 'drop' }, /may have been created and billed/],
	])('after %s', async (_name, fault, message) => {
		ctx.sim.inject({ method: 'POST', path: '/v1/images/generations', times: Infinity, ...fault });
		const result = await runNode({ parameters: generate('gpt-image-2'), credentials: ctx.creds });
		expect(ctx.sim.count('POST', '/v1/images/generations')).toBe(1);
		expect(result.error.message).toMatch(message);
		expect(visibleText(result)).not.toContain(API_KEY);
	});

	test('a lost answer tells the user the task may exist, and Continue On Fail keeps the other items', async () => {
		ctx.sim.scenario('*', { durationMs: 200 });
		ctx.sim.inject({ method: 'POST', path: '/v1/images/generations', kind: 'drop' });
		const result = await runNode({
			parameters: generate('gpt-image-2-async'),
			credentials: ctx.creds,
			continueOnFail: true,
			items: [{ json: {} }, { json: {} }],
		});
		expect(ctx.sim.count('POST', '/v1/images/generations')).toBe(2);
		const [lost, done] = result.items.map((i) => i.json);
		expect(lost).toMatchObject({ created: 'unknown' });
		expect(lost.error).toMatch(/may have been created and billed/);
		expect(done.taskId).toMatch(/^task_/);
	});
});
