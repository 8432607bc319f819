'use strict';
// Image → Generate's form and run are built from one object, its DEFAULTS (params/runDefaults.ts):
// change it, and the field defaults, their "Left out: …" words and what a run does all follow. The
// object is changed before the node is first loaded (its description is built at load), in this
// test file's own module registry, so no other test sees it.
const path = require('node:path');

const DIST = path.resolve(__dirname, '../../dist/nodes/UnifiedAiGateway');
const generate = require(path.join(DIST, 'actions/image/generate.operation.js'));
const SHIPPED = { ...generate.DEFAULTS };
// Every figure unlike the shipped one: a poll above the image route's advised 3 s, a Max Wait and a
// Concurrency no other operation has.
const CHANGED = { maxWaitMinutes: 7, pollIntervalSeconds: 4, concurrency: 2 };
Object.assign(generate.DEFAULTS, CHANGED);

const { API_KEY, useSimulator } = require('../support');
const { runNode, loadNode } = require('../harness');

const ctx = useSimulator();

/** The Waiting option and the Options entry shown for Image → Generate. */
function generateFields() {
	const shownFor = (p) =>
		p.displayOptions?.show?.resource?.includes('image') && p.displayOptions.show.operation?.includes('generate');
	const props = loadNode('unifiedAiGateway').description.properties.filter(shownFor);
	const waiting = props.find((p) => p.name === 'waiting').options;
	const options = props.find((p) => p.name === 'options').options;
	return {
		maxWait: waiting.find((o) => o.name === 'maxWaitMinutes'),
		poll: waiting.find((o) => o.name === 'pollIntervalSeconds'),
		concurrency: options.find((o) => o.name === 'concurrency'),
	};
}

test('the shipped object is not the changed one (else this file would prove nothing)', () => {
	for (const [key, value] of Object.entries(CHANGED)) expect([key, SHIPPED[key]]).not.toEqual([key, value]);
});

test('the form follows: field defaults and the words of what a left-out field means', () => {
	const { maxWait, poll, concurrency } = generateFields();
	expect(maxWait.default).toBe(7);
	expect(maxWait.description).toContain('Left out: 7 minutes');
	expect(poll.description).toContain('0 (or left out): every 4 s');
	expect(concurrency.default).toBe(2);
});

/** Image → Generate of three prompts, Waiting and Options left out. */
async function generateThree(model) {
	const result = await runNode({
		parameters: {
			resource: 'image',
			operation: 'generate',
			modelId: { __rl: true, mode: 'id', value: model },
			prompt: '={{ $json.prompt }}',
		},
		credentials: ctx.creds,
		items: ['fox', 'owl', 'bear'].map((prompt) => ({ json: { prompt } })),
	});
	if (result.error) throw new Error(`${result.error.message} | ${result.error.description}`);
	expect(result.items).toHaveLength(3);
	expect(JSON.stringify(result.items.map((i) => i.json))).not.toContain(API_KEY);
	const submits = ctx.sim.find('POST', '/v1/images/generations', 'main').sort((a, b) => a.at - b.at);
	expect(submits).toHaveLength(3);
	return submits;
}

test('the run follows: Options left out sends two at a time', async () => {
	ctx.sim.scenario('gpt-image-2', { syncDelayMs: 400 });
	const submits = await generateThree('gpt-image-2');
	// The third call went out only once one of the first two had been answered (order, not timing).
	expect(submits[2].at).toBeGreaterThanOrEqual(Math.min(submits[0].answeredAt, submits[1].answeredAt));
});

test('the run follows: Waiting left out reads the tasks every 4 s, not at the route\'s advised 3 s', async () => {
	ctx.sim.scenario('gpt-image-2-async', { durationMs: 1500 });
	const submits = await generateThree('gpt-image-2-async');
	const reads = ctx.sim.find('GET', /^\/v1\/images\/generations\/task_/, 'main');
	expect(reads.length).toBeGreaterThanOrEqual(3);
	const firstAnswer = Math.min(...submits.map((r) => r.answeredAt));
	expect(Math.min(...reads.map((r) => r.at)) - firstAnswer).toBeGreaterThanOrEqual(3_900);
});
