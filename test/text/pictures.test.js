'use strict';
// Pictures out of chat (issue 56 item 3): an image model served through chat completions answers
// with the picture inside its message, a Markdown image whose data: URL new-api passes on unchanged,
// split across stream chunks too (real-newapi/chat-markdown-image.json). Each picture is a binary of
// the item, judged by its bytes; the text keeps a readable mark. Through n8n-core against the simulator.
const { API_KEY, useSimulator } = require('../support');
const { runNode, binaryBuffer } = require('../harness');
const { pngFor } = require('../simulator/png');

const ctx = useSimulator({ profile: 'plainNewApi' });
const rl = (value) => ({ __rl: true, mode: 'id', value });
const PROMPT = 'a red bicycle';
const ask = (extra = {}, options = {}) => ({
	resource: 'text',
	operation: 'message',
	modelId: rl('nano-banana'),
	messages: { values: [{ role: 'user', content: PROMPT }] },
	options,
	...extra,
});

async function run(parameters, more = {}) {
	const result = await runNode({ parameters, credentials: ctx.creds, ...more });
	expect(JSON.stringify(result.items.map((i) => i.json))).not.toContain(API_KEY);
	return result;
}

describe('a picture in a chat answer becomes a binary', () => {
	test.each([
		['plain', {}],
		['streamed (the data URL cut across chunks)', { stream: true }],
	])('%s: the PNG in binary data, the text readable, no base64 left in the JSON', async (_how, options) => {
		const result = await run(ask({}, options));
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.json.text).toBe('Here is your image.\n\n[image 1: binary field data]');
		expect(item.json.images).toEqual([{ binaryField: 'data', mimeType: 'image/png', bytes: expect.any(Number), fileName: 'image.png' }]);
		expect(JSON.stringify(item.json)).not.toMatch(/base64/);
		const bytes = await binaryBuffer(item.binary.data);
		expect(bytes.equals(pngFor(`nano-banana ${PROMPT}`))).toBe(true);
		expect(item.json.images[0].bytes).toBe(bytes.length);
	});

	test('Simplify Output off: the whole completion, its message content marked, the picture in binary data', async () => {
		const result = await run(ask({ simplifyOutput: false }));
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.json.choices[0].message.content).toBe('Here is your image.\n\n[image 1: binary field data]');
		expect(item.binary.data.mimeType).toBe('image/png');
	});

	test('a text model answers as ever: no images, no binary', async () => {
		const result = await run(ask({ modelId: rl('gpt-5.6-sol') }));
		expect(result.items[0].json.text).toBe(`Echo: ${PROMPT}`);
		expect(result.items[0].json.images).toBeUndefined();
		expect(result.items[0].binary).toBeUndefined();
	});

	test('a data URL whose bytes are no image is not stored; a linked picture is fetched, a missing one said so', async () => {
		const fake = Buffer.from('<html>not a picture</html>').toString('base64');
		const linked = `${ctx.sim.filesUrl}/files/linked.png`;
		const missing = `${ctx.sim.filesUrl}/files/missing.mp3`;
		ctx.sim.inject({
			method: 'POST', path: '/v1/chat/completions', status: 200,
			body: { id: 'c1', object: 'chat.completion', model: 'nano-banana', choices: [{ index: 0, message: { role: 'assistant', content: `Done: ![x](data:image/png;base64,${fake})`, images: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${pngFor('second').toString('base64')}` } }, { type: 'image_url', image_url: { url: linked } }, { type: 'image_url', image_url: { url: missing } }] }, finish_reason: 'stop' }] },
		});
		const result = await run(ask());
		const [item] = result.items;
		expect(item.json.text).toBe('Done: [image 1: not kept, labelled image/png but its bytes are no image]');
		expect(item.json.images).toEqual([
			{ notKept: 'labelled image/png but its bytes are no image' },
			{ binaryField: 'data_2', mimeType: 'image/png', bytes: pngFor('second').length, fileName: 'image-2.png' },
			{ binaryField: 'data_3', mimeType: 'image/png', fileName: expect.stringMatching(/\.png$/), url: linked },
			{ url: missing, notKept: expect.stringMatching(/404/) },
		]);
		expect(Object.keys(item.binary).sort()).toEqual(['data_2', 'data_3']);
		// A linked picture is fetched without the key, as every result file is.
		expect(ctx.sim.requests.filter((r) => r.origin === 'files').every((r) => !r.hasAuth)).toBe(true);
	});
});
