'use strict';
// The whole node against each build the simulator plays (test/simulator/profiles.js): the commercial
// build of the document, a plain new-api (no /v1/balance, no /v1/tasks, no uploads) and one-api (no
// video at all). What each serves works end to end through its own routes; what a build lacks fails
// plainly, nothing billed.
const { useSimulator } = require('../support');
const { runNode, binaryBuffer } = require('../harness');

const ctx = useSimulator({ scenario: { durationMs: 200 } });
const rl = (value) => ({ __rl: true, mode: 'id', value });
const PROFILES = ['commercial', 'plainNewApi', 'oneApi'];

const generateImage = { resource: 'image', operation: 'generate', modelId: rl('gpt-image-2'), prompt: 'a red kite' };
const generateVideo = { resource: 'video', operation: 'generate', modelId: rl('seedance-2.0'), prompt: 'a paper boat', waiting: { pollIntervalSeconds: 0.1 } };

describe.each(PROFILES)('%s', (profile) => {
	beforeEach(() => ctx.sim.setProfile(profile));

	test('Image → Generate: the image file, its estimate and what the gateway reports of its charge', async () => {
		const result = await runNode({ parameters: generateImage, credentials: ctx.creds });
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect((await binaryBuffer(item.binary.data)).subarray(1, 4).toString()).toBe('PNG');
		expect(item.json.estimatedCost.amount).toBeGreaterThan(0);
		// The answer carries no charge; plain new-api's usage log, read once after the run, does (one-api
		// has none a key can read: one 404, the charge not reported).
		const fromLog = "the gateway's usage log (GET /api/log/token, the call's request id)";
		expect(item.json.charge.source).toBe(profile === 'plainNewApi' ? fromLog : 'not reported');
		expect(ctx.sim.count('GET', '/api/log/token')).toBe(profile === 'commercial' ? 0 : 1);
		expect(ctx.sim.count('POST', '/v1/images/generations')).toBe(1);
	});

	test('Text → Message a Model', async () => {
		const result = await runNode({ parameters: { resource: 'text', operation: 'message', modelId: rl('gpt-5.6-sol'), messages: { values: [{ role: 'user', content: 'hello' }] } }, credentials: ctx.creds });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.text).toMatch(/hello/);
	});

	test('Account → Get Token Balance and List Models', async () => {
		const balance = await runNode({ parameters: { resource: 'account', operation: 'getTokenBalance' }, credentials: ctx.creds });
		expect(balance.items[0].json.remainingBalance).toBe(100.5);
		const models = await runNode({ parameters: { resource: 'account', operation: 'listModels' }, credentials: ctx.creds });
		expect(models.items.length).toBeGreaterThan(10);
	});
});

describe.each(['commercial', 'plainNewApi'])('Video → Generate on %s', (profile) => {
	test('submitted, waited for through the build’s own routes, the MP4 downloaded', async () => {
		ctx.sim.setProfile(profile);
		const result = await runNode({ parameters: generateVideo, credentials: ctx.creds });
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.json.state).toBe('succeeded');
		expect((await binaryBuffer(item.binary.data)).subarray(4, 8).toString()).toBe('ftyp');
		expect(ctx.sim.count('POST', '/v1/video/generations')).toBe(1);
		// The plain relay has no /v1/tasks: its task record answers, and says what the task cost.
		if (profile === 'plainNewApi') {
			expect(item.json.answeredBy).toBe('GET /v1/video/generations/{id}');
			expect(item.json.charge).toMatchObject({ currency: 'USD', source: "the gateway's task record (data.quota)" });
		} else {
			expect(item.json.charge.source).toBe('not reported');
		}
	});
});

test('one-api has no video: the submit fails plainly, naming the 404, and no task exists', async () => {
	ctx.sim.setProfile('oneApi');
	const result = await runNode({ parameters: generateVideo, credentials: ctx.creds, continueOnFail: true });
	expect(result.items[0].json.error).toMatch(/^The gateway answered 404 Not Found while submitting the video job/);
	expect(result.items[0].json.description).toMatch(/Invalid URL \(POST \/v1\/video\/generations\)/);
	expect(ctx.sim.count('POST', '/v1/video/generations')).toBe(1);
	expect(ctx.sim.taskIds()).toEqual([]);
});

test('a plain new-api has no uploads: Image → Edit with a binary reference fails before anything is billed', async () => {
	ctx.sim.setProfile('plainNewApi');
	const { makeBinary } = require('../harness');
	const { pngFor } = require('../simulator/png');
	const items = [{ json: {}, binary: { data: await makeBinary(pngFor('ref'), 'ref.png', 'image/png') } }];
	const result = await runNode({ parameters: { ...generateImage, operation: 'edit', modelId: rl('gpt-image-2.5'), referenceSource: 'binary', download: false }, credentials: ctx.creds, items, continueOnFail: true });
	expect(result.items[0].json.error).toMatch(/404/);
	expect(ctx.sim.count('POST', '/v1/images/edits')).toBe(0);
});
