import type { IDataObject } from 'n8n-workflow';

import { roundUsd } from '../registry/prices';
import type { GatewayContext } from '../transport/context';
import { asObject } from '../transport/responses';
import { numberOf, quietGet } from './runReads';
import { quotaToUsd, readSiteStatus, type SiteStatus } from './siteStatus';

/*
 * The key's quota where a gateway has no `/v1/balance` (the open-source relay, new-api or one-api;
 * docs/gateway-contract.md §10.11): `GET /api/usage/token/` (new-api since 2025-08, raw quota, 20
 * reads per 20 minutes per IP), else the OpenAI-style billing routes (new-api and one-api, in the
 * unit the gateway shows). Amounts are turned into USD with `GET /api/status` where it can be read,
 * else given in the gateway's own unit and said so.
 */

/** A quota as one route gave it, in USD where it could be converted. */
export interface QuotaReading {
	/** `GET /api/usage/token/`. */
	source: string;
	unlimited: boolean;
	remaining: number | null;
	used: number | null;
	/** The amounts are USD (converted from the gateway's unit). */
	inUsd: boolean;
	/** What the amounts are: "USD", or the gateway's unit when it could not be converted. */
	unit: string;
	raw: IDataObject;
	note?: string;
}

export type QuotaAnswer = QuotaReading | { problem: string; status?: number; transient: boolean };

export const QUOTA_ROUTE = '/api/usage/token/';
const SUBSCRIPTION_PATH = '/v1/dashboard/billing/subscription';
const USAGE_PATH = '/v1/dashboard/billing/usage';
/** What the billing routes give as the granted amount of an unlimited key. */
const UNLIMITED_GRANT = 1e8;

/** The answer's refusal in its own words: `success: false` or an `error` object, even with HTTP 200. */
function refusalOf(body: IDataObject | undefined, path: string): string | undefined {
	const error = asObject(body?.error);
	if (body?.success === false || body?.code === false || error) {
		const said = error?.message ?? body?.message ?? 'no reason given';
		return `GET ${path}: refused (${String(said).slice(0, 160)})`;
	}
	return undefined;
}

/** The raw quota in USD where `/api/status` says how, else as raw units with the reason. */
async function rawQuota(
	ctx: GatewayContext,
	amounts: { remaining: number | null; used: number | null },
	itemIndex?: number,
): Promise<Pick<QuotaReading, 'remaining' | 'used' | 'inUsd' | 'unit' | 'note'>> {
	const site = await readSiteStatus(ctx, itemIndex);
	if ('status' in site) {
		const usd = (n: number | null) => (n === null ? null : quotaToUsd(n, site.status));
		return { remaining: usd(amounts.remaining), used: usd(amounts.used), inUsd: true, unit: 'USD' };
	}
	return {
		...amounts,
		inUsd: false,
		unit: 'raw quota units of the gateway',
		note: `Not converted to USD: ${site.problem}`,
	};
}

/** `GET /api/usage/token/`: the key's own quota in raw units (new-api since 2025-08). */
export async function readUsageToken(
	ctx: GatewayContext,
	itemIndex?: number,
): Promise<QuotaAnswer> {
	const answer = await quietGet(ctx, QUOTA_ROUTE, 'reading the key quota', itemIndex);
	if ('problem' in answer) return answer;
	const body = asObject(answer.body);
	const refused = refusalOf(body, QUOTA_ROUTE);
	if (refused) return { problem: refused, status: answer.status, transient: false };
	const data = asObject(body?.data);
	const available = numberOf(data?.total_available);
	const used = numberOf(data?.total_used);
	const unlimited = data?.unlimited_quota === true;
	if (!data || (available === undefined && !unlimited))
		return {
			problem: `GET ${QUOTA_ROUTE}: the answer holds no total_available`,
			status: answer.status,
			transient: false,
		};
	return {
		source: `GET ${QUOTA_ROUTE}`,
		unlimited,
		...(await rawQuota(
			ctx,
			{ remaining: unlimited ? null : (available ?? null), used: used ?? null },
			itemIndex,
		)),
		raw: body!,
	};
}

/** The billing routes' amounts in USD, by the unit the gateway shows them in. */
function billingUnit(site: { status: SiteStatus } | { problem: string }): {
	toUsd?: (n: number) => number;
	unit: string;
	note?: string;
} {
	if (!('status' in site))
		return {
			unit: 'as configured on the gateway (USD, CNY or raw quota)',
			note: `Unit not known: ${site.problem}`,
		};
	const { display, usdRate } = site.status;
	if (display === 'TOKENS') return { toUsd: (n) => quotaToUsd(n, site.status), unit: 'USD' };
	if (display === 'CNY')
		return usdRate
			? { toUsd: (n) => roundUsd(n / usdRate), unit: 'USD' }
			: { unit: 'CNY', note: 'Not converted to USD: the gateway names no exchange rate' };
	return { toUsd: (n) => roundUsd(n), unit: 'USD' };
}

/** One billing route's number field and its answer, or why there is none. */
async function billingField(
	ctx: GatewayContext,
	path: string,
	field: string,
	itemIndex?: number,
): Promise<
	{ value: number; body: IDataObject } | { problem: string; status?: number; transient: boolean }
> {
	const answer = await quietGet(ctx, path, 'reading the key quota', itemIndex);
	if ('problem' in answer) return answer;
	const body = asObject(answer.body) ?? {};
	const refused = refusalOf(body, path);
	if (refused) return { problem: refused, status: answer.status, transient: false };
	const value = numberOf(body[field]);
	if (value === undefined)
		return { problem: `GET ${path}: the answer holds no ${field}`, transient: false };
	return { value, body };
}

/**
 * `GET /v1/dashboard/billing/subscription` and `…/usage` (new-api and one-api): granted and used,
 * in the unit the gateway shows; what remains is granted − used (`total_usage` is in hundredths).
 */
export async function readBillingQuota(
	ctx: GatewayContext,
	itemIndex?: number,
): Promise<QuotaAnswer> {
	const granted = await billingField(ctx, SUBSCRIPTION_PATH, 'hard_limit_usd', itemIndex);
	if ('problem' in granted) return granted;
	const usage = await billingField(ctx, USAGE_PATH, 'total_usage', itemIndex);
	if ('problem' in usage) return usage;
	const unlimited = granted.value >= UNLIMITED_GRANT;
	const used = usage.value / 100;
	const { toUsd, unit, note } = billingUnit(await readSiteStatus(ctx, itemIndex));
	const convert = (n: number) => (toUsd ? toUsd(n) : n);
	return {
		source: `GET ${SUBSCRIPTION_PATH} and …/usage`,
		unlimited,
		remaining: unlimited ? null : convert(granted.value - used),
		used: convert(used),
		inUsd: toUsd !== undefined,
		unit,
		...(note ? { note } : {}),
		raw: { subscription: granted.body, usage: usage.body },
	};
}
