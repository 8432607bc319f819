'use strict';
// Unified AI Gateway Trigger: poll() through n8n-core's PollContext against the simulator.
// Needs `npm run build` first (the harness loads dist/).
const { createTask, useSimulator } = require('./support');
const { pollTrigger } = require('./harness');

const STATE_KEY = 'node:Gateway'; // the harness names the node "Gateway"

const ctx = useSimulator();

/*
 * Nothing here waits on the clock: a task is finished when created (durationMs 0), never finishes
 * (outcome 'never') or advances by its reads (readSteps); a timeout window passes by moving the
 * task's first sighting back in the trigger's own state (aged). A poll can take seconds on a busy
 * machine (the first one of a worker loads n8n-core), and no assertion depends on it.
 */

/** Submits an image task straight to the simulator, as a workflow that does not wait would. */
const submit = async (model) => await createTask(ctx.sim, { model, prompt: 'a lighthouse' });

function taskParams(ids, extra = {}) {
	return { event: 'taskFinished', taskIds: ids.join('\n'), queryRoute: 'generic', ...extra };
}

let watchers = 0;

/** Polls with the same static data object every time, as an active workflow does (a workflow of its own). */
function watcher(parameters, staticData = {}) {
	const workflowId = `wf-watch-${++watchers}`;
	const poll = async (override = {}, mode = 'trigger') =>
		(await pollTrigger({ parameters: { ...parameters, ...override }, credentials: ctx.creds, staticData, mode, workflowId })).result;
	const tasks = () => staticData[STATE_KEY]?.taskFinished?.tasks ?? {};
	/** The watch window passes: the trigger first saw the task `minutes` earlier than it did. */
	const aged = (id, minutes) => (tasks()[id].firstSeenAt -= minutes * 60_000);
	return { poll, staticData, tasks, aged };
}

const jsonOf = (result) => (result ?? [[]])[0].map((item) => item.json);

describe('Task Finished', () => {
	test('tasks finishing over several polls are each emitted exactly once, finished ones are not queried again', async () => {
		// The tasks advance by reads (scenario readSteps), not by the clock: the fast one finishes at its
		// second read, the slow one at its fourth, however slow the machine (both lead their batch of
		// two, so every poll reads each task still open).
		const running = { status: 'in_progress', progress: 50 };
		const done = { status: 'completed', progress: 100 };
		ctx.sim.scenario('gpt-image-2-async', { readSteps: [running, done] });
		ctx.sim.scenario('nano-banana', { readSteps: [running, running, running, done] });
		const fast = await submit('gpt-image-2-async');
		const slow = await submit('nano-banana');
		const w = watcher(taskParams([fast, slow]));

		expect(await w.poll()).toBeNull();
		expect(Object.keys(w.tasks()).sort()).toEqual([fast, slow].sort());
		expect(typeof w.tasks()[fast].firstSeenAt).toBe('number');

		w.staticData.__dataChanged = false; // n8n saves static data only when flagged changed
		const first = jsonOf(await w.poll());
		expect(w.staticData.__dataChanged).toBe(true);
		expect(first).toHaveLength(1);
		expect(first[0]).toMatchObject({ taskId: fast, status: 'completed', state: 'succeeded', progress: 100, queryRoute: 'generic' });
		expect(first[0].urls).toEqual(ctx.sim.task(fast).urls);
		expect(first[0].url).toBe(ctx.sim.task(fast).urls[0]);
		expect(first[0].raw).toBeTruthy();
		expect(w.tasks()[fast].done).toBe('succeeded');

		expect(ctx.sim.count('GET', `/v1/tasks/${fast}`)).toBe(2);
		expect(await w.poll()).toBeNull();
		expect(ctx.sim.count('GET', `/v1/tasks/${fast}`)).toBe(2);

		const second = jsonOf(await w.poll());
		expect(second.map((j) => j.taskId)).toEqual([slow]);
		expect(second[0].state).toBe('succeeded');
		expect(await w.poll()).toBeNull();
		// polls 1-4 asked for the slow task, poll 5 asked for nothing
		expect(ctx.sim.count('GET', `/v1/tasks/${slow}`)).toBe(4);
		expect(ctx.sim.task(slow).answers.map((a) => a.status)).toEqual(['in_progress', 'in_progress', 'in_progress', 'completed']);
		expect(ctx.sim.count('GET', /^\/v1\/tasks\//)).toBe(6);
	});

	test('failed and cancelled tasks are emitted only with Include Failures, with the reason', async () => {
		ctx.sim.scenario('nano-banana', { durationMs: 0, outcome: 'fail', failMessage: 'upstream said no' });
		ctx.sim.scenario('gpt-image-2-async', { durationMs: 0, outcome: 'cancel' });
		const failed = await submit('nano-banana');
		const cancelled = await submit('gpt-image-2-async');

		const quiet = watcher(taskParams([failed, cancelled], { includeFailures: false }));
		expect(await quiet.poll()).toBeNull();
		expect(quiet.tasks()[failed].done).toBe('failed');
		expect(await quiet.poll()).toBeNull();

		const loud = watcher(taskParams([failed, cancelled], { includeFailures: true }));
		const items = jsonOf(await loud.poll());
		expect(items.map((j) => [j.taskId, j.status, j.state])).toEqual([
			[failed, 'failed', 'failed'],
			[cancelled, 'cancelled', 'failed'],
		]);
		expect(items[0].error).toContain('upstream said no');
		expect(typeof items[1].error).toBe('string');
		expect(await loud.poll()).toBeNull();
	});

	test('an id removed from the list is forgotten', async () => {
		ctx.sim.scenario('*', { outcome: 'never' });
		const keep = await submit('gpt-image-2-async');
		const drop = await submit('gpt-image-2-async');
		const w = watcher(taskParams([keep, drop]));
		expect(await w.poll()).toBeNull();
		expect(Object.keys(w.tasks())).toContain(drop);
		expect(await w.poll({ taskIds: keep })).toBeNull();
		expect(Object.keys(w.tasks())).toEqual([keep]);
		expect(ctx.sim.count('GET', `/v1/tasks/${drop}`)).toBe(1);
	});

	test('a never-finishing task times out once, whatever Include Failures says', async () => {
		ctx.sim.scenario('*', { durationMs: 0, outcome: 'never', shape: 'B' });
		const id = await submit('gpt-image-2-async');
		const w = watcher(taskParams([id], { timeoutMinutes: 1, includeFailures: false }));
		expect(await w.poll()).toBeNull();
		w.aged(id, 1);
		const items = jsonOf(await w.poll());
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({ taskId: id, state: 'timeout', status: 'processing' });
		expect(items[0].message).toContain(id);
		expect(items[0].message).toMatch(/may still finish/);
		const queries = ctx.sim.count('GET', `/v1/tasks/${id}`);
		expect(await w.poll()).toBeNull();
		expect(ctx.sim.count('GET', `/v1/tasks/${id}`)).toBe(queries);
		expect(w.tasks()[id].done).toBe('timeout');
	});

	// The ids first seen in one poll are a batch whose first √n lead (engine/pollSchedule.ts, reading in
	// rounds): each poll reads the leaders first, then the others once a leader has finished since
	// their last reading, and none is left unread more than three polls in a row.
	const reads = (ids) => ids.map((id) => ctx.sim.count('GET', `/v1/tasks/${id}`));

	test('while every leader runs, the others are not read, however done they are; the fourth poll reads them', async () => {
		ctx.sim.scenario('nano-banana', { outcome: 'never' });
		ctx.sim.scenario('gpt-image-2-async', { durationMs: 0 });
		const leaders = [await submit('nano-banana'), await submit('nano-banana'), await submit('nano-banana')];
		const others = [];
		for (let i = 0; i < 6; i++) others.push(await submit('gpt-image-2-async'));
		const w = watcher(taskParams([...leaders, ...others]));

		for (let poll = 1; poll <= 3; poll++) {
			expect(await w.poll()).toBeNull();
			expect(reads([...leaders, ...others])).toEqual([...Array(3).fill(poll), ...Array(6).fill(0)]);
			expect(others.map((id) => w.tasks()[id].skipped)).toEqual(Array(6).fill(poll));
		}
		const fourth = jsonOf(await w.poll());
		expect(fourth.map((j) => j.taskId).sort()).toEqual([...others].sort());
		expect(reads([...leaders, ...others])).toEqual([...Array(3).fill(4), ...Array(6).fill(1)]);
		expect(await w.poll()).toBeNull();
		expect(reads(others)).toEqual(Array(6).fill(1));
	});

	test("one leader's news makes every other task due in the same poll; with no news since, they wait", async () => {
		ctx.sim.scenario('gpt-image-2-async', { durationMs: 0 });
		ctx.sim.scenario('nano-banana', { outcome: 'never' });
		const fast = await submit('gpt-image-2-async');
		const slow = [await submit('nano-banana'), await submit('nano-banana')];
		const others = [];
		for (let i = 0; i < 6; i++) others.push(await submit('nano-banana'));
		const w = watcher(taskParams([fast, ...slow, ...others]));

		expect(jsonOf(await w.poll()).map((j) => j.taskId)).toEqual([fast]);
		expect(reads([fast, ...slow, ...others])).toEqual(Array(9).fill(1));
		expect(others.map((id) => w.tasks()[id].leadersDone)).toEqual(Array(6).fill(1));
		// No leader finished since: only the two open leaders are read.
		expect(await w.poll()).toBeNull();
		expect(reads([fast, ...slow, ...others])).toEqual([1, 2, 2, ...Array(6).fill(1)]);
	});

	test('an unknown id does not stop the others; it fails after 3 refused polls with Include Failures', async () => {
		ctx.sim.scenario('*', { durationMs: 0 });
		const good = await submit('gpt-image-2-async');
		const bogus = 'task_doesnotexist0000000000000000000';
		const w = watcher(taskParams([bogus, good], { includeFailures: true }));

		expect(jsonOf(await w.poll()).map((j) => j.taskId)).toEqual([good]);
		expect(w.tasks()[bogus].errors).toBe(1);
		expect(await w.poll()).toBeNull();
		const third = jsonOf(await w.poll());
		expect(third).toHaveLength(1);
		expect(third[0]).toMatchObject({ taskId: bogus, state: 'failed', queryErrors: 3 });
		expect(third[0].error).toMatch(/task_not_exist/);
		expect(await w.poll()).toBeNull();
		expect(ctx.sim.count('GET', `/v1/tasks/${bogus}`)).toBe(3);
	});

	test('without Include Failures an unknown id is kept (then times out) and never throws', async () => {
		const bogus = 'task_doesnotexist0000000000000000000';
		const w = watcher(taskParams([bogus], { includeFailures: false, timeoutMinutes: 1 }));
		for (let i = 0; i < 3; i++) expect(await w.poll()).toBeNull();
		expect(w.tasks()[bogus]).toMatchObject({ errors: 3 });
		expect(w.tasks()[bogus].done).toBeUndefined();
		w.aged(bogus, 1);
		const items = jsonOf(await w.poll());
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({ taskId: bogus, state: 'timeout' });
		expect(items[0].message).toMatch(/task_not_exist/);
	});

	test('a poll where every query fails for the whole account (401) throws a clear error once the policy gives up', async () => {
		ctx.sim.scenario('*', { outcome: 'never' });
		const id = await submit('gpt-image-2-async');
		const staticData = {};
		const run = () => pollTrigger({ parameters: taskParams([id]), credentials: { ...ctx.creds, apiKey: 'sk-wrong' }, staticData });
		// One 401 is a passing fault (the engine's one policy); the third in a row is the user's to see.
		expect((await run()).result).toBeNull();
		expect((await run()).result).toBeNull();
		await expect(run()).rejects.toThrow(/rejected the API key \(401\)/);
		// the id is remembered anyway, so its timeout window does not restart
		expect(typeof staticData[STATE_KEY].taskFinished.tasks[id].firstSeenAt).toBe('number');
	});

	test('Download Result puts the files into binary data, fetched without the API key', async () => {
		ctx.sim.scenario('*', { durationMs: 0 });
		const id = await submit('gpt-image-2-async');
		const w = watcher(taskParams([id], { download: true, options: { binaryPropertyOutput: 'image' } }));
		const [[item]] = await w.poll();
		expect(item.json.taskId).toBe(id);
		expect(item.json.downloadError).toBeUndefined();
		expect(item.binary.image.mimeType).toBe('image/png');
		const downloads = ctx.sim.find('GET', /\.png$/, 'files');
		expect(downloads).toHaveLength(1);
		expect(downloads[0].hasAuth).toBe(false);
	});

	test('manual mode returns the first task as it stands, at once, and leaves static data alone', async () => {
		// A task that never finishes: a test event that waited for it would never come.
		ctx.sim.scenario('*', { outcome: 'never' });
		const first = await submit('gpt-image-2-async');
		const second = await submit('gpt-image-2-async');
		const staticData = {};
		const { result } = await pollTrigger({
			parameters: { event: 'taskFinished', taskIds: `${first}, ${second}`, queryRoute: 'image' },
			credentials: ctx.creds,
			staticData,
			mode: 'manual',
		});
		expect(result).toHaveLength(1);
		expect(result[0]).toHaveLength(1);
		expect(result[0][0].json).toMatchObject({ taskId: first, state: 'pending', queryRoute: 'image' });
		expect(ctx.sim.count('GET', `/v1/images/generations/${first}`)).toBe(1);
		expect(ctx.sim.count('GET', `/v1/images/generations/${second}`)).toBe(0);
		expect(staticData).toEqual({});
	});
});

// A gateway may flag a task completed one read before it writes the result URL (docs/gateway-contract.md
// §10.12): such a task is neither emitted nor dropped at that poll; it stays watched and is read
// again at the next polls, and after 3 polls that say so it is emitted with what is missing and
// what to do, whatever Include Failures says. The count lives in the static data.
describe('Task Finished: completed, but no URL yet', () => {
	const path = (id) => new RegExp(`^/v1/tasks/${id}$`);
	const withoutUrl = (id) => ({ path: path(id), status: 200, body: { id, status: 'completed', progress: 100 } });
	const reads = (ids) => ids.map((id) => ctx.sim.count('GET', path(id)));

	test('read without a URL: not emitted at that poll; the next poll reads it again and emits it with its URL', async () => {
		ctx.sim.scenario('*', { durationMs: 0 });
		const id = await submit('gpt-image-2-async');
		ctx.sim.inject(withoutUrl(id));
		const w = watcher(taskParams([id], { includeFailures: true }));
		expect(await w.poll()).toBeNull();
		expect(w.tasks()[id]).toMatchObject({ withoutUrl: 1, lastStatus: 'completed' });
		expect(w.tasks()[id].done).toBeUndefined();
		const items = jsonOf(await w.poll());
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({ taskId: id, state: 'succeeded', url: ctx.sim.task(id).urls[0] });
		expect(items[0].error).toBeUndefined();
		expect(w.tasks()[id].withoutUrl).toBeUndefined();
		expect(ctx.sim.count('GET', path(id))).toBe(2);
	});

	test('without a URL poll after poll: emitted at the third, with Include Failures off, naming the task and what to do; the count survives in static data', async () => {
		ctx.sim.scenario('*', { durationMs: 0, outcome: 'noUrl' });
		const id = await submit('gpt-image-2-async');
		const params = taskParams([id], { includeFailures: false });
		const w = watcher(params);
		expect(await w.poll()).toBeNull();
		expect(await w.poll()).toBeNull();
		expect(w.staticData[STATE_KEY].taskFinished.tasks[id]).toMatchObject({ withoutUrl: 2 });
		// The workflow's static data as n8n stores it between polls (saved, loaded again).
		const restored = watcher(params, JSON.parse(JSON.stringify(w.staticData)));
		const items = jsonOf(await restored.poll());
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({ taskId: id, status: 'completed', urls: [] });
		expect(items[0].error).toContain(`Task ${id}: the gateway reported it completed (status 'completed') without a result URL, 3 polls in a row, so there is nothing to download yet`);
		expect(items[0].error).toContain('Task → Get or Task → Download Result');
		expect(items[0].error).toContain('do not submit it again');
		expect(await restored.poll()).toBeNull();
		expect(ctx.sim.count('GET', path(id))).toBe(3);
	});

	test('a task that is not a leader is read again at the very next poll', async () => {
		// Two leaders that never finish; the third task is read only when left unread three polls
		// (the rounds' rule), but once it was read without a URL, at every poll after.
		ctx.sim.scenario('nano-banana', { outcome: 'never' });
		ctx.sim.scenario('gpt-image-2-async', { durationMs: 0, outcome: 'noUrl' });
		const leaders = [await submit('nano-banana'), await submit('nano-banana')];
		const other = await submit('gpt-image-2-async');
		const w = watcher(taskParams([...leaders, other]));
		for (let poll = 1; poll <= 4; poll++) expect(await w.poll()).toBeNull();
		expect(reads([...leaders, other])).toEqual([4, 4, 1]);
		expect(await w.poll()).toBeNull();
		expect(reads([other])).toEqual([2]);
		const items = jsonOf(await w.poll());
		expect(items.map((j) => j.taskId)).toEqual([other]);
		expect(items[0].error).toContain('without a result URL, 3 polls in a row');
		expect(reads([...leaders, other])).toEqual([6, 6, 3]);
	});

	test('Fetch Test Event: a task read without a URL is read again (3 reads in all) and shown as completed without a URL, not as failed', async () => {
		ctx.sim.scenario('*', { durationMs: 0, outcome: 'noUrl' });
		const id = await submit('gpt-image-2-async');
		const staticData = {};
		const { result } = await pollTrigger({ parameters: taskParams([id]), credentials: ctx.creds, staticData, mode: 'manual' });
		const items = jsonOf(result);
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({ taskId: id, status: 'completed', urls: [] });
		expect(items[0].error).toContain(`Task ${id}: the gateway reported it completed (status 'completed') without a result URL, read 3 times, so there is nothing to download yet`);
		expect(items[0].error).toContain('do not submit it again');
		expect(items[0].error).not.toMatch(/stops watching|no result URL, so there is nothing/);
		expect(ctx.sim.count('GET', path(id))).toBe(3);
		expect(staticData).toEqual({});
	});

	test('Fetch Test Event: the URL written by the second read gives the finished task with its file', async () => {
		ctx.sim.scenario('*', { durationMs: 0 });
		const id = await submit('gpt-image-2-async');
		ctx.sim.inject(withoutUrl(id));
		const { result } = await pollTrigger({ parameters: taskParams([id]), credentials: ctx.creds, staticData: {}, mode: 'manual' });
		expect(result[0]).toHaveLength(1);
		expect(result[0][0].json).toMatchObject({ taskId: id, state: 'succeeded', url: ctx.sim.task(id).urls[0] });
		expect(result[0][0].json.error).toBeUndefined();
		expect(ctx.sim.count('GET', path(id))).toBe(2);
	});

	test('the watch window ending first: emitted as completed without a URL, not as a timeout', async () => {
		ctx.sim.scenario('*', { durationMs: 0, outcome: 'noUrl' });
		const id = await submit('gpt-image-2-async');
		const w = watcher(taskParams([id], { timeoutMinutes: 1 }));
		expect(await w.poll()).toBeNull();
		w.aged(id, 1);
		const items = jsonOf(await w.poll());
		expect(items).toHaveLength(1);
		expect(items[0].state).not.toBe('timeout');
		expect(items[0].error).toContain(`Task ${id}: the gateway reported it completed (status 'completed') without a result URL, 2 polls in a row`);
		expect(ctx.sim.count('GET', path(id))).toBe(2);
	});
});

describe('Balance Below', () => {
	const params = { event: 'balanceBelow', balanceType: 'token', threshold: 10 };

	test('fires when the balance crosses below the threshold, not on every poll, and again after recovering', async () => {
		const staticData = {};
		const poll = async () => (await pollTrigger({ parameters: params, credentials: ctx.creds, staticData })).result;
		ctx.sim.setBalance('token', { remain: 50 });
		expect(await poll()).toBeNull();
		ctx.sim.setBalance('token', { remain: 5 });
		const fired = jsonOf(await poll());
		expect(fired).toHaveLength(1);
		expect(fired[0]).toMatchObject({ balanceType: 'token', remainingBalance: 5, threshold: 10, belowThreshold: true });
		expect(staticData[STATE_KEY].balanceBelow.below).toBe(true);
		expect(await poll()).toBeNull();
		ctx.sim.setBalance('token', { remain: 4 });
		expect(await poll()).toBeNull();
		ctx.sim.setBalance('token', { remain: 20 });
		expect(await poll()).toBeNull();
		ctx.sim.setBalance('token', { remain: 3 });
		expect(jsonOf(await poll())[0].remainingBalance).toBe(3);
		expect(ctx.sim.count('GET', '/v1/balance')).toBe(6);
	});

	test('unlimited quota never fires', async () => {
		const staticData = {};
		ctx.sim.setBalance('token', { unlimited: true, remain: 0 });
		for (let i = 0; i < 3; i++) {
			expect((await pollTrigger({ parameters: params, credentials: ctx.creds, staticData })).result).toBeNull();
		}
		expect(ctx.sim.count('GET', '/v1/balance')).toBe(3);
	});

	test('the user balance is read from its own route', async () => {
		ctx.sim.setBalance('user', { remain: 1 });
		const { result } = await pollTrigger({ parameters: { ...params, balanceType: 'user' }, credentials: ctx.creds });
		expect(jsonOf(result)[0]).toMatchObject({ balanceType: 'user', remainingBalance: 1 });
		expect(ctx.sim.count('GET', '/v1/user/balance')).toBe(1);
		expect(ctx.sim.count('GET', '/v1/balance')).toBe(0);
	});

	test('a failing balance call throws instead of polling empty', async () => {
		ctx.sim.setBalance('token', { message: 'token not found or deleted' });
		await expect(pollTrigger({ parameters: params, credentials: ctx.creds })).rejects.toThrow(/token not found or deleted/);
		await expect(pollTrigger({ parameters: params, credentials: { ...ctx.creds, apiKey: 'sk-wrong' } })).rejects.toThrow(/401/);
	});

	test('manual mode returns the current balance at once, below or not, without touching static data', async () => {
		const staticData = {};
		ctx.sim.setBalance('token', { remain: 50 });
		const { result } = await pollTrigger({ parameters: params, credentials: ctx.creds, staticData, mode: 'manual' });
		expect(jsonOf(result)).toHaveLength(1);
		expect(jsonOf(result)[0]).toMatchObject({ remainingBalance: 50, belowThreshold: false });
		expect(staticData).toEqual({});
	});
});
