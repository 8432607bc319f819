'use strict';
// The fields every operation shares (params/commonFields.ts: Model, Prompt, Wait for Result and
// its Waiting collection, Download Files, the Options collection and its entries;
// params/spendGuardOptions.ts: the Spend Guard collection), as the editor gets them: each
// parameter's name, type, default, options, type options and where it shows, with the words
// beside them left out (a description's wording is no behaviour). The builders are called in each
// test on a fresh load: the node builds its fields while it loads inside its first run, so a test
// that only runs the node leaves a broken builder unseen by a mutation run (docs/DEVELOPMENT.md,
// "Mutation testing"). parameter-names.test.js and parameter-defaults.test.js hold the same names
// and defaults on the node's whole description, through n8n.
//
// The modules are loaded afresh in each test (fresh-modules.js says why).
const built = require('./fresh-modules').freshEachTest();
const common = built(() => require('../dist/nodes/UnifiedAiGateway/params/commonFields.js'));
const spend = built(() => require('../dist/nodes/UnifiedAiGateway/params/spendGuardOptions.js'));

/** The editor's words beside a field: left out of what is compared. */
const WORDS = new Set(['displayName', 'description', 'placeholder', 'hint', 'action']);
const form = (value) =>
	Array.isArray(value)
		? value.map(form)
		: value && typeof value === 'object'
			? Object.fromEntries(Object.entries(value).filter(([key]) => !WORDS.has(key)).map(([key, v]) => [key, form(v)]))
			: value;

const SHOW = { resource: ['video'], operation: ['generate'] };

describe('commonFields: the shared fields', () => {
	test('Model: a list searched by the group, or an ID, the default ID given', () => {
		expect(form(common.modelLocator('video', SHOW, 'veo-3.1-flash'))).toEqual({
			name: 'modelId',
			type: 'resourceLocator',
			default: { mode: 'list', value: 'veo-3.1-flash' },
			required: true,
			modes: [
				{ name: 'list', type: 'list', typeOptions: { searchListMethod: 'searchVideoModels', searchable: true } },
				{ name: 'id', type: 'string' },
			],
			displayOptions: { show: SHOW },
		});
		expect(common.modelLocator('image', SHOW, 'gpt-image-2').modes[0].typeOptions.searchListMethod).toBe('searchImageModels');
		expect(common.modelLocator('text', SHOW, 'gpt-5.6-sol').modes[0].typeOptions.searchListMethod).toBe('searchTextModels');
		expect(common.modelLocator('image', SHOW, 'gpt-image-2').modes[1].placeholder).toBe('gpt-image-2');
	});

	test('Prompt: required text of four rows, with its own example', () => {
		const prompt = common.promptField(SHOW, 'A red fox', 'What to make');
		expect(form(prompt)).toEqual({ name: 'prompt', type: 'string', typeOptions: { rows: 4 }, default: '', required: true, displayOptions: { show: SHOW } });
		expect([prompt.placeholder, prompt.description]).toEqual(['A red fox', 'What to make']);
	});

	test('Wait for Result, and the Waiting collection shown while it is on, its options sorted by name', () => {
		const extra = { displayName: 'Language', name: 'language', type: 'string', default: 'en' };
		expect(form(common.waitFields(SHOW, { maxWaitMinutes: 30, concurrency: 5 }, [extra]))).toEqual([
			{ name: 'waitForCompletion', type: 'boolean', default: true, displayOptions: { show: SHOW } },
			{
				name: 'waiting',
				type: 'collection',
				default: {},
				options: [
					{ name: 'language', type: 'string', default: 'en' },
					{ name: 'maxWaitMinutes', type: 'number', typeOptions: { minValue: 0.05, numberPrecision: 2 }, default: 30 },
					{
						name: 'onTimeout',
						type: 'options',
						default: 'pending',
						options: [
							{ name: 'Return Pending Item', value: 'pending' },
							{ name: 'Fail', value: 'fail' },
						],
					},
					{ name: 'pollIntervalSeconds', type: 'number', typeOptions: { minValue: 0 }, default: 0 },
				],
				displayOptions: { show: { ...SHOW, waitForCompletion: [true] } },
			},
		]);
		expect(common.waitFields(SHOW, { maxWaitMinutes: 12, concurrency: 5 })[1].options.map((o) => o.name)).toEqual(['maxWaitMinutes', 'onTimeout', 'pollIntervalSeconds']);
	});

	test('Download Files: on or off by the operation', () => {
		expect(form(common.downloadField(SHOW, true, 'video'))).toEqual({ name: 'download', type: 'boolean', default: true, displayOptions: { show: SHOW } });
		expect(form(common.downloadField(SHOW, false, 'image'))).toEqual({ name: 'download', type: 'boolean', default: false, displayOptions: { show: SHOW } });
	});

	test('Options: its entries sorted by name; Concurrency 1-50 with the default given, else 5; the output field data', () => {
		expect(form(common.optionsField(SHOW, [common.binaryOutputOption(), common.concurrencyOption(3, { files: false })]))).toEqual({
			name: 'options',
			type: 'collection',
			default: {},
			options: [
				{ name: 'concurrency', type: 'number', typeOptions: { minValue: 1, maxValue: 50 }, default: 3 },
				{ name: 'binaryPropertyOutput', type: 'string', default: 'data' },
			],
			displayOptions: { show: SHOW },
		});
		expect(common.concurrencyOption().default).toBe(5);
	});
});

describe('spendGuardOptions: the Spend Guard collection', () => {
	const OPTIONS = [
		{ name: 'allowUnpricedItems', type: 'boolean', default: false },
		{ name: 'balanceUnitsPerUsd', type: 'number', typeOptions: { minValue: 0, numberPrecision: 6 }, default: 1 },
		{
			name: 'checkBalance',
			type: 'options',
			default: 'token',
			options: [
				{ name: 'Token Balance', value: 'token' },
				{ name: 'User Balance', value: 'user' },
			],
		},
		{ name: 'maxRunCostUsd', type: 'number', typeOptions: { minValue: 0, numberPrecision: 4 }, default: 1 },
		{ name: 'stopIfBalanceUnreadable', type: 'boolean', default: false },
	];

	test('image: the cap and the balance check, sorted by name', () => {
		expect(form(spend.spendGuardOptions(SHOW, 'image'))).toEqual({ name: 'spendGuard', type: 'collection', default: {}, options: OPTIONS, displayOptions: { show: SHOW } });
	});

	test('video: the prices per second too, last', () => {
		expect(form(spend.spendGuardOptions(SHOW, 'video')).options).toEqual([
			...OPTIONS,
			{
				name: 'videoPrices',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				options: [
					{
						name: 'prices',
						values: [
							{ name: 'model', type: 'string', default: '' },
							{ name: 'usdPerSecond', type: 'number', typeOptions: { minValue: 0, numberPrecision: 4 }, default: 0 },
						],
					},
				],
			},
		]);
	});
});
