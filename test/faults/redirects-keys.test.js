'use strict';
// Fault matrix: redirects and key forms × every submit route. A submit redirected elsewhere is
// never re-sent there; a key pasted with whitespace works on every route and shows up nowhere.
const { API_KEY, useSimulator } = require('../support');
const { SUBMIT_ROUTES, runRoute, expectNoKey } = require('./runner');

const ctx = useSimulator({ scenario: { durationMs: 50 } });

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

	test.each([['a trailing newline', `${API_KEY}\n`], ['spaces and CRLF', `  ${API_KEY} \r\n`], ['a tab', `\t${API_KEY}`]])(
		'a key pasted with %s works and appears nowhere',
		async (_form, pasted) => {
			const run = await runRoute(route, { ...ctx.creds, apiKey: pasted });
			expect(run.result.items[0].json.error).toBeUndefined();
			expect(route.done(run.result.items[0].json)).toBeTruthy();
			const keyed = ctx.sim.requests.filter((r) => r.origin !== 'files');
			expect(keyed.length).toBeGreaterThan(0);
			expect(keyed.every((r) => r.authExact)).toBe(true);
			expectNoKey(run, ctx.sim);
		},
	);
});
