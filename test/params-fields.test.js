'use strict';
// The fields every operation shares (params/fields.ts: Model, Prompt, Download Files, the Options
// collection and its output field; params/runFields.ts: Wait for Result and its Waiting collection,
// Concurrency, built from an operation's RunDefaults;
// params/spendGuardOptions.ts: the Spend Guard collection), as the editor gets them: each
// parameter's name, type, default, options, type options and where it shows, with the words
// beside them left out (a description's wording is no behaviour); and how a run reads the Waiting
// and Options collections (readWaitSettings, readConcurrency, readWaitForCompletion) and the Spend
// Guard (readSpendSettings) on a fake context, with the refusals' words. The builders are called
// in each test on a fresh load: the node builds its fields while it loads inside its first run, so a test
// that only runs the node leaves a broken builder unseen by a mutation run (docs/DEVELOPMENT.md,
// "Mutation testing"). parameter-names.test.js and parameter-defaults.test.js hold the same names
// and defaults on the node's whole description, through n8n.
//
// The modules are loaded afresh in each test (fresh-modules.js says why).
const built = require('./fresh-modules').freshEachTest();
const fields = built(() => require('../dist/nodes/UnifiedAiGateway/params/fields.js'));
const runFields = built(() => require('../dist/nodes/UnifiedAiGateway/params/runFields.js'));
const settings = built(() => require('../dist/nodes/UnifiedAiGateway/params/runSettings.js'));
const runDefaults = built(() => require('../dist/nodes/UnifiedAiGateway/params/runDefaults.js'));
const common = new Proxy({}, { get: (_, name) => fields[name] ?? runFields[name] ?? settings[name] ?? runDefaults[name] });
const spend = built(() => require('../dist/nodes/UnifiedAiGateway/params/spendGuardOptions.js'));

/** The editor's words beside a field: left out of what is compared. */
const WORDS = new Set(['displayName', 'description', 'placeholder', 'hint', 'action']);
const form = (value) =>
	Array.isArray(value)
		? value.map(form)
		: value && typeof value === 'object'
			? Object.fromEntries(Object.entries(value).filter(([key]) => !WORDS.has(key)).map(([key, v]) => [key, form(v)]))
			: value;

/** A refusal's message, item and description; fails the test when `fn` is not refused. */
const refusal = (fn) => {
	try {
		fn();
	} catch (error) {
		return { message: error.message, itemIndex: error.context?.itemIndex, description: error.description };
	}
	throw new Error('not refused');
};

const SHOW = { resource: ['video'], operation: ['generate'] };

describe('fields and runFields: the shared fields', () => {
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
		expect(form(common.waitFields(SHOW, { maxWaitMinutes: 30, routes: ['video'], concurrency: 5 }, [extra]))).toEqual([
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
		expect(common.waitFields(SHOW, { maxWaitMinutes: 12, routes: ['video'], concurrency: 5 })[1].options.map((o) => o.name)).toEqual(['maxWaitMinutes', 'onTimeout', 'pollIntervalSeconds']);
	});

	test('Download Files: on or off by the operation', () => {
		expect(form(common.downloadField(SHOW, true, 'video'))).toEqual({ name: 'download', type: 'boolean', default: true, displayOptions: { show: SHOW } });
		expect(form(common.downloadField(SHOW, false, 'image'))).toEqual({ name: 'download', type: 'boolean', default: false, displayOptions: { show: SHOW } });
	});

	test('Options: its entries sorted by name; Concurrency 1-50 with the default given, else 5; the output field data', () => {
		expect(form(common.optionsField(SHOW, [common.binaryOutputOption(), common.concurrencyOption({ concurrency: 3 }, { files: false })]))).toEqual({
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
		// The key's group (a name or a ratio as text): the estimate and the cap use its ratio.
		{ name: 'keyGroup', type: 'string', default: '' },
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

describe('runSettings: the Waiting and Options collections as a run reads them', () => {
	/** A node context whose parameters are `params` (a parameter left out gives its fallback); records each read. */
	const context = (params) => {
		const reads = [];
		const ctx = {
			getNode: () => ({ name: 'Gateway', type: 'unifiedAiGateway', typeVersion: 1, parameters: {} }),
			getNodeParameter: (name, itemIndex, fallback) => {
				reads.push([name, itemIndex, fallback]);
				return name in params ? params[name] : fallback;
			},
		};
		return { ctx, reads };
	};

	test('each collection is read as an object, for the item asked; anything else reads as empty', () => {
		const held = { onTimeout: 'fail' };
		const { ctx, reads } = context({ waiting: held, options: { concurrency: 3 } });
		expect(common.readWaiting(ctx, 4)).toBe(held);
		expect(common.readOptions(ctx, 2)).toEqual({ concurrency: 3 });
		expect(reads).toEqual([
			['waiting', 4, {}],
			['options', 2, {}],
		]);
		for (const odd of ['text', null, 7, undefined, true]) {
			expect(common.readWaiting(context({ waiting: odd }).ctx, 0)).toEqual({});
			expect(common.readOptions(context({ options: odd }).ctx, 0)).toEqual({});
		}
		expect(common.readWaiting(context({}).ctx, 0)).toEqual({});
	});

	test('Waiting left alone: the operation default Max Wait, the advised interval, pending on timeout; read from item 0', () => {
		const { ctx, reads } = context({ waiting: {} });
		expect(common.readWaitSettings(ctx, { maxWaitMinutes: 30, pollIntervalSeconds: 4 })).toEqual({ deadlineMs: 1_800_000, intervalMs: 4_000, onTimeout: 'pending' });
		expect(reads).toEqual([['waiting', 0, {}]]);
		expect(common.readWaitSettings(ctx, { maxWaitMinutes: 0.5 })).toEqual({ deadlineMs: 30_000, intervalMs: undefined, onTimeout: 'pending' });
	});

	test('Waiting set: Max Wait in minutes, Poll Interval in seconds (0: the advised one), On Timeout fail', () => {
		const read = (waiting, ...rest) => common.readWaitSettings(context({ waiting }).ctx, { maxWaitMinutes: 30, pollIntervalSeconds: 4 }, ...rest);
		expect(read({ maxWaitMinutes: 2, pollIntervalSeconds: 7, onTimeout: 'fail' })).toEqual({ deadlineMs: 120_000, intervalMs: 7_000, onTimeout: 'fail' });
		expect(read({ maxWaitMinutes: ' 1.5 ', pollIntervalSeconds: '0.5' })).toEqual({ deadlineMs: 90_000, intervalMs: 500, onTimeout: 'pending' });
		expect(read({ pollIntervalSeconds: 0 })).toEqual({ deadlineMs: 1_800_000, intervalMs: 4_000, onTimeout: 'pending' });
		// Task → Wait for Completion: Max Wait 0 follows each task's route.
		expect(read({ maxWaitMinutes: 0 }, 'taskMaxWaitMinutes')).toEqual({ deadlineMs: 0, intervalMs: 4_000, onTimeout: 'pending' });
	});

	test('a Waiting option added whose value is wrong or empty is refused by its name, before anything is sent', () => {
		const refused = (waiting, ...rest) => refusal(() => common.readWaitSettings(context({ waiting }).ctx, { maxWaitMinutes: 30, pollIntervalSeconds: 4 }, ...rest));
		const nothingSent = 'Nothing was sent. If the value comes from an expression, check what it gives for this item.';
		expect(refused({ maxWaitMinutes: 0 })).toEqual({ message: 'Max Wait (Minutes): 0 is out of range; it takes a number from 0.005 to 1440 minutes', itemIndex: 0, description: nothingSent });
		expect(refused({ maxWaitMinutes: undefined }).message).toBe('Max Wait (Minutes): empty (the field or its expression gave no value); it takes a number from 0.005 to 1440 minutes');
		expect(refused({ pollIntervalSeconds: undefined }).message).toMatch(/^Poll Interval \(Seconds\): empty \(the field or its expression gave no value\)/);
		expect(refused({ pollIntervalSeconds: 'soon' }).message).toMatch(/^Poll Interval \(Seconds\): "soon" is not a number/);
		expect(refused({ onTimeout: 'skip' })).toEqual({ message: 'On Timeout: "skip" is not an option; use pending or fail', itemIndex: 0, description: undefined });
		expect(refused({ onTimeout: 5 }).message).toBe('On Timeout: 5 is not an option; use pending or fail');
		// Added and empty is not left out: the wait would return pending what the user meant to fail.
		for (const empty of [undefined, null, ''])
			expect(refused({ onTimeout: empty })).toEqual({ message: 'On Timeout: empty (the field or its expression gave no value); use pending or fail', itemIndex: 0, description: undefined });
	});

	test('Concurrency: the operation default when left out, else the value checked as a whole number of 1-50', () => {
		expect(common.readConcurrency(context({ options: {} }).ctx)).toBe(5);
		expect(common.readConcurrency(context({ options: {} }).ctx, { concurrency: 8 })).toBe(8);
		expect(common.readConcurrency(context({ options: { concurrency: 12 } }).ctx, { concurrency: 8 })).toBe(12);
		expect(common.readConcurrency(context({ options: { concurrency: '3' } }).ctx)).toBe(3);
		expect(refusal(() => common.readConcurrency(context({ options: { concurrency: 2.5 } }).ctx)).message).toBe('Concurrency: 2.5 is not a whole number; it takes a whole number from 1 to 50');
		expect(refusal(() => common.readConcurrency(context({ options: { concurrency: undefined } }).ctx)).message).toMatch(/^Concurrency: empty \(the field or its expression gave no value\)/);
	});

	test('Wait for Result: off gives false and reads nothing more; on reads the Waiting collection with the operation defaults', () => {
		const off = context({ waitForCompletion: false, waiting: { onTimeout: 'skip' } });
		expect(common.readWaitForCompletion(off.ctx, { maxWaitMinutes: 30, concurrency: 5 })).toBe(false);
		expect(off.reads).toEqual([['waitForCompletion', 0, true]]);
		expect(common.readWaitForCompletion(context({ waitForCompletion: 'false' }).ctx, { maxWaitMinutes: 30, concurrency: 5 })).toBe(false);
		const wait = { maxWaitMinutes: 20, pollIntervalSeconds: 6, concurrency: 5 };
		expect(common.readWaitForCompletion(context({}).ctx, wait)).toEqual({ deadlineMs: 1_200_000, intervalMs: 6_000, onTimeout: 'pending' });
		expect(common.readWaitForCompletion(context({ waiting: { pollIntervalSeconds: 3 } }).ctx, wait)).toEqual({ deadlineMs: 1_200_000, intervalMs: 3_000, onTimeout: 'pending' });
		// No interval of its own: the route's advised one, chosen by the engine.
		expect(common.readWaitForCompletion(context({}).ctx, { maxWaitMinutes: 20, concurrency: 5 })).toEqual({ deadlineMs: 1_200_000, intervalMs: undefined, onTimeout: 'pending' });
		expect(common.readWaitForCompletion(context({}).ctx, { maxWaitMinutes: 20, pollIntervalSeconds: 0, concurrency: 5 }).intervalMs).toBeUndefined();
		expect(refusal(() => common.readWaitForCompletion(context({ waitForCompletion: 'yes' }).ctx, wait)).message).toMatch(/^Wait for Result/);
	});
});

describe('spendGuardOptions: the Spend Guard as a run reads it', () => {
	/**
	 * A run of `items` whose Spend Guard gives `perItem(i)` for item i (a value or a function of i);
	 * `stored`: the collection as the node saved it (an option holding `=…` is an expression).
	 */
	const context = (perItem, { items = 1, stored = {} } = {}) => ({
		getNode: () => ({ name: 'Gateway', type: 'unifiedAiGateway', typeVersion: 1, parameters: { spendGuard: stored } }),
		getInputData: () => Array.from({ length: items }, () => ({ json: {} })),
		getNodeParameter: (name, itemIndex, fallback) => {
			expect(name).toBe('spendGuard');
			const value = typeof perItem === 'function' ? perItem(itemIndex) : perItem;
			return value === undefined ? fallback : value;
		},
	});
	const LEFT_ALONE = { balanceUnitsPerUsd: 1, stopIfBalanceUnreadable: false, allowUnpriced: false, videoUsdPerSecond: {} };
	const refused = (ctx) => refusal(() => spend.readSpendSettings(ctx));

	test('left alone (or read as nothing): no cap, no balance check, nothing unpriced allowed', () => {
		expect(spend.readSpendSettings(context({}))).toStrictEqual(LEFT_ALONE);
		expect(spend.readSpendSettings(context(null))).toStrictEqual(LEFT_ALONE);
		expect(spend.readSpendSettings(context(undefined, { items: 0 }))).toStrictEqual(LEFT_ALONE);
	});

	test('the switches: on as true or the text "true"; anything else refused by the label', () => {
		expect(spend.readSpendSettings(context({ stopIfBalanceUnreadable: true, allowUnpricedItems: 'TRUE' }))).toStrictEqual({ ...LEFT_ALONE, stopIfBalanceUnreadable: true, allowUnpriced: true });
		expect(spend.readSpendSettings(context({ stopIfBalanceUnreadable: 'false', allowUnpricedItems: false }))).toStrictEqual(LEFT_ALONE);
		expect(refused(context({ stopIfBalanceUnreadable: 'maybe' })).message).toMatch(/^Stop If Balance Cannot Be Read/);
		expect(refused(context({ allowUnpricedItems: 1 })).message).toMatch(/^Allow Unpriced Items/);
	});

	test('video prices per second: by model ID (trimmed); a price without a model or out of range refused', () => {
		const prices = (list) => context({ videoPrices: { prices: list } });
		expect(spend.readSpendSettings(prices([{ model: ' sora-2 ', usdPerSecond: 0.1 }, { model: 'veo-3.1', usdPerSecond: '0.4' }])).videoUsdPerSecond).toStrictEqual({ 'sora-2': 0.1, 'veo-3.1': 0.4 });
		expect(spend.readSpendSettings(context({ videoPrices: {} })).videoUsdPerSecond).toStrictEqual({});
		expect(refused(prices([{ model: ' ', usdPerSecond: 1 }]))).toEqual({
			message: 'Video Prices per Second: a price has no model ID',
			itemIndex: 0,
			description: 'Nothing was sent. Correct the Spend Guard option and run again. A limit left out of the Spend Guard is no limit; one that is set must give a number for every item.',
		});
		expect(refused(prices([{ usdPerSecond: 1 }])).message).toBe('Video Prices per Second: a price has no model ID');
		expect(refused(prices([{ model: 'sora-2', usdPerSecond: 101 }])).message).toMatch(/^Video Prices per Second \(USD\): 101 is out of range.* \(the price of sora-2\)$/);
	});

	test('the cap: each item checked, the lowest held; the balance units from the first item', () => {
		const caps = [5, 2, 4];
		const units = [2, 3, 4];
		const ctx = context((i) => ({ maxRunCostUsd: caps[i], balanceUnitsPerUsd: units[i] }), { items: 3 });
		expect(spend.readSpendSettings(ctx)).toStrictEqual({ ...LEFT_ALONE, capUsd: 2, balanceUnitsPerUsd: 2 });
		expect(spend.readSpendSettings(context({ maxRunCostUsd: 0 })).capUsd).toBe(0);
		expect(spend.readSpendSettings(context((i) => (i === 1 ? { maxRunCostUsd: 3 } : {}), { items: 2 })).capUsd).toBe(3);
	});

	test('a set number that gives nothing or a wrong value is refused; from an expression in a run of several, by its item', () => {
		const guard = (i) => ({ maxRunCostUsd: i === 2 ? 'lots' : 5 });
		const expression = refused(context(guard, { items: 3, stored: { maxRunCostUsd: '={{ $json.cap }}' } }));
		expect(expression).toEqual({
			message: 'Max Estimated Cost per Run (USD): "lots" is not a number; it takes a number from 0 to 1000000 USD (item 2)',
			itemIndex: 2,
			description:
				'Nothing was sent. Correct the Spend Guard option (or what its expression gives for item 2) and run again. A limit left out of the Spend Guard is no limit; one that is set must give a number for every item.',
		});
		// Typed in the field (the same for every item), or a run of one: no item named.
		expect(refused(context(guard, { items: 3, stored: { maxRunCostUsd: 'lots' } })).message).toBe('Max Estimated Cost per Run (USD): "lots" is not a number; it takes a number from 0 to 1000000 USD');
		expect(refused(context({ maxRunCostUsd: undefined }, { stored: { maxRunCostUsd: '={{ $json.cap }}' } })).message).toMatch(/^Max Estimated Cost per Run \(USD\): empty \(the field or its expression gave no value\)[^(]*$/);
		expect(refused(context({ balanceUnitsPerUsd: 0 })).message).toMatch(/^Balance Units per USD: 0 is out of range/);
		// A node whose saved collection is nothing: no expression to name.
		expect(refused(context(guard, { items: 3, stored: null })).message).toBe('Max Estimated Cost per Run (USD): "lots" is not a number; it takes a number from 0 to 1000000 USD');
	});

	test('Check Balance Before Submitting: token or user; anything else refused with what it gave', () => {
		expect(spend.readSpendSettings(context({ checkBalance: 'token' }))).toStrictEqual({ ...LEFT_ALONE, balance: 'token' });
		expect(spend.readSpendSettings(context({ checkBalance: 'user' })).balance).toBe('user');
		expect(refused(context({ checkBalance: 'both' })).message).toBe('Check Balance Before Submitting: "both" is not a balance; use token or user');
		expect(refused(context({ checkBalance: undefined })).message).toBe('Check Balance Before Submitting: nothing is not a balance; use token or user');
	});
});
