'use strict';
// Files attached to a chat message (issue 56 item 1): binaries of the input item and URLs, sent as
// the content parts new-api reads (real-newapi/chat-content-parts.json): image_url, input_audio,
// file, video_url. Kinds by their bytes, sizes bounded, refused before anything is sent. Through
// n8n-core against the simulator, asserting the body the gateway received.
const { API_KEY, useSimulator } = require('../support');
const { runNode, makeBinary } = require('../harness');
const { pngFor } = require('../simulator/png');
const { silentWav } = require('../audio/wav');

const ctx = useSimulator({ profile: 'plainNewApi' });
const rl = (value) => ({ __rl: true, mode: 'id', value });
const PNG = pngFor('product photo');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const BRIEF = Buffer.from('Spring campaign brief: light fabrics, three taglines.\n');

const chat = (message, extra = {}) => ({
	resource: 'text',
	operation: 'message',
	modelId: rl('gpt-5.6-sol'),
	messages: { values: [{ role: 'user', content: 'Write three captions for this.', ...message }] },
	...extra,
});

async function withFiles(files) {
	const binary = {};
	for (const [name, [bytes, fileName, mimeType]] of Object.entries(files)) binary[name] = await makeBinary(bytes, fileName, mimeType);
	return [{ json: {}, binary }];
}

async function run(parameters, items) {
	const result = await runNode({ parameters, credentials: ctx.creds, items, continueOnFail: false });
	const error = result.error ? { message: result.error.message, description: result.error.description } : {};
	expect(JSON.stringify({ items: result.items.map((i) => i.json), error })).not.toContain(API_KEY);
	return result;
}
const sent = () => ctx.sim.find('POST', '/v1/chat/completions').map((c) => c.body);

describe('attachments are sent as the content parts the gateway reads', () => {
	test('an image, a WAV, a PDF and a text file from binary data, then an image and a video URL, in that order', async () => {
		const items = await withFiles({
			photo: [PNG, 'photo.png', 'image/png'],
			voice: [silentWav(), 'voice.wav', 'audio/wav'],
			deck: [PDF, 'deck.pdf', 'application/pdf'],
			brief: [BRIEF, 'brief.md', 'text/markdown'],
		});
		const result = await run(chat({ attachBinary: 'photo, voice\ndeck, brief', attachUrls: 'https://shop.example.com/p.jpg, https://cdn.example.com/clip.mp4' }), items);
		expect(result.error).toBeUndefined();
		const [body] = sent();
		expect(body.messages[0].content).toEqual([
			{ type: 'text', text: 'Write three captions for this.' },
			{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } },
			{ type: 'input_audio', input_audio: { data: silentWav().toString('base64'), format: 'wav' } },
			{ type: 'file', file: { file_data: `data:application/pdf;base64,${PDF.toString('base64')}`, filename: 'deck.pdf' } },
			{ type: 'file', file: { file_data: `data:text/plain;base64,${BRIEF.toString('base64')}`, filename: 'brief.md' } },
			{ type: 'image_url', image_url: { url: 'https://shop.example.com/p.jpg' } },
			{ type: 'video_url', video_url: { url: 'https://cdn.example.com/clip.mp4' } },
		]);
		expect(result.items[0].json.text).toBe('Echo: Write three captions for this.');
	});

	test('names from an expression as a list; a message without attachments stays plain text', async () => {
		const items = await withFiles({ photo: [PNG, 'photo.png', 'image/png'] });
		const result = await run(chat({ attachBinary: '={{ ["photo"] }}' }), items);
		expect(result.error).toBeUndefined();
		expect(sent()[0].messages[0].content[1].type).toBe('image_url');
		await run(chat({}), items);
		expect(sent()[1].messages[0].content).toBe('Write three captions for this.');
	});
});

describe('refused before anything is sent', () => {
	test.each([
		['a property the item lacks', { attachBinary: 'poster' }, /^Message 1: Attach Binary Files: the input item has no binary property 'poster'/],
		['a file of no kind a message takes', { attachBinary: 'blob' }, /^Message 1: Attach Binary Files: 'blob\.bin' \(blob\) is application\/octet-stream; a message takes images, audio \(MP3, WAV\), video, PDF or text files/],
		['an object from an expression', { attachBinary: '={{ $json }}' }, /^Message 1: Attach Binary Files is an object/],
		['a URL that is not http(s)', { attachUrls: 'ftp://files.example.com/p.png' }, /^Message 1: Attach URLs: 'ftp:\/\/files\.example\.com\/p\.png' is not an http\(s\) URL/],
		['files on an assistant message', { role: 'assistant', attachUrls: 'https://x.example.com/p.png' }, /^Message 1: an assistant message cannot carry files: attach them to a User message/],
	])('%s', async (_what, message, expected) => {
		const items = await withFiles({ blob: [Buffer.from([0, 1, 2, 3, 250, 251, 0, 9]), 'blob.bin', 'application/octet-stream'] });
		const result = await run(chat(message), items);
		expect(result.error?.message).toMatch(expected);
		expect(result.error.description).toMatch(/Nothing was sent/);
		expect(sent()).toHaveLength(0);
	});
});

describe('what the chosen model reads: its registry row (docs/gateway-contract.md §10.9)', () => {
	const files = () => withFiles({ photo: [PNG, 'photo.png', 'image/png'], voice: [silentWav(), 'voice.wav', 'audio/wav'], deck: [PDF, 'deck.pdf', 'application/pdf'] });
	test.each([
		['a text-only model and a picture', 'deepseek-chat', { attachBinary: 'photo' }, 'Message 1: deepseek-chat cannot read images: it reads text only'],
		['a video URL to a model that reads pictures and documents', 'gpt-4o', { attachUrls: 'https://cdn.example.com/clip.mp4' }, 'Message 1: gpt-4o cannot read videos: it reads text and images, documents'],
		['a voice to a model that reads pictures and documents', 'claude-sonnet-4-5', { attachBinary: 'voice' }, 'Message 1: claude-sonnet-4-5 cannot read audio: it reads text and images, documents'],
		['a PDF to an audio model', 'gpt-4o-audio-preview', { attachBinary: 'deck' }, 'Message 1: gpt-4o-audio-preview cannot read documents: it reads text and audio'],
	])('%s is refused, nothing sent', async (_what, model, message, expected) => {
		const result = await run(chat(message, { modelId: rl(model) }), await files());
		expect(result.error?.message).toBe(expected);
		expect(result.error.description).toBe('Pick a model that reads ' + expected.split(' cannot read ')[1].split(':')[0] + ' (for example gemini-2.5-flash), or leave the file out. Nothing was sent.');
		expect(sent()).toHaveLength(0);
	});

	test.each([
		['a model whose row reads every kind', 'gemini-2.5-flash'],
		['the spec\'s example, whose row names nothing it reads', 'gpt-5.6-sol'],
		['a model without a row', 'claude-sonnet-4'],
	])('%s is sent every file', async (_what, model) => {
		const result = await run(chat({ attachBinary: 'photo, voice, deck', attachUrls: 'https://cdn.example.com/clip.mp4' }, { modelId: rl(model) }), await files());
		expect(result.error).toBeUndefined();
		expect(sent()[0].messages[0].content.map((p) => p.type)).toEqual(['text', 'image_url', 'input_audio', 'file', 'video_url']);
	});

	test('a text-only model is sent a message without files', async () => {
		const result = await run(chat({}, { modelId: rl('deepseek-chat') }), await files());
		expect(result.error).toBeUndefined();
		expect(sent()[0].messages[0].content).toBe('Write three captions for this.');
	});
});
