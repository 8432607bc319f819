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
	for (;;) {
		const execution = await call(api, 'GET', `/rest/executions/${executionId}`);
		if (execution && !['new', 'running', 'waiting'].includes(execution.status) && execution.data) {
			return { ...execution, run: parseRunData(execution.data, version) };
		}
		if (Date.now() > until) throw new Error(`execution ${executionId} of "${workflow.name}" did not finish within ${timeoutMs / 1000}s`);
		await sleep(300);
	}
}

/** n8n stores and serves run data as `flatted` text; its own copy of flatted reads it. */
function parseRunData(data, version) {
	if (typeof data !== 'string') return data;
	const flatted = require(path.join(n8n.n8nLine(version).dir, 'node_modules', 'flatted'));
	return flatted.parse(data);
}

module.exports = { personalProjectId, createDataTable, insertRows, tableRows, createWorkflow, runFromTrigger, parseRunData };
