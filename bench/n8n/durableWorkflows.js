'use strict';
/*
 * The workflows of the durable bench (bench/n8n/durable.js): the paths n8n saves at every node
 * boundary, for renders longer than a process should hold a wait.
 *
 *   benchParked       body { run, count }: the long-render loop as the README recommends it
 *                     (examples/long-render-loop.json): `count` sora-2 videos submitted with Wait
 *                     for Completion off → n8n's Wait node (PARK_S, 70 s: the execution parks in
 *                     the database) → Task → Check Once (download on, the error output on) → If
 *                     pending → back to the Wait; finished items are recorded per round
 *   loopParked        the hand-built loop (loop-videos.json) with the same Wait
 *   benchSubmit       body { run, count }: the videos submitted with Wait off, nothing else: the
 *                     tasks a Task Finished trigger then watches
 *   trigger(ids)      Task Finished (every minute, the ids, generic route, Include Failures,
 *                     Download Result) → one record per execution with every task id it fired
 */

const { node, webhook, items, record, loopWorkflow, CREDENTIALS, GW, SORA_2 } = require('./workflows');

/**
 * n8n's Wait node parks an execution in the database only if at least 65 s remain when it reads the
 * clock again: a 65 s wait stays in the process once a millisecond has passed. 70 s parks.
 */
const PARK_S = Number(process.env.BENCH_PARK_S || 70);

const settings = { executionOrder: 'v1', saveDataSuccessExecution: 'all', saveDataErrorExecution: 'all' };

const submitVideos = () => node(3, 'Submit Videos', GW, { ...SORA_2, prompt: '={{ $json.prompt }}', waitForCompletion: false }, { credentials: CREDENTIALS });

const chain = (...names) => Object.fromEntries(names.slice(0, -1).map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]));
const to = (name) => ({ node: name, type: 'main', index: 0 });

function parked() {
	const wait = node(4, 'Wait', 'n8n-nodes-base.wait', { resume: 'timeInterval', amount: PARK_S, unit: 'seconds' }, { typeVersion: 1.1, webhookId: 'be4c4000-parked-wait' });
	const check = node(5, 'Check Once', GW, { resource: 'task', operation: 'checkOnce', taskId: '={{ $json.taskId }}', queryRoute: 'auto' }, { credentials: CREDENTIALS, onError: 'continueErrorOutput' });
	const pending = node(6, 'Still Running?', 'n8n-nodes-base.if', {
		conditions: {
			options: { caseSensitive: true, leftValue: '', typeValidation: 'strict' },
			combinator: 'and',
			conditions: [{ id: 'be4c4000-pending', leftValue: '={{ $json.pending === true }}', rightValue: '', operator: { type: 'boolean', operation: 'true', singleValue: true } }],
		},
		options: {},
	}, { typeVersion: 2 });
	const done = record(7, 'video', 'files');
	const failed = { ...record(8, 'video', 'failed'), name: 'Failed' };
	return {
		id: 'benchParked',
		name: `bench: the long-render loop (Submit, Wait ${PARK_S} s parked, Check Once, If pending)`,
		active: false,
		settings,
		nodes: [webhook('bench-parked'), items('video'), submitVideos(), wait, check, pending, done, failed],
		connections: {
			...chain('Webhook', 'Items', 'Submit Videos', 'Wait', 'Check Once'),
			'Check Once': { main: [[to('Still Running?')], [to('Failed')]] },
			'Still Running?': { main: [[to('Wait')], [to('Recorded')]] },
		},
		pinData: {},
	};
}

function submitOnly() {
	return {
		id: 'benchSubmit',
		name: 'bench: videos submitted with Wait for Completion off (for the trigger)',
		active: false,
		settings,
		nodes: [webhook('bench-submit'), items('video'), submitVideos(), record(4, 'video', 'submitted')],
		connections: chain('Webhook', 'Items', 'Submit Videos', 'Recorded'),
		pinData: {},
	};
}

const LOOP = { workflowId: 'loopParked', path: 'bench-loop-parked', waitS: PARK_S };

/** Every workflow imported at start-up (the trigger's is made once its ids exist). */
const DURABLE = () => [parked(), submitOnly(), loopWorkflow('video', 'plain', LOOP)];
const PROBES = () => ['bench-parked', 'bench-submit', LOOP.path].map((path) => ({ path, body: { run: 'probe', count: 0 } }));

/**
 * The trigger on known ids, as a user sets it up (the editor's REST API saves it; credentials and
 * URLs filled in): every minute, n8n's shortest poll in the editor; one record per poll with the
 * ids it fired and the files that came with them.
 */
function trigger(ids, run, vars) {
	const watch = node(1, 'Task Finished', 'n8n-nodes-unified-ai-gateway.unifiedAiGatewayTrigger', {
		pollTimes: { item: [{ mode: 'everyMinute' }] },
		event: 'taskFinished',
		taskIds: ids.join('\n'),
		queryRoute: 'generic',
		includeFailures: true,
		timeoutMinutes: 30,
		download: true,
	}, { credentials: { unifiedAiGatewayApi: { id: vars.CRED_ID, name: vars.CRED_NAME } } });
	const fired = node(2, 'Fired', 'n8n-nodes-base.httpRequest', {
		method: 'POST',
		url: `${vars.SIM_FILES}/e2e/record`,
		sendQuery: true,
		queryParameters: { parameters: [{ name: 'event', value: 'fired' }, { name: 'run', value: run }, { name: 'execution', value: '={{ $execution.id }}' }] },
		sendBody: true,
		specifyBody: 'json',
		jsonBody: '={{ JSON.stringify({ ids: $input.all().map((i) => i.json.taskId), states: $input.all().map((i) => i.json.state), files: $input.all().filter((i) => i.binary && i.binary.data).length }) }}',
		options: {},
	}, { typeVersion: 4.2, executeOnce: true });
	return {
		name: `bench: Task Finished on ${ids.length} ids`,
		settings,
		nodes: [watch, fired],
		connections: chain('Task Finished', 'Fired'),
		pinData: {},
	};
}

module.exports = { DURABLE, PROBES, LOOP, PARK_S, trigger };
