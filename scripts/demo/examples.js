'use strict';
// Which examples the demo runs, in what order, and how each is prepared for `n8n execute`.

const fs = require('fs');
const path = require('path');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');
const OUR_PACKAGE = 'n8n-nodes-unified-ai-gateway';
const CRED = { id: 'uagDemoCred', name: 'Unified AI Gateway account' };
// The AI Agent's chat model (n8n's OpenAI Chat Model node) on the same gateway, its OpenAI-style API.
const CHAT_CRED = { id: 'uagDemoChat', name: 'Gateway as OpenAI (chat)' };

// In run order: task-trigger-known-ids reads the task IDs scheduled-batch-submit wrote into its table.
const EXAMPLES = [
	{
		name: 'marketing-pipeline',
		what: 'products → ad prompt (Text) → ad image (Image) → ad video from that image (Video)',
		items: 2, // products in its "Products" node: used for the cost estimate of --live
		files: ['Campaign Assets'],
		timeoutMin: 40, // the video node waits up to 30 minutes on a real gateway
	},
	{
		name: 'photo-to-video-ad',
		what: 'a product photo (HTTP Request) → captions (Image → Analyze) → a voice-over (Audio) → a short video (Video)',
		items: 1,
		files: ['Ad Assets'],
		timeoutMin: 40, // the video node waits up to 30 minutes on a real gateway
	},
	{
		name: 'brief-to-campaign-kit',
		what: 'a PDF brief (HTTP Request) → summary (File) → clip described (Video) → poster through chat (Text) → voice-over and SRT (Audio)',
		items: 1,
		files: ['Campaign Kit'],
		timeoutMin: 10,
	},
	{
		name: 'video-with-music',
		what: 'a brief → a short video (Video) → an instrumental jingle (Music, two songs) → the clip and a track on one item',
		items: 1,
		files: ['Video and Track'],
		timeoutMin: 40, // the video node waits up to 30 minutes on a real gateway
	},
	{
		name: 'reference-edit',
		what: 'a local PNG → File → Upload Image → Image → Edit with the uploaded URL',
		items: 1,
		files: ['Sketch as PNG', 'Edit Sketch'],
		timeoutMin: 15,
	},
	{
		name: 'scheduled-batch-submit',
		what: 'Schedule (or Manual) Trigger → Data table rows "new" → Image → Generate without waiting → task id and "submitted" into the row',
		items: 3, // the rows the demo puts in its table (data-table.js)
		files: [],
		timeoutMin: 5,
		// Runs with its partner in a started n8n, on a Data table the demo makes (data-table.js).
		dataTablePair: 'scheduled-batch-collect',
	},
	{
		name: 'scheduled-batch-collect',
		what: 'Schedule (or Manual) Trigger → Data table rows "submitted" → Task → Wait for Completion (short) → "done" + URL, "failed" + reason',
		items: 3,
		files: ['Save Image'],
		timeoutMin: 5,
		dataTablePartOf: 'scheduled-batch-submit',
	},
	{
		name: 'task-trigger-known-ids',
		what: 'Unified AI Gateway Trigger (Task Finished) on a list of known task IDs → one item per finished task, image downloaded',
		items: 3,
		files: ['Finished Image'],
		timeoutMin: 15,
		usesTaskIdsOf: 'scheduled-batch-submit',
		emulated:
			'Its Unified AI Gateway Trigger polls only in an active workflow (n8n start); `n8n execute` cannot ' +
			'start a polling trigger. The demo put the task IDs scheduled-batch-submit wrote into the table into the trigger\'s ' +
			'Task IDs and runs the workflow\'s "Check Now" branch instead: Task → Wait for Completion on the same IDs, ' +
			'which gives the same items (state, URL, downloaded image), all at once.',
	},
	{
		name: 'long-render-loop',
		what: 'Video → Generate without waiting → Wait → Task → Check Once → If still running, back to the Wait; finished videos downloaded',
		items: 2, // prompts in its "Prompts" node
		files: ['Finished Videos'],
		timeoutMin: 40,
		// Its Wait node's seconds, in the demo's copy: the loop goes round in seconds, not minutes.
		waitSeconds: 5,
		emulated:
			'The demo sets its Wait node to 5 s instead of 90 s, so that the loop goes round while you watch. ' +
			"In your n8n a wait of 65 s or more parks the execution in n8n's database, frees the worker and " +
			'resumes after a restart too (npm run test:e2e:restart checks that); `n8n execute` cannot resume a parked execution.',
	},
	{
		name: 'ai-agent-tool',
		what: 'AI Agent with a chat model on the gateway and the gateway node as its tools (balance, image)',
		items: 1,
		files: [],
		timeoutMin: 10,
		// Its results are links in the agent's answer: downloaded into demo-output (files.writeLinkedFiles).
		agentNode: 'AI Agent',
		// The chat model node takes an OpenAI credential: the demo makes one for the gateway (CHAT_CRED).
		agent: 'chat tokens for each of its turns + 0.015 USD per image it asks for (1 expected)',
		agentUsd: 0.015, // the one image, in the sum
	},
	{
		name: 'ai-agent-chat-model',
		what: "AI Agent on the gateway's own chat model (the Chat Model sub-node) with a calculator and the balance as tools",
		items: 1,
		files: [],
		timeoutMin: 10,
		agentNode: 'AI Agent',
		agent: 'chat tokens for each of its turns (3 expected); the calculator and the balance read are free',
		// Its sub-node is built on n8n's AI Node SDK, which n8n 1.x lacks.
		minMajor: 2,
	},
];

function loadExample(name) {
	const file = path.join(EXAMPLES_DIR, `${name}.json`);
	return { file, workflow: JSON.parse(fs.readFileSync(file, 'utf8')) };
}

/** The examples with their workflow loaded, and the examples/*.json files the list above lacks. */
function loadExamples() {
	const examples = EXAMPLES.map((example) => ({ ...example, ...loadExample(example.name) }));
	const unknown = fs
		.readdirSync(EXAMPLES_DIR)
		.filter((f) => f.endsWith('.json') && !EXAMPLES.some((e) => `${e.name}.json` === f));
	return { examples, unknown };
}

const isOurs = (node) => String(node.type).startsWith(`${OUR_PACKAGE}.`);

/** The workflow with every gateway credential pointing at the demo's credentials. */
function withDemoCredential(workflow) {
	const copy = JSON.parse(JSON.stringify(workflow));
	for (const node of copy.nodes) {
		if (node.credentials && node.credentials.unifiedAiGatewayApi) node.credentials.unifiedAiGatewayApi = { ...CRED };
		if (node.credentials && node.credentials.openAiApi) node.credentials.openAiApi = { ...CHAT_CRED };
	}
	return copy;
}

/** The workflow with every Wait node waiting `seconds` (the long-render loop in the demo). */
function withWaitSeconds(workflow, seconds) {
	const copy = JSON.parse(JSON.stringify(workflow));
	for (const node of copy.nodes) {
		if (node.type === 'n8n-nodes-base.wait') Object.assign(node.parameters, { resume: 'timeInterval', amount: seconds, unit: 'seconds' });
	}
	return copy;
}

/** The collect workflow with the trigger's Task IDs set to the IDs the submit run returned. */
function withTriggerIds(workflow, ids) {
	const copy = JSON.parse(JSON.stringify(workflow));
	for (const node of copy.nodes) {
		if (node.type === `${OUR_PACKAGE}.unifiedAiGatewayTrigger`) node.parameters.taskIds = ids.join('\n');
	}
	return copy;
}

module.exports = { REPO_ROOT, EXAMPLES_DIR, EXAMPLES, CRED, CHAT_CRED, loadExamples, isOurs, withDemoCredential, withTriggerIds, withWaitSeconds };
