'use strict';
// The demo (scripts/demo) tells the truth about what it runs and what comes out: every example in
// examples/ runs (the long-render loop too), and under the simulator a result is labelled a
// placeholder and a video's label says what was asked for, beside what the file really is.
const fs = require('node:fs');
const path = require('node:path');

const { loadExamples, withWaitSeconds } = require('../scripts/demo/examples');
const { describeOurNode } = require('../scripts/demo/summary');
const { mediaFacts, describeFacts } = require('../scripts/demo/media');
const terminal = require('../scripts/demo/terminal');
const { smallMp4, orientationOf } = require('./simulator/mp4');
const { picturePng } = require('./simulator/picture');

afterEach(() => {
	terminal.state.simulator = false;
});

test('the demo runs every example of examples/, and n8n\'s CLI takes each one\'s id', () => {
	const { examples, unknown } = loadExamples();
	expect(unknown).toEqual([]);
	const files = fs.readdirSync(path.join(__dirname, '..', 'examples')).filter((f) => f.endsWith('.json'));
	expect(examples.map((e) => `${e.name}.json`).sort()).toEqual(files.sort());
	// n8n treats a longer id as invalid (isWorkflowIdValid): `n8n import:workflow` would not keep it.
	for (const { workflow, name } of examples) expect([name, String(workflow.id).length <= 16]).toEqual([name, true]);
});

test('the long-render loop runs with a short Wait in the demo\'s copy, the example itself unchanged', () => {
	const { examples } = loadExamples();
	const loop = examples.find((e) => e.name === 'long-render-loop');
	const copy = withWaitSeconds(loop.workflow, loop.waitSeconds);
	const waits = (wf) => wf.nodes.filter((n) => n.type === 'n8n-nodes-base.wait').map((n) => [n.parameters.amount, n.parameters.unit]);
	expect(waits(copy)).toEqual([[5, 'seconds']]);
	expect(waits(loop.workflow)).toEqual([[90, 'seconds']]);
	expect(loop.emulated).toMatch(/5 s instead of 90 s/);
});

test('a video\'s label under the simulator: what was asked for, and the file read as what it is', () => {
	terminal.state.simulator = true;
	const node = { parameters: { resource: 'video' } };
	const item = { json: { taskId: 'task_1', status: 'completed', model: 'sora-2', seconds: '8', size: '1280x720' } };
	const lines = describeOurNode(node, [item]);
	expect(lines).toEqual(['1 video (simulated):', '  task_1  completed  (sora-2, asked for 8 s, 1280x720)']);
	// The simulator's file for that request: its one test clip, 4 s of 640x360.
	const file = smallMp4('task_1.mp4', orientationOf({ size: '1280x720' }));
	expect(describeFacts(mediaFacts(file))).toBe('4 s, 640x360');
});

test('with a real gateway the label is the gateway\'s own, not "asked for"', () => {
	const lines = describeOurNode({ parameters: { resource: 'video' } }, [{ json: { taskId: 't', status: 'completed', model: 'veo', seconds: '8', size: '1280x720' } }]);
	expect(lines[1]).toBe('  t  completed  (veo, 8 s, 1280x720)');
});

test('a simulator picture is read at its size', () => {
	const png = picturePng({ width: 1024, height: 576, title: 'a lighthouse', caption: '1024×576', seed: 'x' });
	expect(mediaFacts(png)).toEqual({ kind: 'image', width: 1024, height: 576 });
});
