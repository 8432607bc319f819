import type { IDataObject } from 'n8n-workflow';

import type { ItemEstimate } from '../../engine/spend/types';
import { roundUsd } from '../../registry/prices';
import type { PreparedVideo } from './videoBody';

/*
 * docs/gateway-contract.md §2.8 gives no video price: a video is pre-charged by the site's price and its duration.
 * The estimate exists only when the user gives a price per second for the model (Spend Guard →
 * Video Prices per Second); the length is what the request asks for, else the model's default.
 */

/** The duration keys of docs/gateway-contract.md §4.8, in the order the gateway prefers them. */
const DURATION_KEYS = ['duration', 'seconds', 'metadata.durationSeconds'];

function at(body: IDataObject, dotted: string): unknown {
	return dotted.split('.').reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as IDataObject)[key] : undefined), body);
}

function positive(value: unknown): number | undefined {
	const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** Seconds the request asks for (fields, then Additional Body Fields), else the row's default length. */
export function requestedSeconds(p: PreparedVideo): number | undefined {
	for (const key of DURATION_KEYS) {
		const found = positive(at(p.values, key)) ?? positive(at(p.extra, key));
		if (found !== undefined) return found;
	}
	const rules = p.model?.fields?.video ?? {};
	for (const key of DURATION_KEYS) {
		const found = positive(rules[key]?.default);
		if (found !== undefined) return found;
	}
	return undefined;
}

/** One video item's part of a run's estimate (engine/spend), before anything is sent. */
export function videoSpendEstimate(p: PreparedVideo, usdPerSecond: Record<string, number>): ItemEstimate {
	const seconds = requestedSeconds(p);
	const detail = seconds === undefined ? 'length set by the channel' : `${seconds} s`;
	const rate = usdPerSecond[p.modelId];
	if (rate === undefined) {
		return { model: p.modelId, detail, amountUsd: null, unpriced: 'video cost is not estimated (no price per second given)' };
	}
	if (seconds === undefined) {
		return { model: p.modelId, detail, amountUsd: null, unpriced: 'video cost is not estimated (set Seconds or Duration to price it)' };
	}
	return { model: p.modelId, detail, amountUsd: roundUsd(rate * seconds), unitUsd: rate, per: 'second', units: seconds };
}

/** A video item's `estimatedCost` when its price is known; else the item keeps its price note. */
export function videoCostJson(estimate: ItemEstimate | undefined): IDataObject {
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
