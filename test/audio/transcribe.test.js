'use strict';
// Audio → Transcribe and Translate a Recording (POST /v1/audio/transcriptions, /translations) through
// n8n-core's execution engine against the simulator, which answers as new-api did in
// ../../../shared/spec/real-newapi/audio-transcriptions.json: the multipart the gateway received, the
// transcript in each format (subtitles also as a file), refusals before any call, an answer that is
// no transcript, the charge from the relay's usage log.
const { API_KEY, useSimulator } = require('../support');
const { runNode, binaryBuffer, makeBinary } = require('../harness');
const { silentWav: wav } = require('./wav');

const ctx = useSimulator({ profile: 'plainNewApi' });
const rl = (value) => ({ __rl: true, mode: 'list', value });

async function withRecording(buffer = wav(), fileName = 'hello.wav', mimeType = 'audio/wav') {
	return [{ json: { name: 'greeting' }, binary: { data: await makeBinary(buffer, fileName, mimeType) } }];
}

async function transcribe(parameters = {}, run = {}) {
	const items = run.items ?? (await withRecording());
	const result = await runNode({
		parameters: { resource: 'audio', operation: 'transcribe', modelId: rl('whisper-1'), ...parameters },
		credentials: ctx.creds,
		...run,
		items,
	});
	const error = result.error ? { message: result.error.message, description: result.error.description } : {};
	expect(JSON.stringify({ items: result.items.map((i) => i.json), error })).not.toContain(API_KEY);
	return result;
}

const calls = (route = 'transcriptions') => ctx.sim.find('POST', `/v1/audio/${route}`);
/** What the gateway received as text fields, by name (the file apart). */
const sentFields = (call) =>
	Object.fromEntries(call.parts.filter((p) => p.filename === undefined).map((p) => [p.name, p.value]));
const sentFile = (call) => call.parts.find((p) => p.name === 'file');

describe('Transcribe a Recording: what is sent, what comes back', () => {
	test('whisper-1 as it stands: model, json and the WAV as the file; the text, charged from the usage log', async () => {
		const result = await transcribe();
		expect(result.error).toBeUndefined();
		const [call] = calls();
		expect(sentFields(call)).toEqual({ model: 'whisper-1', response_format: 'json' });
		expect(sentFile(call)).toMatchObject({ filename: 'hello.wav', contentType: 'audio/wav', size: 8044 });
		const [item] = result.items;
		expect(item.json).toMatchObject({
			text: 'Hello from the simulator.', model: 'whisper-1', format: 'json', fileName: 'hello.wav', bytes: 8044,
		});
		expect(item.binary).toBeUndefined();
		// new-api prices whisper-1 by a ratio: no per-call figure, said so; the usage log says what it cost.
		expect(item.json.estimatedCost).toMatchObject({ amount: null, unpriced: expect.stringMatching(/model_ratio 15/) });
		// 17 tokens × ratio 15 = 255 quota = 0.00051 USD, as the real relay charged.
		expect(item.json.charge).toMatchObject({ amount: 0.00051, currency: 'USD', quota: 255, source: expect.stringMatching(/usage log/) });
	});

	test('language, prompt and temperature are sent as chosen; verbose_json gives language, duration and segments', async () => {
		const result = await transcribe({
			transcribeResponseFormat: 'verbose_json',
			transcribeOptions_whisper1: { language: 'de', prompt: 'A greeting.', temperature: 0 },
		});
		expect(result.error).toBeUndefined();
		expect(sentFields(calls()[0])).toEqual({
			model: 'whisper-1', response_format: 'verbose_json', language: 'de', prompt: 'A greeting.', temperature: '0',
		});
		expect(result.items[0].json).toMatchObject({
			text: 'Hallo vom Fake-Upstream.', language: 'german', duration: 0.5, format: 'verbose_json',
			segments: [expect.objectContaining({ start: 0, end: 0.5 })],
		});
	});

	test.each([
		['srt', 'application/x-subrip', 'hello.srt', '1\n00:00:00,000 --> 00:00:00,500\nHello from the simulator.\n\n'],
		['vtt', 'text/vtt', 'hello.vtt', 'WEBVTT\n\n00:00:00.000 --> 00:00:00.500\nHello from the simulator.\n\n'],
	])('%s subtitles: in text and as a file named after the recording', async (format, mimeType, fileName, body) => {
		const result = await transcribe({ transcribeResponseFormat: format, options: { binaryPropertyOutput: 'subtitles' } });
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.json).toMatchObject({ text: body, format });
		expect(item.binary.subtitles).toMatchObject({ mimeType, fileName });
		expect((await binaryBuffer(item.binary.subtitles)).toString('utf8')).toBe(body);
	});

	test('text: the words without the trailing newline the relay sends', async () => {
		const result = await transcribe({ transcribeResponseFormat: 'text' });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.text).toBe('Hello from the simulator.');
	});

	test('gpt-4o-transcribe: its usage beside the text; a word list from Additional Body Fields goes as key[]', async () => {
		const result = await transcribe({ modelId: rl('gpt-4o-transcribe') });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.usage).toMatchObject({ input_tokens: 14, output_tokens: 7 });
		const words = await transcribe({
			transcribeResponseFormat: 'verbose_json',
			options: { additionalBodyFields: '{"timestamp_granularities": ["word", "segment"]}' },
		});
		expect(words.error).toBeUndefined();
		const parts = calls()[1].parts.filter((p) => p.name === 'timestamp_granularities[]').map((p) => p.value);
		expect(parts).toEqual(['word', 'segment']);
		expect(words.items[0].json.words).toHaveLength(4);
	});

	test('a file named without its kind is sent with the extension its bytes say: the upstream reads the name', async () => {
		const items = await withRecording(wav(), 'recording', 'application/octet-stream');
		const result = await transcribe({}, { items });
		expect(result.error).toBeUndefined();
		expect(sentFile(calls()[0]).filename).toBe('recording.wav');
	});

	test('two items, two calls, each its own transcript, in input order', async () => {
		const items = [...(await withRecording(wav(0.5))), ...(await withRecording(wav(1), 'long.wav'))];
		const result = await transcribe({ transcribeResponseFormat: 'verbose_json' }, { items });
		expect(result.error).toBeUndefined();
		expect(calls()).toHaveLength(2);
		expect(result.items.map((i) => [i.pairedItem.item, i.json.duration, i.json.fileName])).toEqual([
			[0, 0.5, 'hello.wav'],
			[1, 1, 'long.wav'],
		]);
	});
});

describe('Transcribe a Recording: refused before anything is sent', () => {
	test.each([
		['no binary property of that name', { binaryPropertyName: 'audio' }, /^Input Binary Field: the input item has no binary property 'audio'/],
		['a format gpt-4o-transcribe does not write', { modelId: rl('gpt-4o-transcribe'), transcribeResponseFormat_gpt4oTranscribe: 'srt' }, /not accepted by model 'gpt-4o-transcribe': it takes json, text/],
		['a temperature out of range', { transcribeOptions_whisper1: { temperature: 2 } }, /Temperature \(temperature\) 2 is out of range for model 'whisper-1'/],
		['a speech model', { modelId: rl('gpt-image-2') }, /^Model 'gpt-image-2' is an image model, not an audio model/],
		['a key the fields set, again in Additional Body Fields', { options: { additionalBodyFields: '{"response_format": "srt"}' } }, /response_format/],
	])('%s', async (_what, parameters, message) => {
		const result = await transcribe(parameters);
		expect(result.error?.message).toMatch(message);
		expect(result.error.description).toMatch(/Nothing was sent/);
		expect(calls()).toHaveLength(0);
	});

	test('a file that is not audio, judged by its bytes whatever its name says', async () => {
		const items = await withRecording(Buffer.from('%PDF-1.4\n'.repeat(50)), 'voice.mp3', 'audio/mpeg');
		const result = await transcribe({}, { items });
		expect(result.error?.message).toMatch(/^Input Binary Field: 'voice\.mp3' is not a recognised audio file .*MP3, MP4 or M4A, Ogg, WAV, FLAC, WebM/);
		expect(calls()).toHaveLength(0);
	});

	test("a recording over the model's 25 MB: refused with its size", async () => {
		const items = await withRecording(wav(26 * 1024 * 1024 / 16000), 'long.wav');
		const result = await transcribe({}, { items });
		expect(result.error?.message).toMatch(/^Input Binary Field: 'long\.wav' is 26\.0 MB; the model takes at most 25\.0 MB/);
		expect(calls()).toHaveLength(0);
	});
});

describe('Transcribe a Recording: an answer that is no transcript', () => {
	test('a 200 with a JSON error: created unknown, the gateway\'s words, not sent again by Retry On Fail', async () => {
		ctx.sim.inject({ method: 'POST', path: '/v1/audio/transcriptions', status: 200, body: { error: { message: 'upstream busy' } }, times: 5 });
		const result = await transcribe({}, { nodeSettings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 } });
		expect(calls()).toHaveLength(1);
		expect(result.error?.message).toMatch(/may have been created: an earlier try sent it/);
		const first = await transcribe();
		expect(first.error?.message).toMatch(/^The gateway answered the transcription call of model 'whisper-1' with no transcript \(\d+ bytes: upstream busy\) \(created: unknown\)/);
		expect(first.error.description).toMatch(/may have billed it/);
	});

	test('the gateway refusing the model (no channel): created no, the audio models the key can use named', async () => {
		const result = await transcribe({ modelId: { __rl: true, mode: 'id', value: 'whisper-9' } });
		expect(result.error?.message).toMatch(/whisper-9/);
		expect(result.error.message).toMatch(/created: no/);
	});
});

describe('Translate a Recording', () => {
	test('whisper-1: the English words from /v1/audio/translations; no language is sent', async () => {
		const result = await transcribe({ operation: 'translate', translateResponseFormat: 'text', translateOptions_whisper1: { prompt: 'A greeting.' } });
		expect(result.error).toBeUndefined();
		expect(calls()).toHaveLength(0);
		const [call] = calls('translations');
		expect(sentFields(call)).toEqual({ model: 'whisper-1', response_format: 'text', prompt: 'A greeting.' });
		expect(result.items[0].json).toMatchObject({ text: 'Hello from the fake upstream.', format: 'text', model: 'whisper-1' });
		expect(result.items[0].json.charge).toMatchObject({ amount: 0.00051, quota: 255 });
	});
});
