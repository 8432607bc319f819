'use strict';
/*
 * The workflows of the benchmark, each started by its own Webhook, so executions run side by side
 * (in one workflow n8n would run the image branch and the video branch one after the other).
 *
 *   bench-images  body { run, count, from }: `count` async image items, one node run, Wait for
 *                 Completion and Download Result on (binaries go to n8n's binary data store)
 *   bench-videos  the same with sora-2 videos
 *   bench-loop-images[-retry|-batch], bench-loop-videos[…]: the hand-built loop (below)
 *
 * Each records itself on the simulator's files origin (POST /e2e/record, as test/queue does): the
 * package's at its end (how many items came out, how many with a file, how many failed; the
 * gateway node continues on error, so a failed item is counted instead of failing the
 * execution), the loop's after each pass of its Download (the files of that pass).
 */

const fs = require('fs');
const path = require('path');

const GW = 'n8n-nodes-unified-ai-gateway.unifiedAiGateway';
const CREDENTIALS = { unifiedAiGatewayApi: { id: '{{CRED_ID}}', name: '{{CRED_NAME}}' } };

/**
 * The Poll Interval both gateway nodes are given and the hand-built loop's Wait: the same on both
 * sides, and the "one poll interval" of the ideal wall time. 5 s is what the gateway advises for
 * video and the top of its 3-5 s for images (BENCH_INTERVAL_S overrides).
 */
const INTERVAL_S = Number(process.env.BENCH_INTERVAL_S || 5);
/** Items sent at once by one node (the field's maximum is 50; the default 5 is what users keep). */
const CONCURRENCY = 5;

function node(id, name, type, parameters, extra = {}) {
	return { id: `be4c4000-0000-4000-8000-${String(id).padStart(12, '0')}`, name, type, typeVersion: 1, position: [id * 220, 0], parameters, ...extra };
}

const webhook = (path) =>
	node(1, 'Webhook', 'n8n-nodes-base.webhook', { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} }, { typeVersion: 2, webhookId: `be4c4000-${path}` });

/**
 * Prompts unique per run and item (`from`: where this execution's items start, when several
 * executions share a run): a prompt that made two tasks is a double submit.
 */
const items = (kind) =>
	node(2, 'Items', 'n8n-nodes-base.code', {
		jsCode: `const body = $('Webhook').first().json.body;\nconst from = Number(body.from || 0);\nreturn Array.from({ length: body.count }, (_, i) => ({ json: { prompt: body.run + ' ${kind} ' + (from + i) } }));`,
	}, { typeVersion: 2 });

const waitAndDownload = { waitForCompletion: true, waiting: { pollIntervalSeconds: INTERVAL_S, maxWaitMinutes: 10, onTimeout: 'fail' }, options: { concurrency: CONCURRENCY }, download: true };
const gateway = (name, parameters) => node(3, name, GW, { ...parameters, prompt: '={{ $json.prompt }}', ...waitAndDownload }, { credentials: CREDENTIALS, onError: 'continueRegularOutput' });

const image = () => gateway('Images', { resource: 'image', operation: 'generate', modelId: { __rl: true, mode: 'id', value: 'gpt-image-2-async' } });
// The smallest video the registry allows for sora-2 (8 s, 720p).
const SORA_2 = { resource: 'video', operation: 'generate', modelId: { __rl: true, mode: 'id', value: 'sora-2' }, videoSeconds_sora2: '8', videoSize_sora2: '720x1280' };
const video = () => gateway('Videos', SORA_2);

/**
 * One POST per node run with what came out of `from`: `end` after the gateway node (its one run),
 * `files` after each run of the loop's Download (one per pass of the loop that found tasks done).
 */
function record(id, kind, event, position) {
	const q = (name, value) => ({ name, value });
	return node(id, event === 'end' ? 'Ended' : 'Recorded', 'n8n-nodes-base.httpRequest', {
		method: 'POST',
		url: '{{SIM_FILES}}/e2e/record',
		sendQuery: true,
		queryParameters: {
			parameters: [
				q('event', event),
				q('kind', kind),
				q('run', '={{ $("Webhook").first().json.body.run }}'),
				q('execution', '={{ $execution.id }}'),
				q('items', '={{ $input.all().length }}'),
				q('files', '={{ $input.all().filter((i) => i.binary && i.binary.data && i.binary.data.id).length }}'),
				q('failed', '={{ $input.all().filter((i) => i.json.error !== undefined).length }}'),
			],
		},
		options: {},
	}, { typeVersion: 4.2, executeOnce: true, ...(position ? { position } : {}) });
}

function workflow(id, kind, path, gatewayNode) {
	const names = ['Webhook', 'Items', gatewayNode.name, 'Ended'];
	const connections = {};
	for (let i = 0; i < names.length - 1; i++) connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	return {
		id,
		name: `bench: ${kind}s, waited and downloaded in one node run`,
		active: false,
		// Saved in full: the stored execution is what the per-item figure measures.
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all', saveDataErrorExecution: 'all' },
		nodes: [webhook(path), items(kind), gatewayNode, record(4, kind, 'end')],
		connections,
		pinData: {},
	};
}

const KINDS = {
	image: { workflowId: 'benchImages', path: 'bench-images', model: 'gpt-image-2-async' },
	video: { workflowId: 'benchVideos', path: 'bench-videos', model: 'sora-2' },
};

/*
 * The hand-built loop (loop-images.json, loop-videos.json: what users wire without this package,
 * n8n's own nodes only): Webhook → Items → HTTP Request submit → Wait → HTTP Request status → If
 * done → HTTP Request download, else back to Wait. The bench adds one node after Download that
 * records each pass's files. Variants change only the submit node, as a user would:
 *   plain   as shipped (a 429 on one item fails the node and the execution)
 *   retry   the submit's Retry On Fail on (3 tries, 1 s apart: n8n's defaults)
 *   batch   the submit's Options → Batching: 10 items per batch, 1 s between batches (10/s)
 */
const LOOP_FILES = { image: path.join(__dirname, 'loop-images.json'), video: path.join(__dirname, 'loop-videos.json') };
const LOOP_VARIANTS = {
	plain: (submit) => submit,
	retry: (submit) => ({ ...submit, retryOnFail: true, maxTries: 3, waitBetweenTries: 1000 }),
	batch: (submit) => ({ ...submit, parameters: { ...submit.parameters, options: { ...submit.parameters.options, batching: { batch: { batchSize: 10, batchInterval: 1000 } } } } }),
};
const cap = (s) => s[0].toUpperCase() + s.slice(1);

/** Where the loop of `kind` in `variant` is posted, and its workflow id (ids stay within n8n's 16 characters). */
const loopOf = (kind, variant = 'plain') => ({
	workflowId: `loop${cap(kind)}s${variant === 'plain' ? '' : cap(variant)}`,
	path: `bench-loop-${kind}s${variant === 'plain' ? '' : `-${variant}`}`,
	model: KINDS[kind].model,
});

/**
 * `at`: another id, path and Wait (the durable bench's loop: { workflowId, path, waitS }, its Wait
 * long enough to park the execution in n8n's database, no execution time limit).
 */
function loopWorkflow(kind, variant, at) {
	const wf = JSON.parse(fs.readFileSync(LOOP_FILES[kind], 'utf8'));
	const { workflowId, path: hook } = at ?? loopOf(kind, variant);
	wf.id = workflowId;
	wf.name += variant === 'plain' ? '' : ` [${variant}]`;
	if (at) {
		wf.name += ` (Wait ${at.waitS} s)`;
		delete wf.settings.executionTimeout;
	}
	wf.nodes = wf.nodes.map((n) => {
		if (n.name === 'Webhook') return { ...n, parameters: { ...n.parameters, path: hook }, webhookId: `1b00b000-${hook}` };
		if (n.name === 'Wait') return { ...n, parameters: { ...n.parameters, amount: at?.waitS ?? INTERVAL_S }, webhookId: `1b00b000-wait-${hook}` };
		if (n.name === 'Submit') return LOOP_VARIANTS[variant](n);
		return n;
	});
	const download = wf.nodes.find((n) => n.name === 'Download');
	wf.nodes.push(record(8, kind, 'files', [download.position[0] + 220, download.position[1]]));
	wf.connections.Download = { main: [[{ node: 'Recorded', type: 'main', index: 0 }]] };
	return wf;
}

/** The package's two workflows and the loops of the variants asked for (default: the plain loop). */
function ALL(variants = ['plain']) {
	return [
		workflow(KINDS.image.workflowId, 'image', KINDS.image.path, image()),
		workflow(KINDS.video.workflowId, 'video', KINDS.video.path, video()),
		...variants.flatMap((v) => Object.keys(KINDS).map((kind) => loopWorkflow(kind, v))),
	];
}

/** Bodies that make no items: posted until n8n takes them, so the webhooks are known to be registered. */
const probes = (variants = ['plain']) => [...Object.values(KINDS), ...variants.flatMap((v) => Object.keys(KINDS).map((k) => loopOf(k, v)))].map((k) => ({ path: k.path, body: { run: 'probe', count: 0 } }));

module.exports = { ALL, probes, KINDS, loopOf, loopWorkflow, LOOP_VARIANTS, INTERVAL_S, CONCURRENCY, node, webhook, items, record, CREDENTIALS, GW, SORA_2 };
