'use strict';
// The trigger under n8n 2.x's poll scheduler: polls of one node that overlap, and the poll budget.
// Needs `npm run build` first (the harness loads dist/).
const path = require('path');

const { createTask, useSimulator } = require('./support');
const { pollTrigger } = require('./harness');

const STATE_KEY = 'node:Gateway'; // the harness names the node "Gateway"
const { POLL_CLAIMS } = require(path.join(__dirname, '..', 'dist', 'nodes', 'UnifiedAiGatewayTrigger', 'pollClaims.js'));

const ctx = useSimulator();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const clone = (value) => JSON.parse(JSON.stringify(value));
const jsonOf = (result) => (result ?? [[]])[0].map((item) => item.json);
const taskIds = (result) => jsonOf(result).map((json) => json.taskId);

let workflows = 0;

async function finishedTasks(count) {
	const ids = [];
	for (let i = 0; i < count; i++) ids.push(await createTask(ctx.sim, { model: 'gpt-image-2-async' }));
	const started = Date.now();
	while (!ids.every((id) => ctx.sim.task(id).status === 'completed')) {
		if (Date.now() - started > 8000) throw new Error('simulator tasks did not finish');
		await sleep(20);
	}
	return ids;
}

/**
 * One trigger node of an active workflow as n8n 2.x runs it with durable cursors: every poll
 * gets its own copy of the committed state (poller_state) and its copy is committed when the
 * poll ends, the last commit winning.
 */
function durableTrigger(ids, extra = {}) {
	const workflowId = `wf-overlap-${++workflows}`;
	const parameters = { event: 'taskFinished', taskIds: ids.join('\n'), queryRoute: 'generic', ...extra };
	const node = { committed: {}, commits: 0 };
	node.poll = async (options = {}) => {
		const snapshot = clone(node.committed);
		const { result } = await pollTrigger({ parameters, credentials: ctx.creds, staticData: snapshot, workflowId, ...options });
		if (options.commit !== false) {
			node.committed = snapshot;
			node.commits++;
		}
		return result;
	};
	node.tasks = () => node.committed[STATE_KEY]?.taskFinished?.tasks ?? {};
	return node;
}

describe('overlapping polls of one trigger node', () => {
	afterEach(() => {
		POLL_CLAIMS.confirmGraceMs = 60_000;
	});

	test('the activation poll and the first scheduled poll overlap (slow first query): each finished task is emitted once', async () => {
		const ids = await finishedTasks(3);
		ctx.sim.inject({ method: 'GET', path: `/v1/tasks/${ids[0]}`, kind: 'slow', delayMs: 1500 });
		const trigger = durableTrigger(ids);

		const activation = trigger.poll(); // its query of the first task hangs for 1.5 s
		await sleep(300);
		const scheduled = await trigger.poll(); // started from the same (empty) committed state
		const first = await activation;

		const emitted = [...taskIds(first), ...taskIds(scheduled)];
		expect(emitted.sort()).toEqual([...ids].sort());
		// The scheduled poll left the tasks the activation poll held alone: each was asked once.
		for (const id of ids) expect(ctx.sim.count('GET', `/v1/tasks/${id}`)).toBe(1);
		// The activation poll's copy was committed last; the next polls emit nothing.
		expect(Object.values(trigger.tasks()).every((task) => task.done === 'succeeded')).toBe(true);
		expect(await trigger.poll()).toBeNull();
		expect(await trigger.poll()).toBeNull();
	});

	test('a stale copy committed last (older poll ends after a newer one) still emits nothing again', async () => {
		const ids = await finishedTasks(2);
		const trigger = durableTrigger(ids);
		const stale = clone(trigger.committed);
		expect(taskIds(await trigger.poll()).sort()).toEqual([...ids].sort());
		// A poll that read the cursor before the delivery commits its copy last.
		trigger.committed = stale;
		expect(await trigger.poll()).toBeNull();
		expect(Object.values(trigger.tasks()).every((task) => task.done === 'succeeded')).toBe(true);
		expect(await trigger.poll()).toBeNull();
	});

	test('a delivery n8n never committed (its poll abandoned) is emitted again after the grace period', async () => {
		const [id] = await finishedTasks(1);
		const trigger = durableTrigger([id]);
		POLL_CLAIMS.confirmGraceMs = 400;
		expect(taskIds(await trigger.poll({ commit: false }))).toEqual([id]);
		expect(await trigger.poll({ commit: false })).toBeNull(); // within the grace: taken as delivered
		await sleep(500);
		expect(taskIds(await trigger.poll())).toEqual([id]); // never committed: reported again
		expect(await trigger.poll()).toBeNull();
	});
});

describe('the poll budget (getPollBudgetMs on n8n 2.x)', () => {
	test('a query hanging past the budget is cut at it; tasks not asked wait for the next poll, least recently checked first', async () => {
		// 12 ids: the first 4 lead (√n); finished, they make every other task due in the same poll.
		const ids = await finishedTasks(12);
		const followers = ids.slice(4);
		// The first five follower queries (the concurrency) hang far past a 3 s budget (the old code waited them out).
		for (const id of followers.slice(0, 5)) ctx.sim.inject({ method: 'GET', path: `/v1/tasks/${id}`, kind: 'slow', delayMs: 15000 });
		const trigger = durableTrigger(ids);

		const first = await trigger.poll({ pollBudgetMs: 3000 });
		const returnedAt = Date.now();
		// Cut at the budget, not waited out: the poll returned before any hanging query could have been
		// answered (15 s after it arrived), and none was (an order on the simulator's clock, not a budget).
		const hanging = ctx.sim.requests.filter((r) => r.method === 'GET' && followers.slice(0, 5).some((id) => r.path === `/v1/tasks/${id}`));
		expect(hanging).toHaveLength(5);
		expect(returnedAt).toBeLessThan(Math.min(...hanging.map((r) => r.at)) + 15000);
		for (const query of hanging) expect(query.answeredAt).toBeUndefined();
		expect(taskIds(first).sort()).toEqual(ids.slice(0, 4).sort()); // the leaders; every follower query it started timed out
		for (const id of followers.slice(5)) expect(ctx.sim.count('GET', `/v1/tasks/${id}`)).toBe(0); // none of the other three fitted
		expect(followers.some((id) => trigger.tasks()[id].done)).toBe(false);

		// The next poll asks the three never checked first, then the others.
		const second = await trigger.poll({ pollBudgetMs: 20000 });
		expect(taskIds(second).sort()).toEqual([...followers].sort());
		const order = ctx.sim.requests.filter((r) => r.method === 'GET' && /^\/v1\/tasks\//.test(r.path)).slice(9).map((r) => r.path.split('/').pop());
		expect(order.slice(0, 3).sort()).toEqual(followers.slice(5).sort());
	});
});
