'use strict';
// Fault matrix: redirects and key forms × every submit route, and redirects × the GETs of the
// gateway (a task read, the balance, a download from the gateway's own origin). A submit redirected
// elsewhere is never re-sent there; a GET is followed, with the key only on the gateway's origins;
// a key pasted with whitespace, quotes, `Bearer ` or full-width characters works on every route and
// shows up nowhere; one with a character no key has is refused before sending.
const { API_KEY, useSimulator, createTask } = require('../support');
const { binaryBuffer } = require('../harness');
const { SUBMIT_ROUTES, runRoute, expectNoKey } = require('./runner');

const ctx = useSimulator({ scenario: { durationMs: 50 } });

/** Keys as people paste them (docs/gateway-contract.md §5): each is sent as exactly `Bearer sk-sim-good`. */
const PASTED = [
	['a trailing newline', `${API_KEY}\n`],
	['spaces and CRLF', `  ${API_KEY} \r\n`],
	['a tab', `\t${API_KEY}`],
	['a leading "Bearer "', `Bearer ${API_KEY}`],
	['"bearer " in lower case inside straight quotes', `"bearer ${API_KEY}"`],
	['curly quotes and a zero-width space around it', `\u200B\u201C${API_KEY}\u201D `],
	['full-width hyphens from a Chinese input method', API_KEY.replace(/-/g, '\uFF0D')],
	['full-width letters and a full-width space after it', `\uFF53\uFF4B-sim-good\u3000`],
];

/** Characters no gateway key has, left inside: named with their position, nothing sent. */
const REFUSED = [
	['an inner space', 'sk-sim good', /a space \(U\+0020\) at position 7 of 11/],
	['a zero-width space inside', 'sk-sim\u200Bgood', /a zero-width space \(U\+200B\) at position 7 of 11/],
	['an en dash', 'sk\u2013sim-good', /'\u2013' \(U\+2013\) at position 3 of 11/],
];

const REDIRECTS = [
	// 307/308 keep the method: the gateway did not process it here, so nothing was created.
	{ status: 307, created: 'no' },
	// 302 after a POST may be "processed, see over there": unknown.
	{ status: 302, created: 'unknown' },
];

describe.each(SUBMIT_ROUTES.map((r) => [r.name, r]))('%s', (_name, route) => {
	test.each(REDIRECTS.map((r) => [r.status, r]))('a submit redirected (%s) to another origin', async (_status, redirect) => {
		ctx.sim.redirect({ method: 'POST', path: route.path, origin: route.origin ?? 'main', to: 'files', status: redirect.status });
		const run = await runRoute(route, ctx.creds);
		const [item] = run.result.items;
		expect(ctx.sim.count('POST', route.path, route.origin ?? 'main')).toBe(1);
		expect(ctx.sim.requests.filter((r) => r.origin === 'files')).toEqual([]);
		expect(item.json.error).toMatch(new RegExp(`redirected the request to http://127\\.0\\.0\\.1:\\d+ \\(HTTP ${redirect.status}\\)`));
		if (route.billed) expect(item.json.created).toBe(redirect.created);
		expectNoKey(run, ctx.sim);
	});

	test.each(PASTED)('a key pasted with %s works and appears nowhere', async (_form, pasted) => {
		const run = await runRoute(route, { ...ctx.creds, apiKey: pasted });
		expect(run.result.items[0].json.error).toBeUndefined();
		expect(route.done(run.result.items[0].json)).toBeTruthy();
		const keyed = ctx.sim.requests.filter((r) => r.origin !== 'files');
		expect(keyed.length).toBeGreaterThan(0);
		expect(keyed.every((r) => r.authExact)).toBe(true);
		expectNoKey(run, ctx.sim);
		expectNoKey(run, ctx.sim, pasted);
	});

	test.each(REFUSED)('a key with %s is refused before anything is sent, naming the character, never the key', async (_form, pasted, named) => {
		const run = await runRoute(route, { ...ctx.creds, apiKey: pasted });
		const [item] = run.result.items;
		expect(item.json.error).toMatch(named);
		expect(item.json.error).toMatch(/^The API Key contains /);
		if (route.billed) expect(item.json.created).toBe('no');
		expect(ctx.sim.requests).toEqual([]);
		const visible = JSON.stringify(run.result.items.map((i) => i.json));
		for (const part of [pasted, 'sim good', 'sim\u200Bgood', 'sk–sim']) expect(visible).not.toContain(part);
		expectNoKey(run, ctx.sim);
	});
});

/*
 * The GETs: each redirected once to the same path on the gateway's origin (followed with the key:
 * the answer is read) and to another origin (followed without the key: a read finds nothing there,
 * a file arrives). [name, path of the GET on main, parameters, (json, binary) → what the user gets].
 */
const GET_ROUTES = [
	['a task read (Task → Get)', (id) => `/v1/images/generations/${id}`, (id) => ({ resource: 'task', operation: 'get', taskId: id, queryRoute: 'image' }), 'gpt-image-2-async'],
	['the balance (Account → Get Token Balance)', () => '/v1/balance', () => ({ resource: 'account', operation: 'getTokenBalance' }), undefined],
	['a download from the gateway origin (the video content route)', (id) => `/v1/videos/${id}/content`, (id) => ({ resource: 'task', operation: 'downloadResult', taskId: id, queryRoute: 'video', useContentRoute: true }), 'sora-2'],
];

describe.each(GET_ROUTES)('GET: %s', (name, pathOf, parametersOf, model) => {
	async function setUp() {
		ctx.sim.scenario('*', { durationMs: 0 });
		ctx.sim.setBalance('token', { remain: 42.5 });
		return model ? await createTask(ctx.sim, { model, ...(model === 'sora-2' ? { path: '/v1/videos', extra: { seconds: '8', size: '1280x720' } } : {}) }) : undefined;
	}
	const run = async (id) => await runRoute({ parameters: parametersOf(id) }, ctx.creds);
	const isMp4 = (buffer) => buffer.toString('ascii', 4, 8) === 'ftyp';

	test.each([301, 302, 307, 308])('redirected (%s) to the same path on the gateway origin: followed with the key, the answer read', async (status) => {
		const id = await setUp();
		const path = pathOf(id);
		ctx.sim.redirect({ method: 'GET', path, origin: 'main', to: 'main', status, times: 1 });
		const result = await run(id);
		const [item] = result.result.items;
		expect(item.json.error).toBeUndefined();
		const hops = ctx.sim.find('GET', path, 'main');
		expect(hops).toHaveLength(2);
		expect(hops.every((hop) => hop.authExact)).toBe(true);
		if (name.startsWith('a download')) expect(isMp4(await binaryBuffer(item.binary.data))).toBe(true);
		else if (id) expect(item.json.taskId).toBe(id);
		else expect(item.json.remainingBalance).toBe(42.5);
		expectNoKey(result, ctx.sim);
	});

	test.each([302, 307])('redirected (%s) to another origin: followed there without the key', async (status) => {
		const id = await setUp();
		const path = pathOf(id);
		const location = name.startsWith('a download') ? `/files/${id}.mp4` : path;
		ctx.sim.redirect({ method: 'GET', path, origin: 'main', to: 'files', location, status });
		const result = await run(id);
		const [item] = result.result.items;
		const [gateway] = ctx.sim.find('GET', path, 'main');
		expect(gateway.authExact).toBe(true);
		const elsewhere = ctx.sim.requests.filter((r) => r.origin === 'files');
		expect(elsewhere.map((r) => `${r.method} ${r.path}`)).toContain(`GET ${location}`);
		expect(elsewhere.every((r) => !r.hasAuth)).toBe(true);
		if (name.startsWith('a download')) expect(isMp4(await binaryBuffer(item.binary.data))).toBe(true);
		else expect(item.json.error).toBeDefined();
		expectNoKey(result, ctx.sim);
	});
});
