'use strict';
/*
 * The e2e checks that need a running n8n (`n8n start`, the one run-e2e.js starts for the
 * workflows), on the line under test:
 *   types        our node, its generated AI tool (unifiedAiGatewayTool), the trigger and the
 *                credential are in /types/*.json, and n8n's log has no warning about them;
 *   codex        n8n serves each node's codex (categories, search aliases, documentation links)
 *                in /types/nodes.json, and every output schema at /schemas/<type>/1.0.0/…, as
 *                the package ships them;
 *   credential   the credential's Test (POST /rest/credentials/test) against the simulator; against a
 *                second one on HTTPS with a self-signed certificate, with Ignore SSL Issues off and on;
 *   trigger      a published workflow with both trigger events (live/trigger-published.json, on
 *                a simulator of its own, beside the workflows):
 *                each finished task is emitted exactly once, Balance Below fires once. On 2.x it
 *                runs under the durable poll scheduler (poller_state cursors), and the first
 *                task queries are slow: the poll run at activation outlasts a scheduled poll of
 *                the same node. Each emitted item is recorded by an HTTP Request node that
 *                calls the simulator (POST /e2e/record on its files origin).
 */

const fs = require('fs');
const path = require('path');
const assert = require('node:assert/strict');

const n8n = require('../n8n');
const { allOperations, loadSchema, VERSION_DIR } = require('../schemas');
const cli = require('./cli');
const { REPO_ROOT } = require('./package');

const LIVE_DIR = path.join(__dirname, 'live');
const PACKAGE = 'n8n-nodes-unified-ai-gateway';
const TASKS = 7;
/** Queries of these tasks (by index) answer after 65 s the first time: past a poll's budget. */
const SLOW = [0, 1, 2, 3, 4, 6];
const SLOW_MS = 65_000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** n8n 2.x's durable scheduler for poll triggers, cursors in poller_state; fast executor, no jitter. */
const DURABLE_SCHEDULER = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	N8N_SCHEDULER_EXECUTOR_INTERVAL: '1',
	N8N_SCHEDULER_JITTER_RATIO: '0',
};

async function prepareTriggerScenario(ctx) {
	const { sim } = ctx;
	sim.reset();
	sim.scenario('*', { durationMs: 300 });
	const ids = [];
	for (let i = 0; i < TASKS; i++) ids.push(await createTask(sim));
	const started = Date.now();
	while (!ids.every((id) => sim.task(id).status === 'completed')) {
		if (Date.now() - started > 15000) throw new Error('simulator tasks did not finish');
		await sleep(50);
	}
	for (const index of SLOW) sim.inject({ method: 'GET', path: `/v1/tasks/${ids[index]}`, kind: 'slow', delayMs: SLOW_MS });
	sim.inject({ method: 'POST', path: '/e2e/record', origin: 'files', status: 200, body: { ok: true }, times: Infinity });
	sim.setBalance('token', { remain: 5 });
	return ids;
}

async function createTask(sim) {
	const response = await fetch(`${sim.mainUrl}/v1/images/generations`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${n8n.SIM_API_KEY}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({ model: 'gpt-image-2-async', prompt: 'a lighthouse at dusk' }),
	});
	const body = await response.json();
	return body.id ?? body.task_id ?? body.data?.task_id;
}

const records = (sim, event) => sim.find('POST', '/e2e/record', 'files').filter((r) => r.query && r.query.event === event);

async function typesJson(server, cookie, file) {
	// 14 MB of node types, compressed on the fly: on a busy machine the first answer can break off
	// (fetchText tries a GET again when no answer came).
	const { res, text } = await n8n.fetchText(`${server.baseUrl}/types/${file}`, { headers: { cookie: `n8n-auth=${cookie}` } });
	let json;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	assert.ok(Array.isArray(json), `GET /types/${file} answered ${res.status}: ${text.slice(0, 200)}`);
	return json;
}

async function checkTypes(server, cookie) {
	const nodes = await typesJson(server, cookie, 'nodes.json');
	const names = new Set(nodes.map((n) => n.name));
	// The Chat Model is served on 1.x too: only its supplyData needs the AI Node SDK.
	for (const type of ['unifiedAiGateway', 'unifiedAiGatewayTool', 'unifiedAiGatewayTrigger', 'unifiedAiGatewayChatModel']) {
		assert.ok(names.has(`${PACKAGE}.${type}`), `/types/nodes.json has no ${PACKAGE}.${type}`);
	}
	const credentials = await typesJson(server, cookie, 'credentials.json');
	assert.ok(credentials.some((c) => c.name === cli.CRED_TYPE), `/types/credentials.json has no ${cli.CRED_TYPE}`);
	const warnings = server
		.log()
		.split('\n')
		.filter((line) => /unified-?ai-?gateway/i.test(line) && /\b(warn|error|fail|deprecat|could not|invalid)/i.test(line));
	assert.deepEqual(warnings, [], `n8n's log warns about the package:\n${warnings.slice(0, 10).join('\n')}`);
}

/** The codex of each node as n8n serves it to the editor, and every output schema. */
async function checkCodexAndSchemas(server, cookie) {
	const nodes = await typesJson(server, cookie, 'nodes.json');
	for (const file of ['UnifiedAiGateway', 'UnifiedAiGatewayTrigger', 'UnifiedAiGatewayChatModel']) {
		const shipped = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'nodes', file, `${file}.node.json`), 'utf8'));
		const served = nodes.find((n) => n.name === shipped.node);
		assert.ok(served, `/types/nodes.json has no ${shipped.node}`);
		const codex = served.codex ?? {};
		assert.deepEqual(codex.categories, shipped.categories, `${shipped.node}: categories ${JSON.stringify(codex.categories)}`);
		assert.deepEqual(codex.subcategories, shipped.subcategories, `${shipped.node}: subcategories`);
		assert.deepEqual(codex.alias, shipped.alias, `${shipped.node}: alias ${JSON.stringify(codex.alias)}`);
		const words = file === 'UnifiedAiGatewayChatModel' ? ['llm', 'chat model'] : ['seedance', 'video'];
		assert.ok(words.every((w) => codex.alias.includes(w)), `${shipped.node}: no ${words.map((w) => `"${w}"`).join('/')} alias`);
		assert.deepEqual(codex.resources, shipped.resources, `${shipped.node}: documentation links ${JSON.stringify(codex.resources)}`);
	}
	// What the editor fetches to show a not-yet-run node's fields (its schema preview).
	const type = `${PACKAGE}.unifiedAiGateway`;
	for (const [resource, operation] of allOperations()) {
		const url = `${server.baseUrl}/schemas/${type}/${VERSION_DIR.slice(1)}/${resource}/${operation}.json`;
		const { res, text } = await n8n.fetchText(url, { headers: { cookie: `n8n-auth=${cookie}` } });
		assert.equal(res.status, 200, `GET ${url.replace(server.baseUrl, '')} answered ${res.status}`);
		assert.deepEqual(JSON.parse(text), loadSchema(resource, operation), `${resource}/${operation}: n8n served another schema`);
	}
}

async function checkCredential(server, cookie, ctx) {
	const test = async (apiKey) =>
		(await n8n.restJson(server.baseUrl, 'POST', '/rest/credentials/test', { credentials: { ...ctx.credential, data: { ...ctx.credential.data, apiKey } } }, cookie)).json;
	const wrong = await test('sk-sim-wrong-key');
	assert.equal(wrong.status, 'Error', `a wrong key passed the credential test: ${JSON.stringify(wrong)}`);
	const right = await test(ctx.credential.data.apiKey);
	assert.equal(right.status, 'OK', `credential test: ${JSON.stringify(right)}`);
}

/**
 * The Test button against a gateway with a self-signed certificate (a second simulator, on HTTPS):
 * refused on the certificate with nothing sent; with Ignore SSL Issues (Insecure) on it connects,
 * and a key pasted as `Bearer <key>` goes out as exactly `Bearer <key>`.
 */
async function checkCredentialTls(server, cookie, ctx) {
	const { startSimulator } = require('../simulator');
	const apiKey = ctx.credential.data.apiKey;
	const secure = await startSimulator({ apiKey, https: true });
	try {
		const data = { baseUrl: `${secure.mainUrl}/v1`, altBaseUrl: '', apiKey };
		const test = async (extra) =>
			(await n8n.restJson(server.baseUrl, 'POST', '/rest/credentials/test', { credentials: { ...ctx.credential, data: { ...data, ...extra } } }, cookie)).json;
		const strict = await test({});
		assert.equal(strict.status, 'Error', `a self-signed gateway passed the credential test: ${JSON.stringify(strict)}`);
		assert.match(strict.message, /SELF_SIGNED|self-signed|certificate/i, `the failed test does not name the certificate: ${strict.message}`);
		assert.equal(secure.requests.length, 0, 'a request reached the gateway through a refused certificate');
		const insecure = await test({ ignoreSSLIssues: true, apiKey: `Bearer ${apiKey}` });
		assert.equal(insecure.status, 'OK', `with Ignore SSL Issues on: ${JSON.stringify(insecure)}`);
		assert.deepEqual(secure.find('GET', '/v1/models').map((r) => r.authExact), [true], 'the pasted "Bearer " key was not sent as exactly Bearer <key>');
		return strict.message;
	} finally {
		await secure.close();
	}
}

const timeOf = (record) => (typeof record.at === 'number' ? record.at : Date.parse(record.at));

/** Waits until every task and the balance were recorded, then one more poll (nothing new). */
async function waitForTriggers(ctx, ids, limitMs) {
	const { sim } = ctx;
	const started = Date.now();
	const done = () => ids.every((id) => records(sim, 'task').some((r) => r.query.taskId === id)) && records(sim, 'balance').length > 0;
	while (!done()) {
		if (Date.now() - started > limitMs) {
			const seen = records(sim, 'task').map((r) => r.query.taskId);
			throw new Error(`after ${Math.round(limitMs / 1000)}s, recorded tasks: ${seen.length}/${ids.length}, balance events: ${records(sim, 'balance').length}`);
		}
		await sleep(1000);
	}
	// One more scheduled poll of both nodes after the last record: it must add nothing.
	const last = Math.max(...sim.find('POST', '/e2e/record', 'files').map(timeOf));
	const nextMinute = Math.ceil((Math.max(last, Date.now()) + 1000) / 60000) * 60000;
	while (Date.now() < nextMinute + 15000) await sleep(1000);
}

async function checkTrigger(ctx, line, ids) {
	await waitForTriggers(ctx, ids, 6 * 60_000);
	const tasks = records(ctx.sim, 'task').map((r) => r.query.taskId);
	for (const id of ids) {
		const times = tasks.filter((t) => t === id).length;
		assert.equal(times, 1, `task ${id} was emitted ${times} times (records: ${tasks.join(', ')})`);
	}
	assert.equal(tasks.length, ids.length, `unexpected task events: ${tasks.join(', ')}`);
	const balance = records(ctx.sim, 'balance');
	assert.equal(balance.length, 1, `Balance Below fired ${balance.length} times`);
	assert.equal(balance[0].query.remaining, '5');
	// Did a scheduled poll fall inside the poll that waited on the slow queries (activation)?
	const slowQueries = ctx.sim.find('GET', new RegExp(`^/v1/tasks/(${SLOW.map((i) => ids[i]).join('|')})$`));
	const first = timeOf(slowQueries[0]);
	const windowEnd = first + (line.major >= 2 ? 60_000 : 40_000); // the query's timeout in that poll
	const boundary = Math.ceil(first / 60000) * 60000;
	return boundary + 2000 < windowEnd ? `a scheduled poll (${new Date(boundary).toISOString().slice(11, 19)}) fell inside the first poll's slow queries` : 'no scheduled poll fell inside the first poll';
}

/**
 * 2.x with durable cursors: the trigger's state is the cursor in n8n's poller_state table (read
 * with the line's own Node 24 and its built-in SQLite), every task marked done there.
 */
async function checkPollerState(ctx, line, ids) {
	const db = path.join(ctx.userFolder, '.n8n', 'database.sqlite');
	const script = `const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(process.argv[1], { readOnly: true });
console.log(JSON.stringify(db.prepare("SELECT nodeId, cursor FROM poller_state WHERE workflowId = 'e2eTriggerLive'").all()));`;
	const res = await n8n.run(n8n.nodeBinary(line), ['-e', script, db], { env: { ...process.env, NODE_NO_WARNINGS: '1' } });
	assert.equal(res.code, 0, `reading poller_state failed: ${res.stderr.slice(0, 400)}`);
	const rows = JSON.parse(res.stdout.trim().split('\n').pop());
	const cursors = rows.map((row) => JSON.parse(row.cursor));
	const taskState = cursors.map((c) => c.taskFinished).find(Boolean);
	assert.ok(taskState, `no Task Finished cursor in poller_state: ${JSON.stringify(rows).slice(0, 300)}`);
	for (const id of ids) assert.equal(taskState.tasks[id]?.done, 'succeeded', `poller_state: task ${id} is ${JSON.stringify(taskState.tasks[id])}`);
	assert.ok(cursors.some((c) => c.balanceBelow && c.balanceBelow.below === true), 'poller_state has no Balance Below cursor with below = true');
	return `${rows.length} cursors`;
}

/** The trigger workflow, published before n8n starts, on its own simulator's credential; ids: the finished tasks. */
function triggerWorkflow(vars, ids) {
	return cli.loadWorkflow(path.join(LIVE_DIR, 'trigger-published.json'), { ...vars, TASK_IDS: ids.join('\n') });
}

/** What n8n runs with for the live checks: on 2.x its durable poll scheduler. */
function liveEnv(line) {
	return line.major >= 2 ? { ...DURABLE_SCHEDULER } : {};
}

/**
 * The checks of a started n8n that read what it loaded, in the order they run; each (server, cookie,
 * ctx) → note. They run before any workflow does, so n8n's log is still the log of its start.
 */
const START_CHECKS = [
	['node types and credential loaded without warnings', (server, cookie) => checkTypes(server, cookie)],
	['codex (categories, aliases, docs links) and output schemas served', (server, cookie) => checkCodexAndSchemas(server, cookie)],
	['credential test', (server, cookie, ctx) => checkCredential(server, cookie, ctx)],
	['credential test: a self-signed HTTPS gateway, Ignore SSL Issues, a key pasted with "Bearer "', (server, cookie, ctx) => checkCredentialTls(server, cookie, ctx)],
];

const TRIGGER_CHECK = `trigger in a published workflow (${TASKS} tasks, balance)`;
const POLLER_STATE_CHECK = 'trigger state in poller_state (durable cursors)';

module.exports = { DURABLE_SCHEDULER, START_CHECKS, TRIGGER_CHECK, POLLER_STATE_CHECK, TRIGGER_ID: 'e2eTriggerLive', liveEnv, prepareTriggerScenario, triggerWorkflow, checkTrigger, checkPollerState };
