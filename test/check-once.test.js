'use strict';
// Task → Check Once: the step of the Wait-node loop (Submit → Wait → Check Once → If pending → back
// to Wait). One reading per task, no waiting: finished → the result with its file, running → the
// item again with pending: true, failed → an error item naming the task (n8n's error output).
const { runNode, binaryBuffer } = require('./harness');
const { createTask, useSimulator } = require('./support');

const ctx = useSimulator({ scenario: { durationMs: 300 } });

const rl = (value) => ({ __rl: true, mode: 'list', value });
const check = (extra = {}) => ({ resource: 'task', operation: 'checkOnce', queryRoute: 'auto', ...extra });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const submits = () => ctx.sim.requests.filter((r) => r.method === 'POST');

describe('Task → Check Once', () => {
	test('a round of the loop: done with its file, pending back out, failed to the error output; one read each', async () => {
		ctx.sim.scenario('seedance-2.0', { durationMs: 100 });
		ctx.sim.scenario('veo-3.1-flash', { outcome: 'never', progressSteps: [40] });
		ctx.sim.scenario('seedance-1.0-fast', { durationMs: 100, outcome: 'fail', failMessage: 'content policy' });
		const submit = await runNode({
			parameters: { resource: 'video', operation: 'generate', modelId: rl('={{ $json.model }}'), prompt: 'rain on a window', waitForCompletion: false },
			credentials: ctx.creds,
			items: ['seedance-2.0', 'veo-3.1-flash', 'seedance-1.0-fast'].map((model) => ({ json: { model } })),
		});
		expect(submit.error).toBeUndefined();
		const ids = submit.items.map((i) => i.json.taskId);
		await sleep(400);
		// A field of the user's own (a row id) rides along through every round of the loop.
		const rows = submit.items.map((i, k) => ({ json: { ...i.json, row: `r${k}` } }));
		const result = await runNode({ parameters: check(), credentials: ctx.creds, items: rows, onError: 'continueErrorOutput' });
		expect(result.error).toBeUndefined();

		const [done, pending] = result.items;
		expect(result.items).toHaveLength(2);
		expect(done.json).toMatchObject({ taskId: ids[0], state: 'succeeded', pending: false, checks: 1, row: 'r0', queryRoute: 'generic' });
		expect(done.json.submitResponse).toBeUndefined();
		expect((await binaryBuffer(done.binary.data)).toString('ascii', 4, 8)).toBe('ftyp');
		expect(pending.json).toMatchObject({ taskId: ids[1], pending: true, checks: 1, row: 'r1', progress: 40 });
		expect(pending.json.message).toMatch(new RegExp(`^Task ${ids[1]} is still running .*send this item back to the Wait node`));
		expect(Date.parse(pending.json.firstCheckedAt)).toBeGreaterThan(Date.now() - 10_000);
		expect(result.errorItems).toHaveLength(1);
		expect(result.errorItems[0].json.error).toMatch(new RegExp(`^Task ${ids[2]} failed: content policy`));
		expect(result.errorItems[0].pairedItem).toEqual({ item: 2 });

		// One read per task, nothing submitted again.
		for (const id of ids) expect(ctx.sim.requests.filter((r) => r.method === 'GET' && r.path.endsWith(id))).toHaveLength(1);
		expect(submits()).toHaveLength(3);
		expect(result.hints).toContainEqual({ message: '1 of 3 tasks are still running (pending: true): send them back to the Wait node with an If on {{ $json.pending }}', type: 'info', location: 'outputPane' });

		// The next round: the pending item comes back, counts its checks, keeps its first check.
		const again = await runNode({ parameters: check(), credentials: ctx.creds, items: [{ json: pending.json }] });
		expect(again.items[0].json).toMatchObject({ taskId: ids[1], pending: true, checks: 2, row: 'r1', firstCheckedAt: pending.json.firstCheckedAt });
	});

	// The reads follow the in-node wait's schedule in rounds (engine/pollSchedule.ts readThisRound),
	// planned from the checkPlan each pending item carries: Generate (Wait off) seeds it, the first
	// √n items of its run lead and are read every round, the others when the leaders' news makes them
	// likely done, and never more than three rounds in a row unread.
	const gets = (id) => ctx.sim.requests.filter((r) => r.method === 'GET' && r.path.endsWith(id)).length;
	const submitted = async (models) => {
		const submit = await runNode({
			parameters: { resource: 'video', operation: 'generate', modelId: rl('={{ $json.model }}'), prompt: 'a slow pan', waitForCompletion: false },
			credentials: ctx.creds,
			items: models.map((model) => ({ json: { model } })),
		});
		expect(submit.error).toBeUndefined();
		// A field of the user's own (a row id) rides along through every round.
		return submit.items.map((i, k) => ({ json: { ...i.json, row: `r${k}` } }));
	};

	test('the leaders are read first; the others stay unread while every leader runs, at most three rounds in a row', async () => {
		ctx.sim.scenario('veo-3.1-flash', { outcome: 'never' });
		ctx.sim.scenario('seedance-2.0', { durationMs: 100 });
		// 9 items: the first 3 lead (√9) and never finish; the other 6 finish at once.
		const items = await submitted([...Array(3).fill('veo-3.1-flash'), ...Array(6).fill('seedance-2.0')]);
		const ids = items.map((i) => i.json.taskId);
		expect(items.map((i) => i.json.checkPlan)).toEqual(ids.map((_, k) => ({ batch: expect.any(Number), leaders: 3, leader: k < 3, skipped: 0 })));
		await sleep(400);

		let round = items.map((i) => ({ json: i.json }));
		for (let r = 1; r <= 3; r++) {
			const result = await runNode({ parameters: check(), credentials: ctx.creds, items: round, onError: 'continueErrorOutput' });
			expect(result.error).toBeUndefined();
			// Only the leaders were asked; the others came round again unread, their plan counting the rounds.
			expect(ids.map(gets)).toEqual([...Array(3).fill(r), ...Array(6).fill(0)]);
			expect(result.items).toHaveLength(9);
			for (const [k, item] of result.items.entries()) {
				expect(item.json).toMatchObject({ taskId: ids[k], pending: true, checks: r, row: `r${k}` });
				expect(item.json.checkPlan).toMatchObject(k < 3 ? { leader: true, leadersDone: 0, skipped: 0 } : { leader: false, skipped: r });
			}
			expect(result.items[5].json.message).toBe(`Task ${ids[5]} was not read in this round: the tasks submitted with it show it is most likely still running. Send this item back to the Wait node.`);
			expect(result.hints).toContainEqual({ message: '6 of them were not read this round: the first tasks of their batch show them still running', type: 'info', location: 'outputPane' });
			round = result.items.map((i) => ({ json: i.json }));
		}

		// The fourth round reads them whatever the leaders say: finished, with their files.
		const fourth = await runNode({ parameters: check(), credentials: ctx.creds, items: round, onError: 'continueErrorOutput' });
		expect(ids.map(gets)).toEqual([...Array(3).fill(4), ...Array(6).fill(1)]);
		const done = fourth.items.filter((i) => !i.json.pending);
		expect(done.map((i) => i.json.taskId)).toEqual(ids.slice(3));
		for (const item of done) {
			expect(item.json).toMatchObject({ state: 'succeeded', checks: 4 });
			expect(item.json.checkPlan).toBeUndefined();
			expect((await binaryBuffer(item.binary.data)).toString('ascii', 4, 8)).toBe('ftyp');
		}
		expect(submits()).toHaveLength(9);
	});

	test('a task read while its leaders still run is read again once more of them have finished (the share is carried on the item)', async () => {
		ctx.sim.scenario('seedance-1.0-fast', { durationMs: 100 });
		ctx.sim.scenario('veo-3.1-flash', { outcome: 'never' });
		// Leaders: two finish at once, the third never; the 6 others never finish.
		const items = await submitted([...Array(2).fill('seedance-1.0-fast'), ...Array(7).fill('veo-3.1-flash')]);
		const ids = items.map((i) => i.json.taskId);
		await sleep(400);

		// Two of three leaders done: the others have a 2-in-3 chance, more than half: all are read.
		const first = await runNode({ parameters: check(), credentials: ctx.creds, items: items.map((i) => ({ json: i.json })) });
		expect(ids.map(gets)).toEqual(Array(9).fill(1));
		const pending = first.items.filter((i) => i.json.pending);
		expect(pending.map((i) => i.json.taskId)).toEqual(ids.slice(2));
		for (const item of pending.slice(1)) expect(item.json.checkPlan).toEqual({ batch: expect.any(Number), leaders: 3, leader: false, leadersDone: 2, skipped: 0 });

		// Next round no further leader has finished: only the leader is read.
		const second = await runNode({ parameters: check(), credentials: ctx.creds, items: pending.map((i) => ({ json: i.json })) });
		expect(ids.map(gets)).toEqual([1, 1, 2, ...Array(6).fill(1)]);
		expect(second.items.map((i) => i.json.checkPlan.skipped)).toEqual([0, ...Array(6).fill(1)]);
	});

	test('a task that keeps coming back pending past Give Up After fails with its task id', async () => {
		ctx.sim.scenario('*', { outcome: 'never' });
		const taskId = await createTask(ctx.sim, { model: 'nano-banana' });
		const firstCheckedAt = new Date(Date.now() - 2 * 60_000).toISOString();
		const result = await runNode({
			parameters: check({ options: { giveUpMinutes: 1 } }),
			credentials: ctx.creds,
			items: [{ json: { taskId, queryRoute: 'image', pending: true, firstCheckedAt, checks: 4 } }],
		});
		expect(result.error.message).toMatch(new RegExp(`^Task ${taskId} is still running after 1 min of checks`));
		expect(result.error.description).toMatch(/do not submit it again/);
	});

	test('Give Up After from an expression that is not a number is refused, naming the field and the value', async () => {
		const taskId = await createTask(ctx.sim, { model: 'nano-banana' });
		const result = await runNode({ parameters: check({ options: { giveUpMinutes: '={{ "soon" }}' } }), credentials: ctx.creds, items: [{ json: { taskId, queryRoute: 'image' } }] });
		expect(result.error.message).toBe(`Give Up After (Minutes): "soon" is not a number; it takes a number from 0.005 to 10080 minutes, or 0 for the route's window`);
		expect(ctx.sim.requests.filter((r) => r.method === 'GET' && r.path.endsWith(taskId))).toHaveLength(0);
	});

	test('Download off: the URL only', async () => {
		const taskId = await createTask(ctx.sim, { model: 'nano-banana' });
		await sleep(500);
		const result = await runNode({ parameters: check({ download: false }), credentials: ctx.creds, items: [{ json: { taskId, queryRoute: 'image' } }] });
		expect(result.items[0].json).toMatchObject({ taskId, pending: false, state: 'succeeded', url: ctx.sim.task(taskId).urls[0] });
		expect(result.items[0].binary).toBeUndefined();
	});
});

// A gateway may flag a task completed one read before it writes the result URL (docs/gateway-contract.md
// §10.12): Check Once reads such a task again in the same run, as the in-node wait does, before it
// reports it, and then says what is missing and what to do, not "failed".
describe('Task → Check Once: completed, but no URL yet', () => {
	const queryOf = (id) => new RegExp(`/v1/images/generations/${id}$`);
	const reads = (id) => ctx.sim.requests.filter((r) => r.method === 'GET' && queryOf(id).test(r.path)).length;
	const finished = async () => {
		ctx.sim.scenario('*', { durationMs: 0 });
		return await createTask(ctx.sim, { model: 'nano-banana' });
	};

	test('one read says completed without a URL, the next names it: the item is the result with its file', async () => {
		const taskId = await finished();
		ctx.sim.inject({ path: queryOf(taskId), status: 200, body: { id: taskId, status: 'completed', progress: '100%' } });
		const result = await runNode({ parameters: check(), credentials: ctx.creds, items: [{ json: { taskId, queryRoute: 'image' } }] });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({ taskId, state: 'succeeded', pending: false, url: ctx.sim.task(taskId).urls[0] });
		expect(result.items[0].json.error).toBeUndefined();
		expect(result.items[0].binary.data.mimeType).toBe('image/png');
		expect(reads(taskId)).toBe(2);
	});

	test('completed without a URL read after read: after 3 reads the item says so, keeping the task id and the status, not "failed"', async () => {
		const taskId = await finished();
		ctx.sim.inject({ path: queryOf(taskId), status: 200, body: { id: taskId, status: 'completed', progress: '100%' }, times: Infinity });
		const result = await runNode({
			parameters: check(),
			credentials: ctx.creds,
			items: [{ json: { taskId, queryRoute: 'image', row: 'r0' } }],
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		const { json } = result.items[0];
		expect(json).toMatchObject({ taskId, status: 'completed', queryRoute: 'image', pending: false, checks: 1, row: 'r0', urls: [] });
		expect(json.state).toBeUndefined();
		expect(json.error).toBe(`Task ${taskId}: the gateway reported it completed (status 'completed') without a result URL, read 3 times in this check, so there is nothing to download yet`);
		expect(json.error).not.toMatch(/failed/);
		expect(json.description).toMatch(/do not submit it again/);
		expect(json.description).toMatch(/Task → Get or Task → Download Result/);
		expect(result.items[0].binary).toBeUndefined();
		expect(reads(taskId)).toBe(3);
		expect(submits()).toHaveLength(1); // the test's own, nothing submitted again
	});

	test('to the error output: the message names the task; without On Error the node stops with it', async () => {
		ctx.sim.scenario('*', { durationMs: 0, outcome: 'noUrl' });
		const taskId = await createTask(ctx.sim, { model: 'nano-banana' });
		const routed = await runNode({ parameters: check(), credentials: ctx.creds, items: [{ json: { taskId, queryRoute: 'image' } }], onError: 'continueErrorOutput' });
		expect(routed.items).toHaveLength(0);
		expect(routed.errorItems).toHaveLength(1);
		expect(routed.errorItems[0].json.error).toMatch(new RegExp(`^Task ${taskId}: the gateway reported it completed .* without a result URL, read 3 times`));
		expect(reads(taskId)).toBe(3);

		const stopped = await runNode({ parameters: check(), credentials: ctx.creds, items: [{ json: { taskId, queryRoute: 'image' } }] });
		expect(stopped.error.message).toMatch(new RegExp(`^Task ${taskId}: the gateway reported it completed`));
		expect(stopped.error.description).toMatch(/may be billed: do not submit it again/);
		expect(reads(taskId)).toBe(6);
	});
});
