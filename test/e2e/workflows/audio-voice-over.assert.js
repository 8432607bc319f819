'use strict';
// In real n8n: a voice-over made by Audio → Generate Speech is an MP3 binary that the next nodes
// read from n8n's own binary store (memory mode on 1.x, the filesystem on 2.x), transcribe into an
// SRT file and translate into English text; what the gateway received is one JSON speech call and
// two multipart calls carrying those very bytes under a name that says MP3.
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const { nodeItems, binaryBuffer } = require('../run-e2e');

const sha = (buffer) => crypto.createHash('sha256').update(buffer).digest('hex');

module.exports = async function (run, sim, result) {
	const [voice] = nodeItems(run, 'Voice-over');
	assert.equal(voice.json.mimeType, 'audio/mpeg', `voice-over: ${JSON.stringify(voice.json)}`);
	assert.equal(voice.binary?.voiceOver?.mimeType, 'audio/mpeg');
	const audio = binaryBuffer(result, voice.binary.voiceOver);
	assert.equal(audio.length, voice.json.bytes);

	const [subtitles] = nodeItems(run, 'Subtitles');
	assert.equal(subtitles.json.format, 'srt');
	assert.match(subtitles.json.text, /^1\n00:00:00,000 --> \d\d:\d\d:\d\d,\d{3}\nHello from the simulator\.\n\n$/);
	assert.equal(subtitles.binary?.data?.mimeType, 'application/x-subrip');
	assert.equal(subtitles.binary.data.fileName, 'speech.srt');
	assert.equal(binaryBuffer(result, subtitles.binary.data).toString('utf8'), subtitles.json.text);

	const [english] = nodeItems(run, 'In English');
	assert.deepEqual(
		{ text: english.json.text, format: english.json.format, fileName: english.json.fileName },
		{ text: 'Hello from the fake upstream.', format: 'text', fileName: 'speech.mp3' },
	);

	const [speechCall] = sim.find('POST', '/v1/audio/speech');
	assert.deepEqual(speechCall.body, {
		model: 'tts-1', input: 'Welcome to our spring collection.', voice: 'nova', response_format: 'mp3',
	});
	for (const route of ['transcriptions', 'translations']) {
		const calls = sim.find('POST', `/v1/audio/${route}`);
		assert.equal(calls.length, 1, `${route}: ${calls.length} calls`);
		const file = calls[0].parts.find((p) => p.name === 'file');
		assert.equal(file.filename, 'speech.mp3');
		assert.equal(file.size, audio.length);
		assert.equal(file.sha256, sha(audio), `${route}: the file sent is not the voice-over`);
		assert.equal(calls[0].authValid, true);
	}
	assert.ok(!JSON.stringify(run).includes('sk-sim-good'), 'the API key appears in the run data');
};
