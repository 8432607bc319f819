'use strict';
// Shared set-up for the Image suites (test/image/*.test.js): one simulator per file, the node's
// parameters, a run that checks the key stays hidden, and what the gateway received.
const { API_KEY, useSimulator } = require('../support');
const { runNode, binaryBuffer } = require('../harness');

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const NOTE = "The document's list price per call: one charge per request, whatever the number of images. A list price, not a bill: the gateway's own prices and the account plan decide the charge.";

function params(operation, model, overrides = {}) {
	return {
		resource: 'image',
		operation,
		modelId: { __rl: true, mode: 'id', value: model },
		prompt: '={{ $json.prompt }}',
		...overrides, waiting: { pollIntervalSeconds: 0.1, ...overrides?.waiting },
	};
}

const prompts = (...texts) => texts.map((prompt) => ({ json: { prompt } }));

function ok(result) {
	if (result.error) throw new Error(`node failed: ${result.error.message} | ${result.error.description}`);
	return result.items;
}

async function expectPng(item, field = 'data') {
	const binary = item.binary?.[field];
	expect(binary).toBeDefined();
	expect(binary.mimeType).toBe('image/png');
	expect(binary.fileName).toMatch(/\.png$/);
	const bytes = await binaryBuffer(binary);
	expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
	return bytes;
}

/** Call at the top of a test file: starts its simulator and returns the helpers bound to it. */
function useImageSuite() {
	const ctx = useSimulator({ scenario: { durationMs: 300 } });

	async function run(operation, model, overrides = {}, options = {}) {
		const result = await runNode({
			parameters: params(operation, model, overrides),
			credentials: options.credentials ?? ctx.creds,
			items: options.items ?? prompts('a red fox'),
			continueOnFail: options.continueOnFail,
		});
		// Nothing a user sees carries the key, and the files origin never gets it.
		const visible = JSON.stringify({ items: result.items.map((i) => i.json), error: result.error && { m: result.error.message, d: result.error.description } });
		expect(visible).not.toContain(API_KEY);
		expect(ctx.sim.find('GET', /^\/(files|uploads)\//, 'files').every((r) => !r.hasAuth)).toBe(true);
		return result;
	}

	const submits = (path = '/v1/images/generations', origin = 'main') => ctx.sim.find('POST', path, origin);
	const polls = (pattern, origin = 'main') => ctx.sim.find('GET', pattern, origin);
	const fileGets = () => ctx.sim.find('GET', /^\/files\//, 'files');
	const refUrl = (name) => `${ctx.sim.filesUrl}/files/${name}.png`;

	return { ctx, run, submits, polls, fileGets, refUrl };
}

module.exports = { NOTE, prompts, ok, expectPng, useImageSuite };
