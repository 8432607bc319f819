import type { IDataObject } from 'n8n-workflow';

import { roundUsd } from '../registry/prices';
import type { GatewayContext } from '../transport/context';
import { keptBriefly, numberOf, oncePerRun, quietGet } from './runReads';

/*
 * `GET /api/status` of the relay (docs/gateway-contract.md §10.11), no key needed: how many units
 * of raw quota make one USD (`quota_per_unit`, 500000 by default) and what the gateway shows its
 * amounts in. Read at most once per node run, kept a minute across runs; what needs it (a task's
 * settled charge, a quota in raw units) says so when it cannot be read.
 */

export type QuotaDisplay = 'USD' | 'CNY' | 'TOKENS' | 'CUSTOM';

export interface SiteStatus {
	/** Raw quota per USD: raw quota ÷ this = USD. */
	quotaPerUnit: number;
	/** What the gateway shows amounts in (the billing routes answer in it). */
	display: QuotaDisplay;
	/** CNY per USD, where the gateway gives it. */
	usdRate?: number;
}

export type SiteStatusReading = { status: SiteStatus } | { problem: string };

const KEEP_MS = 60_000;

function positive(value: unknown): number | undefined {
	const n = numberOf(value);
	return n !== undefined && n > 0 ? n : undefined;
}

/** The answer's facts, or what is wrong with it. */
function siteStatusOf(body: unknown): SiteStatusReading {
	const root = body && typeof body === 'object' ? (body as IDataObject) : undefined;
	const data = root?.data && typeof root.data === 'object' ? (root.data as IDataObject) : undefined;
	if (!root || root.success === false || !data)
		return { problem: 'GET /api/status answered without its data object' };
	const quotaPerUnit = positive(data.quota_per_unit);
	if (quotaPerUnit === undefined)
		return {
			problem:
				'GET /api/status gave no usable quota_per_unit ' +
				`(${JSON.stringify(data.quota_per_unit ?? null).slice(0, 40)})`,
		};
	const type = String(data.quota_display_type ?? '').toUpperCase();
	// Older builds (and one-api) say only whether amounts are shown in currency (USD) or raw quota.
	const display: QuotaDisplay = ['USD', 'CNY', 'TOKENS', 'CUSTOM'].includes(type)
		? (type as QuotaDisplay)
		: data.display_in_currency === false
			? 'TOKENS'
			: 'USD';
	const usdRate = positive(data.usd_exchange_rate);
	return { status: { quotaPerUnit, display, ...(usdRate ? { usdRate } : {}) } };
}

/**
 * The gateway's quota unit, read once per node run (and kept a minute across runs), by `deadlineAt`
 * where the run has one (quietGet).
 */
export async function readSiteStatus(
	ctx: GatewayContext,
	itemIndex?: number,
	deadlineAt?: number,
): Promise<SiteStatusReading> {
	return await oncePerRun(ctx, 'siteStatus', async () => {
		const read = async (): Promise<SiteStatusReading & { transient?: boolean }> => {
			const answer = await quietGet(
				ctx,
				'/api/status',
				'reading the quota unit',
				itemIndex,
				deadlineAt,
			);
			if ('problem' in answer) return { problem: answer.problem, transient: answer.transient };
			return siteStatusOf(answer.body);
		};
		return await keptBriefly(
			ctx,
			'siteStatus',
			KEEP_MS,
			read,
			(r) => !('transient' in r && r.transient),
		);
	});
}

/** Raw quota in USD, rounded to a micro-dollar. */
export function quotaToUsd(quota: number, status: SiteStatus): number {
	return roundUsd(quota / status.quotaPerUnit);
}
