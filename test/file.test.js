'use strict';
// File → Upload Image (POST /v1/uploads/images) through n8n-core's execution engine.
const crypto = require('node:crypto');
const { API_KEY, useSimulator } = require('./support');
const { runNode, makeBinary } = require('./harness');

const HOURS_72 = 72 * 60 * 60 * 1000;

// Tiny but complete 1×1 images, written out by hand.
const IMAGES = {
	jpeg: Buffer.from(
		'/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
		'base64',
	),
	png: Buffer.from(
		'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
		'base64',
	),
	webp: Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64'),
	gif: Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64'),
};
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'.repeat(20));
const TEXT = Buffer.from('just some notes, not an image\n'.repeat(10));

const ctx = useSimulator();

const sha256 = (buffer) => crypto.createHash('sha256').update(buffer).digest('hex');

async function upload(items, run = {}) {
	const result = await runNode({
		parameters: { resource: 'file', operation: 'uploadImage', binaryPropertyName: 'data' },
		credentials: ctx.creds,
		items,
		...run,
	});
	const error = result.error
		? { message: result.error.message, description: result.error.description, context: result.error.context }
		: {};
	expect(JSON.stringify({ items: result.items.map((i) => i.json), error })).not.toContain(API_KEY);
	return result;
}

async function itemWith(buffer, fileName, mimeType, mode = 'default') {
	return { json: {}, binary: { data: await makeBinary(buffer, fileName, mimeType, mode) } };
}

function expectUploadOutput(json, { filename, contentType, bytes }) {
	expect(Object.keys(json).sort()).toEqual(['bytes', 'content_type', 'created_at', 'expiresAt', 'filename', 'url']);
	expect(json.url.startsWith(`${ctx.sim.filesUrl}/uploads/`)).toBe(true);
	expect(json.filename).toBe(filename);
	expect(json.content_type).toBe(contentType);
	expect(json.bytes).toBe(bytes);
	expect(Number.isInteger(json.created_at)).toBe(true);
	expect(json.expiresAt).toBe(new Date(json.created_at * 1000 + HOURS_72).toISOString());
}

describe("the upload's times are the gateway's", () => {
	test('created_at is what the gateway answered, and the URL expires 72 h after it, not after n8n\'s clock', async () => {
		// A gateway whose clock reads two days and a second ago: only the answer can give this time.
		const createdAt = Math.floor(Date.now() / 1000) - 2 * 24 * 3600 - 1;
		const answer = { url: `${ctx.sim.filesUrl}/uploads/abc/pixel.png`, filename: 'pixel.png', content_type: 'image/png', bytes: IMAGES.png.length, created_at: createdAt };
		ctx.sim.inject({ method: 'POST', path: '/v1/uploads/images', status: 200, body: answer });
		const result = await upload([await itemWith(IMAGES.png, 'pixel.png', 'image/png')]);
		expect(result.error).toBeUndefined();
		expect(ctx.sim.count('POST', '/v1/uploads/images')).toBe(1);
		expect(result.items[0].json).toEqual({ ...answer, expiresAt: new Date(createdAt * 1000 + HOURS_72).toISOString() });
	});
});

describe('allowed images', () => {
	test.each([
		['jpeg', 'photo.jpg', 'image/jpeg'],
		['png', 'pixel.png', 'image/png'],
		['webp', 'pixel.webp', 'image/webp'],
		['gif', 'pixel.gif', 'image/gif'],
	])('%s is uploaded as multipart field file with its name and type', async (kind, fileName, mimeType) => {
		const buffer = IMAGES[kind];
		const result = await upload([await itemWith(buffer, fileName, mimeType)]);
		expect(result.error).toBeUndefined();
		const calls = ctx.sim.find('POST', '/v1/uploads/images');
		expect(calls).toHaveLength(1);
		expect(calls[0].authValid).toBe(true);
		expect(calls[0].headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
		expect(calls[0].parts).toEqual([
			{ name: 'file', filename: fileName, contentType: mimeType, size: buffer.length, sha256: sha256(buffer) },
		]);
		expect(result.items).toHaveLength(1);
		expectUploadOutput(result.items[0].json, { filename: fileName, contentType: mimeType, bytes: buffer.length });
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		// The URL serves exactly the bytes that were uploaded.
		const served = Buffer.from(await (await fetch(result.items[0].json.url)).arrayBuffer());
		expect(served.equals(buffer)).toBe(true);
	});

	test('the type sent is the real one, not the label on the binary', async () => {
		const result = await upload([await itemWith(IMAGES.png, 'mislabelled.jpg', 'image/jpeg')]);
		expect(ctx.sim.find('POST', '/v1/uploads/images')[0].parts[0].contentType).toBe('image/png');
		expect(result.items[0].json.content_type).toBe('image/png');
	});

	test('a file name without extension gets the one of its real type', async () => {
		await upload([await itemWith(IMAGES.webp, 'pasted', 'application/octet-stream')]);
		expect(ctx.sim.find('POST', '/v1/uploads/images')[0].parts[0]).toMatchObject({ filename: 'pasted.webp', contentType: 'image/webp' });
	});

	test('filesystem binary mode works', async () => {
		const item = await itemWith(IMAGES.png, 'on-disk.png', 'image/png', 'filesystem');
		expect(typeof item.binary.data.id).toBe('string'); // stored on disk, not inline
		expect(item.binary.data.data).not.toBe(IMAGES.png.toString('base64'));
		const result = await upload([item], { binaryMode: 'filesystem' });
		expect(result.error).toBeUndefined();
		expect(ctx.sim.find('POST', '/v1/uploads/images')[0].parts).toEqual([
			{ name: 'file', filename: 'on-disk.png', contentType: 'image/png', size: IMAGES.png.length, sha256: sha256(IMAGES.png) },
		]);
		expectUploadOutput(result.items[0].json, { filename: 'on-disk.png', contentType: 'image/png', bytes: IMAGES.png.length });
	});

	test('several items upload in input order with pairedItem', async () => {
		const kinds = [['gif', 'a.gif', 'image/gif'], ['jpeg', 'b.jpg', 'image/jpeg'], ['png', 'c.png', 'image/png'], ['webp', 'd.webp', 'image/webp']];
		const items = await Promise.all(kinds.map(([kind, name, mime]) => itemWith(IMAGES[kind], name, mime)));
		const result = await upload(items);
		expect(result.items.map((i) => i.json.filename)).toEqual(['a.gif', 'b.jpg', 'c.png', 'd.webp']);
		expect(result.items.map((i) => i.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		expect(ctx.sim.count('POST', '/v1/uploads/images')).toBe(4);
	});
});

describe('refused files: zero requests', () => {
	test.each([
		['a PDF', () => PDF, 'report.pdf', 'application/pdf', "Input Binary Field: 'report.pdf' is application/pdf (2 KB); the gateway accepts JPEG, PNG, WEBP, GIF"],
		['a text file', () => TEXT, 'notes.txt', 'text/plain', "Input Binary Field: 'notes.txt' is text/plain (1 KB); the gateway accepts JPEG, PNG, WEBP, GIF"],
		['a PDF labelled as PNG', () => PDF, 'fake.png', 'image/png', "Input Binary Field: 'fake.png' is not a recognised image (2 KB); the gateway accepts JPEG, PNG, WEBP, GIF"],
		[
			'a 21 MB PNG',
			() => Buffer.concat([IMAGES.png, Buffer.alloc(21 * 1024 * 1024 - IMAGES.png.length)]),
			'huge.png',
			'image/png',
			"Input Binary Field: 'huge.png' is 21.0 MB; the gateway accepts at most 20 MB",
		],
	])('%s is refused with its real type and size', async (_what, make, fileName, mimeType, message) => {
		const result = await upload([await itemWith(make(), fileName, mimeType)]);
		expect(result.error?.message).toBe(message);
		expect(result.error.description).toMatch(/Nothing was sent/);
		expect(result.items).toHaveLength(0);
		expect(ctx.sim.requests.length).toBe(0);
	});

	test('a missing binary property names the ones the item has', async () => {
		const item = { json: {}, binary: { photo: await makeBinary(IMAGES.png, 'p.png', 'image/png') } };
		const result = await upload([item]);
		expect(result.error?.message).toBe("Input Binary Field: the input item has no binary property 'data'");
		expect(result.error.description).toMatch(/photo/);
		expect(ctx.sim.requests.length).toBe(0);
	});

	test('with Continue On Fail a bad file is an error item and the good ones still upload', async () => {
		const items = [
			await itemWith(IMAGES.png, 'good-1.png', 'image/png'),
			await itemWith(PDF, 'bad.pdf', 'application/pdf'),
			await itemWith(IMAGES.gif, 'good-2.gif', 'image/gif'),
		];
		const result = await upload(items, { continueOnFail: true });
		expect(result.items).toHaveLength(3);
		expect(result.items[0].json.filename).toBe('good-1.png');
		expect(result.items[1].json.error).toMatch(/'bad.pdf' is application\/pdf/);
		expect(result.items[1].json.url).toBeUndefined();
		expect(result.items[2].json.filename).toBe('good-2.gif');
		expect(result.items.map((i) => i.pairedItem.item)).toEqual([0, 1, 2]);
		expect(ctx.sim.find('POST', '/v1/uploads/images').map((r) => r.parts[0].filename).sort()).toEqual(['good-1.png', 'good-2.gif']);
	});
});

describe('gateway answers', () => {
	test('a gateway refusal is explained and the upload is not repeated', async () => {
		ctx.sim.inject({ path: '/v1/uploads/images', status: 400, body: { error: { message: 'Uploaded file must be an image', code: 'invalid_file' } } });
		const result = await upload([await itemWith(IMAGES.jpeg, 'photo.jpg', 'image/jpeg')]);
		expect(result.error?.message).toMatch(/could not read a reference image/);
		expect(ctx.sim.count('POST', '/v1/uploads/images')).toBe(1);
	});

	test('an answer without a URL is an error, not an empty URL', async () => {
		ctx.sim.inject({ path: '/v1/uploads/images', status: 200, body: { filename: 'photo.jpg', bytes: 10 } });
		const result = await upload([await itemWith(IMAGES.jpeg, 'photo.jpg', 'image/jpeg')]);
		expect(result.error?.message).toBe("The gateway accepted 'photo.jpg' but returned no URL");
	});
});
