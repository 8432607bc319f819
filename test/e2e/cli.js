'use strict';
// n8n's command line for the e2e: credentials and workflows in, executions and activation.

const fs = require('fs');
const path = require('path');

const { n8nLine } = require('../n8n/lines');
const { runN8n } = require('../n8n/env');
const { tail } = require('../n8n/run');
const { redact } = require('../n8n/redact');

const CRED_ID = 'e2eGatewayCred';
const CRED_NAME = 'Unified AI Gateway (e2e)';
const CRED_TYPE = 'unifiedAiGatewayApi';

function n8nFailure(what, res) {
	return new Error(`${what} failed (exit ${res.code}):\n${redact(tail(`${res.stdout}\n${res.stderr}`.trim(), 40))}`);
}

function tempJsonFile(userFolder, prefix, value) {
	const dir = path.join(userFolder, 'e2e-import');
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, `${prefix}-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`);
	fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
	return file;
}

/**
 * The credential for the gateway (or the simulator): type unifiedAiGatewayApi,
 * id CRED_ID, data { baseUrl, altBaseUrl, apiKey }.
 */
function gatewayCredential({ baseUrl, altBaseUrl = '', apiKey, id = CRED_ID, name = CRED_NAME }) {
	return { id, name, type: CRED_TYPE, data: { baseUrl, altBaseUrl, apiKey } };
}

/**
 * Import one credential or an array: { id, name, type, data: {plain object} }.
 * n8n encrypts plain `data` on import.
 */
async function importCredential(userFolder, credential, options = {}) {
	const list = (Array.isArray(credential) ? credential : [credential]).map((c) => ({ isManaged: false, ...c }));
	const file = tempJsonFile(userFolder, 'credentials', list);
	try {
		const res = await runN8n(userFolder, ['import:credentials', `--input=${file}`], options);
		if (res.code !== 0) throw n8nFailure('n8n import:credentials', res);
		return res;
	} finally {
		fs.rmSync(file, { force: true }); // holds the key in clear text
	}
}

/** Replace {{NAME}} placeholders (NAME in vars, upper case) in workflow JSON text. */
function substitute(text, vars = {}) {
	return text.replace(/\{\{([A-Z][A-Z0-9_]*)\}\}/g, (all, key) =>
		Object.prototype.hasOwnProperty.call(vars, key) ? JSON.stringify(String(vars[key])).slice(1, -1) : all,
	);
}

/** Load a workflow file (or take an object) and substitute placeholders. */
function loadWorkflow(workflowOrFile, vars = {}) {
	const text = typeof workflowOrFile === 'string' ? fs.readFileSync(workflowOrFile, 'utf8') : JSON.stringify(workflowOrFile);
	const wf = JSON.parse(substitute(text, vars));
	if (!wf.id) throw new Error(`workflow ${wf.name || workflowOrFile} has no "id"`);
	// n8n treats longer ids as invalid (isWorkflowIdValid) and runs such a workflow without its id.
	if (String(wf.id).length > 16) throw new Error(`workflow id "${wf.id}" is longer than 16 characters`);
	if (!Array.isArray(wf.nodes) || !wf.connections) throw new Error(`workflow ${wf.id} needs "nodes" and "connections"`);
	return wf;
}

/**
 * Import workflows (file paths or objects; one or an array) with one n8n
 * start-up. Placeholders {{SIM_MAIN}} etc. are replaced from vars. Returns the ids.
 * Imported workflows are inactive on both lines: activateWorkflow() publishes one.
 */
async function importWorkflow(userFolder, workflows, vars = {}, options = {}) {
	const list = (Array.isArray(workflows) ? workflows : [workflows]).map((w) => loadWorkflow(w, vars));
	const dir = path.join(userFolder, 'e2e-import', `workflows-${Date.now()}`);
	fs.mkdirSync(dir, { recursive: true });
	list.forEach((wf, i) => fs.writeFileSync(path.join(dir, `${i}.json`), JSON.stringify(wf, null, 2)));
	const res = await runN8n(userFolder, ['import:workflow', '--separate', `--input=${dir}`], options);
	fs.rmSync(dir, { recursive: true, force: true });
	if (res.code !== 0) throw n8nFailure('n8n import:workflow', res);
	return list.map((w) => w.id);
}

/**
 * Make an imported workflow active (published) for the next `n8n start`: 2.x `publish:workflow`,
 * 1.x `update:workflow --active=true`. options: { version | line, env, timeoutMs }
 */
async function activateWorkflow(userFolder, id, options = {}) {
	const line = options.line || n8nLine(options.version);
	const res = await runN8n(userFolder, line.activate(id), { ...options, line });
	if (res.code !== 0) throw n8nFailure(`n8n ${line.activate(id).join(' ')}`, res);
	return res;
}

/**
 * Find the JSON value printed by n8n in stdout that may have log lines before
 * (and after) it. Tries each line that starts with "{" or "[" and parses up to
 * the matching last closing line. Returns undefined when none parses.
 */
function extractJson(stdout) {
	const text = String(stdout || '');
	const lines = text.split('\n');
	const offsets = [];
	let pos = 0;
	for (const line of lines) {
		offsets.push(pos);
		pos += line.length + 1;
	}
	for (let i = 0; i < lines.length; i++) {
		const first = lines[i].trimStart()[0];
		if (first !== '{' && first !== '[') continue;
		const close = first === '{' ? '}' : ']';
		// candidate ends: every later line that ends with the closing bracket, longest first
		for (let j = lines.length - 1; j >= i; j--) {
			if (!lines[j].trimEnd().endsWith(close)) continue;
			const chunk = text.slice(offsets[i], offsets[j] + lines[j].length);
			try {
				return JSON.parse(chunk);
			} catch {
				// try a shorter end
			}
		}
	}
	return undefined;
}

/**
 * `n8n execute --id <id> --rawOutput`. Resolves with
 * { ok, run (the IRun object: run.data.resultData.runData), error (message when
 * not ok), code, stdout, stderr, ms }. A failed execution still gives `run`.
 *
 * n8n prints the run through its logger at level info (also with --rawOutput),
 * and a failed run only at info level too: so this command always runs with
 * N8N_LOG_LEVEL=info (plain-message console format), other log lines included.
 */
async function executeWorkflow(userFolder, id, options = {}) {
	const res = await runN8n(userFolder, ['execute', `--id=${id}`, '--rawOutput'], {
		...options,
		env: { N8N_LOG_LEVEL: 'info', ...(options.env || {}) },
	});
	const run = extractJson(res.stdout);
	const isRun = run && typeof run === 'object' && run.data && run.data.resultData;
	let error = isRun ? runFailure(run) : undefined;
	let warning;
	if (!error && isRun && /^SIG/.test(String(res.code))) {
		// n8n 1.123 on Node 20 now and then dies of a native crash (isolated-vm) while exiting, after
		// it printed the whole run: the run counts, the crash is reported beside it.
		warning = `n8n execute printed the run, then exited with ${res.code}`;
	} else if (!error && (res.code !== 0 || !isRun)) {
		const why =
			res.code === 'timeout' ? `timed out after ${Math.round(res.ms / 1000)}s` : res.code !== 0 ? `exited with ${res.code}` : 'printed no run data';
		error = `n8n execute ${why}\n${tail(`${res.stdout}\n${res.stderr}`.trim(), 30)}`;
	}
	if (error) error = redact(error);
	return { ok: !error, run: isRun ? run : undefined, error, warning, code: res.code, stdout: res.stdout, stderr: res.stderr, ms: res.ms };
}

/** What a failed run says (the node, n8n's message and description), or undefined when it did not fail. */
function runFailure(run) {
	const runError = run.data.resultData.error;
	if (!runError) return undefined;
	const where = runError.node ? ` in node "${runError.node.name}"` : '';
	const details = [runError.description, ...(runError.messages || [])].filter(Boolean);
	return `execution failed${where}: ${runError.message || runError.name}${details.length ? `\n${[...new Set(details)].join('\n')}` : ''}`;
}

module.exports = {
	CRED_ID,
	CRED_NAME,
	CRED_TYPE,
	gatewayCredential,
	importCredential,
	substitute,
	loadWorkflow,
	importWorkflow,
	activateWorkflow,
	extractJson,
	executeWorkflow,
	runFailure,
};
