'use strict';
// Sizes plain relays understand (issue 55 item 6; docs/gateway-contract.md §10.11): gpt-image-2's ratio
// size with its Resolution is the document's extension; a plain new-api forwards `size: "1:1"` unread
// and drops `resolution`, and an OpenAI-type upstream refuses the ratio (the simulator's plain profile
// answers as that upstream does). The node reads the build once per run (GET /v1/balance: 404 on the
// plain relay) and there sends the pixel size of that aspect at the chosen tier, or refuses before
// anything is billed. Run through n8n's execution code against the simulator.
const { useSimulator } = require('../support');
const { image, runner } = require('../money/image-run');
const { runNode } = require('../harness');
const { pixelSizeFor } = require('../../dist/nodes/UnifiedAiGateway/pipeline/relaySizes');
const { IMAGE_MODELS } = require('../../dist/nodes/UnifiedAiGateway/registry/imageModels');

const ctx = useSimulator({ scenario: { durationMs: 200 }, profile: 'plainNewApi' });
const run = runner(ctx);
const sent = () => ctx.sim.requests.filter((r) => r.method === 'POST' && r.path === '/v1/images/generations');
const balanceReads = () => ctx.sim.count('GET', '/v1/balance');
const GPT2_SIZES = IMAGE_MODELS.find((m) => m.id === 'gpt-image-2').fields.generate.size.values;

describe('the pixel size of a ratio (the rule, over the registry row of gpt-image-2)', () => {
	test.each([
		['1:1', '1k', '1024x1024'],
		['1:1', '2k', '2048x2048'],
		['1:1', '4k', '2880x2880'],
		['16:9', '1k', '1920x1088'],
		['16:9', '2k', '2048x1152'],
		['16:9', '4k', '3840x2160'],
		['9:16', '4k', '2160x3840'],
		['3:2', '2k', '2560x1712'],
		['4:3', '1k', '1365x1024'],
		['3:4', '4k', '2880x3840'],
		['2:3', undefined, '1024x1536'],
	])('%s at %s is %s', (ratio, resolution, pixels) => {
		expect(pixelSizeFor(ratio, resolution, GPT2_SIZES)).toBe(pixels);
	});

	test.each(['21:9', '9:21', '3:1', '1:3', '2:1', '5:4', '4:5'])('%s has no listed size', (ratio) => {
		expect(pixelSizeFor(ratio, '1k', GPT2_SIZES)).toBeUndefined();
	});
});

describe('gpt-image-2 on a plain new-api', () => {
	test('the default 1:1 at 1k goes as 1024x1024, resolution left out, the item says why', async () => {
		const result = await run(image(), 2);
		expect(result.error).toBeUndefined();
		expect(sent().map((r) => r.body)).toEqual([
			{ model: 'gpt-image-2', prompt: 'a lighthouse', size: '1024x1024', quality: 'auto', n: 1, response_format: 'url' },
			{ model: 'gpt-image-2', prompt: 'a lighthouse', size: '1024x1024', quality: 'auto', n: 1, response_format: 'url' },
		]);
		// The build is read once for the run, not per item.
		expect(balanceReads()).toBe(1);
		for (const item of result.items) {
			expect(item.json.request).toMatchObject({ size: '1024x1024' });
			expect(item.json.request).not.toHaveProperty('resolution');
			expect(item.json.sizeNote).toBe(
				'Size 1:1 at Resolution 1k was sent as 1024x1024: this gateway runs the plain relay ' +
					'(GET /v1/balance answered 404), which does not read a ratio or its resolution.',
			);
		}
	});

	test('16:9 at 4k goes as 3840x2160, estimated at the relay’s price per call', async () => {
		const result = await run(image({ size: '16:9', resolution: '4k' }));
		expect(result.error).toBeUndefined();
		expect(sent()[0].body).toMatchObject({ size: '3840x2160' });
		expect(sent()[0].body).not.toHaveProperty('resolution');
		// The relay's price list prices a call, whatever its size (docs/gateway-contract.md §10.11).
		expect(result.items[0].json.estimatedCost).toMatchObject({ amount: 0.02, source: "the gateway's price list" });
		expect(result.items[0].json.sizeNote).toMatch(/^Size 16:9 at Resolution 4k was sent as 3840x2160: /);
	});

	test('21:9 has no size a plain relay takes: refused before anything is sent, naming what works', async () => {
		const result = await run(image({ size: '21:9', resolution: '2k' }));
		expect(result.error.message).toBe(
			"Size '21:9' cannot be sent to this gateway: this gateway runs the plain relay " +
				'(GET /v1/balance answered 404), which does not read a ratio or its resolution',
		);
		expect(result.error.description).toBe(
			'Choose a pixel size (WIDTHxHEIGHT) or one of the ratios it can be sent as: 1:1, 3:2, 2:3, 4:3, 3:4, 16:9, 9:16. ' +
				'Nothing was sent to the gateway, so nothing was charged.',
		);
		expect(sent()).toHaveLength(0);
	});

	test('with Continue On Fail the item of a ratio it cannot send is an error item, the others are sent', async () => {
		const result = await runNode({
			parameters: image({ size: '={{ $json.size }}', resolution: '2k' }),
			credentials: ctx.creds,
			items: [{ json: { size: '16:9' } }, { json: { size: '21:9' } }, { json: { size: '1:1' } }],
			continueOnFail: true,
		});
		expect(sent().map((r) => r.body.size)).toEqual(['2048x1152', '2048x2048']);
		expect(result.items.map((i) => i.json.error ?? i.json.request.size)).toEqual([
			'2048x1152',
			expect.stringMatching(/^Size '21:9' cannot be sent to this gateway/),
			'2048x2048',
		]);
		expect(balanceReads()).toBe(1);
	});

	test('a pixel size the user chose is sent as chosen, and the build is not read', async () => {
		const result = await run(image({ size: '1536x1024' }));
		expect(result.error).toBeUndefined();
		expect(sent()[0].body).toMatchObject({ size: '1536x1024' });
		expect(result.items[0].json).not.toHaveProperty('sizeNote');
		expect(balanceReads()).toBe(0);
	});

	test('the simulator plays the upstream: a ratio sent as is would have been refused (400), nothing billed', async () => {
		const response = await fetch(`${ctx.sim.mainUrl}/v1/images/generations`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${ctx.creds.apiKey}`, 'Content-Type': 'application/json' },
			body: JSON.stringify({ model: 'gpt-image-2', prompt: 'x', size: '1:1', resolution: '2k' }),
		});
		expect(response.status).toBe(400);
		expect((await response.json()).error).toMatchObject({ param: 'size', code: 'invalid_value' });
		expect(ctx.sim.syncResults).toHaveLength(0);
	});
});

describe('gpt-image-2 on the document’s gateway', () => {
	const commercial = useSimulator({ scenario: { durationMs: 200 } });
	test('the ratio and its resolution are sent as chosen (the build answers GET /v1/balance)', async () => {
		const result = await runner(commercial)(image({ size: '16:9', resolution: '2k' }));
		expect(result.error).toBeUndefined();
		const body = commercial.sim.requests.find((r) => r.path === '/v1/images/generations').body;
		expect(body).toMatchObject({ size: '16:9', resolution: '2k' });
		expect(result.items[0].json).not.toHaveProperty('sizeNote');
		expect(commercial.sim.count('GET', '/v1/balance')).toBe(1);
	});
});
