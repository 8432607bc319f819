'use strict';
// Grok's seconds and size on the Unified and Compatibility routes were saved as videoSeconds and
// videoSize until each rule of a body key got a parameter name of its own
// (videoSeconds_grokImagineVideo15Unified, videoSize_grokImagineVideo15Unified). n8n keeps a saved
// value only under a name a shown field has, so before this those values were dropped and the
// channel's default duration was billed instead. The workflows below are saved the old way and run
// through n8n-core's own code (the harness builds the Workflow, whose constructor drops what no
// shown field names).
const wf = require('n8n-workflow');
const { loadNode } = require('../harness');
const { useVideoSuite } = require('./suite');

const { ctx, generate, submits } = useVideoSuite();

const GROK = 'grok-imagine-video-1.5';
const NEW_SECONDS = 'videoSeconds_grokImagineVideo15Unified';
const NEW_SIZE = 'videoSize_grokImagineVideo15Unified';
const submitted = () => submits().map((r) => r.body);
const submit = (extra, options) => generate(GROK, { waitForCompletion: false, download: false, ...extra }, options);

describe('a workflow saved with the former names', () => {
	test.each([
		[GROK, 'unified', '/v1/video/generations'],
		['grok-imagine-1.5-video', 'unified', '/v1/video/generations'],
		[GROK, 'compatibility', '/v1/videos'],
	])('%s on the %s route: the gateway receives the seconds and size it set, and a hint names the new field', async (model, videoRoute, path) => {
		const result = await generate(model, { videoRoute, videoSeconds: '10', videoSize: '720x1280', waitForCompletion: false, download: false });
		expect(result.error).toBeUndefined();
		expect(submits().map((r) => r.path)).toEqual([path]);
		expect(submits()[0].body).toMatchObject({ model, seconds: '10', size: '720x1280' });
		const hints = result.hints.map((h) => h.message);
		expect(hints).toContain(
			'Seconds: sent "10", saved under its former name videoSeconds; set Seconds to send another value',
		);
		expect(hints).toContain(
			'Size: sent "720x1280", saved under its former name videoSize; set Size to send another value',
		);
	});

	test('every item of the run sends it, and the hint is given once', async () => {
		const result = await submit({ videoRoute: 'unified', videoSeconds: '16' }, { items: [{ json: {} }, { json: {} }, { json: {} }] });
		expect(submitted().map((b) => b.seconds)).toEqual(['16', '16', '16']);
		expect(result.hints.filter((h) => /former name videoSeconds/.test(h.message))).toHaveLength(1);
	});

	test('an expression saved under the former name is evaluated per item', async () => {
		await submit({ videoRoute: 'unified', videoSeconds: '={{ $json.s }}' }, { items: [{ json: { s: '6' } }, { json: { s: '12' } }] });
		expect(submitted().map((b) => b.seconds).sort()).toEqual(['12', '6']);
	});

	test('the new field, once set, is what is sent: the former value is not read and nothing is hinted', async () => {
		const result = await submit({ videoRoute: 'unified', videoSeconds: '10', [NEW_SECONDS]: '20' });
		expect(submitted()[0].seconds).toBe('20');
		expect(result.hints.filter((h) => /former name/.test(h.message))).toEqual([]);
	});

	test('a former value the route does not take is refused before anything is sent, naming the new field', async () => {
		const result = await submit({ videoRoute: 'unified', videoSeconds: '90' });
		expect(result.error.message).toBe(
			`Seconds (seconds), saved under its former name videoSeconds (now ${NEW_SECONDS}): "90" is far beyond any video model's range; without Allow Unusual Values it takes at most 60`,
		);
		expect(submits()).toHaveLength(0);
		const bad = await submit({ videoRoute: 'unified', videoSize: 'wide' });
		expect(bad.error.message).toMatch(new RegExp(`^Size \\(size\\), saved under its former name videoSize \\(now ${NEW_SIZE}\\): "wide" is not accepted by ${GROK}`));
		expect(submits()).toHaveLength(0);
	});

	test('with the model from an expression, a grok item sends the former value; a sora item is refused naming its own field (as before)', async () => {
		const items = [{ json: { model: GROK } }, { json: { model: 'sora-2' } }];
		const params = { modelId: { __rl: true, mode: 'id', value: '={{ $json.model }}' }, videoRoute: 'unified', videoSeconds: '10' };
		const grok = await submit(params, { items: items.slice(0, 1) });
		expect(grok.error).toBeUndefined();
		expect(submitted()[0]).toMatchObject({ model: GROK, seconds: '10' });
		ctx.sim.reset();
		const sora = await submit(params, { items: items.slice(1) });
		expect(sora.error.message).toMatch(/^Seconds \(videoSeconds\) is set, but it belongs to .*this item's model is 'sora-2', whose field is Seconds \(videoSeconds_sora2\)/);
		expect(submits()).toHaveLength(0);
	});
});

describe('what stays as it was', () => {
	test('the Grok Multipart route: videoSeconds and videoSize are its own fields, sent as they are, no hint', async () => {
		const result = await submit({ videoRoute: 'multipart', videoSeconds: '12', videoSize: '720x1280' });
		expect(result.error).toBeUndefined();
		const [form] = submits();
		expect(form.path).toBe('/v1/videos');
		expect(form.parts.filter((p) => ['seconds', 'size'].includes(p.name)).map((p) => [p.name, p.value])).toEqual([
			['seconds', '12'],
			['size', '720x1280'],
		]);
		expect(result.hints.filter((h) => /former name/.test(h.message))).toEqual([]);
	});

	test('with the route from an expression, videoSeconds is the multipart field (n8n shows both): not read for a unified item', async () => {
		await submit({ videoRoute: '={{ "unified" }}', videoSeconds: '10' });
		expect(submitted()[0]).not.toHaveProperty('seconds');
	});

	test('with the model from an expression and nothing saved, the multipart defaults n8n fills in are not taken for former values', async () => {
		const result = await submit({ modelId: { __rl: true, mode: 'id', value: '={{ $json.model }}' }, videoRoute: 'unified' }, { items: [{ json: { model: GROK } }] });
		expect(result.error).toBeUndefined();
		expect(submitted()[0]).toEqual({ model: GROK, prompt: expect.any(String) });
	});

	test('a workflow that never set the former names sends nothing for them', async () => {
		const result = await submit({ videoRoute: 'unified' });
		expect(submitted()[0]).not.toHaveProperty('seconds');
		expect(submitted()[0]).not.toHaveProperty('size');
		expect(result.hints.filter((h) => /former name/.test(h.message))).toEqual([]);
	});
});

describe('the hidden fields of the former names (as n8n decides what shows)', () => {
	const node = loadNode('unifiedAiGateway');
	const { properties } = node.description;
	const routes = properties.find((p) => p.name === 'videoRoute').options.map((o) => o.value);
	const models = [...new Set(require('../../dist/nodes/UnifiedAiGateway/registry/videoModels').VIDEO_MODELS.map((m) => m.id))];
	const shows = (property, modelId, videoRoute) =>
		wf.NodeHelpers.displayParameter({ resource: 'video', operation: 'generate', modelId: { __rl: true, mode: 'id', value: modelId }, videoRoute }, property, null, node.description);

	test.each([
		['videoSeconds', NEW_SECONDS],
		['videoSize', NEW_SIZE],
	])('%s: a hidden field exactly where %s shows, never beside another field of its name', (former, renamed) => {
		const hidden = properties.filter((p) => p.name === former && p.type === 'hidden');
		expect(hidden).toHaveLength(1);
		const variant = properties.find((p) => p.name === renamed);
		const others = properties.filter((p) => p.name === former && p.type !== 'hidden');
		for (const modelId of [...models, 'a-model-the-registry-does-not-know']) {
			for (const route of routes) {
				expect([modelId, route, shows(hidden[0], modelId, route)]).toEqual([modelId, route, shows(variant, modelId, route)]);
				if (shows(hidden[0], modelId, route)) expect([modelId, route, others.filter((p) => shows(p, modelId, route)).length]).toEqual([modelId, route, 0]);
			}
		}
	});

	test("n8n keeps the saved former value where the route's field shows and drops it elsewhere (both lines' getNodeParameters)", () => {
		const saved = (modelId, videoRoute) => ({ resource: 'video', operation: 'generate', modelId: { __rl: true, mode: 'id', value: modelId }, videoRoute, videoSeconds: '10' });
		const kept = (params) => wf.NodeHelpers.getNodeParameters(properties, params, true, false, { typeVersion: 1, parameters: params }, node.description).videoSeconds;
		expect(kept(saved(GROK, 'unified'))).toBe('10');
		expect(kept(saved(GROK, 'compatibility'))).toBe('10');
		expect(kept(saved(GROK, 'multipart'))).toBe('10');
		// Not grok: no field of that name shows, and n8n drops it (what every saved videoSeconds met before this change).
		expect(kept(saved('veo-3.1-flash', 'unified'))).toBeUndefined();
	});

	test('the editor keeps it too: on every change n8n\'s node settings keep the shown values that differ from their defaults', () => {
		// getNodeParameters(…, returnDefaults false, …) is the call the editor's NodeSettings makes when a
		// field changes, and what it saves: here the prompt was edited in a workflow saved the old way.
		const params = { resource: 'video', operation: 'generate', modelId: { __rl: true, mode: 'list', value: GROK }, videoRoute: 'unified', prompt: 'edited', videoSeconds: '10', videoSize: '720x1280' };
		const afterEdit = wf.NodeHelpers.getNodeParameters(properties, params, false, false, { typeVersion: 1, parameters: params }, node.description);
		expect(afterEdit).toMatchObject({ prompt: 'edited', videoSeconds: '10', videoSize: '720x1280' });
		// Another model picked: the former values go with the fields that held them, as any hidden field's.
		const otherModel = { ...params, modelId: { __rl: true, mode: 'list', value: 'veo-3.1-flash' } };
		expect(wf.NodeHelpers.getNodeParameters(properties, otherModel, false, false, { typeVersion: 1, parameters: otherModel }, node.description)).not.toHaveProperty('videoSeconds');
	});
});
