'use strict';
// docs/OUTPUT-FIELDS.md's table is the contract users build expressions on: every field it lists
// under an operation is what the node emits, under that exact name, and every field the node emits
// is listed. Runs the operations for real and checks both ways.
const fs = require('node:fs');
const path = require('node:path');
const { useSimulator, createTask } = require('./support');
const { runNode, pollTrigger, makeBinary } = require('./harness');
const { silentWav } = require('./audio/wav');

const ctx = useSimulator({ scenario: { durationMs: 100 } });
const rl = (value) => ({ __rl: true, mode: 'id', value });

/** operation → [{ field, when }] from the table of docs/OUTPUT-FIELDS.md. */
function documentedTable() {
	const text = fs.readFileSync(path.join(__dirname, '..', 'docs', 'OUTPUT-FIELDS.md'), 'utf8');
	const section = text.split('| Operation | Field | When | Meaning |')[1];
	const rows = {};
	for (const line of section.split('\n')) {
		const cells = line.split('|').map((c) => c.trim());
		if (cells.length < 5 || !cells[2].startsWith('`')) continue;
		for (const field of cells[2].match(/`([^`]+)`/g).map((f) => f.slice(1, -1))) {
			(rows[cells[1]] ??= []).push({ field, when: cells[3] });
		}
	}
	return rows;
}

function check(operation, outputs) {
	// No output would compare nothing against the table and pass: a run must have emitted items.
	expect(outputs.length).toBeGreaterThan(0);
	const rows = documentedTable()[operation];
	expect(rows).toBeDefined();
	const documented = new Set(rows.map((r) => r.field));
	const emitted = new Set(outputs.flatMap((json) => Object.keys(json)));
	expect([...emitted].filter((key) => !documented.has(key))).toEqual([]);
	const always = rows.filter((r) => r.when === 'always').map((r) => r.field);
	for (const json of outputs) expect(always.filter((field) => !(field in json))).toEqual([]);
	return { documented, emitted };
}

test('Image → Generate / Edit: docs/OUTPUT-FIELDS.md names exactly what the node emits (revised_prompt, not revisedPrompt)', async () => {
	const sync = await runNode({ parameters: { resource: 'image', operation: 'generate', modelId: rl('gpt-image-2'), prompt: 'a fox', download: false }, credentials: ctx.creds });
	ctx.sim.scenario('*', { durationMs: 100, imageShape: 'full' });
	const task = await runNode({
		parameters: { resource: 'image', operation: 'generate', modelId: rl('gemini-2.5-flash-image'), prompt: 'a fox', download: false, waiting: { pollIntervalSeconds: 0.05 } },
		credentials: ctx.creds,
	});
	const outputs = [...sync.items, ...task.items].map((i) => i.json);
	const { emitted } = check('Image → Generate / Edit', outputs);
	expect(emitted.has('revised_prompt')).toBe(true);
	expect(emitted.has('taskId') && emitted.has('host')).toBe(true);
});

test('Video → Generate: docs/OUTPUT-FIELDS.md names exactly what the node emits', async () => {
	const result = await runNode({
		parameters: { resource: 'video', operation: 'generate', modelId: rl('veo-3.1-flash'), prompt: 'a boat', download: false, waiting: { pollIntervalSeconds: 0.05 }, videoMetadataAspectRatio: '9:16', videoMetadataResolution: '1080p' },
		credentials: ctx.creds,
	});
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	check('Video → Generate', result.items.map((i) => i.json));
});

test('Task → Get: docs/OUTPUT-FIELDS.md names exactly what the node emits', async () => {
	ctx.sim.scenario('*', { durationMs: 0, outcome: 'fail', shape: 'B' });
	const id = await createTask(ctx.sim, { model: 'gpt-image-2-async' });
	const result = await runNode({ parameters: { resource: 'task', operation: 'get', taskId: id, queryRoute: 'generic' }, credentials: ctx.creds });
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	check('Task → Get', result.items.map((i) => i.json));
});

test('Task → Check Once: docs/OUTPUT-FIELDS.md names exactly what the node emits, finished and pending', async () => {
	ctx.sim.scenario('nano-banana', { durationMs: 0 });
	const done = await createTask(ctx.sim, { model: 'nano-banana' });
	ctx.sim.scenario('nano-banana', { outcome: 'never' });
	const running = await createTask(ctx.sim, { model: 'nano-banana' });
	const result = await runNode({
		parameters: { resource: 'task', operation: 'checkOnce', queryRoute: 'auto', download: false },
		credentials: ctx.creds,
		items: [done, running].map((taskId) => ({ json: { taskId, queryRoute: 'image' } })),
	});
	expect(result.items.map((i) => i.json.pending)).toEqual([false, true]);
	check('Task → Check Once', result.items.map((i) => i.json));
});

test('Audio → Generate Speech: docs/OUTPUT-FIELDS.md names exactly what the node emits', async () => {
	const parameters = { resource: 'audio', operation: 'speech', modelId: rl('tts-1'), input: 'A short line.' };
	const result = await runNode({ parameters, credentials: ctx.creds, items: [{ json: {} }, { json: {} }] });
	expect(result.error).toBeUndefined();
	expect(result.items[0].binary.data.mimeType).toBe('audio/mpeg');
	check('Audio → Generate Speech', result.items.map((i) => i.json));
});

test.each([
	['generate', 'Music → Generate', { musicDescription: 'a jingle', options: { includeCover: true } }],
	['writeLyrics', 'Music → Write Lyrics', { lyricsIdea: 'a cat who automates chores' }],
])('Music → %s: docs/OUTPUT-FIELDS.md names exactly what the node emits', async (operation, name, extra) => {
	const parameters = { resource: 'music', operation, ...extra, waiting: { pollIntervalSeconds: 0.1 } };
	const result = await runNode({ parameters, credentials: ctx.creds, items: [{ json: {} }, { json: {} }] });
	expect(result.error).toBeUndefined();
	check(name, result.items.map((i) => i.json));
});

test.each([
	['transcribe', 'Audio → Transcribe a Recording'],
	['translate', 'Audio → Translate a Recording'],
])('Audio → %s: docs/OUTPUT-FIELDS.md names exactly what the node emits, verbose_json and json', async (operation, name) => {
	const items = [{ json: {}, binary: { data: await makeBinary(silentWav(), 'a.wav', 'audio/wav') } }];
	const outputs = [];
	for (const format of ['verbose_json', 'json']) {
		const parameters = { resource: 'audio', operation, modelId: rl('whisper-1'), [`${operation}ResponseFormat`]: format };
		const result = await runNode({ parameters, credentials: ctx.creds, items: [...items, ...items] });
		expect(result.error).toBeUndefined();
		outputs.push(...result.items.map((i) => i.json));
	}
	expect(outputs[0].segments).toBeDefined();
	check(name, outputs);
});

test('Task → Download Result: docs/OUTPUT-FIELDS.md names exactly what the node emits', async () => {
	ctx.sim.scenario('*', { durationMs: 0 });
	const id = await createTask(ctx.sim, { model: 'gpt-image-2-async' });
	const result = await runNode({ parameters: { resource: 'task', operation: 'downloadResult', taskId: id, queryRoute: 'generic' }, credentials: ctx.creds });
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	check('Task → Download Result', result.items.map((i) => i.json));
});

test('Trigger → Task Finished: docs/OUTPUT-FIELDS.md names exactly what the trigger emits, finished, failed and on Fetch Test Event', async () => {
	ctx.sim.scenario('*', { durationMs: 0 });
	const done = await createTask(ctx.sim, { model: 'gpt-image-2-async' });
	ctx.sim.scenario('*', { durationMs: 0, outcome: 'fail' });
	const failed = await createTask(ctx.sim, { model: 'gpt-image-2-async' });
	const parameters = { event: 'taskFinished', taskIds: `${done}\n${failed}`, queryRoute: 'generic', includeFailures: true, download: true };
	const polled = await pollTrigger({ parameters, credentials: ctx.creds, workflowId: 'output-fields' });
	const manual = await pollTrigger({ parameters, credentials: ctx.creds, workflowId: 'output-fields-manual', mode: 'manual' });
	const outputs = [...polled.result[0], ...manual.result[0]].map((i) => i.json);
	expect(outputs.map((json) => json.state)).toEqual(['succeeded', 'failed', 'succeeded']);
	check('Trigger → Task Finished', outputs);
});
