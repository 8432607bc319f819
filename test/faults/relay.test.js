'use strict';
// What gateways built on the open-source relay send beyond the spec's examples: result shapes
// (result.videos[].url[], result.video_url, upper-case words, b64_json, data: and relative URLs,
// a failure reason in result_url), a gateway without /v1/tasks, the gateway's words repeating the
// key, huge answers, and refusals sent with HTTP 200. Each row runs the node against the simulator.
const { runNode } = require('../harness');
const { useSimulator, createTask } = require('../support');
const { API_KEY, everythingVisible, captureLogs, sleep } = require('./pollMatrix');
const { pngFor } = require('../simulator/png');

const ctx = useSimulator({ scenario: { durationMs: 50 } });
const rl = (value) => ({ __rl: true, mode: 'id', value });

let logs;
beforeEach(() => (logs = captureLogs()));
afterEach(() => logs.restore());

const video = (extra = {}) => ({ resource: 'video', operation: 'generate', modelId: rl('sora-2'), prompt: 'waves', ...extra, waiting: { pollIntervalSeconds: 0.1, ...extra?.waiting } });
const syncImage = (extra = {}) => ({ resource: 'image', operation: 'generate', modelId: rl('gpt-image-2'), prompt: 'a red bicycle', ...extra, waiting: { pollIntervalSeconds: 0.1, ...extra?.waiting } });
const run = async (parameters, options = {}) => await runNode({ parameters, credentials: ctx.creds, continueOnFail: true, ...options });
const expectMp4 = (item) => expect(item.binary?.data?.mimeType).toBe('video/mp4');
const keyless = (result) => expect(everythingVisible(result, logs.lines)).not.toContain(API_KEY);

describe('result shapes read by one rule', () => {
	test.each([
		['result.videos[].url[] (url a list, as for images)', { videoResult: 'videos' }],
		['result.video_url', { videoResult: 'video_url' }],
		['upper-case COMPLETED with result.videos[]', { videoResult: 'videos', statusCase: 'upper' }],
	])('a unified video answered with %s finishes with its file', async (_name, scenario) => {
		ctx.sim.scenario('sora-2', { durationMs: 50, shape: 'A', ...scenario });
		const result = await run(video());
		expect(result.items[0].json.error).toBeUndefined();
		expect(result.items[0].json.state).toBe('succeeded');
		expect(result.items[0].json.url).toMatch(/\/files\/task_\w+\.mp4$/);
		expectMp4(result.items[0]);
	});

	test('b64_json in a sync answer becomes the binary; the item names it instead of copying it', async () => {
		const png = pngFor('inline', 32);
		ctx.sim.inject({ method: 'POST', path: '/v1/images/generations', status: 200, body: { created: 1, data: [{ b64_json: png.toString('base64'), revised_prompt: 'x' }] } });
		const result = await run(syncImage());
		const item = result.items[0];
		expect(item.json.error).toBeUndefined();
		expect(item.json.url).toMatch(/^data:image\/png;base64,… \(inline image\/png/);
		expect(item.binary.data.mimeType).toBe('image/png');
		expect(Buffer.from(item.binary.data.data, 'base64').equals(png)).toBe(true);
		expect(ctx.sim.requests.filter((r) => r.origin === 'files')).toEqual([]);
	});

	test('a data: URL in `url` becomes the binary', async () => {
		const png = pngFor('data-url', 16);
		ctx.sim.inject({ method: 'POST', path: '/v1/images/generations', status: 200, body: { created: 1, data: [{ url: `data:image/png;base64,${png.toString('base64')}` }] } });
		const result = await run(syncImage());
		expect(result.items[0].json.error).toBeUndefined();
		expect(Buffer.from(result.items[0].binary.data.data, 'base64').equals(png)).toBe(true);
	});

	test('a relative result URL resolves against the gateway origin (and gets the key there)', async () => {
		ctx.sim.inject({ method: 'POST', path: '/v1/images/generations', status: 200, body: { created: 1, data: [{ url: '/v1/results/relative-shot-1.png' }] } });
		const result = await run(syncImage());
		expect(result.items[0].json.error).toBeUndefined();
		expect(result.items[0].json.url).toBe(`${ctx.sim.mainUrl}/v1/results/relative-shot-1.png`);
		expect(result.items[0].binary.data.mimeType).toBe('image/png');
		const fetched = ctx.sim.requests.find((r) => r.path === '/v1/results/relative-shot-1.png');
		expect(fetched).toMatchObject({ origin: 'main', authValid: true });
	});

	test("a failed task's result_url holding text is its failure reason, not a URL", async () => {
		const id = await createTask(ctx.sim, { model: 'gpt-image-2-async' });
		ctx.sim.inject({ method: 'GET', path: `/v1/tasks/${id}`, status: 200, times: Infinity, body: { code: 'success', data: { task_id: id, status: 'FAILURE', progress: '100%', fail_reason: '', result_url: 'content policy violation' } } });
		const result = await run({ resource: 'task', operation: 'waitForCompletion', taskId: id, queryRoute: 'generic', waiting: { pollIntervalSeconds: 0.1 } }, { items: [{ json: {} }] });
		expect(result.items[0].json.error).toMatch(new RegExp(`Task ${id} failed: content policy violation`));
	});

	test('the relay\'s status words: NOT_START, SUBMITTED, IN_PROGRESS are waited on, SUCCESS finishes', async () => {
		const id = await createTask(ctx.sim, { model: 'gpt-image-2-async' });
		const url = `${ctx.sim.filesUrl}/files/${id}-1.png`;
		for (const status of ['NOT_START', 'SUBMITTED', 'unknown', 'IN_PROGRESS']) ctx.sim.inject({ method: 'GET', path: `/v1/tasks/${id}`, status: 200, body: { code: 'success', data: { task_id: id, status, progress: '30%' } } });
		ctx.sim.inject({ method: 'GET', path: `/v1/tasks/${id}`, status: 200, times: Infinity, body: { code: 'success', data: { task_id: id, status: 'SUCCESS', progress: '100%', result_url: url } } });
		const result = await run({ resource: 'task', operation: 'waitForCompletion', taskId: id, queryRoute: 'generic', waiting: { pollIntervalSeconds: 0.1 } }, { items: [{ json: {} }] });
		expect(result.items[0].json).toMatchObject({ state: 'succeeded', url });
		expect(ctx.sim.count('GET', `/v1/tasks/${id}`)).toBe(5);
	});
});

describe('a gateway without /v1/tasks', () => {
	test('a unified video falls back to GET /v1/video/generations/{id}, says so, keeps it for the run, and finishes with its file', async () => {
		ctx.sim.scenario('sora-2', { durationMs: 300, tasksRoute: 'none', videoSubmit: 'openai' });
		const result = await run(video(), { items: [{ json: {} }, { json: {} }] });
		expect(result.items.map((i) => i.json.error)).toEqual([undefined, undefined]);
		for (const item of result.items) {
			expect(item.json).toMatchObject({ state: 'succeeded', answeredBy: 'GET /v1/video/generations/{id}' });
			expectMp4(item);
		}
		const asked = (re) => ctx.sim.requests.filter((r) => r.method === 'GET' && re.test(r.path)).length;
		// /v1/tasks answered Invalid URL once per task at most; every later poll went to the route that answered.
		expect(asked(/^\/v1\/tasks\//)).toBeLessThanOrEqual(2);
		expect(asked(/^\/v1\/video\/generations\//)).toBeGreaterThanOrEqual(2);
		expect(ctx.sim.count('POST', '/v1/video/generations')).toBe(2);
	});
});

describe('the gateway\'s own words never show the key', () => {
	test('a task failure reason that repeats the key is redacted in the error, the log and custom data', async () => {
		ctx.sim.scenario('sora-2', { durationMs: 50, outcome: 'fail', failMessage: `upstream refused Authorization: Bearer ${API_KEY} (key ${API_KEY})` });
		const result = await run(video());
		expect(result.items[0].json.error).toMatch(/upstream refused Authorization: \*\*\*/);
		keyless(result);
	});

	test('Task → Get: `raw` that repeats the key is redacted', async () => {
		const id = await createTask(ctx.sim, { model: 'gpt-image-2-async' });
		ctx.sim.inject({ method: 'GET', path: `/v1/tasks/${id}`, status: 200, body: { task_id: id, status: 'in_progress', debug: { auth: `Bearer ${API_KEY}`, raw: ` ${API_KEY}\n` } } });
		const result = await run({ resource: 'task', operation: 'get', taskId: id, queryRoute: 'generic' });
		expect(result.items[0].json.raw.debug.auth).toBe('***');
		keyless(result);
	});

	test('submitResponse that repeats the key is redacted; a huge one is cut to 64 KB with a note', async () => {
		ctx.sim.inject({ method: 'POST', path: '/v1/video/generations', status: 200, body: { task_id: 'task_echo1', status: 'queued', echo: `Bearer ${API_KEY}` } });
		const echoed = await run(video({ waitForCompletion: false }));
		expect(echoed.items[0].json.submitResponse.echo).toBe('***');
		keyless(echoed);
		ctx.fresh();
		ctx.sim.inject({ method: 'POST', path: '/v1/video/generations', status: 200, body: { task_id: 'task_huge1', status: 'queued', padding: 'x'.repeat(2 * 1024 * 1024) } });
		const huge = await run(video({ waitForCompletion: false }), { items: [{ json: {} }] });
		const response = huge.items[0].json.submitResponse;
		expect(response).toMatchObject({ truncated: true });
		expect(response.note).toMatch(/first 65536/);
		expect(JSON.stringify(huge.items[0].json).length).toBeLessThan(80 * 1024);
	});
});

describe('a refusal sent with HTTP 200 is "created: no"', () => {
	test.each([
		['success: false', { success: false, message: 'No available channel for model sora-2 under group default' }, /not available|No available channel/],
		['code 500 with no task id', { code: 500, msg: 'upstream busy, try later', data: null }, /upstream busy/],
		['an error object', { error: { message: 'quota exceeded for this key', type: 'new_api_error' } }, /quota exceeded/],
	])('%s', async (_name, body, words) => {
		ctx.sim.inject({ method: 'POST', path: '/v1/video/generations', status: 200, body });
		const result = await run(video());
		const json = result.items[0].json;
		expect(json.error).toMatch(words);
		expect(json.error).toMatch(/\(created: no\)/);
		expect(json.created).toBe('no');
		expect(json.created).toBe('no');
		expect(`${json.error} ${json.description}`).not.toMatch(/created: yes|do not run the item again/i);
		await sleep(10);
	});
});

describe("the relay's own texts, English and Chinese, read right (docs/gateway-contract.md §10.10)", () => {
	const { RELAY_TEXTS, byName, relayText, relayEnvelope, gbkBody } = require('../simulator/relay-texts');
	const notOffered = (reason) => new RegExp(`^Model 'sora-2' is not available to this API key's group \\(${reason}\\): the gateway does not offer it to this key`);
	/** What the user sees for each text of the relay, and whether a job was created ('resent': a 429, sent again and done). */
	const SEEN = {
		'token invalid': [/^The gateway rejected the API key \(401\)/, 'no'],
		'token not provided': [/^The gateway rejected the API key \(401\)/, 'no'],
		'token quota used up': [/^This API key's own quota at the gateway is used up \(401\)/, 'no'],
		'token expired': [/^This API key has expired at the gateway \(401\)/, 'no'],
		'token disabled': [/^This API key is disabled at the gateway \(401\)/, 'no'],
		'no channel (distributor)': [notOffered('No available channel'), 'no'],
		'no channel (older relays)': [notOffered('No available channel'), 'no'],
		'channel lookup failed': [notOffered('No available channel'), 'no'],
		'token may not use the model': [notOffered('the key may not use it'), 'no'],
		'group denied': [/^The gateway refused this API key's group \(403\)/, 'no'],
		'ip not allowed': [/^The gateway refused the request \(403\)/, 'no'],
		'user quota insufficient': [/^Gateway balance too low for the video pre-charge \(insufficient_user_quota\)/, 'no'],
		'pre-charge failed': [/^Gateway balance too low for the video pre-charge \(insufficient_user_quota\)/, 'no'],
		'token quota not enough': [/^Gateway balance too low for the video pre-charge \(pre_consume_token_quota_failed\)/, 'no'],
		'group saturated': [undefined, 'resent'],
		'model price unset': [/^The gateway has no price set for model 'sora-2', so it refused the request/, 'no'],
		'upstream says the model does not exist': [notOffered('model does not exist'), 'no'],
		'upstream unreachable': [/^The gateway could not reach its upstream provider while submitting the video job \(do request failed\)/, 'unknown'],
	};

	test('every text of the table has what the user sees', () => {
		expect(Object.keys(SEEN).sort()).toEqual(RELAY_TEXTS.map((t) => t.name).sort());
	});

	const rows = RELAY_TEXTS.flatMap((entry) => ['en', 'zh'].filter((language) => entry[language]).map((language) => [entry.name, language, entry]));

	test.each(rows)('%s (%s)', async (_name, language, entry) => {
		const text = relayText(entry, { language });
		ctx.sim.inject({ method: 'POST', path: '/v1/video/generations', status: entry.status, body: relayEnvelope(entry, text) });
		const result = await run(video({ waitForCompletion: false }));
		const [words, created] = SEEN[entry.name];
		const json = result.items[0].json;
		if (created === 'resent') {
			expect(json.error).toBeUndefined();
			expect(ctx.sim.count('POST', '/v1/video/generations')).toBe(2);
			return;
		}
		expect(json.error).toMatch(words);
		expect(json.created).toBe(created);
		expect(json.error).toMatch(new RegExp(`\\(created: ${created}\\)$`));
		// The gateway's own words, as it sent them.
		expect(json.description).toContain(text);
		expect(ctx.sim.count('POST', '/v1/video/generations')).toBe(1);
		keyless(result);
	});

	test.each(RELAY_TEXTS.filter((t) => t.gbk).map((t) => [t.name, t]))('%s, its body in GBK (charset=GBK): decoded and read right', async (_name, entry) => {
		ctx.sim.inject({ method: 'POST', path: '/v1/video/generations', status: entry.status, body: gbkBody(entry), headers: { 'Content-Type': 'application/json; charset=GBK' } });
		const result = await run(video({ waitForCompletion: false }));
		const [words, created] = SEEN[entry.name];
		expect(result.items[0].json.error).toMatch(words);
		expect(result.items[0].json.created).toBe(created);
		expect(result.items[0].json.description).toContain(relayText(entry, { language: 'zh' }));
	});

	test('a text/plain error body in GB18030 is shown decoded', async () => {
		const entry = byName('user quota insufficient');
		ctx.sim.inject({ method: 'POST', path: '/v1/video/generations', status: 403, body: Buffer.from(entry.gbk, 'hex'), headers: { 'Content-Type': 'text/plain; charset=gb18030' } });
		const result = await run(video({ waitForCompletion: false }));
		expect(result.items[0].json.error).toMatch(/^Gateway balance too low for the video pre-charge/);
		expect(result.items[0].json.description).toContain('Gateway said: "用户额度不足, 剩余额度: ＄0.000000"');
	});
});
