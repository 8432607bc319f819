'use strict';
// Audio → Generate Speech (POST /v1/audio/speech) through n8n-core's execution engine against the
// simulator, which answers as new-api did in ../../../shared/spec/real-newapi/audio-speech.json:
// the body the gateway received, the audio as a binary judged by its bytes, refusals before any
// call, an answer that is not audio, the Spend Guard on the gateway's per-call price.
const { API_KEY, useSimulator } = require('../support');
const { runNode, binaryBuffer } = require('../harness');

// The plain relay: speech is new-api's own route, and its price list is served.
const ctx = useSimulator({ profile: 'plainNewApi' });
const rl = (value) => ({ __rl: true, mode: 'list', value });
const TEXT = 'Hello from n8n, this is a short speech test.';

async function speak(parameters = {}, run = {}) {
	const result = await runNode({
		parameters: { resource: 'audio', operation: 'speech', modelId: rl('tts-1'), input: TEXT, ...parameters },
		credentials: ctx.creds,
		...run,
	});
	const error = result.error ? { message: result.error.message, description: result.error.description } : {};
	expect(JSON.stringify({ items: result.items.map((i) => i.json), error })).not.toContain(API_KEY);
	return result;
}

const calls = () => ctx.sim.find('POST', '/v1/audio/speech');

describe('Generate Speech: what is sent, what comes back', () => {
	test('tts-1 with the fields left as they are: voice alloy, mp3; speed 1 is not sent; the MP3 in binary data', async () => {
		const result = await speak();
		expect(result.error).toBeUndefined();
		expect(calls().map((c) => c.body)).toEqual([{ model: 'tts-1', input: TEXT, voice: 'alloy', response_format: 'mp3' }]);
		const [item] = result.items;
		expect(item.json).toMatchObject({
			model: 'tts-1', voice: 'alloy', format: 'mp3', characters: 44, mimeType: 'audio/mpeg', fileName: 'speech.mp3', bytes: 15846,
		});
		// new-api prices tts-1 by a ratio of the text's length: 44 characters × 7.5 × 2 USD per million.
		expect(item.json.estimatedCost).toEqual({
			amount: 0.00066, currency: 'USD', per: 'call', source: "the gateway's price list", group: 'default', groupRatio: 1, groupAssumed: true,
			characters: 44, inputUsdPerMillion: 15, note: expect.stringMatching(/^A guess: the gateway's ratio price \(GET \/api\/pricing\) × the text's characters/),
		});
		const bytes = await binaryBuffer(item.binary.data);
		expect(bytes).toHaveLength(15846);
		expect(bytes.subarray(0, 4).toString('hex')).toBe('fffb9064');
		expect(item.binary.data.mimeType).toBe('audio/mpeg');
	});

	test('gpt-4o-mini-tts: its own voices and Instructions (an option only it has); WAV judged by its bytes; priced per call', async () => {
		const result = await speak({
			modelId: rl('gpt-4o-mini-tts'),
			voice_gpt4oMiniTts: 'ballad',
			response_format: 'wav',
			speechOptions_gpt4oMiniTts: { instructions: 'Speak cheerfully.' },
			options: { binaryPropertyOutput: 'voiceOver' },
		});
		expect(result.error).toBeUndefined();
		const sent = calls()[0].body;
		expect(sent).toEqual({ model: 'gpt-4o-mini-tts', input: TEXT, voice: 'ballad', response_format: 'wav', instructions: 'Speak cheerfully.' });
		const [item] = result.items;
		expect(item.json).toMatchObject({ mimeType: 'audio/wav', fileName: 'speech.wav', bytes: 48044 });
		expect(item.json.estimatedCost).toEqual({ amount: 0.3, currency: 'USD', source: "the gateway's price list", group: 'default', groupRatio: 1, groupAssumed: true });
		expect(Object.keys(item.binary)).toEqual(['voiceOver']);
		expect((await binaryBuffer(item.binary.voiceOver)).subarray(0, 4).toString('latin1')).toBe('RIFF');
	});

	test.each([
		['opus', 'audio/ogg', 'speech.opus'],
		['aac', 'audio/aac', 'speech.aac'],
		['flac', 'audio/flac', 'speech.flac'],
		['pcm', 'audio/pcm', 'speech.pcm'],
	])('format %s comes back as %s', async (format, mimeType, fileName) => {
		const result = await speak({ response_format: format });
		expect(result.error).toBeUndefined();
		expect(calls()[0].body.response_format).toBe(format);
		expect(result.items[0].json).toMatchObject({ mimeType, fileName });
	});

	test('a voice the list does not name, from an expression, and a speed are sent as given', async () => {
		const result = await speak({ voice: '={{ "shimmer-uk" }}', speed: 1.25 });
		expect(result.error).toBeUndefined();
		expect(calls()[0].body).toMatchObject({ voice: 'shimmer-uk', speed: 1.25 });
	});

	test('three items, three calls, each its own audio, in input order', async () => {
		const items = ['one', 'two', 'three'].map((word) => ({ json: { word } }));
		const result = await speak({ input: '={{ "Say " + $json.word }}' }, { items });
		expect(result.error).toBeUndefined();
		expect(calls().map((c) => c.body.input).sort()).toEqual(['Say one', 'Say three', 'Say two']);
		expect(result.items.map((i) => [i.pairedItem.item, i.json.characters])).toEqual([[0, 7], [1, 7], [2, 9]]);
	});
});

describe('Generate Speech: refused before anything is sent', () => {
	test.each([
		['an empty text from an expression', { input: '={{ "" }}' }, /^Text is empty: write the text to read aloud/],
		['a text from an expression that gives an object', { input: '={{ $json }}' }, /^Text is an object/],
		['a text over 4,096 characters', { input: 'a'.repeat(4097) }, /^Text has 4097 characters; a speech call takes at most 4096/],
		['a speed out of range', { speed: 5 }, /^Speed \(speed\) 5 is out of range for model 'tts-1': it takes/],
		['a format the route does not make', { response_format: '={{ "ogg" }}' }, /^Audio Format \(response_format\) 'ogg' is not accepted by model 'tts-1': it takes mp3, opus, aac, flac, wav, pcm/],
		['an image model', { modelId: rl('gpt-image-2') }, /^Model 'gpt-image-2' is an image model, not an audio model/],
	])('%s', async (_what, parameters, message) => {
		const result = await speak(parameters);
		expect(result.error?.message).toMatch(message);
		expect(result.error.description).toMatch(/Nothing was sent/);
		expect(calls()).toHaveLength(0);
	});

	test('a key in a group at ratio 2: estimated at twice the price, and a cap between the two refuses it', async () => {
		const result = await speak({ modelId: rl('gpt-4o-mini-tts'), spendGuard: { keyGroup: '2', maxRunCostUsd: 0.5 } });
		expect(result.error?.message).toMatch(/0\.6 USD/);
		expect(calls()).toHaveLength(0);
		const allowed = await speak({ modelId: rl('gpt-4o-mini-tts'), spendGuard: { keyGroup: '2', maxRunCostUsd: 0.7 } });
		expect(allowed.error).toBeUndefined();
		expect(allowed.items[0].json.estimatedCost).toMatchObject({ amount: 0.6, groupRatio: 2, groupAssumed: false });
	});

	test('tts-1, priced by a ratio: its characters judged against the cap, at the key\'s group', async () => {
		// 4,000 characters × 15 USD per million × ratio 2 = 0.12 USD.
		const input = 'a'.repeat(4000);
		const refused = await speak({ input, spendGuard: { keyGroup: '2', maxRunCostUsd: 0.1 } });
		expect(refused.error?.message).toMatch(/0\.12 USD/);
		expect(calls()).toHaveLength(0);
		const allowed = await speak({ input, spendGuard: { keyGroup: '2', maxRunCostUsd: 0.13 } });
		expect(allowed.error).toBeUndefined();
		expect(allowed.items[0].json.estimatedCost).toMatchObject({ amount: 0.12, characters: 4000, groupRatio: 2, groupAssumed: false });
	});

	test('a cap under the gateway\'s per-call price stops the run: nothing sent', async () => {
		const result = await speak({ modelId: rl('gpt-4o-mini-tts'), spendGuard: { maxRunCostUsd: 0.2 } });
		expect(result.error?.message).toMatch(/0\.3 USD.*0\.2 USD|0\.2 USD.*0\.3 USD/);
		expect(calls()).toHaveLength(0);
	});
});

describe('Generate Speech: an answer that is not audio', () => {
	test('a 200 with a JSON error is no audio: created unknown, the gateway\'s words, not sent again by Retry On Fail', async () => {
		ctx.sim.inject({ method: 'POST', path: '/v1/audio/speech', status: 200, body: { error: { message: 'upstream voice unavailable' } }, times: 5 });
		const result = await speak({}, { nodeSettings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 } });
		// The first try's words, and the retries' refusal to send it again: one call in all.
		expect(calls()).toHaveLength(1);
		expect(result.error?.message).toMatch(/^The speech call of this item may have been created: an earlier try sent it/);
		const first = await speak();
		expect(first.error?.message).toMatch(/^The gateway answered the speech call of model 'tts-1' with no audio \(50 bytes: upstream voice unavailable\) \(created: unknown\)/);
		expect(first.error.description).toMatch(/may have billed it/);
		expect(calls()).toHaveLength(2);
	});

	test('an unknown model id is sent as asked, with the common fields', async () => {
		const result = await speak({ modelId: { __rl: true, mode: 'id', value: 'my-tts-voice' } });
		// The simulator has no channel for it: the gateway's refusal, nothing billed.
		expect(calls()[0].body).toEqual({ model: 'my-tts-voice', input: TEXT, voice: 'alloy', response_format: 'mp3' });
		expect(result.error?.message).toMatch(/my-tts-voice/);
	});
});

describe("Generate Speech: what the gateway charged, from the relay's usage log", () => {
	test('tts-1: 44 characters × ratio 7.5 = 330 quota, 0.00066 USD, as the real relay charged', async () => {
		const result = await speak();
		expect(result.error).toBeUndefined();
		// The relay's one consume row for the call, found by the request id its answer named.
		const [row] = ctx.sim.usageLog;
		expect(row).toMatchObject({ model_name: 'tts-1', quota: 330 });
		expect(result.items[0].json.charge).toMatchObject({
			amount: 0.00066, currency: 'USD', quota: 330, source: expect.stringMatching(/usage log/), requestId: row.request_id,
		});
		// The estimate counted what the relay counts: the characters at the ratio.
		expect(result.items[0].json.estimatedCost.amount).toBe(result.items[0].json.charge.amount);
		expect(ctx.sim.find('GET', '/api/log/token')).toHaveLength(1);
	});

	test('gpt-4o-mini-tts: the real relay billed 0 although its list price is 0.3; the item says 0 beside the estimate', async () => {
		const result = await speak({ modelId: rl('gpt-4o-mini-tts') });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.estimatedCost).toMatchObject({ amount: 0.3 });
		expect(result.items[0].json.charge).toMatchObject({ amount: 0, quota: 0 });
	});
});
