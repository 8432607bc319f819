'use strict';
/*
 * Stop keeps every task id, in a real n8n (`node test/e2e/stop-keeps-ids.js`, after `npm run build`).
 *
 * 1. `n8n start` with the packed package; a Webhook workflow submits 3 long video tasks and waits.
 * 2. The execution is stopped through n8n's REST API (what the Stop button calls).
 * 3. The ids are looked up where a user finds them without server logs: the stopped execution's
 *    custom data (GET /rest/executions/:id); and in n8n's log (info level, with the execution id).
 * 4. Task → Wait for Completion, fed those ids, collects all three in the same n8n (run as the
 *    editor runs a workflow): no second video submit.
 *
 * The n8n line is N8N_VERSION (default 1.123.81; 2.41.1 for 2.x), installed as the e2e runner does;
 * `node test/e2e/lifecycle.js` runs this check beside restart and kill on one n8n.
 */
const assert = require('node:assert/strict');

const e2e = require('./run-e2e');
const cli = require('./cli');
const rest = require('./rest-workflows');
const { restJson } = require('../n8n');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const TASKS = 3;
const VIDEO_SUBMIT = /^\/v1\/(videos|video\/generations)$/;
const CRED = { unifiedAiGatewayApi: { id: '{{CRED_ID}}', name: '{{CRED_NAME}}' } };

const submitWorkflow = {
	id: 'e2eStopKeepsIds',
	name: 'stop keeps ids',
	active: false,
	settings: { executionOrder: 'v1', saveManualExecutions: true, saveDataSuccessExecution: 'all', saveDataErrorExecution: 'all' },
	nodes: [
		{ id: 'w', name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: 'e2e-stop-keeps-ids', parameters: { httpMethod: 'POST', path: 'stop-keeps-ids', responseMode: 'onReceived' } },
		{ id: 's', name: 'Prompts', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [200, 0], parameters: { fieldToSplitOut: 'body.prompts', options: { destinationFieldName: 'prompt' } } },
		{
			id: 'g', name: 'Make Videos', type: 'n8n-nodes-unified-ai-gateway.unifiedAiGateway', typeVersion: 1, position: [400, 0], credentials: CRED,
			parameters: { resource: 'video', operation: 'generate', modelId: { __rl: true, mode: 'id', value: 'sora-2' }, prompt: '={{ $json.prompt }}', waiting: { pollIntervalSeconds: 1, maxWaitMinutes: 30 } },
		},
	],
	connections: { Webhook: { main: [[{ node: 'Prompts', type: 'main', index: 0 }]] }, Prompts: { main: [[{ node: 'Make Videos', type: 'main', index: 0 }]] } },
};

function resumeWorkflow(ids, route) {
	return {
		id: 'e2eResumeIds',
		name: 'resume ids',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{ id: 'm', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: 'j', name: 'Ids From Custom Data', type: 'n8n-nodes-base.set', typeVersion: 3.4, position: [100, 0], parameters: { mode: 'raw', jsonOutput: JSON.stringify({ ids }), options: {} } },
			{ id: 's', name: 'Ids', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [200, 0], parameters: { fieldToSplitOut: 'ids', options: { destinationFieldName: 'taskId' } } },
			{
				id: 'g', name: 'Wait', type: 'n8n-nodes-unified-ai-gateway.unifiedAiGateway', typeVersion: 1, position: [400, 0], credentials: CRED,
				parameters: { resource: 'task', operation: 'waitForCompletion', taskId: '={{ $json.taskId }}', queryRoute: route, waiting: { pollIntervalSeconds: 1, maxWaitMinutes: 2 } },
			},
		],
		connections: {
			Start: { main: [[{ node: 'Ids From Custom Data', type: 'main', index: 0 }]] },
			'Ids From Custom Data': { main: [[{ node: 'Ids', type: 'main', index: 0 }]] }, Ids: { main: [[{ node: 'Wait', type: 'main', index: 0 }]] } },
	};
}

/** The ids our receipts wrote into custom data, per query route, from the execution as n8n's REST API returns it. */
function idsInCustomData(execution) {
	const found = {};
	const customData = execution.customData ?? {};
	for (const [key, value] of Object.entries(customData)) {
		const match = /^gateway_.+_(generic|image|video|alt)(?:_\d+)?$/.exec(key);
		if (match) found[match[1]] = [...(found[match[1]] ?? []), ...String(value).split(' ')];
	}
	return { found, customData };
}

/** The check (test/e2e/lifecycle.js runs it, alone or beside the others): n8n started at info, its workflow published. */
const check = {
	name: 'stop keeps ids',
	key: 'stop',
	workflows: [submitWorkflow],
	publish: [submitWorkflow.id],
	// The node's trail of created task ids is at info: the check reads it in n8n's log.
	logLevel: 'info',
	async run({ instance, sim, version, vars }) {
		const n8n = instance.n8n;
		const api = () => ({ baseUrl: instance.n8n.baseUrl, cookie: instance.cookie });
		const logFrom = n8n.log().length;
		sim.scenario('*', { durationMs: 45_000 });
		const hook = await fetch(`${n8n.baseUrl}/webhook/stop-keeps-ids`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ prompts: Array.from({ length: TASKS }, (_, i) => `a paper boat, take ${i}`) }),
		});
		assert.equal(hook.status, 200, `webhook answered ${hook.status}: ${await hook.text()}`);

		// Submits answered and the wait under way (a few polls), then Stop.
		const submits = () => sim.requests.filter((r) => r.method === 'POST' && VIDEO_SUBMIT.test(r.path)).length;
		for (let t = 0; submits() < TASKS || sim.requests.filter((r) => r.method === 'GET').length < TASKS; t++) {
			assert.ok(t < 240, `the workflow did not submit ${TASKS} videos within 60 s (submits: ${submits()})`);
			await sleep(250);
		}
		await sleep(1500);
		const filter = encodeURIComponent(JSON.stringify({ workflowId: submitWorkflow.id }));
		const list = await restJson(n8n.baseUrl, 'GET', `/rest/executions?filter=${filter}&limit=10`, undefined, instance.cookie);
		const running = (list.json.results ?? list.json).find((e) => e.workflowId === submitWorkflow.id && e.mode !== 'integrated' && ['running', 'new'].includes(e.status));
		assert.ok(running, `no running execution of the workflow: ${JSON.stringify(list.json).slice(0, 400)}`);
		await restJson(n8n.baseUrl, 'POST', `/rest/executions/${running.id}/stop`, {}, instance.cookie);
		let execution;
		for (let t = 0; ; t++) {
			execution = (await restJson(n8n.baseUrl, 'GET', `/rest/executions/${running.id}`, undefined, instance.cookie)).json;
			if (!['running', 'new'].includes(execution.status)) break;
			assert.ok(t < 60, 'the stopped execution never left "running"');
			await sleep(500);
		}
		console.log(`      execution ${running.id} stopped: status ${execution.status}`);

		const { found, customData } = idsInCustomData(execution);
		const routes = Object.keys(found);
		assert.equal(routes.length, 1, `custom data of the stopped execution holds no task ids: ${JSON.stringify(customData)}`);
		const [route] = routes;
		const ids = found[route];
		assert.equal(new Set(ids).size, TASKS, `expected ${TASKS} ids in custom data, got ${JSON.stringify(customData)}`);
		for (const id of ids) assert.ok(sim.task(id), `custom data names ${id}, which the gateway never created`);
		console.log(`      custom data of the stopped execution: ${JSON.stringify(customData)}`);

		const log = n8n.log().slice(logFrom);
		for (const id of ids) {
			assert.match(log, new RegExp(`execution ${running.id} node "Make Videos" item \\d created video job task ${id}`), `n8n's log lacks ${id}`);
		}
		assert.ok(!log.includes(e2e.SIM_API_KEY), 'the API key is in n8n\'s log');
		assert.ok(!JSON.stringify(execution).includes(e2e.SIM_API_KEY), 'the API key is in the execution');
		console.log(`      n8n's log names every id with execution ${running.id} and its item`);

		// Resume: Task → Wait for Completion over the ids from custom data, run as the editor runs it;
		// nothing is submitted again.
		const before = submits();
		const resume = await rest.createWorkflow(api(), cli.loadWorkflow(resumeWorkflow(ids, route), vars));
		const resumed = await rest.executeInServer(api(), resume, { version, timeoutMs: 180_000 });
		assert.ok(resumed.ok, `the resume run failed: ${resumed.error ?? ''}`);
		const out = e2e.nodeOutput(resumed.run, 'Wait');
		assert.deepEqual(out.map((j) => [j.taskId, j.state]), ids.map((id) => [id, 'succeeded']));
		assert.equal(submits(), before, 'resuming submitted a video again');
		console.log(`      Task → Wait for Completion collected all ${TASKS} (${route} route); video submits stay at ${before}`);
		return `stop-keeps-ids n8n=${version} ids_kept=${ids.length}/${TASKS} second_submits=0`;
	},
};

if (require.main === module) e2e.runAsScript(() => require('./lifecycle').runChecks([check], { prefix: 'e2e-stop-ids-' }));
module.exports = { check };
