'use strict';
/*
 * The Webhook-triggered workflows of the queue-mode e2e (queue mode runs only what comes through
 * the queue: `n8n execute` does not). Each run records itself on the simulator's files origin
 * (POST /e2e/record?event=…&run=…&worker=…): which worker ran it ($env.E2E_WORKER) and what came out.
 *
 *   qWait     body { run, kind: image|video, count }: submits and waits inside one node run
 *   qSubmit   body { run, count }: video with Wait for Completion off, records each task id
 *   qCollect  body { run, ids }: Task → Wait for Completion (short, On Timeout = return pending)
 *   qLoop     body { run, count, wait? }: the long-render loop (examples/long-render-loop.json): video with Wait
 *             off → n8n's Wait node (wait s, default 70: parked in the database) → Task → Check Once → If pending back
 *             to the Wait, else records each finished task
 *   qTrigger  the trigger (Task Finished, every minute: n8n's shortest poll) on known task ids, records each emission
 */

const GW = 'n8n-nodes-unified-ai-gateway.unifiedAiGateway';
const CREDENTIALS = { unifiedAiGatewayApi: { id: '{{CRED_ID}}', name: '{{CRED_NAME}}' } };

let counter = 0;
function node(name, type, parameters, extra = {}) {
	counter++;
	const id = `7e57a11e-0000-4000-8000-${String(counter).padStart(12, '0')}`;
	return { id, name, type, typeVersion: 1, position: [counter * 200, 0], parameters, ...extra };
}

function webhook(path) {
	return node('Webhook', 'n8n-nodes-base.webhook', { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} }, { typeVersion: 2, webhookId: `7e57a11e-${path}` });
}

/** Items of the body: { run, index, prompt, taskId? } */
function itemsFromBody(listExpr) {
	return node('Items', 'n8n-nodes-base.code', {
		jsCode: `const body = $('Webhook').first().json.body;\nreturn ${listExpr}.map((x, index) => ({ json: { run: body.run, index, prompt: 'queue item ' + index + ' of run ' + body.run, taskId: x } }));`,
	}, { typeVersion: 2 });
}

/** POST {{SIM_FILES}}/e2e/record with query parameters (expressions); once per run or per item. */
function record(name, query, once) {
	const parameters = [{ name: 'worker', value: '={{ $env.E2E_WORKER }}' }, ...Object.entries(query).map(([k, v]) => ({ name: k, value: v }))];
	return node(name, 'n8n-nodes-base.httpRequest', {
		method: 'POST',
		url: '{{SIM_FILES}}/e2e/record',
		sendQuery: true,
		queryParameters: { parameters },
		options: {},
	}, { typeVersion: 4.2, executeOnce: once });
}

/** The run name of the body (an expression that reads the same on every node, on both lines). */
const RUN = '={{ $("Webhook").first().json.body.run }}';

/** Recorded before anything else runs: the worker that took the execution (again, on a re-run). */
const started = () => record('Started', { event: 'start', run: RUN }, true);

function chain(...names) {
	const connections = {};
	for (let i = 0; i < names.length - 1; i++) {
		const targets = Array.isArray(names[i + 1]) ? names[i + 1] : [names[i + 1]];
		connections[names[i]] = { main: [targets.map((n) => ({ node: n, type: 'main', index: 0 }))] };
	}
	return connections;
}

function workflow(id, name, nodes, connections) {
	return { id, name, active: false, settings: { executionOrder: 'v1' }, nodes, connections, pinData: {} };
}

const image = (wait) => node('Image', GW, { resource: 'image', operation: 'generate', modelId: { __rl: true, mode: 'id', value: 'gpt-image-2-async' }, prompt: '={{ $json.prompt }}', ...wait, waiting: { pollIntervalSeconds: 1, ...wait?.waiting } }, { credentials: CREDENTIALS });
const video = (wait) => node('Video', GW, { resource: 'video', operation: 'generate', modelId: { __rl: true, mode: 'id', value: 'sora-2' }, prompt: '={{ $json.prompt }}', videoSeconds_sora2: '8', videoSize_sora2: '720x1280', download: false, ...wait, waiting: { pollIntervalSeconds: 1, ...wait?.waiting } }, { credentials: CREDENTIALS });

function waitWorkflow() {
	const isVideo = node('Is Video', 'n8n-nodes-base.if', {
		conditions: { options: { caseSensitive: true, leftValue: '', typeValidation: 'loose' }, conditions: [{ leftValue: '={{ $("Webhook").first().json.body.kind }}', rightValue: 'video', operator: { type: 'string', operation: 'equals' } }], combinator: 'and' },
		options: {},
	}, { typeVersion: 2 });
	const ended = (name) => record(name, { event: 'end', run: RUN, items: '={{ $input.all().length }}', done: '={{ $input.all().filter((i) => i.json.url).length }}' }, true);
	const nodes = [webhook('q-wait'), started(), itemsFromBody('Array.from({ length: body.count })'), isVideo, video({}), image({ download: false }), ended('Video Ended'), ended('Image Ended')];
	const connections = {
		...chain('Webhook', 'Started', 'Items', 'Is Video'),
		'Is Video': { main: [[{ node: 'Video', type: 'main', index: 0 }], [{ node: 'Image', type: 'main', index: 0 }]] },
		...chain('Video', 'Video Ended'),
		...chain('Image', 'Image Ended'),
	};
	return workflow('qWait', 'queue e2e: submit and wait in one node run', nodes, connections);
}

function submitWorkflow() {
	const nodes = [webhook('q-submit'), itemsFromBody('Array.from({ length: body.count })'), video({ waitForCompletion: false }), record('Submitted', { event: 'submitted', run: RUN, taskId: '={{ $json.taskId }}' }, false)];
	return workflow('qSubmit', 'queue e2e: submit with Wait off, record the ids', nodes, chain('Webhook', 'Items', 'Video', 'Submitted'));
}

function collectWorkflow() {
	const task = node('Collect', GW, { resource: 'task', operation: 'waitForCompletion', taskId: '={{ $json.taskId }}', queryRoute: 'generic', waiting: { maxWaitMinutes: 1, pollIntervalSeconds: 1, onTimeout: 'pending' } }, { credentials: CREDENTIALS });
	const nodes = [webhook('q-collect'), started(), itemsFromBody('body.ids'), task, record('Collected', { event: 'collected', run: RUN, taskId: '={{ $json.taskId }}', pending: '={{ $json.pending === true }}' }, false)];
	return workflow('qCollect', 'queue e2e: collect recorded ids', nodes, chain('Webhook', 'Started', 'Items', 'Collect', 'Collected'));
}

/**
 * Parks in n8n's Wait node (body.wait seconds, default 70) between the submit and each check. n8n
 * parks a wait only if, read again after the wait's end is worked out, at least 65 s remain: a
 * wait of exactly 65 s slept in the worker instead whenever a millisecond passed in between (CI, loaded).
 */
function loopWorkflow() {
	const wait = node('Wait', 'n8n-nodes-base.wait', { resume: 'timeInterval', amount: '={{ $("Webhook").first().json.body.wait || 70 }}', unit: 'seconds' }, { typeVersion: 1.1, webhookId: '7e57a11e-q-loop-wait' });
	const check = node('Check Once', GW, { resource: 'task', operation: 'checkOnce', taskId: '={{ $json.taskId }}', queryRoute: 'auto', download: false }, { credentials: CREDENTIALS, onError: 'continueErrorOutput' });
	const pending = node('Still Running?', 'n8n-nodes-base.if', {
		conditions: { options: { caseSensitive: true, leftValue: '', typeValidation: 'loose' }, conditions: [{ leftValue: '={{ $json.pending === true }}', rightValue: '', operator: { type: 'boolean', operation: 'true', singleValue: true } }], combinator: 'and' },
		options: {},
	}, { typeVersion: 2 });
	const looped = record('Looped', { event: 'looped', run: RUN, taskId: '={{ $json.taskId }}', checks: '={{ $json.checks }}' }, false);
	const failed = record('Loop Failed', { event: 'loopFailed', run: RUN, error: '={{ $json.error }}' }, false);
	const nodes = [webhook('q-loop'), started(), itemsFromBody('Array.from({ length: body.count })'), video({ waitForCompletion: false }), wait, check, pending, looped, failed];
	const connections = {
		...chain('Webhook', 'Started', 'Items', 'Video', 'Wait', 'Check Once'),
		'Check Once': { main: [[{ node: 'Still Running?', type: 'main', index: 0 }], [{ node: 'Loop Failed', type: 'main', index: 0 }]] },
		'Still Running?': { main: [[{ node: 'Wait', type: 'main', index: 0 }], [{ node: 'Looped', type: 'main', index: 0 }]] },
	};
	return workflow('qLoop', 'queue e2e: the long-render loop, parked in the Wait node', nodes, connections);
}

function triggerWorkflow() {
	const trigger = node('Task Finished', 'n8n-nodes-unified-ai-gateway.unifiedAiGatewayTrigger', {
		pollTimes: { item: [{ mode: 'custom', cronExpression: '0 * * * * *' }] },
		event: 'taskFinished',
		taskIds: '{{TASK_IDS}}',
		queryRoute: 'generic',
	}, { credentials: CREDENTIALS });
	const nodes = [trigger, record('Emitted', { event: 'task', taskId: '={{ $json.taskId }}' }, false)];
	return workflow('qTrigger', 'queue e2e: trigger in a published workflow', nodes, chain('Task Finished', 'Emitted'));
}

const ALL = () => [waitWorkflow(), submitWorkflow(), collectWorkflow(), loopWorkflow(), triggerWorkflow()];

module.exports = { ALL, waitWorkflow, submitWorkflow, collectWorkflow, loopWorkflow, triggerWorkflow };
