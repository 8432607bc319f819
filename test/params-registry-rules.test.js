'use strict';
// One value against its registry rule (params/registryRules.ts checkRuleValue): what is sent (the
// registry's own value for a list, a number for a range, nothing for empty or "not sent") and why
// a value is refused (the reason and what the rule takes, in the words the refusal shows), on
// made-up rules; with the rule's type, its field's default, its range text and where its value
// comes from (a fixed value, a field, the Model Options). image/refusals.test.js and
// video/refusals.test.js run the node's own rules through n8n and hold the whole refusal a user
// reads.
//
// The module is loaded afresh in each test (fresh-modules.js says why).
const built = require('./fresh-modules').freshEachTest();
const rules = built(() => require('../dist/nodes/UnifiedAiGateway/params/registryRules.js'));

const LIST = { values: ['1K', '2K', '4K'], default: '1K' };
const NUMBERS = { values: [4, 8, 12], default: 8 };
const RANGE = { min: 1, max: 15, integer: true, plausibleMax: 12 };
const SUGGESTED = { values: ['720p', '1080p'], suggest: true, pattern: '^\\d+p$' };
const SUGGESTED_SECONDS = { values: ['6', '10'], suggest: true, plausibleMax: 12 };
const SWITCH = { default: false };
const TEXT = { pattern: '^#[0-9a-f]{6}$' };
const OMITTED = { values: ['auto', 'low', 'high'], omit: 'auto' };
const OMITTED_NUMBER = { min: -1, max: 10, omit: -1 };

describe('checkRuleValue: what is sent', () => {
	test.each([
		['a listed value, spaces around it', LIST, ' 2K ', { value: '2K' }],
		['a listed number given as text', NUMBERS, '12', { value: 12 }],
		['a number in range, as text', RANGE, ' 7 ', { value: 7 }],
		['a number at the edges', RANGE, 1, { value: 1 }],
		['a number at the top of the range', { min: 1, max: 15 }, 15, { value: 15 }],
		['a fraction where the rule takes one', { min: 1, max: 15 }, '2.5', { value: 2.5 }],
		['at the plausible bound', RANGE, 12, { value: 12 }],
		['past the plausible bound with Allow Unusual Values', RANGE, 14, { value: 14 }, true],
		['a value the list suggests', SUGGESTED, '1080p', { value: '1080p' }],
		['another value matching the pattern', SUGGESTED, '1440p', { value: '1440p' }],
		['a suggested number within the plausible bound', SUGGESTED_SECONDS, '12', { value: '12' }],
		['a suggested number past it, allowed', SUGGESTED_SECONDS, '20', { value: '20' }, true],
		['a switch', SWITCH, true, { value: true }],
		['a switch as text', SWITCH, 'false', { value: false }],
		['a switch as text, on', SWITCH, 'true', { value: true }],
		['a switch given as a switch, off', SWITCH, false, { value: false }],
		['free text matching the pattern', TEXT, '#a0b1c2', { value: '#a0b1c2' }],
		['free text without a pattern', {}, ' anything ', { value: 'anything' }],
		['empty: not sent', LIST, '', {}],
		['spaces: not sent', RANGE, '   ', {}],
		['nothing: not sent', LIST, undefined, {}],
		['null: not sent', RANGE, null, {}],
		['the "not sent" value', OMITTED, 'auto', {}],
		['the "not sent" number', OMITTED_NUMBER, '-1', {}],
		['a number beside the "not sent" one', OMITTED_NUMBER, '3', { value: 3 }],
		['a value of a list with a "not sent" one', OMITTED, 'high', { value: 'high' }],
	])('%s: %p → %p', (_, rule, given, checked, allowUnusual = false) => {
		expect(rules.checkRuleValue(rule, given, allowUnusual)).toEqual(checked);
	});
});

describe('checkRuleValue: why a value is refused', () => {
	test.each([
		['a switch where a number belongs (an expression gave true)', RANGE, true, { reason: 'range', accepts: 'a whole number from 1 to 15' }],
		['another case', LIST, '2k', { reason: 'values', accepts: '1K, 2K, 4K', hint: "Case matters: write '2K'." }],
		['another case, in capitals', OMITTED, 'HIGH', { reason: 'values', accepts: 'low, high', hint: "Case matters: write 'high'." }],
		['not listed', LIST, '8K', { reason: 'values', accepts: '1K, 2K, 4K' }],
		['not listed, a list with a "not sent" value', OMITTED, 'medium', { reason: 'values', accepts: 'low, high' }],
		['a number not listed', NUMBERS, 5, { reason: 'values', accepts: '4, 8, 12' }],
		['past the range', RANGE, 16, { reason: 'range', accepts: 'a whole number from 1 to 15' }],
		['below the range', RANGE, 0, { reason: 'range', accepts: 'a whole number from 1 to 15' }],
		['not whole', RANGE, 2.5, { reason: 'range', accepts: 'a whole number from 1 to 15' }],
		['not a number', RANGE, 'ten', { reason: 'range', accepts: 'a whole number from 1 to 15' }],
		['an object', RANGE, { n: 3 }, { reason: 'range', accepts: 'a whole number from 1 to 15' }],
		['past the plausible bound', RANGE, 13, { reason: 'unusual', accepts: 'at most 12', hint: 'A value this large is almost surely a typo, and video is charged in advance by duration. If the model really takes it, turn on Allow Unusual Values.' }],
		['a suggested number past the plausible bound', SUGGESTED_SECONDS, '20', { reason: 'unusual', accepts: 'at most 12', hint: 'A value this large is almost surely a typo, and video is charged in advance by duration. If the model really takes it, turn on Allow Unusual Values.' }],
		['another value not matching the pattern', SUGGESTED, '4k', { reason: 'pattern', accepts: 'text matching ^\\d+p$' }],
		['a switch given other text', SWITCH, 'yes', { reason: 'boolean', accepts: 'true or false' }],
		['free text not matching the pattern', TEXT, 'red', { reason: 'pattern', accepts: 'text matching ^#[0-9a-f]{6}$' }],
		['empty where it is required (a number)', { min: 4, max: 12, required: true }, ' ', { reason: 'required', accepts: 'a number from 4 to 12' }],
		['nothing where it is required (a list)', { values: ['5', '10'], required: true }, undefined, { reason: 'required', accepts: 'a value' }],
	])('%s: %p → %p', (_, rule, given, refusal) => {
		expect(rules.checkRuleValue(rule, given)).toEqual({ refusal });
	});
});

describe('a rule: its type, its range in words, where its value comes from, its name', () => {
	test.each([
		[LIST, 'options'],
		[SWITCH, 'boolean'],
		[{ default: 5 }, 'number'],
		[{ integer: true }, 'number'],
		[{ min: 0 }, 'number'],
		[{ max: 9 }, 'number'],
		[{ default: 'x' }, 'string'],
		[{}, 'string'],
	])('typeOf %p → %p', (rule, type) => {
		expect(rules.typeOf(rule)).toBe(type);
	});

	test.each([
		[LIST, '1K'],
		[SWITCH, false],
		[OMITTED, 'auto'],
		[OMITTED_NUMBER, -1],
		[{ default: 0, omit: 3 }, 0],
		[SUGGESTED, '720p'],
		[{ values: [] }, ''],
		[RANGE, 1],
		[{ max: 9 }, 0],
		[TEXT, ''],
	])('fieldDefault %p → %p (what n8n saves for the field left alone)', (rule, value) => {
		expect(rules.fieldDefault(rule)).toBe(value);
	});

	test.each([
		[{ min: 1, max: 4, integer: true }, 'a whole number from 1 to 4'],
		[{ min: 0 }, 'a number of at least 0'],
		[{ max: 9, integer: true }, 'a whole number of at most 9'],
		[{}, 'a number'],
	])('rangeText %p → %p', (rule, text) => {
		expect(rules.rangeText(rule)).toBe(text);
	});

	test('placementOf: a single value with a default is sent as is where the set says so; without a default, an option of the collection', () => {
		const both = { sendSingleValues: true, optionsCollection: { name: 'o', description: '' } };
		expect(rules.placementOf(both, { values: ['1'], default: '1' })).toBe('fixed');
		expect(rules.placementOf({}, { values: ['1'], default: '1' })).toBe('field');
		expect(rules.placementOf(both, { values: ['1', '2'], default: '1' })).toBe('field');
		expect(rules.placementOf(both, { values: ['1'] })).toBe('option');
		expect(rules.placementOf({ sendSingleValues: true }, { values: ['1'] })).toBe('field');
	});

	test("registryParameterName: the key, or the prefix and the key in words; registryFieldLabel: the rule's, else the last part of the key", () => {
		expect(rules.registryParameterName({}, 'metadata.generate_audio')).toBe('metadata.generate_audio');
		expect(rules.registryParameterName({ prefix: 'video' }, 'metadata.generate_audio')).toBe('videoMetadataGenerateAudio');
		expect(rules.registryParameterName({ prefix: 'video' }, 'aspectRatio')).toBe('videoAspectRatio');
		expect(rules.registryFieldLabel('metadata.negative_prompt', {})).toBe('Negative Prompt');
		expect(rules.registryFieldLabel('size', { label: 'Image Size' })).toBe('Image Size');
		// Two separators in a row, or one at the end, make no empty word (no double space).
		expect(rules.registryFieldLabel('metadata.negative__prompt_', {})).toBe('Negative Prompt');
	});

	test('routeRules and spreadRules: a rule per request route, the shared parts kept', () => {
		const seconds = { description: 'Length', routeVariants: [{ routes: ['a'], values: ['6'] }, { routes: ['b', 'c'], min: 1 }] };
		expect(rules.routeRules(seconds)).toEqual([
			{ description: 'Length', routes: ['a'], values: ['6'] },
			{ description: 'Length', routes: ['b', 'c'], min: 1 },
		]);
		expect(rules.routeRules(LIST)).toEqual([LIST]);
		expect(rules.spreadRules({ seconds, size: LIST })).toEqual([
			['seconds', { description: 'Length', routes: ['a'], values: ['6'] }],
			['seconds', { description: 'Length', routes: ['b', 'c'], min: 1 }],
			['size', LIST],
		]);
		expect(rules.spreadRules(undefined)).toEqual([]);
	});
});

// registryVariants on a made-up set: which rows share a field (a variant) and what each is named.
describe('registryVariants: the fields and Options a set of rows makes, and their names', () => {
	const SIZE = { values: ['1K', '2K'], default: '1K' };
	const row = (id, fields, more) => ({ id, host: 'main', fields: { generate: fields }, ...more });
	const set = (models, more) => ({ operation: 'generate', models, show: {}, ...more });
	const named = (variants) => variants.map((v) => [v.name, v.ids]);

	test('a rule the unknown models share with a listed model is a field of its own', () => {
		const variants = rules.registryVariants(set([row('model-a', { size: SIZE })], { unknownModel: { fields: { generate: { size: SIZE } } } }));
		expect(named(variants.fields)).toEqual([
			['size', ['model-a']],
			['size_otherModels', []],
		]);
		// The unknown models' field is found whatever host is asked for.
		expect(variants.fieldOf(undefined, 'alt', 'size', SIZE).name).toBe('size_otherModels');
		expect(variants.fieldOf('model-a', 'main', 'size', SIZE).name).toBe('size');
	});

	test("a row without fields adds nothing; an id's signs make no empty word of its tag", () => {
		const variants = rules.registryVariants(set([row('model-a', { size: SIZE }), { id: 'bare', host: 'main' }, row('-model-b', { size: { values: ['4K'] } })]));
		expect(named(variants.fields)).toEqual([
			['size', ['model-a']],
			['size_modelB', ['-model-b']],
		]);
	});

	test('Options: shared by models with the same entries, apart for the unknown models, found for them on any host', () => {
		const QUALITY = { values: ['low', 'high'] };
		const variants = rules.registryVariants(
			set([row('model-a', { quality: QUALITY }), row('model-b', { quality: QUALITY })], {
				optionsCollection: { name: 'imageOptions', description: 'x' },
				unknownModel: { fields: { generate: { quality: QUALITY } } },
			}),
		);
		expect(named(variants.options)).toEqual([
			['imageOptions_modelA', ['model-a', 'model-b']],
			['imageOptions_otherModels', []],
		]);
		expect(variants.optionsOf(undefined, 'alt').name).toBe('imageOptions_otherModels');
	});

	test("Options of a priced model carry each value's multiplier", () => {
		const variants = rules.registryVariants(
			set([row('model-a', { image_size: { values: ['1K', '4K'] } }, { price: { baseUsd: 0.1, per: 'call', tiers: { '4K': 2 } } })], { optionsCollection: { name: 'imageOptions', description: 'x' } }),
		);
		expect(variants.options[0].entries).toEqual([['image_size', { values: ['1K', '4K'] }, { '4K': 2 }]]);
	});

	test('a former name is read for the variant of its key and model, with or without a route', () => {
		const routed = { values: ['6'], default: '6', routes: ['unified'] };
		const variants = rules.registryVariants(
			set([row('model-a', { size: SIZE, seconds: routed })], {
				formerNames: [
					{ name: 'oldSize', key: 'size', id: 'model-a' },
					{ name: 'oldSeconds', key: 'seconds', id: 'model-a', route: 'unified' },
					{ name: 'elsewhere', key: 'size', id: 'model-a', route: 'unified' },
				],
			}),
		);
		expect(variants.formerNames.map((f) => [f.name, f.variant.name])).toEqual([
			['oldSize', 'size'],
			['oldSeconds', 'seconds'],
		]);
	});
});
