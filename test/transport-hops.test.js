'use strict';
// Where a request may go, on a fake context (no HTTP): the Base URL rule and the key's origins
// (urls.ts), and each hop of a redirect (send.ts: followed or returned, with the key or without,
// a POST kept or not, an address on this host refused). faults/redirects-keys.test.js and
// base-url-rule.test.js run the same rules through n8n against the simulator; this table holds
// their edges: each status, each way a Location or a Base URL is written.
//
// The modules are loaded afresh in each test (fresh-modules.js says why).
const fresh = require('./fresh-modules').freshEachTest();
const urls = fresh(() => require('../dist/nodes/UnifiedAiGateway/transport/urls.js'));
const send = fresh(() => require('../dist/nodes/UnifiedAiGateway/transport/send.js'));
const addresses = fresh(() => require('../dist/nodes/UnifiedAiGateway/transport/addresses.js'));

const ACCEPTS = 'use https://host[:port] with an optional path, for example https://gateway.example.com/v1';

describe('urls: the Base URL as users paste it', () => {
	test('the two fields, by the names the errors use', () => {
		expect(urls.BASE_URL_FIELDS).toEqual({ main: 'Base URL', alt: 'Alt Base URL' });
	});

	test.each([
		[' https://gw.example.com/v1/ ', 'https://gw.example.com'],
		['https://gw.example.com/V1', 'https://gw.example.com'],
		['https://gw.example.com///', 'https://gw.example.com'],
		['https://gw.example.com//v1', 'https://gw.example.com'],
		['https://gw.example.com///v1', 'https://gw.example.com'],
		['https://gw.example.com/relay/v1//', 'https://gw.example.com/relay'],
		['https://gw.example.com/v1beta', 'https://gw.example.com/v1beta'],
		['https://gw.example.com/v1/relay', 'https://gw.example.com/v1/relay'],
		[undefined, ''],
		[null, ''],
	])('%p → %p', (raw, origin) => {
		expect(urls.normaliseOrigin(raw)).toBe(origin);
	});

	test('the key goes to the origins of both fields, and only those', () => {
		expect([...urls.keyOrigins({ baseUrl: 'https://gw.example.com/v1', altBaseUrl: 'http://alt.example.com:8080/x/' })]).toStrictEqual([
			'https://gw.example.com',
			'http://alt.example.com:8080',
		]);
		// An empty or unreadable field adds nothing (toStrictEqual: not even an undefined).
		expect([...urls.keyOrigins({ baseUrl: 'https://gw.example.com', altBaseUrl: '' })]).toStrictEqual(['https://gw.example.com']);
		expect([...urls.keyOrigins({ baseUrl: 'not a url' })]).toStrictEqual([]);
		expect(urls.originsFrom({ baseUrl: 'https://gw.example.com/v1/', altBaseUrl: undefined })).toEqual({ main: 'https://gw.example.com', alt: '' });
	});

	test.each([
		['https://gw.example.com/x', true],
		['HTTP://gw.example.com', true],
		['/v1/videos/1', false],
		[' https://gw.example.com', false],
		['xhttps://gw.example.com', false],
		['ftp://gw.example.com', false],
	])('isAbsoluteUrl(%p): %p', (value, absolute) => {
		expect(urls.isAbsoluteUrl(value)).toBe(absolute);
	});

	test.each([
		['https://gw.example.com:8443/v1/x?y=1', 'https://gw.example.com:8443'],
		['data:text/plain,hello', undefined],
		['file:///etc/passwd', undefined],
		['not a url', undefined],
	])('originOf(%p): %p', (url, origin) => {
		expect(urls.originOf(url)).toBe(origin);
	});

	test.each([
		['localhost', true],
		['LocalHost', true],
		['app.localhost', true],
		['localhost.example.com', false],
		['[::1]', true],
		['::1', true],
		['127.0.0.1', true],
		['127.10.200.31', true],
		['1127.0.0.1', false],
		['127.0.0.1.example.com', false],
		['10.0.0.1', false],
		['gw.example.com', false],
	])('isLoopbackHost(%p): %p', (host, loopback) => {
		expect(urls.isLoopbackHost(host)).toBe(loopback);
	});
});

describe('urls: checkBaseUrl, what a Base URL may be', () => {
	test.each([
		['https://gw.example.com/v1', {}],
		['  https://gw.example.com  ', {}],
		['http://127.0.0.1:3000', {}],
		['http://localhost:3000/v1', {}],
		['http://gw.example.com', { insecure: true }],
	])('%p is used (%p)', (raw, flags) => {
		expect(urls.checkBaseUrl(raw, 'Base URL', true)).toEqual({ insecure: false, ...flags });
	});

	test.each([
		['', 'Base URL is empty: ' + ACCEPTS],
		['   ', 'Base URL is empty: ' + ACCEPTS],
		['gateway.example.com/v1', 'Base URL is not a URL: ' + ACCEPTS],
		['ftp://gw.example.com', "Base URL uses 'ftp://', which is not http or https: " + ACCEPTS],
		['https://user@gw.example.com', 'Base URL contains a user name or password (user:pass@): remove it; the API Key field is the only credential sent'],
		['https://:secret@gw.example.com', 'Base URL contains a user name or password (user:pass@): remove it; the API Key field is the only credential sent'],
		['https://gw.example.com/v1?region=eu', "Base URL contains a query string ('?…'): remove it; " + ACCEPTS],
		['https://gw.example.com/v1?', "Base URL contains a query string ('?…'): remove it; " + ACCEPTS],
		['https://gw.example.com/v1#top', "Base URL contains a fragment ('#…'): remove it; " + ACCEPTS],
		['https://gw.example.com/v1#', "Base URL contains a fragment ('#…'): remove it; " + ACCEPTS],
	])('%p is refused, naming the field', (raw, problem) => {
		expect(urls.checkBaseUrl(raw, 'Base URL', true)).toEqual({ problem });
	});

	test('an empty Alt Base URL is no problem; the field is named as given', () => {
		expect(urls.checkBaseUrl('', 'Alt Base URL', false)).toEqual({});
		expect(urls.checkBaseUrl(undefined, 'Alt Base URL', false)).toEqual({});
		expect(urls.checkBaseUrl('nope', 'Alt Base URL', false).problem).toBe('Alt Base URL is not a URL: ' + ACCEPTS);
	});
});

// ---- send.ts: each hop of a redirect ----

const GATEWAY = 'https://gw.example.com';
const ALT = 'https://alt.example.com';
const ELSEWHERE = 'https://203.0.113.7';

/** A body that records whether it was ended unread (send.ts discards a redirect's body). */
function body() {
	const stream = {
		ended: false,
		destroy() {},
		on() {},
		[Symbol.asyncIterator]() {
			return {
				next: async () => ({ done: true, value: undefined }),
				return: async () => {
					stream.ended = true;
					return { done: true, value: undefined };
				},
			};
		},
	};
	return stream;
}

/**
 * A context whose helpers answer from `answers` (URL → { statusCode, headers }), a 200 elsewhere,
 * and record each request: its URL, method, qs, whether n8n signed it, and the options and the
 * credential it was given.
 */
function fakeContext(answers, { fail } = {}) {
	const sent = [];
	const credential = { baseUrl: `${GATEWAY}/v1`, altBaseUrl: ALT, apiKey: 'sk-test' };
	const node = { name: 'Gateway', type: 'unifiedAiGateway', credentials: { unifiedAiGatewayApi: { id: '7', name: 'My gateway' } } };
	const signal = new AbortController().signal;
	const answer = (options, signed, extra) => {
		sent.push({ url: options.url, method: options.method, qs: options.qs, signed, options, ...extra });
		const failure = typeof fail === 'function' ? fail(options) : fail;
		if (failure) return Promise.reject(failure);
		const a = answers[options.url] ?? { statusCode: 200, headers: {} };
		return Promise.resolve({ body: body(), headers: a.headers, statusCode: a.statusCode });
	};
	const ctx = {
		getNode: () => node,
		getCredentials: async () => credential,
		getExecutionCancelSignal: () => signal,
		helpers: {
			httpRequest: (options) => answer(options, false),
			httpRequestWithAuthentication(type, options, signing) {
				return answer(options, true, { type, signing, self: this });
			},
		},
	};
	return { ctx, sent, signal, credential };
}

const ORIGINS = new Set([GATEWAY, ALT]);
const redirect = (statusCode, location) => ({ statusCode, headers: { location } });
const hops = (sent) => sent.map((s) => `${s.method ?? '-'} ${s.url}${s.signed ? ' (key)' : ''}`);

describe('send: following a redirect, hop by hop', () => {
	test('a GET is followed to the alt host with the key, the Location read relative to the hop; the body of each redirect is ended', async () => {
		const { ctx, sent } = fakeContext({
			[`${GATEWAY}/v1/videos/1`]: redirect(302, '  /v1/videos/1/content  '),
			[`${GATEWAY}/v1/videos/1/content`]: redirect(301, `${ALT}/files/1`),
		});
		const out = await send.sendFollowingRedirects(ctx, { url: `${GATEWAY}/v1/videos/1`, method: 'GET', qs: { a: '1' } }, ORIGINS);
		expect(hops(sent)).toEqual([`GET ${GATEWAY}/v1/videos/1 (key)`, `GET ${GATEWAY}/v1/videos/1/content (key)`, `GET ${ALT}/files/1 (key)`]);
		expect(sent.map((s) => s.qs)).toEqual([{ a: '1' }, undefined, undefined]);
		expect(out).toMatchObject({ statusCode: 200, url: `${ALT}/files/1` });
		expect(out.unfollowedRedirect).toBeUndefined();
	});

	test('a hop off the key origins goes without the key, with the execution\'s Stop signal; every hop asks n8n not to follow or forward the key', async () => {
		const { ctx, sent, signal, credential } = fakeContext({ [`${GATEWAY}/v1/videos/1/content`]: redirect(302, `${ELSEWHERE}/cdn/1.mp4?sig=abc`) });
		const out = await send.sendFollowingRedirects(ctx, { url: `${GATEWAY}/v1/videos/1/content` }, ORIGINS);
		expect(hops(sent)).toEqual([`- ${GATEWAY}/v1/videos/1/content (key)`, `- ${ELSEWHERE}/cdn/1.mp4?sig=abc`]);
		for (const s of sent) expect(s.options).toMatchObject({ disableFollowRedirect: true, sendCredentialsOnCrossOriginRedirect: false });
		expect(sent[1].options.abortSignal).toBe(signal);
		expect(sent[0].options.abortSignal).toBeUndefined();
		expect(sent[0].type).toBe('unifiedAiGatewayApi');
		expect(sent[0].self).toBe(ctx);
		expect(sent[0].signing).toEqual({ credentialsDecrypted: { id: '7', name: 'My gateway', type: 'unifiedAiGatewayApi', data: credential } });
		expect(out.url).toBe(`${ELSEWHERE}/cdn/1.mp4?sig=abc`);
	});

	test('the redirect\'s body is ended unread', async () => {
		const bodies = [];
		const { ctx } = fakeContext({});
		const inner = ctx.helpers.httpRequestWithAuthentication;
		ctx.helpers.httpRequestWithAuthentication = async function (...args) {
			const r = await inner.apply(this, args);
			bodies.push(r.body);
			return args[1].url.endsWith('/1') ? { ...r, ...redirect(302, '/v1/2') } : r;
		};
		await send.sendFollowingRedirects(ctx, { url: `${GATEWAY}/v1/1` }, ORIGINS);
		expect(bodies.map((b) => b.ended)).toEqual([true, false]);
	});

	test('at most 5 redirects are followed: the 6th answer is returned as it came', async () => {
		const answers = {};
		for (let i = 0; i < 8; i++) answers[`${GATEWAY}/v1/r${i}`] = redirect(302, `/v1/r${i + 1}`);
		const { ctx, sent } = fakeContext(answers);
		const out = await send.sendFollowingRedirects(ctx, { url: `${GATEWAY}/v1/r0`, method: 'GET' }, ORIGINS);
		expect(sent.map((s) => s.url)).toEqual([0, 1, 2, 3, 4, 5].map((i) => `${GATEWAY}/v1/r${i}`));
		expect(out).toMatchObject({ statusCode: 302, url: `${GATEWAY}/v1/r5` });
	});

	test.each([
		['a 3xx without a Location', { statusCode: 302, headers: {} }],
		['a blank Location', { statusCode: 302, headers: { location: '   ' } }],
		['a Location that is not text', { statusCode: 302, headers: { location: ['/v1/x'] } }],
		['no headers at all', { statusCode: 302, headers: undefined }],
		['a Location on a 200', { statusCode: 200, headers: { location: '/v1/x' } }],
		['a Location on a 304', { statusCode: 304, headers: { location: '/v1/x' } }],
	])('%s is returned as it came', async (_, answer) => {
		const { ctx, sent } = fakeContext({ [`${GATEWAY}/v1/a`]: answer });
		const out = await send.sendFollowingRedirects(ctx, { url: `${GATEWAY}/v1/a`, method: 'GET' }, ORIGINS);
		expect(sent).toHaveLength(1);
		expect(out).toMatchObject({ statusCode: answer.statusCode, url: `${GATEWAY}/v1/a` });
	});

	test.each([
		['GET', 302, GATEWAY, true],
		['HEAD', 302, ELSEWHERE, true],
		['POST', 307, ALT, true],
		['POST', 308, GATEWAY, true],
		['POST', 307, ELSEWHERE, false],
		['POST', 308, ELSEWHERE, false],
		['POST', 301, GATEWAY, false],
		['POST', 302, GATEWAY, false],
		['POST', 303, GATEWAY, false],
		['DELETE', 302, GATEWAY, false],
		['PUT', 307, GATEWAY, true],
	])('%s answered %p to %s: followed %p', async (method, status, to, followed) => {
		const { ctx, sent } = fakeContext({ [`${GATEWAY}/v1/a`]: redirect(status, `${to}/v1/b`) });
		const out = await send.sendFollowingRedirects(ctx, { url: `${GATEWAY}/v1/a`, method, body: { x: 1 } }, ORIGINS);
		if (followed) {
			expect(sent.map((s) => [s.method, s.url, s.options.body])).toEqual([
				[method, `${GATEWAY}/v1/a`, { x: 1 }],
				[method, `${to}/v1/b`, { x: 1 }],
			]);
			expect(out).toMatchObject({ statusCode: 200, url: `${to}/v1/b` });
			expect(out.unfollowedRedirect).toBeUndefined();
		} else {
			expect(sent).toHaveLength(1);
			expect(out).toMatchObject({ statusCode: status, url: `${GATEWAY}/v1/a`, unfollowedRedirect: `${to}/v1/b` });
		}
	});

	test('a Location is read trimmed of any white space, a no-break space (byte 0xA0) too', async () => {
		// The URL parser drops only ASCII spaces and controls at the ends; the rest would become %C2%A0.
		const { ctx, sent } = fakeContext({ [`${GATEWAY}/v1/a`]: redirect(302, '\u00a0/v1/b\u00a0') });
		await send.sendFollowingRedirects(ctx, { url: `${GATEWAY}/v1/a` }, ORIGINS);
		expect(sent.map((s) => s.url)).toEqual([`${GATEWAY}/v1/a`, `${GATEWAY}/v1/b`]);
	});

	test('a request without a method is a GET: its redirect is followed', async () => {
		const { ctx, sent } = fakeContext({ [`${GATEWAY}/v1/a`]: redirect(303, `${ELSEWHERE}/b`) });
		await send.sendFollowingRedirects(ctx, { url: `${GATEWAY}/v1/a` }, ORIGINS);
		expect(sent.map((s) => s.url)).toEqual([`${GATEWAY}/v1/a`, `${ELSEWHERE}/b`]);
	});
});

describe('send: where a hop may send n8n', () => {
	test('a redirect to this host is refused before it is sent, naming where it came from', async () => {
		const { ctx, sent } = fakeContext({ [`${GATEWAY}/v1/a`]: redirect(302, 'http://127.0.0.1:5678/rest/settings') });
		const error = await send.sendFollowingRedirects(ctx, { url: `${GATEWAY}/v1/a` }, ORIGINS).catch((e) => e);
		expect(error).toBeInstanceOf(addresses.RequestBlocked);
		expect(error.blocked).toEqual({ by: 'node', url: 'http://127.0.0.1:5678/rest/settings', host: '127.0.0.1:5678', kind: 'loopback', address: '127.0.0.1', settings: false, redirectedFrom: `${GATEWAY}/v1/a` });
		expect(sent).toHaveLength(1);
	});

	test('a first request off the key origins is checked too', async () => {
		const { ctx, sent } = fakeContext({});
		const error = await send.sendFollowingRedirects(ctx, { url: 'http://169.254.169.254/latest/meta-data' }, ORIGINS).catch((e) => e);
		expect(error).toBeInstanceOf(addresses.RequestBlocked);
		expect(error.blocked).toMatchObject({ kind: 'metadata', address: '169.254.169.254' });
		expect(error.blocked.redirectedFrom).toBeUndefined();
		expect(sent).toHaveLength(0);
	});

	test("the gateway's own origins are not: the Base URL is the user's choice, whatever its address", async () => {
		const { ctx, sent } = fakeContext({});
		const origins = new Set(['http://169.254.169.254']);
		const out = await send.sendFollowingRedirects(ctx, { url: 'http://169.254.169.254/v1/models' }, origins);
		expect(hops(sent)).toEqual(['- http://169.254.169.254/v1/models (key)']);
		expect(out.statusCode).toBe(200);
	});

	test("n8n's SSRF protection saying no becomes the node's refusal, naming the hop", async () => {
		const blocked = Object.assign(new Error('The request was blocked because it resolves to a restricted IP address'), { name: 'SsrfBlockedIpError', ip: '10.0.0.8' });
		const { ctx } = fakeContext({}, { fail: blocked });
		const error = await send.sendFollowingRedirects(ctx, { url: `${ELSEWHERE}/x.png` }, ORIGINS).catch((e) => e);
		expect(error).toBeInstanceOf(addresses.RequestBlocked);
		expect(error.blocked).toMatchObject({ by: 'n8n', url: `${ELSEWHERE}/x.png`, address: '10.0.0.8' });
		expect(error.blocked.redirectedFrom).toBeUndefined();
	});

	test("n8n's refusal of a redirect hop names the hop and where it came from", async () => {
		const blocked = Object.assign(new Error('The request was blocked because the destination hostname is restricted'), { hostname: 'files.internal' });
		const { ctx, sent } = fakeContext({ [`${GATEWAY}/v1/a`]: redirect(302, 'https://files.internal/1.png') }, { fail: (o) => (o.url.startsWith(GATEWAY) ? undefined : blocked) });
		const error = await send.sendFollowingRedirects(ctx, { url: `${GATEWAY}/v1/a` }, ORIGINS).catch((e) => e);
		expect(error).toBeInstanceOf(addresses.RequestBlocked);
		expect(error.blocked).toMatchObject({ by: 'n8n', url: 'https://files.internal/1.png', redirectedFrom: `${GATEWAY}/v1/a` });
		expect(sent).toHaveLength(2);
	});

	test('any other failure is passed on as it came', async () => {
		const failure = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
		const { ctx } = fakeContext({}, { fail: failure });
		await expect(send.sendFollowingRedirects(ctx, { url: `${GATEWAY}/v1/a` }, ORIGINS)).rejects.toBe(failure);
	});
});
