import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { BALANCE_KIND_OPTIONS, type BalanceKind } from '../api/account';
import type { SpendSettings } from '../engine/spend/types';
import { NUMBER_LIMITS, type NumberLimit } from '../registry/limits';
import type { ModelGroup } from '../registry/models';
import { checkBoolean, checkNumber } from './inputs';

/** The parameter every billed operation keeps its Spend Guard options in. */
export const SPEND_GUARD_PARAMETER = 'spendGuard';

const VIDEO_PRICES: INodeProperties = {
	displayName: 'Video Prices per Second',
	name: 'videoPrices',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Video Price',
	default: {},
	description:
		"For models the gateway's own price list does not price (the document " +
		"publishes no video price; video is pre-charged by the site's price and " +
		"the duration): your site's USD price per second for a model, and the " +
		'estimate includes its videos',
	options: [
		{
			displayName: 'Price',
			name: 'prices',
			values: [
				{
					displayName: 'Model',
					name: 'model',
					type: 'string',
					default: '',
					placeholder: 'sora-2',
					description: 'The video model ID, as in the Model field',
				},
				{
					displayName: 'USD per Second',
					name: 'usdPerSecond',
					type: 'number',
					typeOptions: { minValue: 0, numberPrecision: 4 },
					default: 0,
					description: 'What one second of video of this model costs on your site',
				},
			],
		},
	],
};

/**
 * The Spend Guard of a billed operation: checked once per node run, before its first request.
 * Video adds the per-second prices only video needs.
 */
export function spendGuardOptions(
	show: Record<string, string[]>,
	group: ModelGroup,
): INodeProperties {
	const options: INodeProperties[] = [
		{
			displayName: 'Allow Unpriced Items',
			name: 'allowUnpricedItems',
			type: 'boolean',
			default: false,
			description:
				'Whether a run with a cost cap may send items the node has no price for ' +
				'(video without a price per second, models missing from the price list). ' +
				'They count as 0 in the estimate and the summary says so.',
		},
		{
			displayName: 'Balance Units per USD',
			name: 'balanceUnitsPerUsd',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 6 },
			default: 1,
			description:
				"The unit of GET /v1/balance is the operator's setting (USD, CNY or a " +
				'token count): how many of those units make one USD, e.g. 7.2 for CNY or ' +
				"500000 for tokens. Not used where the node reads the key's quota from " +
				"the relay's own routes (plain new-api, one-api): it converts that to USD " +
				'itself.',
		},
		{
			displayName: 'Check Balance Before Submitting',
			name: 'checkBalance',
			type: 'options',
			default: 'token',
			options: BALANCE_KIND_OPTIONS,
			description:
				'Reads the balance once per run (GET /v1/balance, or on plain new-api and ' +
				"one-api the key's own quota). If the estimate exceeds what remains, " +
				'nothing is sent. Unlimited quota always passes.',
		},
		{
			displayName: 'Key Group',
			name: 'keyGroup',
			type: 'string',
			default: '',
			placeholder: 'vip',
			description:
				"The group of this API key, as the gateway's token page names it: the estimate and the " +
				"cap then use that group's ratio from the gateway's price list. Where the list does not " +
				'show your group, give its ratio as a number (2 for twice the list price). Left out, the ' +
				'estimate assumes the default group and the cap judges each call at the dearest group ' +
				'the price list shows.',
		},
		{
			displayName: 'Max Estimated Cost per Run (USD)',
			name: 'maxRunCostUsd',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 4 },
			default: 1,
			description:
				"Before the first request, the estimate of all this run's items (the " +
				"gateway's own price list where it has one, else the document's list " +
				'price; model, size, resolution, n) is summed. Over this amount nothing ' +
				'is sent, and the error lists the items that make up the total.',
		},
		{
			displayName: 'Stop If Balance Cannot Be Read',
			name: 'stopIfBalanceUnreadable',
			type: 'boolean',
			default: false,
			description:
				'Whether a failing balance call stops the run before anything is sent. ' +
				'Off: the run goes on and the summary says the balance was not read.',
		},
	];
	if (group === 'video') options.push(VIDEO_PRICES);
	return {
		displayName: 'Spend Guard',
		name: SPEND_GUARD_PARAMETER,
		type: 'collection',
		placeholder: 'Add Limit',
		default: {},
		description:
			'Limits checked once per run, before anything is sent: a cap on the ' +
			'estimated cost and the gateway balance. Every run also reports what it ' +
			"submitted, in its first item and in the execution's custom data.",
		options: options.sort((a, b) => a.displayName.localeCompare(b.displayName)),
		displayOptions: { show },
	};
}

function refuse(ctx: IExecuteFunctions, message: string, itemIndex: number): never {
	throw new NodeOperationError(ctx.getNode(), message, {
		itemIndex,
		description:
			`Nothing was sent. Correct the Spend Guard option` +
			(itemIndex > 0 ? ` (or what its expression gives for item ${itemIndex})` : '') +
			(` and run again. A limit left out of the Spend Guard is no limit; one ` +
				`that is set must give a number for every item.`),
	});
}

/** The option's number for one item; the item named when an expression gave it in a run of several. */
function checked(
	ctx: IExecuteFunctions,
	name: string,
	value: unknown,
	limit: NumberLimit,
	itemIndex: number,
	many: boolean,
): number {
	const result = checkNumber(value, limit);
	if ('problem' in result)
		refuse(
			ctx,
			many && isExpression(ctx, name) ? `${result.problem} (item ${itemIndex})` : result.problem,
			itemIndex,
		);
	return result.value;
}

/** Whether a Spend Guard option is an expression (its value may differ per item). */
function isExpression(ctx: IExecuteFunctions, name: string): boolean {
	const guard = ctx.getNode().parameters[SPEND_GUARD_PARAMETER] as IDataObject | undefined;
	const raw = guard?.[name];
	return typeof raw === 'string' && raw.startsWith('=');
}

function videoPrices(ctx: IExecuteFunctions, raw: unknown): Record<string, number> {
	const entries = ((raw as IDataObject | undefined)?.prices ?? []) as IDataObject[];
	const prices: Record<string, number> = {};
	for (const entry of entries) {
		const model = String(entry.model ?? '').trim();
		if (!model) refuse(ctx, 'Video Prices per Second: a price has no model ID', 0);
		const rate = checkNumber(entry.usdPerSecond, NUMBER_LIMITS.usdPerSecond);
		if ('problem' in rate) refuse(ctx, `${rate.problem} (the price of ${model})`, 0);
		prices[model] = rate.value;
	}
	return prices;
}

/** Key Group as set: a name or a ratio; one that gives nothing refuses the run (it is not "left out"). */
function keyGroupOf(ctx: IExecuteFunctions, raw: unknown): string {
	const text = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
	if (typeof text !== 'string' || text.trim() === '')
		refuse(
			ctx,
			`Key Group gives ${JSON.stringify(raw)?.slice(0, 40) ?? 'nothing'}: it takes the key's group ` +
				`name (for example vip) or its ratio as a number`,
			0,
		);
	return text.trim();
}

/** Whether an option is set: added in the editor, whatever its value or its expression gives. */
function isSet(raw: IDataObject, name: string): boolean {
	return Object.prototype.hasOwnProperty.call(raw, name);
}

/**
 * The run's Spend Guard options, read once when the run is planned. A number that is set is
 * checked for every item (an expression may give each its own value, or nothing): one that gives
 * nothing, NaN, a list, an object or a negative value refuses the run, naming the item, before
 * anything is sent; only an option left out means "no limit". Items that give different caps are
 * held to the lowest.
 */
export function readSpendSettings(ctx: IExecuteFunctions): SpendSettings {
	const raw = (ctx.getNodeParameter(SPEND_GUARD_PARAMETER, 0, {}) ?? {}) as IDataObject;
	const count = Math.max(1, ctx.getInputData().length);
	const many = count > 1;
	const perItem = (i: number) =>
		i === 0 ? raw : ((ctx.getNodeParameter(SPEND_GUARD_PARAMETER, i, {}) ?? {}) as IDataObject);
	const switchOf = (name: string, label: string) => {
		if (!isSet(raw, name)) return false;
		const result = checkBoolean(raw[name], label);
		if ('problem' in result) refuse(ctx, result.problem, 0);
		return result.value;
	};
	const settings: SpendSettings = {
		balanceUnitsPerUsd: 1,
		stopIfBalanceUnreadable: switchOf('stopIfBalanceUnreadable', 'Stop If Balance Cannot Be Read'),
		allowUnpriced: switchOf('allowUnpricedItems', 'Allow Unpriced Items'),
		videoUsdPerSecond: videoPrices(ctx, raw.videoPrices),
	};
	for (let i = 0; i < count; i++) {
		const options = perItem(i);
		const numberOf = (name: 'maxRunCostUsd' | 'balanceUnitsPerUsd') =>
			isSet(options, name)
				? checked(ctx, name, options[name], NUMBER_LIMITS[name], i, many)
				: undefined;
		const cap = numberOf('maxRunCostUsd');
		if (cap !== undefined)
			settings.capUsd = settings.capUsd === undefined ? cap : Math.min(settings.capUsd, cap);
		const units = numberOf('balanceUnitsPerUsd');
		if (units !== undefined && i === 0) settings.balanceUnitsPerUsd = units;
	}
	if (isSet(raw, 'keyGroup')) settings.keyGroup = keyGroupOf(ctx, raw.keyGroup);
	if (isSet(raw, 'checkBalance')) {
		if (raw.checkBalance !== 'token' && raw.checkBalance !== 'user')
			refuse(
				ctx,
				`Check Balance Before Submitting: ${JSON.stringify(raw.checkBalance) ?? 'nothing'} ` +
					`is not a balance; use token or user`,
				0,
			);
		settings.balance = raw.checkBalance as BalanceKind;
	}
	return settings;
}
