'use strict';
/*
 * What the queue-mode e2e proves, each a function (ctx) → note; ctx = { cluster, sim, line }.
 * Every workflow run records itself on the simulator (see workflows.js): which worker started and
 * ended it, what came out; the simulator counts the billed submits.
 */

const assert = require('node:assert/strict');

const { pgQuery } = require('./services');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const IMAGE_SUBMIT = '/v1/images/generations';
const VIDEO_SUBMIT = '/v1/video/generations';

function records(sim, event, run) {
	return sim.find('POST', '/e2e/record', 'files').filter((r) => r.query.event === event && (run === undefined || r.query.run === run)).map((r) => r.query);
}

async function until(what, done, limitMs) {
	const started = Date.now();
	while (!(await done())) {
		if (Date.now() - started > limitMs) throw new Error(`not within ${limitMs / 1000}s: ${what}`);
		await sleep(500);
	}
}

async function post(cluster, path, body) {
	const res = await fetch(`${cluster.main.baseUrl}/webhook/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	assert.equal(res.status, 200, `POST /webhook/${path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
}

const submits = (sim, route) => sim.count('POST', route);

/** 100 images and 20 videos (and two small image runs) at once: waited inside one worker each, spread over both. */
async function batches({ cluster, sim }) {
	sim.scenario('gpt-image-2-async', { durationMs: 3000 });
	sim.scenario('sora-2', { durationMs: 5000 });
	const before = { image: submits(sim, IMAGE_SUBMIT), video: submits(sim, VIDEO_SUBMIT) };
	const runs = [['img100', 'image', 100], ['vid20', 'video', 20], ['img2a', 'image', 2], ['img2b', 'image', 2]];
	const t = Date.now();
	for (const [run, kind, count] of runs) await post(cluster, 'q-wait', { run, kind, count });
	await until('every batch ended', () => runs.every(([run]) => records(sim, 'end', run).length > 0), 240_000);
	const workers = new Set();
	for (const [run, , count] of runs) {
		const [start] = records(sim, 'start', run);
		const ends = records(sim, 'end', run);
		assert.equal(ends.length, 1, `${run} ended ${ends.length} times`);
		assert.equal(start.worker, ends[0].worker, `${run} started on ${start.worker} but ended on ${ends[0].worker}`);
		assert.equal(ends[0].items, String(count), `${run}: ${ends[0].items} items came out`);
		assert.equal(ends[0].done, String(count), `${run}: only ${ends[0].done} of ${count} items have their result URL`);
		workers.add(start.worker);
	}
	assert.equal(submits(sim, IMAGE_SUBMIT) - before.image, 104, 'image submits');
	assert.equal(submits(sim, VIDEO_SUBMIT) - before.video, 20, 'video submits');
	assert.deepEqual([...workers].sort(), ['w1', 'w2'], `executions ran on ${[...workers].join(', ')} only`);
	return `${((Date.now() - t) / 1000).toFixed(1)}s for 124 items in 4 executions on ${[...workers].sort().join('+')}`;
}

/** The trigger in a published workflow (polls on main, executions on the workers): each finished task emitted once. */
async function trigger({ sim, triggerIds }) {
	await until('every trigger task emitted', () => triggerIds.every((id) => records(sim, 'task').some((r) => r.taskId === id)), 90_000);
	// One more scheduled poll (every minute) after the last emission: it must add nothing.
	const last = Math.max(...sim.find('POST', '/e2e/record', 'files').filter((r) => r.query.event === 'task').map((r) => r.at));
	const nextPoll = Math.ceil((Math.max(last, Date.now()) + 1000) / 60000) * 60000;
	while (Date.now() < nextPoll + 10_000) await sleep(1000);
	const emitted = records(sim, 'task').map((r) => r.taskId);
	for (const id of triggerIds) assert.equal(emitted.filter((e) => e === id).length, 1, `task ${id} emitted ${emitted.filter((e) => e === id).length} times`);
	assert.equal(emitted.length, triggerIds.length, `unexpected emissions: ${emitted.join(', ')}`);
	return `${triggerIds.length} tasks, each once, on ${[...new Set(records(sim, 'task').map((r) => r.worker))].sort().join('+')}`;
}

/** Waits until a run started on a worker and its submits reached the gateway, then kills that worker. */
async function killDuringWait(cluster, sim, run, route, expected) {
	await until(`${run} started and submitted`, () => records(sim, 'start', run).length > 0 && submits(sim, route) >= expected, 60_000);
	const victim = records(sim, 'start', run)[0].worker;
	cluster.killWorker(victim);
	return victim;
}

/**
 * Wait for Completion in the node, its worker killed mid-wait. 1.x re-queues the execution and
 * runs it again from the start on the other worker: the submits are billed again and the first
 * tasks are orphaned. 2.x marks it failed ("failed to be processed too many times"), no re-run.
 * No node can tell its re-run from a first run (see docs/OPERATIONS.md, Queue mode), so this asserts n8n's
 * behaviour per line; the durable pattern (killDurable) is what avoids the second bill.
 */
async function killWait({ cluster, sim, line }) {
	sim.scenario('sora-2', { durationMs: 15_000 });
	const before = submits(sim, VIDEO_SUBMIT);
	await post(cluster, 'q-wait', { run: 'kill-wait', kind: 'video', count: 2 });
	const victim = await killDuringWait(cluster, sim, 'kill-wait', VIDEO_SUBMIT, before + 2);
	// The next check needs two workers again. On 1.x only after the re-run: a worker starting up
	// marks the executions it finds unfinished as crashed, before Bull re-queues the stalled job.
	const restarted = line.major >= 2 ? cluster.restartWorker(victim) : undefined;
	try {
		if (line.major >= 2) {
			await sleep(20_000); // four stalled-check intervals
			assert.equal(records(sim, 'start', 'kill-wait').length, 1, '2.x re-ran the killed execution');
			assert.equal(records(sim, 'end', 'kill-wait').length, 0, 'the killed execution ended');
			assert.equal(submits(sim, VIDEO_SUBMIT) - before, 2, 'submits after the kill');
			return `${victim} killed: not re-run, 2 submits (the execution is failed)`;
		}
		await until('the re-run ended', () => records(sim, 'end', 'kill-wait').length > 0, 90_000);
		const starts = records(sim, 'start', 'kill-wait').map((r) => r.worker);
		assert.deepEqual(starts, [victim, victim === 'w1' ? 'w2' : 'w1'], `starts: ${starts.join(', ')}`);
		assert.equal(submits(sim, VIDEO_SUBMIT) - before, 4, '1.x re-run: each video is submitted (and billed) twice');
		return `${victim} killed: re-run from the start on ${starts[1]}, 4 billed submits for 2 videos (n8n's behaviour on 1.x)`;
	} finally {
		await (restarted || cluster.restartWorker(victim));
	}
}

/** The kill checks each start with two live workers: a killed worker comes back before the next check. */
function needTwoLiveWorkers(cluster, check) {
	const dead = cluster.workers.filter((w) => w.killed).map((w) => w.name);
	if (dead.length) throw new Error(`${check} needs two live workers; ${dead.join(', ')} left dead by an earlier check`);
}

/**
 * The durable pattern: submit with Wait off (ids recorded at once), then collect. The collect's
 * worker is killed mid-wait; whatever n8n does then (1.x re-runs it, 2.x fails it and the next
 * collect run picks the ids up) there is no second submit.
 */
async function killDurable({ cluster, sim, line }) {
	sim.scenario('sora-2', { durationMs: 15_000 });
	const before = submits(sim, VIDEO_SUBMIT);
	await post(cluster, 'q-submit', { run: 'durable', count: 3 });
	await until('3 task ids recorded', () => records(sim, 'submitted', 'durable').length === 3, 60_000);
	const ids = records(sim, 'submitted', 'durable').map((r) => r.taskId);
	needTwoLiveWorkers(cluster, 'killDurable');
	await post(cluster, 'q-collect', { run: 'collect-1', ids });
	const victim = await killDuringWait(cluster, sim, 'collect-1', VIDEO_SUBMIT, before + 3);
	try {
		if (line.major < 2) {
			await until('the re-run collect ended', () => records(sim, 'collected', 'collect-1').length >= 3, 90_000);
		} else {
			await sleep(10_000);
			await post(cluster, 'q-collect', { run: 'collect-2', ids });
			await until('the next collect ended', () => records(sim, 'collected', 'collect-2').length >= 3, 90_000);
		}
		const collected = sim.find('POST', '/e2e/record', 'files').filter((r) => r.query.event === 'collected' && r.query.pending === 'false');
		assert.deepEqual([...new Set(collected.map((r) => r.query.taskId))].sort(), [...ids].sort(), 'every task collected');
		assert.equal(submits(sim, VIDEO_SUBMIT) - before, 3, 'double submits in the durable pattern');
		return `${victim} killed mid-collect; 3 tasks collected, 0 double submits`;
	} finally {
		// Only after the collect ended: on 1.x the restarted worker's start-up recovery would mark
		// the re-run, still running on the other worker, crashed (as in killWait).
		await cluster.restartWorker(victim);
	}
}

const mainLog = (cluster) => cluster.main.log();
const parkedIds = new Set();

/**
 * Posts a loop run (Wait `wait` seconds, default 70) and waits until it is parked: its execution is
 * `waiting` in n8n's database and main has seen the worker report the job done ("Execution N (job
 * J) finished" in main's log, both lines). Only then has the worker let go of it: a worker killed
 * between writing `waiting` and reporting leaves a stalled job, not a parked execution.
 * Returns { id, worker, job, waitTill (ms), since (main's log offset) }.
 */
async function parkLoop(cluster, sim, run, count, wait) {
	const before = submits(sim, VIDEO_SUBMIT);
	const since = mainLog(cluster).length;
	await post(cluster, 'q-loop', { run, count, ...(wait ? { wait } : {}) });
	await until(`${run} started and submitted`, () => records(sim, 'start', run).length > 0 && submits(sim, VIDEO_SUBMIT) >= before + count, 60_000);
	let id;
	const done = () => mainLog(cluster).slice(since).match(new RegExp(`Execution ${id} \\(job (\\d+)\\) finished`));
	const parked = async () => {
		if (!id) {
			// This run's execution: the newest qLoop one waiting that no earlier check parked.
			const rows = (await pgQuery(cluster.pg, `select id from execution_entity where "workflowId" = 'qLoop' and status = 'waiting' order by id desc`)).split('\n');
			id = rows.find((r) => r && !parkedIds.has(r));
		}
		return Boolean(id && done());
	};
	await until(`${run} parked in the Wait node (waiting in the database, its job done)`, parked, 60_000).catch(async (e) => {
		// What n8n's database says of the loop's executions, and whether main saw the job end.
		const rows = await pgQuery(cluster.pg, `select id || ' ' || status from execution_entity where "workflowId" = 'qLoop' order by id`);
		throw new Error(`${e.message}; qLoop executions: ${rows.split('\n').filter(Boolean).join(', ') || 'none'}; job of ${id ?? '(none waiting)'} finished in main's log: ${Boolean(id && done())}`);
	});
	parkedIds.add(id);
	const waitTill = Date.parse(JSON.parse(await pgQuery(cluster.pg, `select to_json("waitTill") from execution_entity where id = ${Number(id)}`)));
	assert.ok(Number.isFinite(waitTill), `execution ${id} is waiting with no wait time`);
	return { id, worker: records(sim, 'start', run)[0].worker, job: done()[1], waitTill, since };
}

const executionStatus = (cluster, id) => pgQuery(cluster.pg, `select status from execution_entity where id = ${Number(id)}`);

/** The jobs main queued to resume a parked execution (a new job for the same execution). */
const resumedJobs = (cluster, { id, job, since }) =>
	[...mainLog(cluster).slice(since).matchAll(new RegExp(`Enqueued execution ${id} \\(job (\\d+)\\)`, 'g'))].map((m) => m[1]).filter((j) => j !== job);

/**
 * The long-render loop (Wait node of 70 s between the submit and each check): the worker that
 * submitted is killed while the execution is parked in the database, and stays dead. Nothing of
 * the execution runs there, so there is nothing to re-run: main's wait tracker puts it back on the
 * queue when the wait is up, the other worker checks the tasks and the loop finishes; the gateway
 * sees one submit per item, on both lines.
 */
async function killParked({ cluster, sim }) {
	sim.scenario('sora-2', { durationMs: 20_000 });
	needTwoLiveWorkers(cluster, 'killParked');
	const before = submits(sim, VIDEO_SUBMIT);
	const parked = await parkLoop(cluster, sim, 'parked', 2);
	cluster.killWorker(parked.worker);
	try {
		// The Wait node's 70 s (main's wait tracker loads what is due within 70 s, once a minute), then a round.
		await until('both tasks came out of the loop', () => records(sim, 'looped', 'parked').length >= 2, 150_000);
		const looped = records(sim, 'looped', 'parked');
		assert.equal(new Set(looped.map((r) => r.taskId)).size, 2, `looped: ${JSON.stringify(looped)}`);
		assert.equal(records(sim, 'loopFailed', 'parked').length, 0, 'a task left the loop failed');
		assert.equal(records(sim, 'start', 'parked').length, 1, 'the execution was run again from the start');
		assert.equal(submits(sim, VIDEO_SUBMIT) - before, 2, 'submits of the parked loop');
		assert.ok(resumedJobs(cluster, parked).length > 0, `main did not put execution ${parked.id} back on the queue`);
		const resumedOn = [...new Set(looped.map((r) => r.worker))];
		assert.ok(!resumedOn.includes(parked.worker), `the loop resumed on the killed worker ${parked.worker}`);
		await until(`execution ${parked.id} success`, async () => (await executionStatus(cluster, parked.id)) === 'success', 30_000);
		return `${parked.worker} killed while parked (execution ${parked.id}); resumed on ${resumedOn.join('+')}, 2 tasks out of the loop, 2 submits for 2 videos`;
	} finally {
		await cluster.restartWorker(parked.worker);
	}
}

/**
 * The killed worker comes back while the loop is parked, as a restart policy brings it back, with
 * its n8n folder as it was. At start-up an n8n worker reads its own event log (<user folder>/.n8n/
 * n8nEventLog-worker*.log) and "recovers" every execution there that the log does not show ended,
 * which on a worker is every one; for one not yet success/error/canceled n8n's recovery writes
 * `crashed` and then saves the run again through the execution hooks, which save a run with a
 * wait time as `waiting` (both lines). So the parked execution must still be waiting after the
 * restart, and resume and finish as in killParked, with one submit per item. The restart completes
 * before the Wait's 90 s are up, as a restart policy does; a recovery that overlaps the resumed
 * round is a different race.
 */
async function restartParked({ cluster, sim }) {
	sim.scenario('sora-2', { durationMs: 20_000 });
	needTwoLiveWorkers(cluster, 'restartParked');
	const before = submits(sim, VIDEO_SUBMIT);
	const parked = await parkLoop(cluster, sim, 'parked-restart', 1, 90);
	const worker = cluster.workers.find((w) => w.name === parked.worker);
	const logBefore = worker.server.log().length;
	cluster.killWorker(parked.worker);
	await cluster.restartWorker(parked.worker);
	if (Date.now() > parked.waitTill - 10_000) throw new Error(`the restart of ${parked.worker} took until the parked execution was due: no test of a restart while parked`);
	// The recovery runs during start-up; n8n logs the ids it "recovered" when it is done.
	const listed = new RegExp(`Found unfinished executions: [\\d, ]*\\b${parked.id}\\b`);
	const recovered = await until('the restarted worker listed the parked execution as unfinished', () => listed.test(worker.server.log().slice(logBefore)), 15_000).then(() => true, () => false);
	assert.equal(await executionStatus(cluster, parked.id), 'waiting', `execution ${parked.id} after ${parked.worker} started again`);
	await until('the loop came out after the restart', () => records(sim, 'looped', 'parked-restart').length >= 1, 150_000);
	await until(`execution ${parked.id} success`, async () => (await executionStatus(cluster, parked.id)) === 'success', 30_000);
	assert.ok(resumedJobs(cluster, parked).length > 0, `main did not put execution ${parked.id} back on the queue`);
	assert.equal(records(sim, 'loopFailed', 'parked-restart').length, 0, 'a task left the loop failed');
	assert.equal(records(sim, 'start', 'parked-restart').length, 1, 'the execution was run again from the start');
	assert.equal(submits(sim, VIDEO_SUBMIT) - before, 1, 'submits of the parked loop');
	const resumedOn = records(sim, 'looped', 'parked-restart')[0].worker;
	return `${parked.worker} killed while parked and started again (its recovery ${recovered ? 'listed' : 'did not list'} execution ${parked.id}): still waiting, resumed on ${resumedOn}, 1 submit for 1 video`;
}

module.exports = { batches, trigger, killWait, killDurable, killParked, restartParked, records };
