'use strict';
// Registry rows → the node's model fields (params/registryProperties.ts, named by
// params/registryRules.ts), and an item's fields → the body values (params/registryValues.ts), on
// made-up rows that take each path once: a list, a switch, a number range, free text, a value
// sent as is (no field), a price multiplier in an option's name, a "not sent" choice, a nested
// body key, a second rule of a key (its own name, shown for its ids), an id on two hosts, rules
// per request route, the Model Options collection, the fields of ids the registry has no row
// for, a former name, the model from an expression. The node builds its fields while it loads
// inside its first run, so a test that only runs the node leaves a broken builder unseen by a
// mutation run (docs/DEVELOPMENT.md, "Mutation testing"); here they are built in each test, on a
// fresh load, and read on a fake context. image/description.test.js, parameter-names.test.js,
// expression-input.test.js and video/former-names.test.js hold the node's own rows through n8n.
//
// The modules are loaded afresh in each test (fresh-modules.js says why).
const built = require('./fresh-modules').freshEachTest();
const fields = built(() => require('../dist/nodes/UnifiedAiGateway/params/registryProperties.js'));

const PRICE = { baseUsd: 0.1, per: 'call', tiers: { '2K': 1.5 } };
const IMAGE_SET = {
	operation: 'generate',
	show: { resource: ['image'], operation: ['generate'] },
	modelCondition: '/modelId',
	hostParameter: 'imageHost',
	optionsCollection: { name: 'imageOptions', description: 'Optional body fields of this model' },
	sendSingleValues: true,
	models: [
		{
			id: 'alpha-1',
			group: 'image',
			host: 'main',
			mode: 'sync',
			price: PRICE,
			fields: {
				generate: {
					resolution: { values: ['1K', '2K'], default: '1K' },
					output_format: { values: ['png', 'jpeg', 'extra_large'], default: 'png' },
					n: { values: [1], default: 1 },
					watermark: { values: [true, false], default: true },
					'metadata.style_preset': { values: ['natural', 'vivid_color'], default: 'natural' },
					seed: { min: 0, max: 100, integer: true },
					background: { values: ['auto', 'transparent', 'opaque'], omit: 'auto' },
				},
			},
		},
		{ id: 'beta', group: 'image', host: 'main', mode: 'sync', fields: { generate: { resolution: { values: ['1K', '2K', '4K'], default: '1K' } } } },
		{ id: 'gamma', group: 'image', host: 'main', mode: 'sync', price: PRICE, fields: { generate: { resolution: { values: ['1K', '2K'], default: '1K' }, seed: { min: 0, max: 100, integer: true } } } },
		{ id: 'gamma', group: 'image', host: 'alt', mode: 'sync', fields: { generate: { resolution: { values: ['1K', '2K'], default: '1K' }, seed: { min: 0, max: 100, integer: true } } } },
	],
	unknownModel: { fields: { generate: { size: { default: '1024x1024', description: 'Width x height' }, quality: { label: 'Image Quality', min: 1 } } } },
};
const VIDEO_SET = {
	operation: 'video',
	prefix: 'video',
	show: { resource: ['video'], operation: ['generate'] },
	routeParameter: 'videoRoute',
	formerNames: [
		{ name: 'videoSecondsSaved', key: 'seconds', id: 'v-1', route: 'unified' },
		{ name: 'videoGone', key: 'no_such_key', id: 'v-1' },
	],
	models: [
		{
			id: 'v-1',
			group: 'video',
			host: 'main',
			mode: 'task',
			fields: {
				video: {
					seconds: {
						plausibleMax: 12,
						routeVariants: [
							{ routes: ['multipart'], values: ['6', '10'], default: '6' },
							{ routes: ['unified', 'compat'], min: 1, max: 15, integer: true, default: 8 },
						],
					},
					'metadata.generate_audio': { default: true },
					style: { values: ['cinematic', 'anime'], suggest: true, description: 'The look.' },
					duration: { max: 30, required: true, description: 'Whole seconds. Billed in advance.' },
					fps: { default: 24 },
					negative_prompt: {},
					ratio: { values: ['16:9', '9:16'], omit: '' },
				},
			},
		},
	],
};

describe('registryProperties: the fields of a set of rows', () => {
	test('image-like rows: one field per rule of a key, in the order the keys come; Model Options per group of ids; the fields of other ids', () => {
		expect(fields.registryProperties(IMAGE_SET)).toEqual([
			{ displayName: 'Resolution', name: 'resolution', type: 'options', default: '1K', options: [{ name: '1K', value: '1K' }, { name: '2K (1.5× Price)', value: '2K' }], displayOptions: { show: { resource: ['image'], operation: ['generate'], '/modelId': ['alpha-1'] } } },
			{ displayName: 'Resolution', name: 'resolution_beta', type: 'options', default: '1K', options: [{ name: '1K', value: '1K' }, { name: '2K', value: '2K' }, { name: '4K', value: '4K' }], displayOptions: { show: { resource: ['image'], operation: ['generate'], '/modelId': ['beta'] } } },
			{ displayName: 'Resolution', name: 'resolution_gammaMain', type: 'options', default: '1K', options: [{ name: '1K', value: '1K' }, { name: '2K (1.5× Price)', value: '2K' }], displayOptions: { show: { resource: ['image'], operation: ['generate'], '/modelId': ['gamma'], imageHost: ['main'] } } },
			{ displayName: 'Resolution', name: 'resolution_gammaAlt', type: 'options', default: '1K', options: [{ name: '1K', value: '1K' }, { name: '2K', value: '2K' }], displayOptions: { show: { resource: ['image'], operation: ['generate'], '/modelId': ['gamma'], imageHost: ['alt'] } } },
			{ displayName: 'Output Format', name: 'output_format', type: 'options', default: 'png', options: [{ name: 'PNG', value: 'png' }, { name: 'JPEG', value: 'jpeg' }, { name: 'Extra Large', value: 'extra_large' }], displayOptions: { show: { resource: ['image'], operation: ['generate'], '/modelId': ['alpha-1'] } } },
			{ displayName: 'Watermark', name: 'watermark', type: 'options', default: true, options: [{ name: 'Yes', value: true }, { name: 'No', value: false }], displayOptions: { show: { resource: ['image'], operation: ['generate'], '/modelId': ['alpha-1'] } } },
			{ displayName: 'Style Preset', name: 'metadata.style_preset', type: 'options', default: 'natural', description: 'Sent as metadata.style_preset', options: [{ name: 'Natural', value: 'natural' }, { name: 'Vivid Color', value: 'vivid_color' }], displayOptions: { show: { resource: ['image'], operation: ['generate'], '/modelId': ['alpha-1'] } } },
			{ displayName: 'Model Options', name: 'imageOptions_alpha1', type: 'collection', placeholder: 'Add Option', default: {}, description: 'Optional body fields of this model', options: [{ displayName: 'Background', name: 'background', type: 'options', default: 'auto', options: [{ name: 'Channel Default (Not Sent)', value: 'auto' }, { name: 'Transparent', value: 'transparent' }, { name: 'Opaque', value: 'opaque' }] }, { displayName: 'Seed', name: 'seed', type: 'number', default: 0, description: 'Takes a whole number from 0 to 100', typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 0 } }], displayOptions: { show: { resource: ['image'], operation: ['generate'], '/modelId': ['alpha-1'] } } },
			{ displayName: 'Model Options', name: 'imageOptions_gammaMain', type: 'collection', placeholder: 'Add Option', default: {}, description: 'Optional body fields of this model', options: [{ displayName: 'Seed', name: 'seed', type: 'number', default: 0, description: 'Takes a whole number from 0 to 100', typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 0 } }], displayOptions: { show: { resource: ['image'], operation: ['generate'], '/modelId': ['gamma'], imageHost: ['main'] } } },
			{ displayName: 'Model Options', name: 'imageOptions_gammaAlt', type: 'collection', placeholder: 'Add Option', default: {}, description: 'Optional body fields of this model', options: [{ displayName: 'Seed', name: 'seed', type: 'number', default: 0, description: 'Takes a whole number from 0 to 100', typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 0 } }], displayOptions: { show: { resource: ['image'], operation: ['generate'], '/modelId': ['gamma'], imageHost: ['alt'] } } },
			{ displayName: 'Size', name: 'size', type: 'string', default: '1024x1024', description: 'Width x height', displayOptions: { show: { resource: ['image'], operation: ['generate'] }, hide: { '/modelId': ['alpha-1', 'beta', 'gamma'] } } },
			{ displayName: 'Model Options', name: 'imageOptions_otherModels', type: 'collection', placeholder: 'Add Option', default: {}, description: 'Optional body fields of this model', options: [{ displayName: 'Image Quality', name: 'quality', type: 'number', default: 1, description: 'Takes a number of at least 1', typeOptions: { minValue: 1 } }], displayOptions: { show: { resource: ['image'], operation: ['generate'] }, hide: { '/modelId': ['alpha-1', 'beta', 'gamma'] } } },
		]);
	});

	test('video-like rows: a prefix on every name, a field per request route, a former name first, a required field', () => {
		expect(fields.registryProperties(VIDEO_SET)).toEqual([
			{ displayName: 'Seconds (Former Name)', name: 'videoSecondsSaved', type: 'hidden', default: '', description: 'Kept from an earlier version of this node: sent when videoSeconds_v1Unified is left at its default', displayOptions: { show: { resource: ['video'], operation: ['generate'], modelId: ['v-1'], videoRoute: ['unified', 'compat'] } } },
			{ displayName: 'Seconds', name: 'videoSeconds', type: 'options', default: '6', description: 'Above 12 needs Allow Unusual Values', options: [{ name: '6', value: '6' }, { name: '10', value: '10' }], displayOptions: { show: { resource: ['video'], operation: ['generate'], modelId: ['v-1'], videoRoute: ['multipart'] } } },
			{ displayName: 'Seconds', name: 'videoSeconds_v1Unified', type: 'number', default: 8, description: 'Takes a whole number from 1 to 15. Above 12 needs Allow Unusual Values.', typeOptions: { minValue: 1, maxValue: 15, numberPrecision: 0 }, displayOptions: { show: { resource: ['video'], operation: ['generate'], modelId: ['v-1'], videoRoute: ['unified', 'compat'] } } },
			{ displayName: 'Generate Audio', name: 'videoMetadataGenerateAudio', type: 'boolean', default: true, description: 'Sent as metadata.generate_audio', displayOptions: { show: { resource: ['video'], operation: ['generate'], modelId: ['v-1'] } } },
			{ displayName: 'Style', name: 'videoStyle', type: 'options', default: 'cinematic', description: 'The look. The list holds the usual values; for another, switch the field to Expression and type it: it is sent as typed.', options: [{ name: 'Cinematic', value: 'cinematic' }, { name: 'Anime', value: 'anime' }], displayOptions: { show: { resource: ['video'], operation: ['generate'], modelId: ['v-1'] } } },
			{ displayName: 'Duration', name: 'videoDuration', type: 'number', default: 0, description: 'Whole seconds. Billed in advance. Takes a number of at most 30.', required: true, typeOptions: { maxValue: 30 }, displayOptions: { show: { resource: ['video'], operation: ['generate'], modelId: ['v-1'] } } },
			{ displayName: 'Fps', name: 'videoFps', type: 'number', default: 24, typeOptions: {}, displayOptions: { show: { resource: ['video'], operation: ['generate'], modelId: ['v-1'] } } },
			{ displayName: 'Negative Prompt', name: 'videoNegativePrompt', type: 'string', default: '', displayOptions: { show: { resource: ['video'], operation: ['generate'], modelId: ['v-1'] } } },
			{ displayName: 'Ratio', name: 'videoRatio', type: 'options', default: '', options: [{ name: 'Channel Default (Not Sent)', value: '' }, { name: '16:9', value: '16:9' }, { name: '9:16', value: '9:16' }], displayOptions: { show: { resource: ['video'], operation: ['generate'], modelId: ['v-1'] } } },
		]);
	});
});

describe('registryProperties: what a value and a number field show', () => {
	const ROW = {
		id: 'f-1',
		group: 'image',
		host: 'main',
		mode: 'sync',
		fields: {
			generate: {
				response_format: { values: ['url', 'b64_json'], default: 'url' },
				output_format: { values: ['png', 'jpeg', 'webp', 'extra_large'], default: 'png' },
				steps: { default: 20 },
				strength: { min: 0.1 },
				guidance: { max: 9, integer: true },
			},
		},
	};
	const SET = { operation: 'generate', show: {}, models: [ROW] };
	const byName = () => Object.fromEntries(fields.registryProperties(SET).map((p) => [p.name, p]));

	test('file formats and url in capitals, other values word by word, a format inside a value too', () => {
		const shown = byName();
		expect(shown.response_format.options).toEqual([
			{ name: 'URL', value: 'url' },
			{ name: 'B64 JSON', value: 'b64_json' },
		]);
		expect(shown.output_format.options.map((o) => o.name)).toEqual(['PNG', 'JPEG', 'WEBP', 'Extra Large']);
	});

	test("a number's bounds: only those its rule has (no bound left empty for the editor to read)", () => {
		const shown = byName();
		expect(Object.keys(shown.steps.typeOptions)).toEqual([]);
		expect(Object.keys(shown.strength.typeOptions)).toEqual(['minValue']);
		expect(Object.keys(shown.guidance.typeOptions)).toEqual(['maxValue', 'numberPrecision']);
		expect(shown.guidance.typeOptions).toStrictEqual({ maxValue: 9, numberPrecision: 0 });
	});
});

describe('readRegistryValues: the fields of one item → the body values', () => {
	const values = built(() => require('../dist/nodes/UnifiedAiGateway/params/registryValues.js'));
	const NODE = { id: '1', name: 'Gateway', type: 'n8n-nodes-unified-ai-gateway.unifiedAiGateway', typeVersion: 1, position: [0, 0] };

	/** A context whose node holds `parameters` (a field left out: n8n's default, the fallback); hints collected. */
	function context(parameters) {
		const hints = [];
		return {
			hints,
			getNode: () => ({ ...NODE, parameters }),
			getNodeParameter: (name, _itemIndex, fallback) => (name in parameters ? parameters[name] : fallback),
			addExecutionHints: (...added) => hints.push(...added.map((h) => h.message)),
		};
	}
	const refuse = (refusal) => Object.assign(new Error('refused'), { refusal });
	const read = (ctx, set, modelId, row, route) => values.readRegistryValues(ctx, 0, set, modelId, row, refuse, route);
	const refusalOf = (...args) => {
		try {
			read(...args);
		} catch (error) {
			return error.refusal ?? error.message;
		}
		return undefined;
	};
	const [ALPHA, , , GAMMA_ALT] = IMAGE_SET.models;
	const [V1] = VIDEO_SET.models;
	const VIDEO_UNUSUAL = { ...VIDEO_SET, allowUnusualParameter: 'videoAllowUnusualValues' };
	/** The Model field holding an expression (each item may resolve to another model). */
	const model = { __rl: true, mode: 'id', value: '={{ $json.model }}' };

	test('a known model: its own fields, its Model Options entries added, a single value as is, a nested key nested', () => {
		const ctx = context({ resolution: '2K', output_format: 'jpeg', 'metadata.style_preset': 'vivid_color', resolution_beta: '4K', imageOptions_alpha1: { seed: 7 } });
		// Strict: a key not sent is no key (background, left out of the Model Options).
		expect(read(ctx, IMAGE_SET, 'alpha-1', ALPHA)).toStrictEqual({ resolution: '2K', output_format: 'jpeg', n: 1, watermark: true, metadata: { style_preset: 'vivid_color' }, seed: 7 });
	});

	test('an id on two hosts: the fields of the row of its host', () => {
		const ctx = context({ resolution: '1K', resolution_gammaAlt: '2K', imageOptions_gammaAlt: { seed: 3 }, imageOptions_gammaMain: { seed: 4 } });
		expect(read(ctx, IMAGE_SET, 'gamma', GAMMA_ALT)).toEqual({ resolution: '2K', seed: 3 });
	});

	test('an id the registry has no row for: the fields of other models', () => {
		const ctx = context({ size: ' 512x512 ', resolution: '2K', imageOptions_otherModels: { quality: 5 } });
		expect(read(ctx, IMAGE_SET, 'mystery', IMAGE_SET.unknownModel)).toEqual({ size: '512x512', quality: 5 });
		expect(read(context({}), IMAGE_SET, 'mystery', IMAGE_SET.unknownModel)).toEqual({ size: '1024x1024' });
		// A known id on a host without its row (the caller hands the unknown-model rules): those rules.
		expect(read(context({ size: '640x480' }), IMAGE_SET, 'alpha-1', IMAGE_SET.unknownModel)).toEqual({ size: '640x480' });
	});

	test('a value its rule refuses: the field and its key, the value, what the rule takes', () => {
		expect(refusalOf(context({ resolution: '8K' }), IMAGE_SET, 'alpha-1', ALPHA)).toEqual({
			field: 'Resolution (resolution)',
			rule: ALPHA.fields.generate.resolution,
			given: '8K',
			reason: 'values',
			accepts: '1K, 2K',
		});
	});

	test('rules per request route: the route of the item reads its own field; no route, none of them', () => {
		const parameters = { videoSeconds: '10', videoSeconds_v1Unified: 11, videoMetadataGenerateAudio: false, videoStyle: 'noir', videoDuration: 20, videoRatio: '9:16' };
		expect(read(context(parameters), VIDEO_SET, 'v-1', V1, 'unified')).toEqual({ seconds: 11, metadata: { generate_audio: false }, style: 'noir', duration: 20, fps: 24, ratio: '9:16' });
		expect(read(context(parameters), VIDEO_SET, 'v-1', V1, 'multipart').seconds).toBe('10');
		expect(read(context(parameters), VIDEO_SET, 'v-1', V1).seconds).toBeUndefined();
		expect(read(context({ videoDuration: 20 }), VIDEO_SET, 'v-1', V1, 'compat')).toEqual({ seconds: 8, metadata: { generate_audio: true }, duration: 20, fps: 24 });
	});

	test('a required field left empty, and a value past the plausible bound without and with Allow Unusual Values', () => {
		expect(refusalOf(context({}), VIDEO_SET, 'v-1', V1)).toMatchObject({ field: 'Duration (duration)', reason: 'required', accepts: 'a number of at most 30' });
		expect(refusalOf(context({ videoDuration: 5, videoSeconds_v1Unified: 14 }), VIDEO_UNUSUAL, 'v-1', V1, 'unified')).toMatchObject({ field: 'Seconds (seconds)', reason: 'unusual' });
		expect(read(context({ videoDuration: 5, videoSeconds_v1Unified: 14, videoAllowUnusualValues: true }), VIDEO_UNUSUAL, 'v-1', V1, 'unified').seconds).toBe(14);
	});

	test('a former name: its saved value sent while the field is at its default, said once per run; refused naming both names', () => {
		const ctx = context({ videoDuration: 5, videoSecondsSaved: 9 });
		expect(read(ctx, VIDEO_SET, 'v-1', V1, 'unified').seconds).toBe(9);
		expect(read(ctx, VIDEO_SET, 'v-1', V1, 'unified').seconds).toBe(9);
		expect(ctx.hints).toEqual(['Seconds: sent 9, saved under its former name videoSecondsSaved; set Seconds to send another value']);
		expect(read(context({ videoDuration: 5, videoSecondsSaved: 9, videoSeconds_v1Unified: 12 }), VIDEO_SET, 'v-1', V1, 'unified').seconds).toBe(12);
		expect(read(context({ videoDuration: 5, videoSecondsSaved: '' }), VIDEO_SET, 'v-1', V1, 'unified').seconds).toBe(8);
		expect(read(context({ videoDuration: 5, videoSecondsSaved: 9, videoRoute: '={{ $json.route }}' }), VIDEO_SET, 'v-1', V1, 'unified').seconds).toBe(8);
		// With the model from an expression the former name is the item's own value: the other route's field does not refuse it.
		expect(read(context({ modelId: model, videoDuration: 5, videoSecondsSaved: 9, videoSeconds: '10' }), VIDEO_SET, 'v-1', V1, 'unified').seconds).toBe(9);
		expect(refusalOf(context({ videoDuration: 5, videoSecondsSaved: 40 }), VIDEO_SET, 'v-1', V1, 'unified')).toMatchObject({
			field: 'Seconds (seconds), saved under its former name videoSecondsSaved (now videoSeconds_v1Unified)',
			given: 40,
			reason: 'range',
		});
	});

	test("the model from an expression: another model's changed field refuses the item whose own is untouched, naming both", () => {
		expect(refusalOf(context({ modelId: model, resolution: '2K' }), IMAGE_SET, 'beta', IMAGE_SET.models[1])).toBe(
			"Resolution (resolution) is set, but it belongs to alpha-1; this item's model is 'beta', whose field is Resolution (resolution_beta)",
		);
		expect(refusalOf(context({ modelId: model, imageOptions_gammaMain: { seed: 4 } }), IMAGE_SET, 'alpha-1', ALPHA)).toBe(
			"Options → Seed (imageOptions_gammaMain.seed) is set, but it belongs to gamma; this item's model is 'alpha-1', whose field is Options → Seed (imageOptions_alpha1.seed)",
		);
		expect(refusalOf(context({ modelId: model, size: '640x480' }), IMAGE_SET, 'mystery', IMAGE_SET.unknownModel)).toBeUndefined();
		expect(read(context({ modelId: model, resolution: '2K', resolution_beta: '4K' }), IMAGE_SET, 'beta', IMAGE_SET.models[1])).toEqual({ resolution: '4K' });
		expect(refusalOf(context({ modelId: 'beta', resolution: '2K' }), IMAGE_SET, 'beta', IMAGE_SET.models[1])).toBeUndefined();
		// n8n fills every shown field with its default: another model's field at its default is untouched.
		expect(read(context({ modelId: model, resolution: '1K', resolution_beta: '1K' }), IMAGE_SET, 'beta', IMAGE_SET.models[1])).toEqual({ resolution: '1K' });
	});

	test('the model typed as an expression in plain text (no resource locator) is an expression too', () => {
		expect(refusalOf(context({ modelId: '={{ $json.model }}', resolution: '2K' }), IMAGE_SET, 'beta', IMAGE_SET.models[1])).toBe(
			"Resolution (resolution) is set, but it belongs to alpha-1; this item's model is 'beta', whose field is Resolution (resolution_beta)",
		);
		expect(refusalOf(context({ modelId: 'beta', resolution: '2K' }), IMAGE_SET, 'beta', IMAGE_SET.models[1])).toBeUndefined();
	});

	test("the model from an expression: another model's Options collection saved as nothing or not an object is untouched", () => {
		// The item's own Seed left alone: a changed Seed of another model would refuse it.
		for (const saved of [null, 'seed', 7]) {
			expect(read(context({ modelId: model, imageOptions_gammaMain: saved }), IMAGE_SET, 'alpha-1', ALPHA)).not.toHaveProperty('seed');
		}
	});

	test("another model's field set: the node's own error, for the item, saying nothing was charged", () => {
		let error;
		try {
			values.readRegistryValues(context({ modelId: model, resolution: '2K' }), 3, IMAGE_SET, 'beta', IMAGE_SET.models[1], refuse);
		} catch (e) {
			error = e;
		}
		expect(error.constructor.name).toBe('NodeOperationError');
		expect(error.context.itemIndex).toBe(3);
		expect(error.description).toBe(
			'With the model from an expression, each model reads only its own fields. Set the value in the field of this model too (or clear the other). Nothing was sent to the gateway, so nothing was charged.',
		);
	});

	test('a former name: its value read with the route typed as plain text; a saved value of nothing is no value', () => {
		expect(read(context({ videoDuration: 5, videoSecondsSaved: 9, videoRoute: 'unified' }), VIDEO_SET, 'v-1', V1, 'unified').seconds).toBe(9);
		const ctx = context({ videoDuration: 5, videoSecondsSaved: null });
		expect(read(ctx, VIDEO_SET, 'v-1', V1, 'unified').seconds).toBe(8);
		expect(ctx.hints).toEqual([]);
		// With the model from an expression, a saved value equal to some other field's default is still the item's own.
		expect(read(context({ modelId: model, videoDuration: 5, videoSecondsSaved: '6' }), VIDEO_SET, 'v-1', V1, 'unified').seconds).toBe(6);
	});

	test('a former name with a long value: the hint cut to n8n\'s hint length, a value that just fits kept whole', () => {
		const row = { id: 't-1', group: 'image', host: 'main', mode: 'sync', fields: { generate: { style: { default: 'plain' } } } };
		const set = { operation: 'generate', show: {}, models: [row], formerNames: [{ name: 'oldStyle', key: 'style', id: 't-1' }] };
		const line = (shown) => `Style: sent ${shown}, saved under its former name oldStyle; set Style to send another value`;
		const room = 120 - line('').length;
		const long = context({ oldStyle: 'x'.repeat(200) });
		expect(read(long, set, 't-1', row)).toEqual({ style: 'x'.repeat(200) });
		expect(long.hints).toEqual([line(`"${'x'.repeat(room - 2)}…`)]);
		expect(long.hints[0]).toHaveLength(120);
		const fits = context({ oldStyle: 'y'.repeat(room - 2) });
		read(fits, set, 't-1', row);
		expect(fits.hints).toEqual([line(`"${'y'.repeat(room - 2)}"`)]);
	});

	test("a former name whose value is the channel's default: not sent, and no hint says it was", () => {
		const row = { id: 't-1', group: 'image', host: 'main', mode: 'sync', fields: { generate: { style: { values: ['auto', 'vivid'], omit: 'auto' } } } };
		const set = { operation: 'generate', show: {}, models: [row], formerNames: [{ name: 'oldStyle', key: 'style', id: 't-1' }] };
		const ctx = context({ oldStyle: 'auto' });
		expect(read(ctx, set, 't-1', row)).toEqual({});
		expect(ctx.hints).toEqual([]);
	});

	test('no row handed (or one without fields): nothing read, nothing refused', () => {
		expect(read(context({}), IMAGE_SET, 'mystery', undefined)).toEqual({});
		expect(read(context({}), IMAGE_SET, 'alpha-1', undefined)).toEqual({});
		expect(read(context({}), IMAGE_SET, 'alpha-1', { host: 'main' })).toEqual({});
	});

	test('Allow Unusual Values that is not a switch is refused by its name; left out, it is off', () => {
		expect(refusalOf(context({ videoDuration: 5, videoAllowUnusualValues: 'maybe' }), VIDEO_UNUSUAL, 'v-1', V1, 'unified')).toMatch(/^Allow Unusual Values/);
		expect(refusalOf(context({ videoDuration: 5, videoSeconds_v1Unified: 13 }), VIDEO_UNUSUAL, 'v-1', V1, 'unified')).toMatchObject({ reason: 'unusual' });
		// A set without the switch never allows them.
		expect(refusalOf(context({ videoDuration: 5, videoSeconds_v1Unified: 13 }), VIDEO_SET, 'v-1', V1, 'unified')).toMatchObject({ reason: 'unusual' });
	});

	test("another model's field named by every model it belongs to, or as the models without a row", () => {
		const row = (id, values) => ({ id, group: 'image', host: 'main', mode: 'sync', fields: { generate: { size: { values, default: '1:1' } } } });
		const [k1, k2, k3] = [row('k-1', ['1:1', '16:9']), row('k-2', ['1:1', '4:3']), row('k-3', ['1:1', '4:3'])];
		const set = { operation: 'generate', show: {}, modelCondition: '/modelId', models: [k1, k2, k3], unknownModel: { fields: { generate: { size: { default: '1024x1024' } } } } };
		expect(refusalOf(context({ modelId: model, size_k2: '4:3' }), set, 'k-1', k1)).toBe("Size (size_k2) is set, but it belongs to k-2, k-3; this item's model is 'k-1', whose field is Size (size)");
		expect(refusalOf(context({ modelId: model, size_otherModels: '512x512' }), set, 'k-1', k1)).toBe(
			"Size (size_otherModels) is set, but it belongs to model IDs the node has no row for; this item's model is 'k-1', whose field is Size (size)",
		);
		// Left at its default, a field of no row is untouched.
		expect(read(context({ modelId: model, size_otherModels: '1024x1024' }), set, 'k-1', k1)).toEqual({ size: '1:1' });
	});

	test("the model from an expression: another model's text field without a default, left empty, is untouched", () => {
		const row = (id, description) => ({ id, group: 'image', host: 'main', mode: 'sync', fields: { generate: { note: { description } } } });
		const [k1, k2] = [row('k-1', 'A note'), row('k-2', 'Another note')];
		const set = { operation: 'generate', show: {}, modelCondition: '/modelId', models: [k1, k2] };
		expect(read(context({ modelId: model, note: 'hello', note_k2: '' }), set, 'k-1', k1)).toEqual({ note: 'hello' });
		expect(read(context({ modelId: model, note_k2: '' }), set, 'k-1', k1)).toEqual({});
		expect(refusalOf(context({ modelId: model, note_k2: 'hi' }), set, 'k-1', k1)).toBe("Note (note_k2) is set, but it belongs to k-2; this item's model is 'k-1', whose field is Note (note)");
	});

	test("the model from an expression: another model's list or number field without a default, as n8n filled it, is untouched", () => {
		const row = (id, rules) => ({ id, group: 'video', host: 'main', mode: 'async', fields: { video: rules } });
		const k1 = row('k-1', { duration: { min: 1, max: 10, default: 5 }, steps: { max: 50, default: 20 }, style: { values: ['plain', 'bold'], default: 'plain' } });
		const k2 = row('k-2', { duration: { min: 2, max: 20 }, steps: { max: 80 }, style: { values: ['soft', 'loud'] } });
		const set = { operation: 'video', show: {}, modelCondition: '/modelId', models: [k1, k2] };
		// What n8n saves for fields left alone: each field's default (k-2's: 2, 0 and 'soft').
		const untouched = Object.fromEntries(fields.registryProperties(set).map((p) => [p.name, p.default]));
		expect(untouched).toEqual({ duration: 5, steps: 20, style: 'plain', duration_k2: 2, steps_k2: 0, style_k2: 'soft' });
		expect(read(context({ modelId: model, ...untouched }), set, 'k-1', k1)).toEqual({ duration: 5, steps: 20, style: 'plain' });
		// Changed, each is another model's value the item would not send.
		for (const [name, value, label] of [['duration_k2', 3, 'Duration'], ['steps_k2', 1, 'Steps'], ['style_k2', 'loud', 'Style']]) {
			expect(refusalOf(context({ modelId: model, ...untouched, [name]: value }), set, 'k-1', k1)).toBe(
				`${label} (${name}) is set, but it belongs to k-2; this item's model is 'k-1', whose field is ${label} (${name.replace('_k2', '')})`,
			);
		}
	});

	test("a former name that is another route's field now (grok's videoSeconds): with the model from an expression, its default is no saved value", () => {
		const set = { ...VIDEO_SET, formerNames: [{ name: 'videoSeconds', key: 'seconds', id: 'v-1', route: 'unified' }] };
		expect(read(context({ videoDuration: 5, videoSeconds: '10' }), set, 'v-1', V1, 'unified').seconds).toBe(10);
		expect(read(context({ videoDuration: 5, videoSeconds: '6' }), set, 'v-1', V1, 'unified').seconds).toBe(6);
		expect(read(context({ modelId: model, videoDuration: 5, videoSeconds: '6' }), set, 'v-1', V1, 'unified').seconds).toBe(8);
		expect(read(context({ modelId: model, videoDuration: 5, videoSeconds: '10' }), set, 'v-1', V1, 'unified').seconds).toBe(10);
	});

	test("a former name that is another route's field without a default now: with the model from an expression, the value n8n filled in is no saved value", () => {
		const row = {
			id: 'v-1',
			group: 'video',
			host: 'main',
			mode: 'task',
			fields: { video: { seconds: { routeVariants: [{ routes: ['multipart'], values: ['6', '10'] }, { routes: ['unified'], min: 1, max: 15, integer: true, default: 8 }] } } },
		};
		const set = { operation: 'video', prefix: 'video', show: {}, routeParameter: 'videoRoute', models: [row], formerNames: [{ name: 'videoSeconds', key: 'seconds', id: 'v-1', route: 'unified' }] };
		// n8n fills the multipart route's list (videoSeconds, the former name's hidden field beside it) with its first value, 6.
		expect(fields.registryProperties(set).find((p) => p.name === 'videoSeconds' && p.type === 'options').default).toBe('6');
		expect(read(context({ modelId: model, videoSeconds: '6' }), set, 'v-1', row, 'unified').seconds).toBe(8);
		expect(read(context({ modelId: model, videoSeconds: '10' }), set, 'v-1', row, 'unified').seconds).toBe(10);
		expect(read(context({ videoSeconds: '6' }), set, 'v-1', row, 'unified').seconds).toBe(6);
	});

	test('a value that only means something beside another is left out without it', () => {
		const row = { id: 'o-1', group: 'image', host: 'main', mode: 'sync', fields: { generate: { size: { default: '1024x1024' }, resolution: { values: ['1K', '2K'], default: '1K', onlyWith: { key: 'size', pattern: '^\\d+:\\d+$' } } } } };
		const set = { operation: 'generate', show: {}, models: [row] };
		expect(read(context({ size: '16:9', resolution: '2K' }), set, 'o-1', row)).toEqual({ size: '16:9', resolution: '2K' });
		expect(read(context({ resolution: '2K' }), set, 'o-1', row)).toEqual({ size: '1024x1024' });
	});
});
