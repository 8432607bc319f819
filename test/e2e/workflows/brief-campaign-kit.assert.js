'use strict';
// In real n8n, examples/brief-to-campaign-kit.json as shipped (its credential and its URLs on the
// simulator): a PDF brief fetched by n8n's HTTP Request node is summarised (the very PDF bytes sent as
// a file part), a teaser clip described (its URL as a video part), a poster an image model answers
// through chat lands as a PNG binary (not base64 in the text), the summary read into an MP3 and that
// MP3 transcribed into SRT subtitles; one item holds them all.
const assert = require('node:assert/strict');
const { nodeItems, binaryBuffer } = require('../run-e2e');

module.exports = async function (run, sim, result) {
	const [brief] = nodeItems(run, 'Download Brief');
	const pdf = binaryBuffer(result, brief.binary.data);
	assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-', 'the downloaded brief is not a PDF');

	const chats = sim.find('POST', '/v1/chat/completions');
	assert.equal(chats.length, 3, `chat calls: ${chats.length}`);
	const [summaryCall, clipCall, visualCall] = chats;
	assert.equal(summaryCall.body.model, 'gemini-2.5-flash');
	const [question, file] = summaryCall.body.messages[0].content;
	assert.match(question.text, /^Summarise this campaign brief for Spring collection in three sentences/);
	assert.deepEqual(file, { type: 'file', file: { file_data: `data:application/pdf;base64,${pdf.toString('base64')}`, filename: brief.binary.data.fileName } });
	assert.deepEqual(clipCall.body.messages[0].content[1], { type: 'video_url', video_url: { url: `${sim.filesUrl}/files/spring-teaser.mp4` } });

	const [summary] = nodeItems(run, 'Summarise Brief');
	assert.match(summary.json.text, /^Echo: Summarise this campaign brief/);
	assert.equal(visualCall.body.model, 'gemini-2.5-flash-image');
	assert.equal(visualCall.body.messages[0].content, `A poster for Spring collection: ${summary.json.text}`);
	const [visual] = nodeItems(run, 'Key Visual');
	assert.ok(!visual.json.text.includes('base64'), `the picture is left in the text: ${visual.json.text.slice(0, 120)}`);
	assert.match(visual.json.text, /\[image 1: binary field data\]/);

	const [speech] = sim.find('POST', '/v1/audio/speech');
	assert.equal(speech.body.input, summary.json.text, 'the voice-over does not read the summary');
	const [transcription] = sim.find('POST', '/v1/audio/transcriptions');
	assert.equal(transcription.parts.find((p) => p.name === 'response_format').value, 'srt');

	const [kit] = nodeItems(run, 'Campaign Kit');
	assert.equal(kit.json.campaign, 'Spring collection');
	assert.match(kit.json.subtitles, /^1\n00:00:00,000 --> \d\d:\d\d:\d\d,\d{3}\n/);
	assert.equal(kit.binary.keyVisual.mimeType, 'image/png');
	assert.equal(binaryBuffer(result, kit.binary.keyVisual).subarray(1, 4).toString('latin1'), 'PNG');
	assert.equal(kit.binary.voiceOver.mimeType, 'audio/mpeg');
	assert.equal(kit.binary.subtitles.mimeType, 'application/x-subrip');
	// The HTTP Request node's run data holds its response object (circular): the gateway nodes' items are read.
	for (const name of ['Summarise Brief', 'Describe Clip', 'Key Visual', 'Voice-over', 'Subtitles', 'Campaign Kit'])
		assert.ok(!JSON.stringify(nodeItems(run, name)).includes('sk-sim-good'), `the API key appears in ${name}`);
};
