'use strict';
// Fault matrix, submit half: every submit fault × every submit route. Each row checks what the
// user gets, how many POSTs the gateway received, and that the key appears nowhere.
const { useSimulator } = require('../support');
const { SUBMIT_ROUTES, runRoute, expectNoKey } = require('./runner');

const ctx = useSimulator({ scenario: { durationMs: 50 } });

/** The routes answered at once, by their answer, not a task: what a fault means for each. */
const READ_AT_ONCE = ['chat', 'speech', 'transcribe', 'image analyze'];
const readAtOnce = (created) => Object.fromEntries(READ_AT_ONCE.map((name) => [name, created]));
const atOnce = (created) => ({ 'image sync': created, ...readAtOnce(created) });

/** `outcome`: 'done' (the item succeeds) or the created value its error item must carry. */
const FAULTS = [
	{ name: '429 with Retry-After', fault: { status: 429, headers: { 'Retry-After': '1' }, body: '' }, posts: 2, outcome: 'done' },
	{ name: '429 without Retry-After', fault: { status: 429, body: '' }, posts: 2, outcome: 'done' },
	{ name: '429 past the wait budget', fault: { status: 429, headers: { 'Retry-After': '3600' }, body: '' }, posts: 1, outcome: 'no' },
	// A 500 in the relay's words: a call answered at once is charged only when it succeeds, so it
	// cost nothing; a task submit's may have left a task behind.
	{ name: '500', fault: { status: 500 }, posts: 1, outcome: 'unknown', ...atOnce('no') },
	{ name: '503 HTML page', fault: { status: 503, body: '<html><body>down</body></html>' }, posts: 1, outcome: 'unknown' },
	{ name: 'reset after sending', fault: { kind: 'drop' }, posts: 1, outcome: 'unknown' },
	{ name: 'timeout', fault: { kind: 'slow', delayMs: 2500 }, posts: 1, outcome: 'unknown', needs: 'timeout' },
	// A chat, a speech or a transcript has no task id: a 200 we cannot read may or may not have billed.
	{ name: 'malformed 200', fault: { kind: 'malformed' }, posts: 1, outcome: 'yes', ...readAtOnce('unknown') },
	{ name: '200 without id', fault: { status: 200, body: { code: 200, msg: 'success', data: {} } }, posts: 1, outcome: 'yes', ...readAtOnce('unknown') },
];

const rows = [];
for (const route of SUBMIT_ROUTES) {
	for (const f of FAULTS) {
		if (f.needs && !route[f.needs]) continue;
		rows.push([route.name, f.name, route, f]);
	}
}

test.each(rows)('%s × %s', async (_route, _fault, route, f) => {
	ctx.sim.inject({ method: 'POST', path: route.path, origin: route.origin ?? 'main', ...f.fault });
	const run = await runRoute(route, ctx.creds, f.needs ? route[f.needs] : {});
	const [item] = run.result.items;
	expect(run.result.items).toHaveLength(1);
	expect(ctx.sim.count('POST', route.path, route.origin ?? 'main')).toBe(f.posts);
	if (f.outcome === 'done') {
		expect(item.json.error).toBeUndefined();
		expect(route.done(item.json)).toBeTruthy();
	} else {
		const created = f[route.name] ?? f.outcome;
		expect(item.json.error).toEqual(expect.any(String));
		// Uploads create no billed job: their errors make no created claim.
		if (route.billed) {
			expect(item.json.created).toBe(created);
			expect(item.json.error).toContain(`(created: ${created}`);
		}
		if (created === 'no') expect(JSON.stringify(item.json)).not.toMatch(/may have been|billed/);
	}
	expectNoKey(run, ctx.sim);
});
