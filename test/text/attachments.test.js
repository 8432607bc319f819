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
