'use strict';
// Fault matrix: redirects and key forms × every submit route. A submit redirected elsewhere is
// never re-sent there; a key pasted with whitespace, quotes, `Bearer ` or full-width characters works
// on every route and shows up nowhere; one with a character no key has is refused before sending.
const { API_KEY, useSimulator } = require('../support');
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
