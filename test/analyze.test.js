'use strict';
// Image → Analyze and Video → Analyze (issue 56 item 2): the question and the item's files sent to a
// text model in one chat call, as content parts (image_url, video_url), the answer as text. Through
// n8n-core against the simulator, asserting the body the gateway received.
const { API_KEY, useSimulator } = require('./support');
const { runNode, makeBinary } = require('./harness');
const { pngFor } = require('./simulator/png');

const ctx = useSimulator({ profile: 'plainNewApi' });
const rl = (value) => ({ __rl: true, mode: 'list', value });
const PNG = pngFor('a product photo');
const MP4 = Buffer.concat([Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex'), Buffer.alloc(2000)]);

async function run(resource, parameters = {}, items) {
	const result = await runNode({
		parameters: { resource, operation: 'analyze', modelId: rl('gpt-5.6-sol'), ...parameters },
		credentials: ctx.creds,
		items: items ?? [{ json: {}, binary: { data: await makeBinary(PNG, 'photo.png', 'image/png') } }],
	});
	const error = result.error ? { message: result.error.message, description: result.error.description } : {};
	expect(JSON.stringify({ items: result.items.map((i) => i.json), error })).not.toContain(API_KEY);
	return result;
}
const sent = () => ctx.sim.find('POST', '/v1/chat/completions').map((c) => c.body);

describe('Image → Analyze', () => {
	test('the question and the binary image in one call; the answer as text, charged from the usage log', async () => {
		const result = await run('image');
		expect(result.error).toBeUndefined();
		expect(sent()).toEqual([{
			model: 'gpt-5.6-sol',
			messages: [{ role: 'user', content: [
				{ type: 'text', text: "What's in this image?" },
				{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } },
			] }],
		}]);
		expect(result.items[0].json).toMatchObject({ text: "Echo: What's in this image?", model: 'gpt-5.6-sol', finishReason: 'stop' });
		expect(result.items[0].json.charge).toMatchObject({ currency: 'USD', source: expect.stringMatching(/usage log/) });
	});

	test('two URLs and a length: both sent as image_url, max_tokens as set', async () => {
		const result = await run('image', { inputType: 'url', urls: 'https://shop.example.com/a.jpg, https://shop.example.com/b.jpg', text: 'Write a caption for each.', options: { maxTokens: 120 } });
		expect(result.error).toBeUndefined();
		const [body] = sent();
		expect(body.max_tokens).toBe(120);
		expect(body.messages[0].content.slice(1)).toEqual([
			{ type: 'image_url', image_url: { url: 'https://shop.example.com/a.jpg' } },
			{ type: 'image_url', image_url: { url: 'https://shop.example.com/b.jpg' } },
		]);
	});

	test.each([
		['a PDF in the binary field', async () => [{ json: {}, binary: { data: await makeBinary(Buffer.from('%PDF-1.4\n%%EOF\n'), 'a.pdf', 'application/pdf') } }], {}, /^Input Data Field Name\(s\): 'data' is not an image/],
		['an empty question from an expression', undefined, { text: '={{ "" }}' }, /^Text Input is empty/],
		['no field named', undefined, { binaryPropertyName: ' ' }, /^Input Data Field Name\(s\) is empty: name at least one image/],
		// Its registry row reads text only (docs/gateway-contract.md §10.9).
		['a model that reads no pictures', undefined, { modelId: rl('deepseek-chat') }, /^deepseek-chat cannot read images: it reads text only$/],
	])('refused before anything is sent: %s', async (_what, items, parameters, message) => {
		const result = await run('image', parameters, items && (await items()));
		expect(result.error?.message).toMatch(message);
		expect(result.error.description).toMatch(/Nothing was sent/);
		expect(sent()).toHaveLength(0);
	});
});

describe('Video → Analyze', () => {
	test('a binary MP4 as video_url; a URL without a video extension is sent as video too', async () => {
		const items = [{ json: {}, binary: { data: await makeBinary(MP4, 'clip.mp4', 'video/mp4') } }];
		const result = await run('video', {}, items);
		expect(result.error).toBeUndefined();
		expect(sent()[0].messages[0].content).toEqual([
			{ type: 'text', text: 'What happens in this video?' },
			{ type: 'video_url', video_url: { url: `data:video/mp4;base64,${MP4.toString('base64')}` } },
		]);
		const byUrl = await run('video', { inputType: 'url', urls: 'https://cdn.example.com/watch?v=42' });
		expect(byUrl.error).toBeUndefined();
		expect(sent()[1].messages[0].content[1]).toEqual({ type: 'video_url', video_url: { url: 'https://cdn.example.com/watch?v=42' } });
	});
});

describe('File → Analyze Document', () => {
	const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n');
	const NOTES = Buffer.from('Brief: spring collection, light fabrics.\n');

	test('a PDF and a text file from binary data as file parts; the summary as text', async () => {
		const items = [{ json: {}, binary: { data: await makeBinary(PDF, 'brief.pdf', 'application/pdf'), notes: await makeBinary(NOTES, 'notes.md', 'text/markdown') } }];
		const result = await runNode({ parameters: { resource: 'file', operation: 'analyzeDocument', modelId: rl('gpt-5.6-sol'), binaryPropertyName: 'data, notes' }, credentials: ctx.creds, items });
		expect(result.error).toBeUndefined();
		expect(sent()[0].messages[0].content).toEqual([
			{ type: 'text', text: 'Summarize this document.' },
			{ type: 'file', file: { file_data: `data:application/pdf;base64,${PDF.toString('base64')}`, filename: 'brief.pdf' } },
			{ type: 'file', file: { file_data: `data:text/plain;base64,${NOTES.toString('base64')}`, filename: 'notes.md' } },
		]);
		expect(result.items[0].json.text).toBe('Echo: Summarize this document.');
	});

	test('a picture is no document: refused before anything is sent', async () => {
		const result = await runNode({ parameters: { resource: 'file', operation: 'analyzeDocument', modelId: rl('gpt-5.6-sol') }, credentials: ctx.creds, items: [{ json: {}, binary: { data: await makeBinary(PNG, 'photo.png', 'image/png') } }] });
		expect(result.error?.message).toMatch(/^Input Data Field Name\(s\): 'data' is not a document/);
		expect(sent()).toHaveLength(0);
	});

	test('a model that reads audio only is refused a PDF, before anything is sent', async () => {
		const pdf = await makeBinary(Buffer.from('%PDF-1.4\n%%EOF\n'), 'brief.pdf', 'application/pdf');
		const result = await runNode({ parameters: { resource: 'file', operation: 'analyzeDocument', modelId: rl('gpt-4o-audio-preview') }, credentials: ctx.creds, items: [{ json: {}, binary: { data: pdf } }] });
		expect(result.error?.message).toBe('gpt-4o-audio-preview cannot read documents: it reads text and audio');
		expect(result.error.description).toMatch(/Nothing was sent/);
		expect(sent()).toHaveLength(0);
	});
});
