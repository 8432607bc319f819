'use strict';
/*
 * What the editor does through n8n's REST API, for checks that need a running n8n (`n8n start`):
 * Data tables (create, insert, list rows), workflows (create, run by hand from a named trigger)
 * and the finished execution. `n8n execute` cannot run these workflows: it never starts n8n's
 * modules, so a Data table node fails there with "the module is disabled" (1.123 and 2.41 alike).
 * Every call takes the logged-in `api` = { baseUrl, cookie } (test/n8n/rest.js setupOwnerAndLogin).
 */
const path = require('path');

const n8n = require('../n8n');
const { runFailure } = require('./cli');

const { redact } = n8n;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const call = (api, method, route, body) => n8n.restJson(api.baseUrl, method, route, body, api.cookie).then((r) => r.json);

async function personalProjectId(api) {
	return (await call(api, 'GET', '/rest/projects/personal')).id;
}

/** A data table in the project; columns: [{ name, type: 'string' | 'number' | 'boolean' | 'date' }]. */
async function createDataTable(api, projectId, name, columns) {
	return await call(api, 'POST', `/rest/projects/${projectId}/data-tables`, { name, columns });
}

async function insertRows(api, table, rows) {
	return await call(api, 'POST', `/rest/projects/${table.projectId}/data-tables/${table.id}/insert`, { data: rows, returnType: 'id' });
}

/** Every row of the table, by id. */
async function tableRows(api, table) {
	const page = await call(api, 'GET', `/rest/projects/${table.projectId}/data-tables/${table.id}/rows?take=1000&skip=0`);
	return [...(page.data ?? page)].sort((a, b) => a.id - b.id);
}

/** Saves a workflow as the editor does; returns it with the id n8n gave it. */
async function createWorkflow(api, workflow) {
	const { id, ...body } = workflow;
	return await call(api, 'POST', '/rest/workflows', { ...body, active: false });
}

/**
 * The editor's "Execute workflow" from the trigger `triggerName`, then the finished execution
 * (its run data parsed). 1.x reads the workflow from the body, 2.x from its database copy; 2.x
 * ignores workflowData, 1.x ignores nothing it needs: one body fits both lines.
 */
async function runFromTrigger(api, workflow, triggerName, { version, timeoutMs = 120_000 } = {}) {
	const started = await call(api, 'POST', `/rest/workflows/${workflow.id}/run`, {
		workflowData: workflow,
		triggerToStartFrom: { name: triggerName },
	});
	const executionId = started.executionId;
	if (!executionId) throw new Error(`the manual run of "${workflow.name}" started no execution: ${JSON.stringify(started).slice(0, 300)}`);
	const until = Date.now() + timeoutMs;
	for (let broken = 0; ; ) {
		// A read that got no answer at all (a busy n8n dropped the connection) is read again.
		const execution = await call(api, 'GET', `/rest/executions/${executionId}`).catch((error) => {
			if (!error.network || ++broken > 5) throw Object.assign(error, { executionId });
			return undefined;
		});
		const ended = execution && !['new', 'running', 'waiting'].includes(execution.status) && execution.data;
		const run = ended ? parseRunData(execution.data, version) : undefined;
		// n8n 1.x on SQLite writes an ended execution's status and its run data one after the other,
		// not in one transaction: until the second write the data is still the one of its start.
		if (run && complete(run)) return { ...execution, run };
		if (Date.now() > until) {
			throw Object.assign(new Error(`execution ${executionId} of "${workflow.name}" did not finish within ${timeoutMs / 1000}s`), { executionId });
		}
		await sleep(300);
	}
}

/** Run data as an ended execution leaves it: some node ran, or the run failed. */
const complete = (run) => Boolean(run.resultData && (Object.keys(run.resultData.runData ?? {}).length || run.resultData.error));

/** The name of a workflow's Manual Trigger: where the editor's "Execute workflow" starts. */
function manualTriggerOf(workflow) {
	const trigger = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger' && !node.disabled);
	if (!trigger) throw new Error(`workflow ${workflow.id} has no Manual Trigger to run it from`);
	return trigger.name;
}

/**
 * An imported workflow run in a started n8n as the editor's "Execute workflow" runs it (from its
 * Manual Trigger), read back the way `n8n execute --rawOutput` gives it (cli.executeWorkflow): one
 * n8n serves every run instead of a start-up of n8n per workflow.
 * options: { version, timeoutMs, log: () => n8n's log so far (its growth while the run lasted is
 * `stdout`, where the CLI printed its log) }
 * Resolves with { ok, run: { data, status, finished, mode, startedAt, stoppedAt }, error, stdout,
 * stderr: '', ms, executionId }. A run past timeoutMs is stopped and reported as timed out.
 */
async function executeInServer(api, workflow, { version, timeoutMs = 180_000, log = () => '' } = {}) {
	const from = log().length;
	const started = Date.now();
	const result = (fields) => ({ stdout: log().slice(from), stderr: '', ms: Date.now() - started, ...fields });
	let execution;
	try {
		execution = await runFromTrigger(api, workflow, manualTriggerOf(workflow), { version, timeoutMs });
	} catch (error) {
		// Nothing of a failed run goes on beside the next one (its requests would reach that one's simulator).
		await stopRunning(api, workflow.id, error.executionId);
		return result({ ok: false, error: redact(error.message) });
	}
	const run = { data: execution.run, status: execution.status, finished: execution.finished, mode: execution.mode, startedAt: execution.startedAt, stoppedAt: execution.stoppedAt };
	const failed = execution.run?.resultData ? runFailure(run) : `execution ${execution.id} ended ${execution.status} with no run data`;
	return result({ ok: !failed, run: execution.run?.resultData ? run : undefined, error: failed && redact(failed), executionId: execution.id });
}

/** Stops an execution (its id), or when the id is unknown every execution of the workflow still running. */
async function stopRunning(api, workflowId, executionId) {
	const stop = (id) => call(api, 'POST', `/rest/executions/${id}/stop`, {}).catch(() => {});
	if (executionId) return stop(executionId);
	const filter = encodeURIComponent(JSON.stringify({ workflowId, status: ['running', 'new', 'waiting'] }));
	const list = await call(api, 'GET', `/rest/executions?filter=${filter}&limit=50`).catch(() => ({ results: [] }));
	for (const execution of list.results ?? list) await stop(execution.id);
}

/** n8n stores and serves run data as `flatted` text; its own copy of flatted reads it. */
function parseRunData(data, version) {
	if (typeof data !== 'string') return data;
	const flatted = require(path.join(n8n.n8nLine(version).dir, 'node_modules', 'flatted'));
	return flatted.parse(data);
}

module.exports = { personalProjectId, createDataTable, insertRows, tableRows, createWorkflow, runFromTrigger, manualTriggerOf, executeInServer, publishWorkflow: n8n.publishWorkflow, parseRunData };
