'use strict';
/*
 * n8n killed mid-run keeps every receipt (`npm run test:e2e:kill`, N8N_VERSION = the line).
 *
 * One `n8n start` at N8N_LOG_LEVEL=warn (the level many production hosts run at), four published
 * Webhook workflows of the packed package, run side by side against the simulator:
 *   wait      Video → Generate, 10 videos (seedance-2.0, 10-minute renders), Wait for Completion on: mid-wait
 *   images    Image → Generate, 3 sync images (gpt-image-2, signed result URLs) whose files trickle in: mid-download
 *   finished  Video → Generate, 2 videos (seedance-2.0-fast, 1.5-s renders) whose files do not come: mid-download
 *   submit    Video → Generate, 4 videos (veo-3.1-flash) one at a time; the third submit is held by the
 *             gateway (it creates nothing while held): mid-submit
 * Once the simulator shows every workflow at its stage, and n8n's executions list shows their
 * receipt executions (they are written within about a second of each answer: that wait is printed
 * as receipts_ms), n8n's process group gets SIGKILL alone, no SIGTERM, and n8n is started again on
 * the same user folder.
 *
 * Asserted, through n8n's REST API as the editor shows it (no log is read): the four executions are
 * `crashed`; each has receipt executions (docs/receipts.md); the newest of each lists every task id
 * the gateway created for it and every sync result URL it answered with (query included), and the
 * held submit as `unanswered`; together they hold every task id and sync URL the simulator
 * created, and nothing it did not. n8n's own log (kept by this runner as `docker logs` would) holds
 * none of the ids at warn: the receipt executions are the only record. The API key is in none.
 * Prints `kill-receipts line=<version> log_level=warn task_ids_created=… found=… sync_urls_created=… found=…`.
 * 1-2 minutes per line, mostly two n8n start-ups (the renders are not waited for).
 */
const assert = require('node:assert/strict');
const fs = require('node:fs');

const e2e = require('./run-e2e');
const { restJson } = require('../n8n');
const rest = require('./rest-workflows');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const VIDEO_SUBMIT = /^\/v1\/(videos|video\/generations)$/;
const IMAGE_SUBMIT = '/v1/images/generations';
const CRED = { unifiedAiGatewayApi: { id: '{{CRED_ID}}', name: '{{CRED_NAME}}' } };
const LOG_LEVEL = 'warn';

/** A Webhook workflow: the body's prompts, one item each, into one gateway node. */
function workflow(key, nodeName, parameters, count) {
	return {
		key,
		count,
		id: `e2eKill${key[0].toUpperCase()}${key.slice(1)}`,
		hook: `kill-${key}`,
		node: nodeName,
		json: {
			id: `e2eKill${key[0].toUpperCase()}${key.slice(1)}`,
			name: `kill keeps receipts: ${key}`,
			active: false,
			settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all', saveDataErrorExecution: 'all' },
			nodes: [
				{ id: 'w', name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: `e2e-kill-${key}`, parameters: { httpMethod: 'POST', path: `kill-${key}`, responseMode: 'onReceived' } },
				{ id: 's', name: 'Prompts', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [200, 0], parameters: { fieldToSplitOut: 'body.prompts', options: { destinationFieldName: 'prompt' } } },
				{ id: 'g', name: nodeName, type: 'n8n-nodes-unified-ai-gateway.unifiedAiGateway', typeVersion: 1, position: [400, 0], credentials: CRED, parameters: { prompt: '={{ $json.prompt }}', ...parameters } },
			],
			connections: { Webhook: { main: [[{ node: 'Prompts', type: 'main', index: 0 }]] }, Prompts: { main: [[{ node: nodeName, type: 'main', index: 0 }]] } },
		},
	};
}

const rl = (value) => ({ __rl: true, mode: 'id', value });
const WAITING = { pollIntervalSeconds: 1, maxWaitMinutes: 30 };
const FLOWS = {
	wait: workflow('wait', 'Make Videos', { resource: 'video', operation: 'generate', modelId: rl('seedance-2.0'), waiting: WAITING }, 10),
	images: workflow('images', 'Make Images', { resource: 'image', operation: 'generate', modelId: rl('gpt-image-2') }, 3),
	finished: workflow('finished', 'Short Clips', { resource: 'video', operation: 'generate', modelId: rl('seedance-2.0-fast'), waiting: WAITING }, 2),
	submit: workflow('submit', 'One by One', { resource: 'video', operation: 'generate', modelId: rl('veo-3.1-flash'), waiting: WAITING, options: { concurrency: 1 } }, 4),
};
const SUBMIT_HELD = 2; // the submit item the gateway holds when n8n is killed (items 0 and 1 answered)

async function executionsOf(api, workflowId) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const { json } = await restJson(api.baseUrl, 'GET', `/rest/executions?filter=${filter}&limit=100`, undefined, api.cookie);
	return json.results ?? json;
}

async function executionData(api, id, version) {
	const { json } = await restJson(api.baseUrl, 'GET', `/rest/executions/${id}`, undefined, api.cookie);
	return { execution: json, run: rest.parseRunData(json.data, version) };
}

/**
 * The receipt executions of a workflow as a user finds them in its executions list: the items of
 * their Receipts node, per execution, newest first.
 */
async function receiptsOf(api, flow, version) {
	const found = [];
	for (const summary of await executionsOf(api, flow.id)) {
		if (summary.mode !== 'integrated') continue;
		const { execution, run } = await executionData(api, summary.id, version);
		const items = (run.resultData.runData.Receipts?.[0]?.data?.main?.[0] ?? []).map((i) => i.json);
		found.push({ id: Number(summary.id), status: execution.status, items, raw: JSON.stringify(execution) });
	}
	return found.sort((a, b) => b.id - a.id);
}

/** What the simulator shows for each flow: its stage reached? */
function stages(sim) {
	const answered = (path, model) => sim.requests.filter((r) => r.method === 'POST' && (typeof path === 'string' ? r.path === path : path.test(r.path)) && r.body?.model === model);
	const files = (re) => sim.requests.filter((r) => r.origin === 'files' && re.test(r.path));
	return {
		wait: answered(VIDEO_SUBMIT, 'seedance-2.0').filter((r) => r.answeredAt).length === FLOWS.wait.count,
		images: answered(IMAGE_SUBMIT, 'gpt-image-2').filter((r) => r.answeredAt).length === FLOWS.images.count && files(/^\/files\/img-.*\.png$/).length >= 1,
		finished: answered(VIDEO_SUBMIT, 'seedance-2.0-fast').filter((r) => r.answeredAt).length === FLOWS.finished.count && files(/\.mp4$/).length >= FLOWS.finished.count,
		submit: answered(VIDEO_SUBMIT, 'veo-3.1-flash').length === SUBMIT_HELD + 1 && answered(VIDEO_SUBMIT, 'veo-3.1-flash').filter((r) => r.answeredAt).length === SUBMIT_HELD,
	};
}

async function until(what, test, timeoutMs, state = () => '') {
	const started = Date.now();
	for (;;) {
		const result = await test();
		if (result) return Date.now() - started;
		if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs / 1000} s ${await state()}`);
		await sleep(250);
	}
}

async function hook(baseUrl, flow, prompts) {
	const res = await fetch(`${baseUrl}/webhook/${flow.hook}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompts }) });
	assert.equal(res.status, 200, `webhook ${flow.hook} answered ${res.status}: ${await res.text()}`);
}

/** The check (test/e2e/lifecycle.js runs it, alone or beside the others): n8n started at warn, its workflows published. */
const check = {
	name: 'kill keeps receipts',
	key: 'kill',
	workflows: Object.values(FLOWS).map((f) => f.json),
	publish: Object.values(FLOWS).map((f) => f.id),
	// The level many production hosts run at: the receipt executions are then the only record.
	logLevel: LOG_LEVEL,
	async run({ instance, sim, version }) {
		const started = Date.now();
		const flows = Object.values(FLOWS);
		const logFrom = instance.n8n.log().length;
		sim.scenario('seedance-2.0', { durationMs: 600_000 });
		sim.scenario('veo-3.1-flash', { durationMs: 600_000 });
		sim.scenario('seedance-2.0-fast', { durationMs: 1_500, urlField: 'result_url', resultHost: 'files' });
		sim.scenario('gpt-image-2', { signedUrls: true });
		// The file host: images trickle in a byte a second, videos get no answer at all.
		sim.inject({ origin: 'files', path: /^\/files\/img-.*\.png$/, kind: 'trickle', times: 50 });
		sim.inject({ origin: 'files', path: /\.mp4$/, delayMs: 600_000, times: 50 });
		const baseUrl = instance.n8n.baseUrl;
		const prompts = (n, what) => Array.from({ length: n }, (_, i) => `${what}, take ${i}`);
		await hook(baseUrl, FLOWS.wait, prompts(FLOWS.wait.count, 'a paper boat on a rainy street'));
		await hook(baseUrl, FLOWS.images, prompts(FLOWS.images.count, 'a lighthouse at dawn'));
		await hook(baseUrl, FLOWS.finished, prompts(FLOWS.finished.count, 'waves at night'));
		const reached = {};
		await until('the first three workflows at their stage (waiting, downloading, downloading)', () => {
			const s = stages(sim);
			for (const key of ['wait', 'images', 'finished']) if (s[key]) reached[key] ??= Math.round((Date.now() - started) / 1000);
			return s.wait && s.images && s.finished;
		}, 90_000, () => `(stages ${JSON.stringify(stages(sim))}; the gateway saw ${JSON.stringify(sim.requests.map((r) => `${r.origin} ${r.method} ${r.path}${r.answeredAt ? '' : ' (open)'}`))})`);
		// Mid-submit: the third submit of "One by One" is held by the gateway until n8n is gone
		// (the first two pass; faults are taken in order). Held, it creates nothing.
		sim.inject({ method: 'POST', path: VIDEO_SUBMIT, delayMs: 1, times: SUBMIT_HELD });
		sim.inject({ method: 'POST', path: VIDEO_SUBMIT, delayMs: 600_000, times: 1 });
		await hook(baseUrl, FLOWS.submit, prompts(FLOWS.submit.count, 'a hot-air balloon'));
		await until('"One by One" holding its third submit', () => stages(sim).submit, 60_000, () => JSON.stringify(sim.requests.slice(-10).map((r) => `${r.origin} ${r.method} ${r.path} ${r.body?.model ?? ''}`)));
		console.log(`      at their stages: 10 videos waiting, 3 images and 2 videos downloading, a submit held (${Math.round((Date.now() - started) / 1000)} s; reached at ${JSON.stringify(reached)} s)`);

		// What the gateway billed, as its own record says: tasks and sync result URLs.
		const createdTasks = sim.taskIds();
		const createdSync = sim.syncResults();
		assert.equal(createdTasks.length, FLOWS.wait.count + FLOWS.finished.count + SUBMIT_HELD, `the simulator created ${createdTasks.length} tasks`);
		assert.equal(createdSync.length, FLOWS.images.count);

		const api = () => ({ baseUrl: instance.n8n.baseUrl, cookie: instance.cookie });
		const receiptsMs = await until('receipt executions of every workflow on n8n\'s list', async () => {
			for (const flow of flows) if ((await receiptsOf(api(), flow, version)).length === 0) return false;
			const submit = await receiptsOf(api(), FLOWS.submit, version);
			return submit[0].items.some((i) => i.item === SUBMIT_HELD && i.receipt === 'unanswered') && submit[0].items.filter((i) => i.receipt === 'task').length === SUBMIT_HELD;
		}, 30_000).catch((e) => (console.log(`note ${e.message}: killing anyway`), -1));

		const logFile = instance.n8n.logFile;
		await instance.kill({ sigterm: false });
		console.log('      n8n killed (SIGKILL of its process group, no SIGTERM)');
		await instance.start({ login: 'existing' });
		console.log(`      n8n started again on the same user folder (${Math.round(instance.n8n.startMs / 1000)} s)`);

		// Every flow is looked at before anything fails, so the line below says what was found.
		const foundTasks = new Set();
		const foundSync = new Set();
		const failures = [];
		let unansweredListed = 0;
		for (const flow of flows) {
			try {
				const parents = (await executionsOf(api(), flow.id)).filter((e) => e.mode === 'webhook');
				const runs = [];
				for (const parent of parents) runs.push((await executionData(api(), parent.id, version)).execution);
				const killed = runs.filter((e) => e.status !== 'success');
				assert.equal(killed.length, 1, `${flow.key}: expected one killed execution, got ${JSON.stringify(runs.map((e) => [e.id, e.status]))}`);
				assert.equal(killed[0].status, 'crashed', `${flow.key}: the killed execution is ${killed[0].status}`);
				const receipts = await receiptsOf(api(), flow, version);
				assert.ok(receipts.length > 0, `${flow.key}: no receipt execution on n8n's list`);
				for (const r of receipts) {
					assert.equal(r.status, 'success', `${flow.key}: receipt execution ${r.id} is ${r.status}`);
					assert.ok(!r.raw.includes(e2e.SIM_API_KEY), `${flow.key}: the API key is in receipt execution ${r.id}`);
					for (const item of r.items) assert.equal(String(item.execution), String(killed[0].id), `${flow.key}: receipt ${r.id} names execution ${item.execution}`);
				}
				// The newest holds the whole run: every item with its receipt.
				const newest = receipts[0].items;
				const tasks = newest.filter((i) => i.receipt === 'task');
				const results = newest.filter((i) => i.receipt === 'result');
				const unanswered = newest.filter((i) => i.receipt === 'unanswered');
				for (const t of tasks) foundTasks.add(t.taskId);
				for (const r of results) for (const url of r.resultUrls) foundSync.add(url);
				unansweredListed += unanswered.length;
				const expectTasks = { wait: FLOWS.wait.count, images: 0, finished: FLOWS.finished.count, submit: SUBMIT_HELD }[flow.key];
				assert.equal(tasks.length, expectTasks, `${flow.key}: the newest receipt execution lists ${tasks.length} tasks: ${JSON.stringify(newest)}`);
				assert.equal(results.length, flow.key === 'images' ? FLOWS.images.count : 0, `${flow.key}: ${results.length} paid results listed`);
				assert.deepEqual(unanswered.map((i) => i.item), flow.key === 'submit' ? [SUBMIT_HELD] : [], `${flow.key}: unanswered submits`);
				for (const t of tasks) assert.ok(['generic', 'image', 'video', 'alt'].includes(t.queryRoute), `${flow.key}: task ${t.taskId} has query route ${t.queryRoute}`);
				assert.deepEqual(newest.map((i) => i.item).sort((a, b) => a - b), Array.from({ length: flow.count }, (_, i) => i).slice(0, expectTasks + results.length + unanswered.length), `${flow.key}: items listed`);
				console.log(`      ok  ${flow.key}: execution ${killed[0].id} crashed; ${receipts.length} receipt execution(s), the newest with ${tasks.length} task(s), ${results.length} paid result(s), ${unanswered.length} unanswered submit(s)`);
			} catch (e) {
				failures.push(e.message);
				console.log(`      FAIL ${flow.key}: ${e.message.split('\n')[0]}`);
			}
		}

		const taskIdsFound = createdTasks.filter((id) => foundTasks.has(id)).length;
		const syncFound = createdSync.filter((url) => foundSync.has(url)).length;
		// n8n's log at warn: the receipt executions are the only record.
		const log = fs.readFileSync(logFile, 'utf8').slice(logFrom);
		const inLog = createdTasks.filter((id) => log.includes(id)).length + createdSync.filter((url) => log.includes(url)).length;
		const seconds = Math.round((Date.now() - started) / 1000);
		console.log(
			`kill-receipts line=${version} log_level=${LOG_LEVEL} task_ids_created=${createdTasks.length} found=${taskIdsFound} sync_urls_created=${createdSync.length} found=${syncFound} unanswered_submits=1 listed=${unansweredListed} receipts_in_log=${inLog} receipts_ms=${receiptsMs} seconds=${seconds}`,
		);
		assert.deepEqual(failures, [], 'the receipts after the kill');
		assert.deepEqual([...foundTasks].filter((id) => !createdTasks.includes(id)), [], 'receipts name tasks the gateway never created');
		assert.deepEqual([...foundSync].filter((url) => !createdSync.includes(url)), [], 'receipts name result URLs the gateway never sent');
		assert.equal(taskIdsFound, createdTasks.length, `found ${taskIdsFound} of ${createdTasks.length} task ids`);
		assert.equal(syncFound, createdSync.length, `found ${syncFound} of ${createdSync.length} sync result URLs`);
		for (const url of createdSync) assert.match(url, /\?X-Expires=/, 'a signed URL lost its query');
		assert.ok(!log.includes(e2e.SIM_API_KEY), "the API key is in n8n's log");
		return undefined;
	},
};

if (require.main === module) e2e.runAsScript(() => require('./lifecycle').runChecks([check], { prefix: 'e2e-kill-' }));
module.exports = { check };
