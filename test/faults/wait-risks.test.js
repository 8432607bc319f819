'use strict';
const path = require('node:path');
// What a gateway's drifting answers do to a wait (docs/gateway-contract.md §3, §10.12): the relay's
// other final words end it as failed with the gateway's word; a task flagged completed one read
// before its URL is written is read again before it is called failed; a signed link refused as
// expired is read again once for a fresh one; a Retry-After past the wait's end is "not soon".
const { runNode } = require('../harness');
const { useSimulator, createTask } = require('../support');

const ctx = useSimulator({ scenario: { durationMs: 50 } });
const queryOf = (id) => new RegExp(`/v1/images/generations/${id}$`);
const reads = (id) => ctx.sim.requests.filter((r) => queryOf(id).test(r.path)).length;

async function waitFor(taskId, extra = {}) {
	const result = await runNode({
		parameters: { resource: 'task', operation: 'waitForCompletion', taskId, queryRoute: 'image', ...extra, waiting: { pollIntervalSeconds: 0.1, ...extra.waiting } },
		credentials: ctx.creds,
		continueOnFail: true,
	});
	return result.items[0];
}

describe("the relay's other final words end the wait, with the gateway's word", () => {
	test.each(['timeout', 'TIMED_OUT', 'deleted', 'Rejected', 'upstream_failed', 'task-timeout'])('%s: failed at the first read that says it', async (word) => {
		const id = await createTask(ctx.sim);
		ctx.sim.inject({ path: queryOf(id), status: 200, body: { id, status: word }, times: Infinity });
		const item = await waitFor(id);
		expect(item.json.taskId).toBe(id);
		expect(item.json.error).toContain(`The gateway reported the task as ${word} without a reason`);
		expect(reads(id)).toBe(1);
	});

	test('a word on its way to an end (cancelling) is not an end: the wait goes on to the next word', async () => {
		const id = await createTask(ctx.sim);
		ctx.sim.inject({ path: queryOf(id), status: 200, body: { id, status: 'cancelling' } });
		ctx.sim.inject({ path: queryOf(id), status: 200, body: { id, status: 'cancelled' } });
		const item = await waitFor(id);
		expect(item.json.error).toContain('The gateway reported the task as cancelled without a reason');
		expect(reads(id)).toBe(2);
	});
});

describe('completed, but no URL yet', () => {
	test('one read says completed without a URL, the next names it: the file is the result', async () => {
		const id = await createTask(ctx.sim);
		ctx.sim.inject({ path: queryOf(id), status: 200, body: { id, status: 'completed', progress: '100%' } });
		const item = await waitFor(id, { download: true });
		expect(item.json.error).toBeUndefined();
		expect(item.json.state).toBe('succeeded');
		expect(item.binary.data.mimeType).toBe('image/png');
		expect(reads(id)).toBe(2);
	});

	test('completed without a URL, read after read: failed after 3 reads, saying so', async () => {
		const id = await createTask(ctx.sim);
		ctx.sim.inject({ path: queryOf(id), status: 200, body: { id, status: 'completed', progress: '100%' }, times: Infinity });
		const item = await waitFor(id);
		expect(item.json.error).toContain('The task is completed but the gateway gave no result URL, so there is nothing to download (read 3 times)');
		expect(reads(id)).toBe(3);
	});
});

describe('a signed link refused as expired inside a wait', () => {
	test('is read again once: the fresh link delivers the file', async () => {
		const id = await createTask(ctx.sim);
		const file = `${ctx.sim.filesUrl}/files/${id}-1.png`;
		ctx.sim.inject({ path: queryOf(id), status: 200, body: { id, status: 'completed', url: `${file}?X-Signature=old` } });
		ctx.sim.inject({ path: queryOf(id), status: 200, body: { id, status: 'completed', url: `${file}?X-Signature=fresh` } });
		ctx.sim.inject({ origin: 'files', path: `/files/${id}-1.png`, status: 403, headers: { 'Content-Type': 'application/xml' }, body: '<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>' });
		const item = await waitFor(id, { download: true });
		expect(item.json.error).toBeUndefined();
		expect(item.json.url).toBe(`${file}?X-Signature=fresh`);
		expect(item.binary.data.mimeType).toBe('image/png');
		expect(ctx.sim.requests.filter((r) => r.origin === 'files').map((r) => r.query['X-Signature'])).toEqual(['old', 'fresh']);
	});

	test('only once: a fresh link refused as expired too is the error, with the task id', async () => {
		const id = await createTask(ctx.sim);
		const file = `${ctx.sim.filesUrl}/files/${id}-1.png`;
		ctx.sim.inject({ path: queryOf(id), status: 200, body: { id, status: 'completed', url: `${file}?X-Signature=old` } });
		ctx.sim.inject({ path: queryOf(id), status: 200, body: { id, status: 'completed', url: `${file}?X-Signature=fresh` }, times: Infinity });
		ctx.sim.inject({ origin: 'files', path: `/files/${id}-1.png`, status: 403, body: 'link expired', times: Infinity });
		const item = await waitFor(id, { download: true });
		expect(item.json.taskId).toBe(id);
		expect(item.json.error).toMatch(/answered 403 for the result .*X-Signature=fresh: the signed link has expired/);
		expect(reads(id)).toBe(2);
		expect(ctx.sim.requests.filter((r) => r.origin === 'files')).toHaveLength(2);
	});
});

describe('Retry-After past the end of the wait', () => {
	const { POLL_POLICY } = require(path.resolve(__dirname, '../../dist/nodes/UnifiedAiGateway/engine/waiting/pollPolicy.js'));
	const saved = POLL_POLICY.maxRetryAfterMs;
	afterEach(() => {
		POLL_POLICY.maxRetryAfterMs = saved;
	});

	test('an HTTP date in the year 9999 on a 503 is capped: the task is read again and its result taken', async () => {
		// A second for the cap instead of a minute: the same path, a test of seconds.
		POLL_POLICY.maxRetryAfterMs = 1_000;
		const id = await createTask(ctx.sim);
		ctx.sim.inject({ path: queryOf(id), status: 503, headers: { 'Retry-After': 'Fri, 31 Dec 9999 23:59:59 GMT' }, body: '' });
		const item = await waitFor(id, { waiting: { pollIntervalSeconds: 0.1, maxWaitMinutes: 30 } });
		expect(item.json.state).toBe('succeeded');
		expect(item.json.error).toBeUndefined();
		expect(reads(id)).toBe(2);
	});

	test('a Retry-After within the wait is waited for, and the wait goes on', async () => {
		const id = await createTask(ctx.sim);
		ctx.sim.inject({ path: queryOf(id), status: 429, headers: { 'Retry-After': '1' }, body: '' });
		const item = await waitFor(id);
		expect(item.json.state).toBe('succeeded');
		expect(reads(id)).toBe(2);
	});
});
