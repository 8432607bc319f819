import type { IDataObject } from 'n8n-workflow';

import type { ItemEstimate } from '../engine/spend/types';
import type { FieldRule, ModelSpec } from '../registry/models';
import { listPrice, roundUsd } from '../registry/prices';

/*
 * What a generation costs, before it is sent (the spend guard's estimate) and in its output
 * (`estimatedCost`): the one price computation. A model with a price in the registry is priced
 * from it (registry/prices.ts, docs/gateway-contract.md §2.8). docs/gateway-contract.md §2.8 gives
 * no video price: a video is pre-charged by the site's price and its duration, so its estimate
 * exists only when the user gives a price per second for the model (Spend Guard → Video Prices per
 * Second); the length is what the request asks for, else the model's default.
 */

export const COST_NOTE =
	'Estimate from the gateway price list; the account plan decides the final charge.';

const PER_TEXT = {
	call: 'List price per call (the gateway price list): one charge per request, whatever the number of images.',
	image: 'List price per image (the gateway price list, alt host): each image made is charged.',
};

/**
 * The list price of one request (docs/gateway-contract.md §2.8) from the model's registry row: base price × the
 * multiplier of the resolution tier the request asks for; × `images` only when priced per image.
 * `amount` is the share of one of the `outputItems` the request became, so the amounts of a
 * run's items add up to its cost (n = 4 is one call, not four); `callAmount` is the whole request.
 */
export function estimateCost(
	spec: Omit<ModelSpec, 'id'>,
	request: IDataObject,
	images: number,
	outputItems = images,
): IDataObject {
	if (!spec.price) {
		return {
			amount: null,
			currency: 'USD',
			images,
			note: `This model is not in the node's price list. ${COST_NOTE}`,
		};
	}
	const price = listPrice(spec.price, request, images);
	const items = Math.max(1, outputItems);
	const share =
		items > 1 ? ` This item's amount is its share of the ${items} items the call made.` : '';
	return {
		amount: roundUsd(price.amount / items),
		callAmount: price.amount,
		currency: 'USD',
		per: price.per,
		basePrice: price.basePrice,
		resolutionTier: price.tier,
		multiplier: price.multiplier,
		images,
		note: `${PER_TEXT[price.per]}${share} ${COST_NOTE}`,
	};
}

/** Images one request asks for, before it is sent: `n` (also from Additional Body Fields), else 1. */
function requestedImages(request: IDataObject): number {
	const n = Number(request.n ?? 1);
	return Number.isInteger(n) && n > 0 ? n : 1;
}

/** "16:9, 2K, n=4": what sets this request's price, for the spend guard's per-model lines. */
function requestDetail(request: IDataObject, tier: string | undefined): string {
	const parts = [
		request.size,
		request.aspect_ratio,
		tier,
		request.n !== undefined && Number(request.n) > 1 ? `n=${request.n}` : undefined,
	];
	return parts
		.filter((p) => p !== undefined && p !== '')
		.map(String)
		.join(', ');
}

/** One item's part of a run's estimate (engine/spend) from the registry's list price, before anything is sent. */
export function listPriceEstimate(
	model: { id: string; host: string; spec: Omit<ModelSpec, 'id'> },
	request: IDataObject,
): ItemEstimate {
	const label = model.host === 'alt' ? `${model.id} (alt host)` : model.id;
	const images = requestedImages(request);
	// The one price computation (estimateCost), read as the guard's line: the whole call's amount.
	const cost = estimateCost(model.spec, request, images, 1);
	if (cost.amount === null) {
		return {
			model: label,
			detail: requestDetail(request, undefined),
			amountUsd: null,
			unpriced: 'not in the price list',
		};
	}
	const per = cost.per as 'call' | 'image';
	return {
		model: label,
		detail: requestDetail(request, cost.resolutionTier as string),
		amountUsd: cost.callAmount as number,
		unitUsd: roundUsd((cost.basePrice as number) * (cost.multiplier as number)),
		per,
		units: per === 'image' ? images : 1,
	};
}

/** The duration keys of docs/gateway-contract.md §4.8, in the order the gateway prefers them. */
const DURATION_KEYS = ['duration', 'seconds', 'metadata.durationSeconds'];

function at(body: IDataObject, dotted: string): unknown {
	return dotted
		.split('.')
		.reduce<unknown>(
			(value, key) =>
				value && typeof value === 'object' ? (value as IDataObject)[key] : undefined,
			body,
		);
}

function positive(value: unknown): number | undefined {
	const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** A row's rule of a body key as it applies on one submit route (grok's seconds differ per route). */
function ruleOn(rule: FieldRule | undefined, route: string | undefined): FieldRule | undefined {
	if (!rule?.routeVariants) return rule;
	const variant = rule.routeVariants.find((v) => route !== undefined && v.routes.includes(route));
	return variant ? { ...rule, ...variant } : undefined;
}

/** The length a video request will be billed for, and whether it was assumed rather than asked for. */
export interface RequestedLength {
	seconds?: number;
	/**
	 * 'absent': the request names no length and the row says what the channel makes (and bills)
	 * then, or the most it may pick (FieldRule.whenAbsent); 'default': the row's default length.
	 */
	assumed?: 'absent' | 'default';
}

/**
 * The length the request asks for (fields, then Additional Body Fields); else what the channel
 * bills when none is sent (docs/gateway-contract.md §10.9: Grok 8 s; Seedance 2.5 picks, so the
 * longest, 30 s, is assumed); else the row's default length. A length the model picks (-1) is no length.
 */
export function requestedLength(
	values: IDataObject,
	extra: IDataObject,
	row: ModelSpec | undefined,
	route?: string,
): RequestedLength {
	for (const key of DURATION_KEYS) {
		const found = positive(at(values, key)) ?? positive(at(extra, key));
		if (found !== undefined) return { seconds: found };
	}
	const rules = row?.fields?.video ?? {};
	for (const key of DURATION_KEYS) {
		const found = positive(ruleOn(rules[key], route)?.whenAbsent);
		if (found !== undefined) return { seconds: found, assumed: 'absent' };
	}
	for (const key of DURATION_KEYS) {
		const found = positive(ruleOn(rules[key], route)?.default);
		if (found !== undefined) return { seconds: found, assumed: 'default' };
	}
	return {};
}

/**
 * One video item's part of a run's estimate (engine/spend), before anything is sent: the user's
 * price per second of the model (Spend Guard) × the requested length. An id without a row
 * (`known` false) has an unknown price unless the user gives one and a length.
 */
export function perSecondEstimate(
	modelId: string,
	length: RequestedLength | number | undefined,
	usdPerSecond: Record<string, number>,
	known = true,
): ItemEstimate {
	const { seconds, assumed } =
		typeof length === 'object' ? length : { seconds: length, assumed: undefined };
	const lengthText =
		assumed === 'absent'
			? `${seconds} s (no length sent: what the channel bills then, or the most it may pick)`
			: `${seconds} s`;
	const detail = seconds === undefined ? 'length set by the channel' : lengthText;
	const rate = usdPerSecond[modelId];
	if (rate === undefined) {
		const why = known
			? 'video cost is not estimated (no price per second given)'
			: "unknown price: the model is not in the node's model table and no price per second is given";
		return { model: modelId, detail, amountUsd: null, unpriced: why };
	}
	if (seconds === undefined) {
		const why = known
			? 'video cost is not estimated (set Seconds or Duration to price it)'
			: 'unknown price: the length is set by the channel (set Duration to price it)';
		return { model: modelId, detail, amountUsd: null, unpriced: why };
	}
	return {
		model: modelId,
		detail,
		amountUsd: roundUsd(rate * seconds),
		unitUsd: rate,
		per: 'second',
		units: seconds,
	};
}

/** An item's `estimatedCost` from a per-second estimate when its price is known; else the item keeps its price note. */
export function perSecondCostJson(estimate: ItemEstimate | undefined): IDataObject {
	if (!estimate || estimate.amountUsd === null) return {};
	return {
		estimatedCost: {
			amount: estimate.amountUsd,
			currency: 'USD',
			per: 'second',
			pricePerSecond: estimate.unitUsd,
			seconds: estimate.units,
			note: 'Your price per second (Spend Guard) × the requested length; the site price and the account plan decide the final charge.',
		},
	};
}
