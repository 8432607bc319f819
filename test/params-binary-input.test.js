'use strict';
// An image taken from the input item's binary data (params/binaryInput.ts), on a fake context:
// what is refused before anything is sent (no such property, a type the route does not take, over
// 20 MB) with the words a user reads, and the name and type an accepted file is sent with.
// image/edit.test.js and the video reference tests run the same reading through n8n.
//
// The module is loaded afresh in each test (fresh-modules.js says why).
const fresh = require('./fresh-modules').freshEachTest();
const input = fresh(() => require('../dist/nodes/UnifiedAiGateway/params/binaryInput.js'));

const NODE = { id: '1', name: 'Gateway', type: 'n8n-nodes-unified-ai-gateway.unifiedAiGateway', typeVersion: 1, position: [0, 0], parameters: {} };
const MB = 1024 * 1024;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1]);
const GIF = Buffer.from('GIF89a\u0001\u0000\u0001\u0000\u0000\u0000\u0000\u0000\u0000\u0000', 'latin1');
const WEBP = Buffer.from('RIFF\u0024\u0000\u0000\u0000WEBPVP8 ', 'latin1');
const PDF = Buffer.from('%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n', 'latin1');

/** `bytes` padded with zeros to `size`. */
const sized = (bytes, size) => Buffer.concat([bytes, Buffer.alloc(Math.max(0, size - bytes.length))]);

/** A context whose input items are `items`; each binary property's bytes are its `bytes`. */
function context(items) {
	return {
		getNode: () => NODE,
		getInputData: () => items,
		helpers: {
			assertBinaryData: (i, name) => items[i].binary[name],
			getBinaryDataBuffer: async (i, name) => items[i].binary[name].bytes,
		},
	};
}

const read = (items, { index = 0, property = 'data', allowed = input.IMAGE_TYPES } = {}) =>
	input.readInputImage(context(items), index, property, allowed, 'Image');
const failure = (...args) => read(...args).then(() => undefined, (e) => ({ message: e.message, description: e.description, itemIndex: e.context?.itemIndex }));
const file = (bytes, fileName, mimeType = 'application/octet-stream') => ({ bytes, fileName, mimeType });

describe('binaryInput: what is refused before anything is sent', () => {
	test.each([
		['an item without binary data', [{ json: {} }], 0],
		['an item index past the input', [{ json: {} }], 3],
	])('%s: the property named, and where to get one', async (_, items, index) => {
		expect(await failure(items, { index })).toEqual({
			message: "Image: the input item has no binary property 'data'",
			description: 'This item has no binary data. Add a node that reads or downloads the file first. Nothing was sent.',
			itemIndex: index,
		});
	});

	test('another property: the ones the item has are listed', async () => {
		const items = [{ json: {}, binary: { photo: file(PNG, 'a.png'), mask: file(PNG, 'b.png') } }];
		expect(await failure(items)).toEqual({
			message: "Image: the input item has no binary property 'data'",
			description: 'Binary properties on this item: photo, mask. Nothing was sent.',
			itemIndex: 0,
		});
	});

	test.each([
		['a PDF', file(sized(PDF, 2048), 'brief.pdf', 'application/pdf'), "Image: 'brief.pdf' is application/pdf (2 KB); the gateway accepts JPEG, PNG"],
		['a GIF where the route takes JPEG and PNG', file(sized(GIF, 1500), 'a.gif', 'image/gif'), "Image: 'a.gif' is image/gif (2 KB); the gateway accepts JPEG, PNG"],
		['bytes labelled PNG that are none', file(sized(Buffer.from('hello'), MB), 'fake.png', 'image/png'), "Image: 'fake.png' is not a recognised image (1.0 MB); the gateway accepts JPEG, PNG"],
		['bytes of no label', { bytes: sized(Buffer.from('hello'), MB - 1), fileName: 'x' }, "Image: 'x' is not a recognised image (1024 KB); the gateway accepts JPEG, PNG"],
	])('%s: its real type and size, and what the route takes', async (_, binary, message) => {
		const got = await failure([{ json: {}, binary: { data: binary } }], { allowed: ['image/jpeg', 'image/png'] });
		expect(got).toEqual({ message, description: 'Nothing was sent. Convert the file to an accepted image type and run again.', itemIndex: 0 });
	});

	test('20 MB is taken; a byte more is refused, with its size', async () => {
		const at = await read([{ json: {}, binary: { data: file(sized(PNG, 20 * MB), 'big.png') } }]);
		expect(at.bytes).toBe(20 * MB);
		expect(await failure([{ json: {}, binary: { data: file(sized(PNG, 20 * MB + 1), 'big.png') } }])).toEqual({
			message: "Image: 'big.png' is 20.0 MB; the gateway accepts at most 20 MB",
			description: 'Nothing was sent. Resize or compress the image and run again.',
			itemIndex: 0,
		});
	});
});

describe('binaryInput: the file as it is sent', () => {
	test('the four types the upload route takes', () => {
		expect(input.IMAGE_TYPES).toEqual(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);
		expect(input.MAX_IMAGE_BYTES).toBe(20 * MB);
	});

	test.each([
		[JPEG, 'photo', 'photo.jpg', 'image/jpeg'],
		[PNG, 'photo', 'photo.png', 'image/png'],
		[WEBP, 'photo', 'photo.webp', 'image/webp'],
		[GIF, 'photo', 'photo.gif', 'image/gif'],
		[JPEG, 'photo.JPEG', 'photo.JPEG', 'image/jpeg'],
		[PNG, 'cover.final-v2', 'cover.final-v2.png', 'image/png'],
		[PNG, undefined, 'data.png', 'image/png'],
	])('%#: named %p → sent as %p, %p (the type by its bytes)', async (bytes, fileName, sentAs, mimeType) => {
		const got = await read([{ json: {}, binary: { data: file(bytes, fileName, 'application/octet-stream') } }], { property: ' data ' });
		expect(got).toEqual({ buffer: bytes, fileName: sentAs, mimeType, bytes: bytes.length });
	});

	test.each([
		[' data , image_2\nimage_3 ,,', ['data', 'image_2', 'image_3']],
		['data', ['data']],
		['', []],
		[undefined, []],
	])('the property list %p → %p', (value, names) => {
		expect(input.parsePropertyList(value)).toEqual(names);
	});
});
