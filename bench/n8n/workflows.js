'use strict';
/*
 * The two workflows of the benchmark, each started by its own Webhook: two executions run side by
 * side (in one workflow n8n would run the image branch and the video branch one after the other).
 *
 *   bench-images  body { run, count }: `count` async image items, one node run, Wait for Completion
 *                 and Download Result on (binaries go to n8n's binary data store)
 *   bench-videos  the same with sora-2 videos
 *
 * Each ends by recording itself on the simulator's files origin (POST /e2e/record, as test/queue
 * does): the moment it ended, how many items came out, how many with a file, how many failed. The
 * gateway node continues on error, so a failed item is counted instead of failing the execution.
 */

const GW = 'n8n-nodes-unified-ai-gateway.unifiedAiGateway';
const CREDENTIALS = { unifiedAiGatewayApi: { id: '{{CRED_ID}}', name: '{{CRED_NAME}}' } };

/** The Poll Interval both gateway nodes are given: the "one poll interval" of the ideal wall time. */
const INTERVAL_S = 3;
/** Items sent at once by one node (the field's maximum is 50; the default 5 is what users keep). */
const CONCURRENCY = 5;

function node(id, name, type, parameters, extra = {}) {
	return { id: `be4c4000-0000-4000-8000-${String(id).padStart(12, '0')}`, name, type, typeVersion: 1, position: [id * 220, 0], parameters, ...extra };
}

const webhook = (path) =>
	node(1, 'Webhook', 'n8n-nodes-base.webhook', { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} }, { typeVersion: 2, webhookId: `be4c4000-${path}` });

/** Prompts unique per run and item: a prompt seen twice in the gateway's records is a double submit. */
const items = (kind) =>
	node(2, 'Items', 'n8n-nodes-base.code', {
		jsCode: `const body = $('Webhook').first().json.body;\nreturn Array.from({ length: body.count }, (_, i) => ({ json: { prompt: body.run + ' ${kind} ' + i } }));`,
	}, { typeVersion: 2 });

const waitAndDownload = { waitForCompletion: true, waiting: { pollIntervalSeconds: INTERVAL_S, maxWaitMinutes: 10, onTimeout: 'fail' }, options: { concurrency: CONCURRENCY }, download: true };
const gateway = (name, parameters) => node(3, name, GW, { ...parameters, prompt: '={{ $json.prompt }}', ...waitAndDownload }, { credentials: CREDENTIALS, onError: 'continueRegularOutput' });

const image = () => gateway('Images', { resource: 'image', operation: 'generate', modelId: { __rl: true, mode: 'id', value: 'gpt-image-2-async' } });
// The smallest video the registry allows for sora-2 (8 s, 720p).
const video = () => gateway('Videos', { resource: 'video', operation: 'generate', modelId: { __rl: true, mode: 'id', value: 'sora-2' }, videoSeconds_sora2: '8', videoSize_sora2: '720x1280' });

/** One POST per execution (executeOnce) with what came out of the gateway node. */
function ended(kind) {
	const q = (name, value) => ({ name, value });
	return node(4, 'Ended', 'n8n-nodes-base.httpRequest', {
		method: 'POST',
		url: '{{SIM_FILES}}/e2e/record',
		sendQuery: true,
		queryParameters: {
			parameters: [
				q('event', 'end'),
				q('kind', kind),
				q('run', '={{ $("Webhook").first().json.body.run }}'),
				q('execution', '={{ $execution.id }}'),
				q('items', '={{ $input.all().length }}'),
				q('files', '={{ $input.all().filter((i) => i.binary && i.binary.data && i.binary.data.id).length }}'),
				q('failed', '={{ $input.all().filter((i) => i.json.error !== undefined).length }}'),
			],
		},
		options: {},
	}, { typeVersion: 4.2, executeOnce: true });
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
		nodes: [webhook(path), items(kind), gatewayNode, ended(kind)],
		connections,
		pinData: {},
	};
}

const KINDS = {
	image: { workflowId: 'benchImages', path: 'bench-images', model: 'gpt-image-2-async' },
	video: { workflowId: 'benchVideos', path: 'bench-videos', model: 'sora-2' },
};

const ALL = () => [workflow(KINDS.image.workflowId, 'image', KINDS.image.path, image()), workflow(KINDS.video.workflowId, 'video', KINDS.video.path, video())];

/** Bodies that make no items: posted until n8n takes them, so the webhooks are known to be registered. */
const PROBES = Object.values(KINDS).map((k) => ({ path: k.path, body: { run: 'probe', count: 0 } }));

module.exports = { ALL, PROBES, KINDS, INTERVAL_S, CONCURRENCY };
