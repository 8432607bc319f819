'use strict';
/*
 * A long render survives an n8n restart (`npm run test:e2e:restart`, N8N_VERSION = the line).
 *
 * examples/long-render-loop.json as shipped, but started by a Webhook (a production execution of an
 * active workflow) instead of its Manual Trigger, with the credential of this n8n and the Wait node
 * at 120 s (n8n parks a wait of 70 s or more in its database rather than sleeping in the process;
 * 120 s leaves a busy machine two minutes to start n8n again before the execution is due):
 * Submit Videos (Wait for Completion off) → Wait → Check Once → Still Running? → back to Wait, or
 * Finished Videos; failed tasks leave Check Once by its error output to Failed Videos.
 *
 * 1. `n8n start`, the webhook is called with 3 prompts; the simulator gives their tasks 20 s, 180 s
 *    and 81 s (durationMs [20 s, 280 s], golden-ratio steps) and fails the third.
 * 2. Once the execution is `waiting` (parked in the Wait node), n8n is stopped: SIGTERM, 2 s, then
 *    SIGKILL of its whole process group.
 * 3. n8n is started again on the same user folder (its database): the execution resumes by itself,
 *    checks each task once, loops the one still running back through the Wait node, and finishes.
 *
 * Asserted: the execution ends `success`; Finished Videos holds the two finished videos with their
 * files (MP4 bytes from n8n's binary store), Failed Videos the failed task named in its error;
 * the gateway saw exactly one submit per item (3), the loop went round at least twice, and no task
 * was read while n8n was down, and n8n was up again before the execution was due (else the check
 * says it could not test a restart while parked: n8n resumes an execution due during its start-up
 * in the middle of it, and 1.123 and 2.41 were seen to mark it crashed then). Takes about 4.5
 * minutes per line (two 120-s waits and two start-ups).
 */
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const e2e = require('./run-e2e');
const { restJson } = require('../n8n');
const rest = require('./rest-workflows');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const EXAMPLE = path.join(e2e.REPO_ROOT, 'examples', 'long-render-loop.json');
const PROMPTS = ['a paper boat on a rainy street', 'a lighthouse at dawn', 'waves at night'];
const VIDEO_SUBMIT = /^\/v1\/(videos|video\/generations)$/;
const PARK_SECONDS = 120;
const HOOK = 'long-render-loop';

/** The shipped loop, tied to this n8n: a Webhook start, this credential, the shortest parking wait. */
function loopWorkflow() {
	const workflow = JSON.parse(fs.readFileSync(EXAMPLE, 'utf8'));
	workflow.id = 'e2eRestartLoop';
	workflow.settings = { ...workflow.settings, saveDataSuccessExecution: 'all', saveDataErrorExecution: 'all', saveExecutionProgress: true };
	const start = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	const prompts = workflow.nodes.find((n) => n.name === 'Prompts');
	assert.ok(start && prompts, 'the example lost its Start / Prompts nodes');
	workflow.nodes = workflow.nodes.filter((n) => n !== start && n !== prompts);
	workflow.nodes.push({
		id: 'e2e-webhook', name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: 'e2e-restart-loop',
		parameters: { httpMethod: 'POST', path: HOOK, responseMode: 'onReceived' },
	});
	delete workflow.connections[start.name];
	delete workflow.connections[prompts.name];
	workflow.connections.Webhook = { main: [[{ node: 'One Item per Prompt', type: 'main', index: 0 }]] };
	for (const node of workflow.nodes) {
		if (node.name === 'One Item per Prompt') node.parameters.fieldToSplitOut = 'body.prompts';
		if (node.type === 'n8n-nodes-base.wait') Object.assign(node.parameters, { amount: PARK_SECONDS, unit: 'seconds' });
		if (node.credentials?.unifiedAiGatewayApi) node.credentials.unifiedAiGatewayApi = { id: '{{CRED_ID}}', name: '{{CRED_NAME}}' };
	}
	return workflow;
}

async function execution(api, id) {
	return (await restJson(api.baseUrl, 'GET', `/rest/executions/${id}`, undefined, api.cookie)).json;
}

/** Every item a node output on `output` over all its runs (a node in a loop runs once per round). */
function allItems(run, nodeName, output = 0) {
	const runs = run.resultData.runData[nodeName] ?? [];
	return runs.flatMap((r) => (r.data?.main?.[output] ?? []));
}

/** The check (test/e2e/lifecycle.js runs it, alone or beside the others): n8n started, its workflow published. */
const check = {
	name: 'restart resumes a parked render',
	key: 'restart',
	workflows: [loopWorkflow()],
	publish: ['e2eRestartLoop'],
	// It reads no log: n8n's level stays whatever the check before left.
	logLevel: undefined,
	async run({ instance, sim, version }) {
		const started = Date.now();
		const workflowId = 'e2eRestartLoop';
		const { userFolder } = instance;
		sim.scenario('*', { durationMs: [20_000, 280_000], failEvery: 3, failMessage: 'content policy (simulated)' });
		let n8n = instance.n8n;
		let api = { baseUrl: n8n.baseUrl, cookie: instance.cookie };
		const hook = await fetch(`${n8n.baseUrl}/webhook/${HOOK}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ prompts: PROMPTS }),
		});
		assert.equal(hook.status, 200, `webhook answered ${hook.status}: ${await hook.text()}`);

		// Parked: the execution is `waiting` in the database, nothing of it runs in the process.
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		let parked;
		for (let t = 0; !parked; t++) {
			assert.ok(t < 120, 'the execution never parked in the Wait node within 60 s');
			await sleep(500);
			const list = await restJson(api.baseUrl, 'GET', `/rest/executions?filter=${filter}&limit=10`, undefined, api.cookie);
			parked = (list.json.results ?? list.json).find((e) => e.workflowId === workflowId && e.status === 'waiting');
		}
		const submits = () => sim.requests.filter((r) => r.method === 'POST' && VIDEO_SUBMIT.test(r.path));
		assert.equal(submits().length, PROMPTS.length, `expected ${PROMPTS.length} submits before the wait, saw ${submits().length}`);
		console.log(`      execution ${parked.id} parked in the Wait node after ${PROMPTS.length} submits (${Math.round((Date.now() - started) / 1000)} s)`);

		// When the Wait is up: n8n must be running again before then for this to test a restart while parked.
		const due = Date.parse((await execution(api, parked.id)).waitTill ?? '');
		await instance.kill();
		const downAt = Date.now();
		console.log('      n8n stopped (SIGTERM, then SIGKILL)');
		await sleep(3000);
		const readsWhileDown = sim.requests.filter((r) => r.method === 'GET' && r.at >= downAt).length;

		n8n = await instance.start({ login: 'existing' });
		const upAt = Date.now();
		api = { baseUrl: n8n.baseUrl, cookie: instance.cookie };
		console.log(`      n8n started again (${Math.round(n8n.startMs / 1000)} s)`);
		assert.equal(readsWhileDown, 0, 'a task was read while n8n was down');
		if (!(upAt < due)) {
			throw new Error(`n8n took until ${Math.round((upAt - downAt) / 1000)} s after the kill to start again, past the ${PARK_SECONDS}-s Wait of execution ${parked.id} (due ${Number.isFinite(due) ? `${Math.round((due - downAt) / 1000)} s after the kill` : 'at an unknown time'}): no test of a restart while parked`);
		}

		let finished;
		for (let t = 0; ; t++) {
			finished = await execution(api, parked.id);
			if (!['new', 'running', 'waiting'].includes(finished.status)) break;
			assert.ok(t < 900, `execution ${parked.id} still ${finished.status} 450 s after the restart`);
			await sleep(500);
		}
		const run = rest.parseRunData(finished.data, version);
		const error = run.resultData?.error;
		assert.equal(finished.status, 'success', `the resumed execution ended ${finished.status}${error ? `: ${error.message}` : ''}`);

		// What the gateway saw: one submit per item, ever; the checks came after the restart.
		assert.equal(submits().length, PROMPTS.length, `the gateway saw ${submits().length} submits for ${PROMPTS.length} items`);
		const checks = sim.requests.filter((r) => r.method === 'GET' && r.origin !== 'files' && r.at >= upAt);
		assert.ok(checks.length >= PROMPTS.length + 1, `expected every task checked (and one twice) after the restart, saw ${checks.length} reads`);
		const rounds = (run.resultData.runData['Check Once'] ?? []).length;
		assert.ok(rounds >= 2, `the loop went round ${rounds} time(s); the 180-s task should have come back pending once`);

		// What the user sees: the finished videos with their files, the failed one by name.
		const done = allItems(run, 'Finished Videos');
		const failed = allItems(run, 'Failed Videos');
		const tasks = [...new Set([...done, ...failed].map((i) => i.json.taskId ?? /task_\w+/.exec(i.json.error ?? '')?.[0]))];
		assert.equal(done.length, 2, `Finished Videos: ${JSON.stringify(done.map((i) => i.json))}`);
		for (const item of done) {
			assert.equal(sim.task(item.json.taskId)?.status, 'completed', `${item.json.taskId} is not a finished task of the gateway`);
			assert.equal(item.json.pending, false);
			assert.ok(item.binary?.data, `finished video ${item.json.taskId} has no file`);
			const bytes = e2e.binaryBuffer({ userFolder }, item.binary.data);
			assert.equal(bytes.toString('ascii', 4, 8), 'ftyp', `the file of ${item.json.taskId} is not an MP4`);
		}
		assert.equal(failed.length, 1, `Failed Videos: ${JSON.stringify(failed.map((i) => i.json))}`);
		assert.match(String(failed[0].json.error), /^Task task_\w+ failed: content policy \(simulated\)/);
		assert.equal(tasks.length, PROMPTS.length, `the outputs name ${tasks.length} distinct tasks`);
		for (const id of tasks) assert.ok(sim.task(id), `the outputs name ${id}, which the gateway never created`);
		assert.ok(!JSON.stringify(finished).includes(e2e.SIM_API_KEY), 'the API key is in the execution');

		const seconds = Math.round((Date.now() - started) / 1000);
		console.log(`      execution ${parked.id} resumed after the restart and finished: 2 videos with files, 1 failed, ${rounds} checks of the loop`);
		return `restart-resumes n8n=${version} submits=${submits().length}/${PROMPTS.length} rounds=${rounds} seconds=${seconds}`;
	},
};

if (require.main === module) e2e.runAsScript(() => require('./lifecycle').runChecks([check], { prefix: 'e2e-restart-' }));
module.exports = { check };
