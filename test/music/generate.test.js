'use strict';
// Music → Generate and Write Lyrics (Suno through the relay's /suno routes) through n8n-core's
// execution engine against the simulator, which answers as new-api did in
// ../../../shared/spec/real-newapi/suno.json: the bodies the relay received, two songs per submit as
// items with their MP3s judged by their bytes, the charge from the task's quota, the estimate from
// the price list (suno_music, suno_lyrics), refusals before any call, a failed task's refund.
const { API_KEY, useSimulator } = require('../support');
const { runNode, binaryBuffer } = require('../harness');

const ctx = useSimulator({ profile: 'plainNewApi', timeScale: 0.01 });
const FAST = { waitForCompletion: true, waiting: { pollIntervalSeconds: 0.1 } };

async function music(parameters = {}, run = {}) {
	const result = await runNode({
		parameters: { resource: 'music', operation: 'generate', musicDescription: 'an upbeat song about workflow automation', ...FAST, ...parameters },
		credentials: ctx.creds,
		...run,
	});
	const error = result.error ? { message: result.error.message, description: result.error.description } : {};
	expect(JSON.stringify({ items: result.items.map((i) => i.json), error })).not.toContain(API_KEY);
	return result;
}

const submits = () => ctx.sim.find('POST', '/suno/submit/music');

describe('Music → Generate', () => {
	test('description mode: one submit as recorded, two songs, each an item with its MP3 and its share of the charge', async () => {
		const result = await music();
		expect(result.error).toBeUndefined();
		expect(submits().map((c) => c.body)).toEqual([
			{ gpt_description_prompt: 'an upbeat song about workflow automation', mv: 'chirp-v4', make_instrumental: false },
		]);
		expect(result.items).toHaveLength(2);
		const [first, second] = result.items;
		expect(first.json).toMatchObject({
			status: 'SUCCESS', state: 'succeeded', queryRoute: 'suno', songIndex: 1, songCount: 2, modelVersion: 'chirp-v4', duration: 123.4,
			estimatedCost: { amount: 0.1, currency: 'USD', source: "the gateway's price list", per: 'submit (two songs)' },
			charge: { amount: 0.05, taskAmount: 0.1, currency: 'USD', quota: 50000 },
		});
		expect(first.json.taskId).toMatch(/^task_/);
		expect(second.json).toMatchObject({ taskId: first.json.taskId, songIndex: 2 });
		expect(first.json.clipId).not.toBe(second.json.clipId);
		for (const item of result.items) {
			expect(item.binary.data.mimeType).toBe('audio/mpeg');
			const bytes = await binaryBuffer(item.binary.data);
			expect(bytes.subarray(0, 4).toString('hex')).toBe('fffb9064');
			expect(item.json.audioUrl).toContain(`${item.json.clipId}.mp3`);
		}
	});

	test('lyrics mode with title and style tags, a version from the registry, instrumental off: the recorded body', async () => {
		const lyrics = '[Verse]\nNodes in a row\n[Chorus]\nLet it flow';
		const result = await music({ musicMode: 'lyrics', musicLyrics: lyrics, musicTitle: 'Let it flow', musicStyle: 'pop, upbeat', musicModelVersion: 'chirp-auk' });
		expect(result.error).toBeUndefined();
		expect(submits()[0].body).toEqual({ prompt: lyrics, title: 'Let it flow', tags: 'pop, upbeat', mv: 'chirp-auk', make_instrumental: false });
		expect(result.items.map((i) => i.json.title)).toEqual(['Let it flow', 'Let it flow']);
		expect(result.items[0].json).toMatchObject({ lyrics, tags: 'pop, upbeat', modelName: 'chirp-auk', modelVersion: 'chirp-auk' });
	});

	test('an instrumental from lyrics mode with style tags only: no empty lyrics or title are sent', async () => {
		const result = await music({ musicMode: 'lyrics', musicInstrumental: true, musicStyle: 'lo-fi, piano' });
		expect(result.error).toBeUndefined();
		expect(submits()[0].body).toEqual({ tags: 'lo-fi, piano', mv: 'chirp-v4', make_instrumental: true });
	});

	test('an instrumental continued from a clip at a second: continue_clip_id and continue_at are sent', async () => {
		const first = await music({ waitForCompletion: false });
		const { taskId } = first.items[0].json;
		const result = await music({ musicInstrumental: true, options: { continueClipId: 'clip-abc-123', continueTaskId: taskId, continueAtSeconds: 42.5 } });
		expect(result.error).toBeUndefined();
		expect(submits()[1].body).toMatchObject({ make_instrumental: true, task_id: taskId, continue_clip_id: 'clip-abc-123', continue_at: 42.5 });
	});

	test('Include Cover Picture: each song also has its cover in the binary field cover', async () => {
		const result = await music({ options: { includeCover: true } });
		expect(result.error).toBeUndefined();
		for (const item of result.items) {
			expect(Object.keys(item.binary).sort()).toEqual(['cover', 'data']);
			expect(item.binary.cover.mimeType).toBe('image/png');
		}
	});

	test('Download Files off: the songs as items with their URLs, nothing fetched', async () => {
		const result = await music({ download: false });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		expect(result.items.every((i) => !i.binary)).toBe(true);
		expect(result.items[0].json.url).toBe(result.items[0].json.audioUrl);
		expect(ctx.sim.requests.filter((r) => r.origin === 'files')).toHaveLength(0);
	});

	test.each([
		[{ musicDescription: '={{ "" }}' }, /^Description is empty: describe the song to make$/],
		[{ musicDescription: 'x'.repeat(501) }, /^Description has 501 characters; Suno takes at most 500/],
		[{ musicMode: 'lyrics', musicLyrics: '' }, /^Lyrics is empty: write the words to sing, or turn on Instrumental$/],
		[{ musicMode: 'lyrics', musicLyrics: '', musicInstrumental: true }, /^Style Tags is empty/],
		[{ musicMode: 'lyrics', musicLyrics: 'la '.repeat(1001), musicModelVersion: 'chirp-v4' }, /^Lyrics has 3002 characters; chirp-v4 takes at most 3000$/],
		[{ musicModelVersion: 'chirp v4/../x' }, /^Model Version "chirp v4\/..\/x" is not a version name; use one of chirp-v3-0, chirp-v3-5/],
		[{ options: { continueClipId: 'a/b' } }, /^Options → Continue From Clip ID "a\/b" is not a clip id/],
		[{ options: { continueClipId: 'c1', continueTaskId: 'task_1', continueAtSeconds: -1 } }, /Continue At \(Seconds\)/],
		[{ options: { continueClipId: 'c1' } }, /^Options → Continue From Task ID is empty: the relay needs the task that made the clip/],
		[{ options: { continueClipId: 'c1', continueTaskId: 'task_1/..' } }, /^Options → Continue From Task ID "task_1\/\.\." contains '\/'/],
	])('refused before any call: %j', async (parameters, message) => {
		const result = await music(parameters);
		expect(result.error.message).toMatch(message);
		expect(result.error.description).toMatch(/Nothing was sent/i);
		expect(ctx.sim.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/suno/'))).toHaveLength(0);
	});

	test('a failed task: the reason, and the refund shown (charge 0, refunded), the receipt kept', async () => {
		ctx.sim.scenario('suno_music', { outcome: 'fail', failMessage: 'fake upstream: prompt rejected' });
		const usedBefore = ctx.sim.balances.token.used;
		const result = await music({}, { continueOnFail: true });
		const [item] = result.items;
		expect(item.json.error).toMatch(/fake upstream: prompt rejected/);
		expect(item.json.taskId).toMatch(/^task_/);
		expect(item.json.charge).toMatchObject({ amount: 0, refunded: true, source: "the gateway's task record (data.quota)" });
		// Charged at submit, refunded when the relay saw the failure: nothing spent.
		expect(ctx.sim.balances.token.used - usedBefore).toBeCloseTo(0, 6);
	});

	test('past Max Wait: a pending item with its task id and queryRoute suno, then Task → Wait for Completion (From Input Item) gets the songs', async () => {
		// 3 s at this time scale: far past the first run's Max Wait of 0.3 s.
		ctx.sim.scenario('suno_music', { durationMs: 300_000 });
		const first = await music({ waiting: { pollIntervalSeconds: 0.1, maxWaitMinutes: 0.005 } });
		expect(first.error).toBeUndefined();
		const [pending] = first.items;
		expect(pending.json).toMatchObject({ pending: true, queryRoute: 'suno', modelVersion: 'chirp-v4', estimatedCost: { amount: 0.1 } });
		const waited = await runNode({
			parameters: { resource: 'task', operation: 'waitForCompletion', taskId: '={{ $json.taskId }}', queryRoute: 'auto', download: true, waiting: { pollIntervalSeconds: 0.1 } },
			credentials: ctx.creds,
			items: [{ json: pending.json }],
		});
		expect(waited.error).toBeUndefined();
		expect(waited.items).toHaveLength(2);
		for (const item of waited.items) expect(item.binary.data.mimeType).toBe('audio/mpeg');
		expect(submits()).toHaveLength(1);
	});

	test('Task → Get, Check Once and Download Result read a music task on the query route suno', async () => {
		const made = await music({ waitForCompletion: false });
		const { taskId } = made.items[0].json;
		expect(made.items[0].json).toMatchObject({ pending: true, queryRoute: 'suno' });
		const got = await runNode({ parameters: { resource: 'task', operation: 'get', taskId, queryRoute: 'suno' }, credentials: ctx.creds });
		expect(got.error).toBeUndefined();
		expect(got.items[0].json.taskId).toBe(taskId);
		const downloaded = await runNode({ parameters: { resource: 'task', operation: 'downloadResult', taskId, queryRoute: 'suno' }, credentials: ctx.creds });
		expect(downloaded.error).toBeUndefined();
		expect(downloaded.items).toHaveLength(2);
		for (const item of downloaded.items) expect(item.binary.data.mimeType).toBe('audio/mpeg');
		const checked = await runNode({ parameters: { resource: 'task', operation: 'checkOnce', taskId, queryRoute: 'suno', download: true }, credentials: ctx.creds });
		expect(checked.error).toBeUndefined();
		expect(checked.items.map((i) => i.binary?.data?.mimeType)).toEqual(['audio/mpeg', 'audio/mpeg']);
		expect(ctx.sim.find('GET', `/suno/fetch/${taskId}`).length).toBeGreaterThanOrEqual(3);
	});

	test('Retry On Fail never sends a submit again: a lost answer is reported, one submit', async () => {
		ctx.sim.inject({ method: 'POST', path: '/suno/submit/music', kind: 'drop' });
		const result = await music({}, { nodeSettings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 1 }, executionId: 'music-retry' });
		expect(submits()).toHaveLength(1);
		expect(result.error.message).toMatch(/may have been created: an earlier try sent it/);
	});

	test('the Spend Guard: a cap below the price list refuses the run before any submit', async () => {
		const result = await music({ spendGuard: { maxRunCostUsd: 0.05 } });
		expect(result.error.message).toMatch(/0\.1/);
		expect(submits()).toHaveLength(0);
	});
});

describe('a batch of five', () => {
	test('five items, five submits, one wait: ten songs as MP3s in input order, each with its charge', async () => {
		const ideas = ['a spring sale', 'a rainy Monday', 'a robot barista', 'a summer road trip', 'a quiet library'];
		const result = await music({ musicDescription: '={{ $json.idea }}' }, { items: ideas.map((idea) => ({ json: { idea } })) });
		expect(result.error).toBeUndefined();
		expect(submits().map((c) => c.body.gpt_description_prompt)).toEqual(ideas);
		expect(result.items).toHaveLength(10);
		expect(result.items.map((i) => i.pairedItem.item)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
		expect(new Set(result.items.map((i) => i.json.taskId)).size).toBe(5);
		for (const item of result.items) {
			expect(item.binary.data.mimeType).toBe('audio/mpeg');
			expect((await binaryBuffer(item.binary.data)).subarray(0, 2).toString('hex')).toBe('fffb');
			expect(item.json.charge).toMatchObject({ amount: 0.05, taskAmount: 0.1, currency: 'USD' });
		}
		expect(ctx.sim.requests.filter((r) => r.origin === 'files' && r.path.endsWith('.mp3'))).toHaveLength(10);
		const total = result.items.reduce((sum, i) => sum + i.json.charge.amount, 0);
		expect(total).toBeCloseTo(0.5, 6);
	});
});

describe('Music → Write Lyrics', () => {
	test('one submit of the idea, the lyrics and title as the item, charged suno_lyrics', async () => {
		const result = await runNode({
			parameters: { resource: 'music', operation: 'writeLyrics', lyricsIdea: 'a song about a cat who automates chores', ...FAST },
			credentials: ctx.creds,
		});
		expect(result.error).toBeUndefined();
		expect(ctx.sim.find('POST', '/suno/submit/lyrics').map((c) => c.body)).toEqual([{ prompt: 'a song about a cat who automates chores' }]);
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({
			status: 'SUCCESS', state: 'succeeded', queryRoute: 'suno', title: 'Chore Cat',
			lyrics: expect.stringContaining('a song about a cat who automates chores'),
			estimatedCost: { amount: 0.01, per: 'submit' },
			charge: { amount: 0.01, currency: 'USD', quota: 5000 },
		});
	});

	test('an empty idea is refused before any call', async () => {
		const result = await runNode({ parameters: { resource: 'music', operation: 'writeLyrics', lyricsIdea: '  ' }, credentials: ctx.creds });
		expect(result.error.message).toMatch(/^Idea is empty: say what the lyrics are about$/);
		expect(ctx.sim.find('POST', '/suno/submit/lyrics')).toHaveLength(0);
	});
});
