'use strict';
/*
 * The scheduled-batch example pair (examples/scheduled-batch-submit.json and -collect.json) in a
 * running n8n with a real Data table: 30 rows `new`, Submit once, Collect three times.
 *
 * The simulator spreads the 30 tasks' times (durationMs [min, max]) so that some finish before the
 * first Collect, some between the runs and the rest before the last, and fails every 6th. The
 * examples run as shipped except for what ties them to this n8n (the table id, the credential) and
 * a shorter Max Wait in Check Tasks (6 s instead of 30 s, to keep the check short).
 *
 * Asserted from the table and the simulator: exactly 30 submits (also after a second Submit run),
 * one task per row, each id in the Submit execution's output; after each
 * Collect a row is `done` (with its task's URL) only if its task succeeded, `failed` (with the
 * gateway's reason and the task id) only if it failed, and `submitted` only if its task was still
 * running when Collect last looked; a finished row's task is never queried or downloaded again.
 *
 * Needs `n8n start` (the Data table module does not load under `n8n execute`). On a line whose
 * n8n-nodes-base has no Data table node the check is skipped with a message.
 */
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');

const n8n = require('../n8n');
const cli = require('./cli');
const pkg = require('./package');
const rest = require('./rest-workflows');
const { nodeOutput } = require('./rundata');
const { assertRunMatchesSchemas } = require('../schemas');

const NAME = 'scheduled-batch';
const EXAMPLES = path.join(pkg.REPO_ROOT, 'examples');
const ROWS = 30;
const MODEL = 'nano-banana';
const FAIL_MESSAGE = 'content policy violation (simulated)';
const SCENARIO = { durationMs: [1500, 40_000], failEvery: 6, failMessage: FAIL_MESSAGE };
/** When each Collect starts, counted from the first submit (ms). */
const COLLECT_AT = [0, 24_000, 48_000];
const MAX_WAIT_MIN = 0.1;
const COLUMNS = ['prompt', 'status', 'taskId', 'resultUrl', 'reason'].map((name) => ({ name, type: 'string' }));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const selected = (filters) => !filters.length || filters.some((f) => NAME.includes(f));

function hasDataTableNode(version) {
	return fs.existsSync(path.join(n8n.n8nLine(version).dir, 'node_modules', 'n8n-nodes-base', 'dist', 'nodes', 'DataTable', 'DataTable.node.js'));
}

/** The shipped example, tied to this n8n: the table, the credential, saved manual runs, a short Max Wait. */
function exampleFor(name, table, credential = { id: cli.CRED_ID, name: cli.CRED_NAME }) {
	const workflow = JSON.parse(fs.readFileSync(path.join(EXAMPLES, `${name}.json`), 'utf8'));
	workflow.settings = { ...workflow.settings, saveManualExecutions: true, saveDataSuccessExecution: 'all', saveDataErrorExecution: 'all' };
	for (const node of workflow.nodes) {
		if (node.type === 'n8n-nodes-base.dataTable') node.parameters.dataTableId = { __rl: true, mode: 'id', value: table.id };
		if (node.credentials?.unifiedAiGatewayApi) node.credentials.unifiedAiGatewayApi = { id: credential.id, name: credential.name };
		if (node.parameters.operation === 'waitForCompletion') node.parameters.waiting = { ...node.parameters.waiting, maxWaitMinutes: MAX_WAIT_MIN };
	}
	return workflow;
}

const byTask = (rows) => new Map(rows.map((row) => [row.taskId, row]));
const queriesOf = (sim, taskId, from, to) => sim.requests.filter((r) => r.method === 'GET' && r.origin !== 'files' && r.path.includes(taskId) && r.at >= from && r.at <= to);
const downloadsOf = (sim, url) => sim.requests.filter((r) => r.origin === 'files' && r.method === 'GET' && r.path === new URL(url).pathname);

async function runOk(api, workflow, version) {
	const execution = await rest.runFromTrigger(api, workflow, 'Run Now', { version });
	const error = execution.run?.resultData?.error;
	assert.equal(execution.status, 'success', `"${workflow.name}" ended ${execution.status}${error ? `: ${error.message}` : ''}`);
	assertRunMatchesSchemas({ data: execution.run }, workflow.nodes);
	return execution;
}

/** After Collect k (its requests between from and to): every row says what its task is, and why. */
function checkRowsAfterCollect(sim, rows, k, window, finalized) {
	for (const row of rows) {
		const task = sim.task(row.taskId);
		const queries = queriesOf(sim, row.taskId, window.from, window.to);
		if (finalized.has(row.taskId)) {
			assert.equal(queries.length, 0, `collect ${k} queried ${row.taskId} again, though its row was ${finalized.get(row.taskId).status} after collect ${finalized.get(row.taskId).k}`);
			continue;
		}
		if (row.status === 'submitted') {
			const lastLook = Math.max(...queries.map((r) => r.at));
			assert.ok(queries.length > 0, `collect ${k} did not look at ${row.taskId} (row ${row.id})`);
			assert.ok(task.finishedAt === undefined || task.finishedAt > lastLook, `row ${row.id} stayed submitted after collect ${k}, but ${row.taskId} had ${task.status} before its last query`);
			continue;
		}
		if (row.status === 'done') {
			assert.equal(task.status, 'completed', `row ${row.id} is done but ${row.taskId} is ${task.status}`);
			assert.equal(row.resultUrl, task.urls[0], `row ${row.id}: resultUrl`);
		} else {
			assert.equal(row.status, 'failed', `row ${row.id} has status ${row.status} after collect ${k}`);
			assert.equal(task.status, 'failed', `row ${row.id} is failed but ${row.taskId} is ${task.status}`);
			assert.ok(row.reason.includes(FAIL_MESSAGE) && row.reason.includes(row.taskId), `row ${row.id}: reason "${row.reason}"`);
		}
		finalized.set(row.taskId, { k, status: row.status });
	}
}

async function scenario(ctx, api, table, workflows) {
	const { sim, version } = ctx;
	sim.reset();
	sim.scenario(MODEL, SCENARIO);
	await rest.insertRows(api, table, Array.from({ length: ROWS }, (_, i) => ({ prompt: `Poster ${i + 1}: a lighthouse at dawn, watercolor`, status: 'new' })));

	const submitted = await runOk(api, workflows.submit, version);
	const submits = () => sim.requests.filter((r) => r.method === 'POST' && r.path === '/v1/images/generations');
	assert.equal(submits().length, ROWS, `${submits().length} image submits for ${ROWS} new rows`);
	let rows = await rest.tableRows(api, table);
	assert.deepEqual([...new Set(rows.map((r) => r.status))], ['submitted'], `after Submit: ${JSON.stringify(rows.slice(0, 3))}`);
	assert.equal(byTask(rows).size, ROWS, 'each row has its own task id');
	for (const row of rows) assert.ok(sim.task(row.taskId), `row ${row.id}: ${row.taskId} is not a task the gateway created`);
	// Where the sticky note sends a user whose row stayed `submitting`: the execution's Submit Images output.
	const inExecution = nodeOutput({ data: submitted.run }, 'Submit Images').map((j) => j.taskId);
	assert.deepEqual([...inExecution].sort(), rows.map((r) => r.taskId).sort(), 'the Submit execution shows every row\'s task id');
	// A second Submit the same night finds no `new` row: nothing is paid twice.
	await runOk(api, workflows.submit, version);
	assert.equal(submits().length, ROWS, 'a second Submit run submitted rows again');

	const t0 = submits()[0].at;
	const finalized = new Map();
	const counts = [];
	for (const [k, at] of COLLECT_AT.entries()) {
		await sleep(Math.max(0, t0 + at - Date.now()));
		const from = Date.now();
		await runOk(api, workflows.collect, version);
		rows = await rest.tableRows(api, table);
		checkRowsAfterCollect(sim, rows, k + 1, { from, to: Date.now() }, finalized);
		counts.push(finalized.size - counts.reduce((a, b) => a + b, 0));
	}

	const statuses = rows.map((r) => r.status);
	assert.ok(statuses.every((s) => s === 'done' || s === 'failed'), `after 3 collects: ${JSON.stringify(statuses)}`);
	assert.ok(counts[0] > 0 && counts[1] > 0, `rows finished per collect: ${counts.join(', ')} (the first two must each finish some)`);
	const failed = rows.filter((r) => r.status === 'failed').length;
	assert.ok(failed > 0, 'no row failed');
	for (const row of rows.filter((r) => r.status === 'done')) {
		assert.equal(downloadsOf(sim, row.resultUrl).length, 1, `${row.taskId}'s image was downloaded ${downloadsOf(sim, row.resultUrl).length} times`);
	}
	assert.equal(sim.requests.filter((r) => r.method === 'POST' && r.path === '/v1/images/generations').length, ROWS, 'a collect submitted something');
	return `submits=${ROWS} collected per run=${counts.join('/')} done=${ROWS - failed} failed=${failed}`;
}

/**
 * The check in a started n8n, beside the others it serves: ctx = { api (logged in), sim (its own
 * simulator), version, credential ({ id, name } of the gateway credential on that simulator) }.
 * Resolves with its note; hasDataTableNode(version) says first whether the line can run it.
 */
async function runScheduledBatch(ctx) {
	const { api } = ctx;
	const table = await rest.createDataTable(api, await rest.personalProjectId(api), 'ai_images', COLUMNS);
	const workflows = {
		submit: await rest.createWorkflow(api, exampleFor('scheduled-batch-submit', table, ctx.credential)),
		collect: await rest.createWorkflow(api, exampleFor('scheduled-batch-collect', table, ctx.credential)),
	};
	return await scenario(ctx, api, table, workflows);
}

const LABEL = `${NAME} (Data table, ${ROWS} rows, Submit once, Collect 3 times)`;

module.exports = { NAME, LABEL, selected, hasDataTableNode, runScheduledBatch, exampleFor };
