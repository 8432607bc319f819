'use strict';
// What a stranger gateway can do wrong with a music task, each through Music → Generate against the
// simulator: an answer naming another task, a status word the node does not know, a song URL on a
// forbidden address, a file over the limit, an envelope whose `code` is not success (on the read
// and on the submit), a submit without a task id. Each a clear error or pending item with the
// receipt kept (the task id in the item and in the execution's custom data), one submit, no key.
const { API_KEY, useSimulator } = require('../support');
const { runNode } = require('../harness');
const { idsInCustomData } = require('../faults/pollMatrix');

const ctx = useSimulator({ profile: 'plainNewApi', timeScale: 0.01 });

async function generate(parameters = {}, run = {}) {
	const result = await runNode({
		parameters: {
			resource: 'music', operation: 'generate', musicDescription: 'a jingle for a spring sale',
			waitForCompletion: true, ...parameters, waiting: { pollIntervalSeconds: 0.1, ...parameters.waiting },
		},
		credentials: ctx.creds,
		continueOnFail: true,
		...run,
	});
	const error = result.error ? { message: result.error.message, description: result.error.description, context: result.error.context } : {};
	expect(JSON.stringify({ items: result.items.map((i) => i.json), error, metadata: result.run?.data?.resultData?.metadata })).not.toContain(API_KEY);
	return result;
}

const submits = () => ctx.sim.find('POST', '/suno/submit/music');
const fetchPath = /^\/suno\/fetch\/task_\w+$/;
const taskOf = () => ctx.sim.taskIds()[0];

describe('a music task read wrong', () => {
	test('an answer naming another task, every time: reported after three reads, the task id kept', async () => {
		ctx.sim.inject({ method: 'GET', path: fetchPath, times: Infinity, status: 200, body: { code: 'success', message: '', data: { task_id: 'task_SOMEONE_ELSE', status: 'SUCCESS', data: [] } } });
		const result = await generate();
		const [item] = result.items;
		expect(item.json.taskId).toBe(taskOf());
		expect(item.json.error).toMatch(/could not be read: 3 checks in a row/);
		expect(item.json.error).toMatch(/another task, task_SOMEONE_ELSE/);
		expect(item.json.created).toBe('yes');
		expect(submits()).toHaveLength(1);
		expect(idsInCustomData(result).suno).toContain(taskOf());
	});

	test("the status word UNKNOWN keeps the task waiting; past Max Wait a pending item names it", async () => {
		ctx.sim.scenario('suno_music', { statusWord: 'UNKNOWN' });
		const result = await generate({ waiting: { maxWaitMinutes: 0.005 } });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ taskId: taskOf(), pending: true, status: 'UNKNOWN', queryRoute: 'suno' });
		expect(result.items[0].json.message).toMatch(/a status this node does not know/);
		expect(submits()).toHaveLength(1);
	});

	test("a read whose code is not success: one is passed over, the songs still land", async () => {
		ctx.sim.inject({ method: 'GET', path: fetchPath, times: 1, status: 200, body: { code: 'fail', message: 'upstream busy', data: null } });
		const result = await generate();
		expect(result.items.map((i) => i.json.state)).toEqual(['succeeded', 'succeeded']);
		expect(result.items.every((i) => i.binary.data.mimeType === 'audio/mpeg')).toBe(true);
	});

	test("a read whose code is not success, three times: reported in the gateway's words, receipt kept", async () => {
		ctx.sim.inject({ method: 'GET', path: fetchPath, times: Infinity, status: 200, body: { code: 'fail', message: 'upstream busy', data: null } });
		const result = await generate();
		const [item] = result.items;
		expect(item.json.error).toMatch(/could not be read: 3 checks in a row .*code 'fail' instead of the task.*upstream busy/);
		expect(item.json).toMatchObject({ taskId: taskOf(), created: 'yes' });
		expect(submits()).toHaveLength(1);
	});
});

describe('a song file that must not be fetched', () => {
	test('a song URL on the cloud metadata address is refused unsent; the task and its URL are kept', async () => {
		ctx.sim.scenario('suno_music', { resultUrl: (task, i) => `http://169.254.169.254/latest/meta-data/song-${i}.mp3` });
		const result = await generate();
		expect(result.items).toHaveLength(2);
		for (const item of result.items) {
			expect(item.json).toMatchObject({ taskId: taskOf(), downloadFailed: true, created: 'yes' });
			expect(item.json.error).toMatch(/169\.254\.169\.254/);
			expect(item.json.url).toMatch(/^http:\/\/169\.254\.169\.254\/latest\/meta-data\/song-\d\.mp3$/);
		}
		expect(ctx.sim.requests.filter((r) => r.origin === 'files')).toHaveLength(0);
	});

	test('a song over Max File Size is refused; the task id and URL are the receipt', async () => {
		const result = await generate({ options: { maxFileSizeMb: 0.001 } });
		expect(result.items).toHaveLength(2);
		for (const item of result.items) {
			expect(item.json).toMatchObject({ taskId: taskOf(), downloadFailed: true });
			expect(item.json.error).toMatch(/larger than|more than|exceed/i);
			expect(item.json.url).toMatch(/\.mp3$/);
		}
		expect(submits()).toHaveLength(1);
	});
});

describe('a submit answered wrong', () => {
	test("200 with code 'fail': created unknown with the gateway's words, never sent again", async () => {
		ctx.sim.inject({ method: 'POST', path: '/suno/submit/music', status: 200, body: { code: 'fail', message: 'channel busy', data: null } });
		const result = await generate({}, { nodeSettings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 1 }, executionId: 'music-code-fail' });
		const item = result.items[0];
		expect(item.json.error).toMatch(/code 'fail': channel busy \(created: unknown\)|may have been created/);
		expect(submits()).toHaveLength(1);
	});

	test('200 success without a task id: created yes, the answer shown', async () => {
		ctx.sim.inject({ method: 'POST', path: '/suno/submit/music', status: 200, body: { code: 'success', message: '', data: '' } });
		const result = await generate();
		expect(result.items[0].json.error).toMatch(/accepted the music job but its answer has no task ID \(created: yes, task ID unknown\)/);
		expect(result.items[0].json.created).toBe('yes');
	});
});
