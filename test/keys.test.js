'use strict';
// Where the API key goes (docs/gateway-contract.md §5): redirects, the gateway's own origins, redaction of
// every form of the key, and Base URL checks before anything is sent.
const { runNode, testCredential, binaryBuffer } = require('./harness');
const { API_KEY, useSimulator, createTask, visibleText } = require('./support');
const { captureLogs } = require('./faults/runner');

const ctx = useSimulator({ scenario: { durationMs: 50 } });
const balance = { resource: 'account', operation: 'getTokenBalance' };
const image = (model, extra = {}) => ({
	resource: 'image',
	operation: 'generate',
	modelId: { __rl: true, mode: 'id', value: model },
	prompt: 'a red bicycle',
	download: false,
	...extra, waiting: { pollIntervalSeconds: 0.1, ...extra?.waiting },
});
const isMp4 = (buffer) => buffer.toString('ascii', 4, 8) === 'ftyp';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function finishedVideo() {
	const taskId = await createTask(ctx.sim, { model: 'sora-2', path: '/v1/videos', extra: { seconds: '8', size: '1280x720' } });
	await sleep(150);
	return taskId;
}

describe('redirects never carry the key to another origin', () => {
	test('the grok content route redirected to a storage origin: followed without the key, the file arrives', async () => {
		const taskId = await finishedVideo();
		ctx.sim.redirect({ path: `/v1/videos/${taskId}/content`, origin: 'main', to: 'files', location: `/files/${taskId}.mp4` });
		const result = await runNode({
			parameters: { resource: 'task', operation: 'downloadResult', taskId, queryRoute: 'video', useContentRoute: true },
			credentials: ctx.creds,
		});
		expect(result.error).toBeUndefined();
		const [content] = ctx.sim.find('GET', `/v1/videos/${taskId}/content`);
		expect(content.hasAuth && content.authValid).toBe(true);
		const files = ctx.sim.requests.filter((r) => r.origin === 'files');
		expect(files.map((r) => r.path)).toEqual([`/files/${taskId}.mp4`]);
		expect(files[0].hasAuth).toBe(false);
		expect(isMp4(await binaryBuffer(result.items[0].binary.data))).toBe(true);
	});

	test('a redirect chain: the hop within the gateway origin keeps the key, the hop elsewhere drops it', async () => {
		ctx.sim.redirect({ path: '/v1/balance', origin: 'main', to: 'main', location: '/balance', status: 301 });
		ctx.sim.redirect({ path: '/balance', origin: 'main', to: 'files', location: '/v1/balance' });
		const result = await runNode({ parameters: balance, credentials: ctx.creds });
		expect(ctx.sim.find('GET', '/balance', 'main')[0].authValid).toBe(true);
		const [elsewhere] = ctx.sim.requests.filter((r) => r.origin === 'files');
		expect(elsewhere.path).toBe('/v1/balance');
		expect(elsewhere.hasAuth).toBe(false);
		expect(result.error).toBeDefined();
		expect(visibleText(result)).not.toContain(API_KEY);
	});

	test('a submit redirected to another origin is not re-sent there: nothing created, the user is told', async () => {
		ctx.sim.redirect({ path: '/v1/images/generations', method: 'POST', origin: 'main', to: 'files', status: 307 });
		const result = await runNode({ parameters: image('gpt-image-2-async'), credentials: ctx.creds, continueOnFail: true });
		expect(ctx.sim.requests.filter((r) => r.origin === 'files')).toHaveLength(0);
		expect(ctx.sim.count('POST', '/v1/images/generations')).toBe(1);
		expect(result.items[0].json).toMatchObject({ created: 'no' });
		expect(result.items[0].json.error).toMatch(/redirected the request to http:\/\/127\.0\.0\.1:\d+ \(HTTP 307\).*not followed \(created: no\)/);
	});
});

describe('the key goes to the origins of Base URL and Alt Base URL, and only there', () => {
	test('a result URL on the gateway origin is fetched with the key', async () => {
		const taskId = await finishedVideo();
		const resultUrl = `${ctx.sim.mainUrl}/v1/videos/${taskId}/content`;
		ctx.sim.inject({ method: 'GET', path: `/v1/tasks/${taskId}`, status: 200, body: { task_id: taskId, status: 'completed', progress: '100%', result_url: resultUrl } });
		const result = await runNode({ parameters: { resource: 'task', operation: 'downloadResult', taskId, queryRoute: 'generic' }, credentials: ctx.creds });
		expect(result.error).toBeUndefined();
		const [content] = ctx.sim.find('GET', `/v1/videos/${taskId}/content`);
		expect(content.authValid).toBe(true);
		expect(result.items[0].json.url).toBe(resultUrl);
		expect(isMp4(await binaryBuffer(result.items[0].binary.data))).toBe(true);
	});
});

describe('a key pasted with whitespace', () => {
	const pasted = `  ${API_KEY}\n`;
	const forms = [API_KEY, `Bearer ${API_KEY}`, JSON.stringify(pasted).slice(1, -1)];

	test('is trimmed before use: the gateway accepts it', async () => {
		const result = await runNode({ parameters: balance, credentials: { ...ctx.creds, apiKey: pasted } });
		expect(result.error).toBeUndefined();
		expect(await testCredential({ ...ctx.creds, apiKey: pasted })).toEqual({ status: 'OK', message: 'Connection successful!' });
		const sent = [...ctx.sim.find('GET', '/v1/balance'), ...ctx.sim.find('GET', '/v1/models')];
		expect(sent).toHaveLength(2);
		expect(sent.every((r) => r.authExact)).toBe(true);
	});

	test('is redacted in every form the gateway echoes, in outputs, errors and logs', async () => {
		const echo = `Invalid token ${API_KEY} (header "Bearer ${API_KEY}", raw ${JSON.stringify(pasted)})`;
		ctx.sim.inject({ method: 'POST', path: '/v1/images/generations', status: 401, body: { error: { message: echo, code: 'invalid_api_key' } } });
		ctx.sim.inject({ method: 'GET', path: '/v1/balance', status: 400, times: Infinity, body: { error: { message: echo } } });
		const logs = captureLogs();
		let results;
		try {
			results = [
				await runNode({ parameters: image('gpt-image-2-async'), credentials: { ...ctx.creds, apiKey: pasted }, continueOnFail: true }),
				await runNode({ parameters: balance, credentials: { ...ctx.creds, apiKey: pasted } }),
			];
		} finally {
			logs.restore();
		}
		const [submit, read] = results;
		expect(submit.items[0].json.error).toMatch(/rejected the API key \(401\).*\(created: no\)/);
		expect(submit.items[0].json.description).toMatch(/Invalid token \*\*\*/);
		expect(read.error.message).toMatch(/Invalid token \*\*\*/);
		const everything = [...results.map(visibleText), ...logs.lines].join('\n');
		for (const form of forms) expect(everything).not.toContain(form);
	});
});

describe('Base URL is checked before anything is sent', () => {
	const bad = [
		['a scheme other than http/https', 'baseUrl', 'ftp://gateway.example.com/v1', /^Base URL uses 'ftp:\/\/', which is not http or https/],
		['a query string', 'baseUrl', 'https://gateway.example.com/v1?token=1', /^Base URL contains a query string/],
		['user:pass@', 'baseUrl', 'https://me:secret@gateway.example.com/v1', /^Base URL contains a user name or password/],
		['an Alt Base URL with user:pass@', 'altBaseUrl', 'https://me:secret@alt.example.com', /^Alt Base URL contains a user name or password/],
		['an Alt Base URL that is not a URL', 'altBaseUrl', 'alt.example.com', /^Alt Base URL is not a URL/],
	];

	test.each(bad)('%s is refused naming the field, by the node and by the credential Test', async (_name, field, value, message) => {
		const credentials = { ...ctx.creds, [field]: field === 'baseUrl' ? value : value };
		const submit = await runNode({ parameters: image('gpt-image-2-async'), credentials, continueOnFail: true });
		expect(submit.items[0].json.error).toMatch(message);
		expect(submit.items[0].json).toMatchObject({ created: 'no' });
		expect(JSON.stringify(submit.items[0].json)).not.toMatch(/may have been|billed/);
		const test = await testCredential(credentials);
		expect(test.status).toBe('Error');
		expect(test.message).toMatch(message);
		expect(ctx.sim.requests).toHaveLength(0);
	});

	test('http:// on a host other than this machine works, but the credential Test warns', async () => {
		const credentials = { ...ctx.creds, baseUrl: 'http://gateway.invalid/v1' };
		const test = await testCredential(credentials);
		expect(test).toEqual({ status: 'Error', message: expect.stringMatching(/^Base URL uses http:\/\/ on a host that is not this machine.*Use https:\/\//) });
		const run = await runNode({ parameters: balance, credentials });
		expect(run.error.message).toMatch(/Could not reach the gateway/);
	});

	test('a request that never left the machine never says "may have been billed"', async () => {
		const result = await runNode({ parameters: image('gpt-image-2'), credentials: { ...ctx.creds, baseUrl: 'http://127.0.0.1:9/v1' }, continueOnFail: true });
		expect(result.items[0].json).toMatchObject({ created: 'no' });
		expect(result.items[0].json.error).toMatch(/ECONNREFUSED.*\(created: no\)/);
		expect(JSON.stringify(result.items[0].json)).not.toMatch(/may have been|billed/);
	});
});

describe('a key as people paste it (docs/gateway-contract.md §5), in the credential Test too', () => {
	test.each([
		['a leading "Bearer "', `Bearer ${API_KEY}`],
		['curly quotes', `\u201C${API_KEY}\u201D`],
		['full-width hyphens (a Chinese input method)', API_KEY.replace(/-/g, '\uFF0D')],
		['"Bearer " typed in full width', `\uFF22\uFF45\uFF41\uFF52\uFF45\uFF52 ${API_KEY}`],
	])('%s: the Test button sends exactly `Bearer <key>`', async (_name, pasted) => {
		expect(await testCredential({ ...ctx.creds, apiKey: pasted })).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(ctx.sim.find('GET', '/v1/models').map((r) => r.authExact)).toEqual([true]);
	});

	test('a space inside: the Test button names it and its position, sends nothing and never shows the key', async () => {
		const tested = await testCredential({ ...ctx.creds, apiKey: 'sk-sim good' });
		expect(tested.status).toBe('Error');
		expect(tested.message).toMatch(/^The API Key contains a space \(U\+0020\) at position 7 of 11/);
		expect(tested.message).not.toMatch(/sim good|sk-sim/);
		expect(ctx.sim.requests).toHaveLength(0);
	});

	test('every pasted form the gateway echoes is redacted: as pasted, unwrapped, folded, as a header', async () => {
		const pasted = ` \u201CBearer ${API_KEY.replace(/-/g, '\uFF0D')}\u201D\n`;
		const unwrapped = API_KEY.replace(/-/g, '\uFF0D');
		const echo = `bad token ${API_KEY} / ${unwrapped} / raw ${pasted.trim()} / header "Bearer ${API_KEY}"`;
		ctx.sim.inject({ method: 'POST', path: '/v1/images/generations', status: 401, body: { error: { message: echo, code: '' } } });
		const logs = captureLogs();
		let result;
		try {
			result = await runNode({ parameters: image('gpt-image-2-async'), credentials: { ...ctx.creds, apiKey: pasted }, continueOnFail: true });
		} finally {
			logs.restore();
		}
		expect(result.items[0].json.error).toMatch(/rejected the API key \(401\).*\(created: no\)/);
		expect(result.items[0].json.description).toMatch(/bad token \*\*\* \/ \*\*\* \/ raw \*\*\*/);
		const everything = [visibleText(result), ...logs.lines].join('\n');
		for (const form of [API_KEY, unwrapped, pasted.trim(), `Bearer ${API_KEY}`]) expect(everything).not.toContain(form);
	});
});

test("the credential's checks follow its values: one object changed after a request is checked again, so the key goes only where the new Base URL points", async () => {
	const path = require('node:path');
	const { UnifiedAiGatewayApi } = require(path.resolve(__dirname, '../dist/credentials/UnifiedAiGatewayApi.credentials.js'));
	const { authenticate } = new UnifiedAiGatewayApi();
	const credential = { baseUrl: 'https://gw.example.com/v1', altBaseUrl: '', apiKey: 'sk-first' };
	const sign = async (url) => (await authenticate(credential, { method: 'GET', url })).headers.Authorization;
	expect(await sign('https://gw.example.com/v1/models')).toBe('Bearer sk-first');
	credential.baseUrl = 'https://other.example.com';
	await expect(sign('https://gw.example.com/v1/models')).rejects.toThrow(/only sent to the origins of Base URL and Alt Base URL/);
	expect(await sign('https://other.example.com/v1/models')).toBe('Bearer sk-first');
	credential.apiKey = 'sk-second';
	expect(await sign('https://other.example.com/v1/models')).toBe('Bearer sk-second');
	credential.altBaseUrl = 'ftp://alt.example.com';
	await expect(sign('https://other.example.com/v1/models')).rejects.toThrow(/Alt Base URL uses 'ftp:\/\/'/);
});
