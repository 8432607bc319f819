'use strict';
// The trigger's Task Finished on music task ids (query route suno): read in batches through the
// relay's POST /suno/fetch {ids} (docs/gateway-contract.md §10.15), each finished task emitted
// once with its two MP3s and its charge; an id the batch answer leaves out is read alone.
const { API_KEY, useSimulator } = require('../support');
const { pollTrigger, binaryBuffer } = require('../harness');

const ctx = useSimulator({ profile: 'plainNewApi' });

/** A music task submitted straight to the simulator, as a workflow that does not wait would. */
async function submitMusic(prompt) {
	const response = await fetch(`${ctx.sim.mainUrl}/suno/submit/music`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({ gpt_description_prompt: prompt, mv: 'chirp-v4' }),
	});
	return (await response.json()).data;
}

let watchers = 0;
function watcher(parameters) {
	const staticData = {};
	const workflowId = `wf-music-${++watchers}`;
	return async () => (await pollTrigger({ parameters, credentials: ctx.creds, staticData, workflowId })).result;
}
const jsonOf = (result) => (result ?? [[]])[0].map((item) => item.json);
const batchReads = () => ctx.sim.find('POST', '/suno/fetch');
const singleReads = () => ctx.sim.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/suno/fetch/'));

test('three music tasks finishing over several polls: each emitted once, read in batches, with its songs and charge', async () => {
	// By reads, not by the clock: the first two finish at their second read, the third at its fourth.
	const running = { status: 'in_progress', progress: 50 };
	const done = { status: 'completed', progress: 100 };
	ctx.sim.scenario('suno_music', { readSteps: [running, done] });
	const fast = [await submitMusic('a spring sale'), await submitMusic('a rainy Monday')];
	ctx.sim.scenario('suno_music', { readSteps: [running, running, running, done] });
	const slow = await submitMusic('a robot barista');
	const poll = watcher({ event: 'taskFinished', taskIds: [...fast, slow].join('\n'), queryRoute: 'suno', download: true });

	const emitted = [];
	for (let round = 0; round < 8 && emitted.length < 3; round++) {
		const result = await poll();
		if (result) emitted.push(...result[0]);
	}
	expect(emitted.map((i) => i.json.taskId).sort()).toEqual([...fast, slow].sort());
	for (const item of emitted) {
		expect(item.json).toMatchObject({ state: 'succeeded', queryRoute: 'suno', charge: { amount: 0.1, currency: 'USD', quota: 50000 } });
		expect(item.json.songs).toHaveLength(2);
		expect(item.json.songs[0]).toMatchObject({ title: expect.any(String), duration: 123.4 });
		expect(Object.keys(item.binary).sort()).toEqual(['data', 'data_2']);
		for (const file of Object.values(item.binary)) {
			expect(file.mimeType).toBe('audio/mpeg');
			expect((await binaryBuffer(file)).subarray(0, 2).toString('hex')).toBe('fffb');
		}
	}
	// Every read went through the batch route; no task was read alone.
	expect(batchReads().length).toBeGreaterThanOrEqual(2);
	// (The trigger reads each batch's leaders first, then the others: a pass is one batch read.)
	expect(new Set(batchReads().flatMap((r) => r.body.ids))).toEqual(new Set([...fast, slow]));
	expect(batchReads().some((r) => r.body.ids.length > 1)).toBe(true);
	expect(singleReads()).toHaveLength(0);
	// Nothing is emitted again afterwards.
	expect(jsonOf(await poll())).toEqual([]);
});

test('an id the batch answer does not know is read alone, and reported as the relay says', async () => {
	ctx.sim.scenario('suno_music', { durationMs: 0 });
	const known = await submitMusic('a quiet library');
	const unknown = 'task_NOSUCHTASKNOSUCHTASKNOSUCHTAS';
	const poll = watcher({ event: 'taskFinished', taskIds: `${known}\n${unknown}`, queryRoute: 'suno', download: false, includeFailures: true });
	const first = jsonOf(await poll());
	expect(first.map((j) => j.taskId)).toContain(known);
	expect(singleReads().map((r) => r.path)).toEqual([`/suno/fetch/${unknown}`]);
	expect(new Set(batchReads().flatMap((r) => r.body.ids))).toEqual(new Set([known, unknown]));
});
