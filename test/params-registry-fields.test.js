'use strict';
// Registry rows → the node's model fields (params/registryProperties.ts, named by
// params/registryRules.ts), on made-up rows that take each path once: a list, a switch, a number
// range, free text, a value sent as is (no field), a price multiplier in an option's name, a
// "not sent" choice, a nested body key, a second rule of a key (its own name, shown for its ids),
// an id on two hosts, rules per request route, the Model Options collection, the fields of ids the
// registry has no row for, and a former name. The node builds these while it loads inside its
// first run, so a test that only runs the node leaves a broken builder unseen by a mutation run
// (docs/DEVELOPMENT.md, "Mutation testing"); here they are built in each test, on a fresh load.
// image/description.test.js, parameter-names.test.js and video/former-names.test.js hold the
// node's own rows through n8n.
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
			{ displayName: 'Ratio', name: 'videoRatio', type: 'options', default: '', options: [{ name: 'Channel Default (Not Sent)', value: '' }, { name: '16:9', value: '16:9' }, { name: '9:16', value: '9:16' }], displayOptions: { show: { resource: ['video'], operation: ['generate'], modelId: ['v-1'] } } },
		]);
	});
});
