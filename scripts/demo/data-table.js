'use strict';
// The scheduled-batch pair in the demo. It reads and writes an n8n Data table, which only a running
// n8n serves (`n8n execute` does not load the Data table module): so the demo starts n8n, makes
// the table `ai_images` with three `new` rows through n8n's REST API (what the editor does), runs
// Submit once and Collect until no row is left `submitted`, from their "Run Now" triggers, prints
// the table and writes the collected images to demo-output/scheduled-batch-collect/.

const rest = require('../../test/e2e/rest-workflows');
const { withDemoCredential } = require('./examples');
const { printNodes } = require('./summary');
const { clearOutput, writeFiles } = require('./files');
const t = require('./terminal');

const PROMPTS = [
	'A lighthouse on a cliff at dawn, watercolor',
	'A fox reading a newspaper in a cozy cafe, children\'s book illustration',
	'A city skyline made of stacked books, isometric, pastel colors',
];
const COLUMNS = ['prompt', 'status', 'taskId', 'resultUrl', 'reason'].map((name) => ({ name, type: 'string' }));
const MAX_COLLECTS = 5;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The example tied to the demo's table (the shipped file leaves the table for the user to pick). */
function onTable(workflow, table) {
	const copy = withDemoCredential(workflow);
	copy.settings = { ...copy.settings, saveManualExecutions: true, saveDataSuccessExecution: 'all' };
	for (const node of copy.nodes) {
		if (node.type === 'n8n-nodes-base.dataTable') node.parameters.dataTableId = { __rl: true, mode: 'id', value: table.id };
	}
	return copy;
}

function printTable(rows) {
	for (const row of rows) {
		const what = row.status === 'done' ? row.resultUrl : row.status === 'failed' ? row.reason : row.taskId || '';
		console.log(`    row ${String(row.id).padEnd(3)} ${String(row.status).padEnd(10)} ${t.hide(String(what ?? ''))}`);
	}
}

async function runOnce(api, example, workflow, version) {
	const execution = await rest.runFromTrigger(api, workflow, 'Run Now', { version, timeoutMs: (example.timeoutMin || 5) * 60000 });
	const run = { data: execution.run };
	printNodes(workflow, run);
	if (execution.status !== 'success') {
		const error = execution.run?.resultData?.error;
		throw new Error(`${example.name} ended ${execution.status}${error ? `: ${error.message}` : ''}`);
	}
	return run;
}

/**
 * Runs both examples of the pair; returns their results (for the summary) and the task ids the
 * Submit wrote into the table (for the trigger example).
 */
async function runScheduledBatchPair(submit, collect, { instance, version, env, live }) {
	const { userFolder } = instance;
	const started = Date.now();
	const results = { submit: { example: submit, status: 'failed' }, collect: { example: collect, status: 'failed' }, taskIds: [] };
	let server;
	try {
		const label = `started n8n ${version} (n8n start: the Data table module runs only there)`;
		server = await instance.start({ env, login: true, step: (name, fn) => (name === 'n8n' ? t.step(label, fn) : fn()) });
		const api = { baseUrl: server.baseUrl, cookie: instance.cookie };
		const table = await rest.createDataTable(api, await rest.personalProjectId(api), 'ai_images', COLUMNS);
		await rest.insertRows(api, table, PROMPTS.map((prompt) => ({ prompt, status: 'new' })));
		console.log(`${t.green('✔')} made the Data table ai_images (${COLUMNS.map((c) => c.name).join(', ')}) with ${PROMPTS.length} rows, status new`);
		const submitWf = await rest.createWorkflow(api, onTable(submit.workflow, table));
		const collectWf = await rest.createWorkflow(api, onTable(collect.workflow, table));

		await runOnce(api, submit, submitWf, version);
		let rows = await rest.tableRows(api, table);
		printTable(rows);
		results.submit = { example: submit, status: 'ok', ms: Date.now() - started };
		results.taskIds = rows.map((r) => r.taskId).filter(Boolean);

		console.log(`\n${t.bold(collect.name)}  ${t.dim(t.rel(collect.file))}`);
		console.log(`  ${collect.what}`);
		clearOutput(collect);
		const collectStart = Date.now();
		let written;
		for (let k = 1; k <= MAX_COLLECTS && rows.some((r) => r.status === 'submitted'); k++) {
			console.log(`  run ${k} (Run Now):`);
			const run = await runOnce(api, collect, collectWf, version);
			const files = writeFiles(collect, run, userFolder);
			written = { dir: files.dir, written: [...(written?.written ?? []), ...files.written] };
			rows = await rest.tableRows(api, table);
			printTable(rows);
			if (!live && rows.some((r) => r.status === 'submitted')) await sleep(2000);
		}
		const open = rows.filter((r) => r.status === 'submitted').length;
		results.collect = { example: collect, status: open ? 'failed' : 'ok', ms: Date.now() - collectStart, files: written };
		if (open) console.log(`${t.red('✘')} ${open} row(s) still submitted after ${MAX_COLLECTS} collects`);
	} catch (error) {
		console.log(`${t.red('✘')} ${t.hide(error.message).split('\n').slice(0, 8).join('\n    ')}`);
	} finally {
		if (server) await instance.stopN8n();
	}
	return results;
}

module.exports = { runScheduledBatchPair };
