import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { GatewayContext } from '../transport/context';
import { nodeErrorOf } from '../transport/nodeError';
import { gatewayRequest, GatewayRequestError } from '../transport/request';
import {
	readBillingQuota,
	readUsageToken,
	QUOTA_ROUTE,
	type QuotaAnswer,
	type QuotaReading,
} from './quota';
import { keptBriefly, oncePerRun, recall, remember } from './runReads';

export type BalanceKind = 'token' | 'user';

const PATHS: Record<BalanceKind, string> = { token: '/v1/balance', user: '/v1/user/balance' };

/** The two balances a user can pick, for every field that asks which one (guard, trigger). */
export const BALANCE_KIND_OPTIONS = [
	{
		name: 'Token Balance',
		value: 'token',
		description:
			"This API key's quota (GET /v1/balance; on a plain new-api or one-api gateway its quota routes)",
	},
	{
		name: 'User Balance',
		value: 'user',
		description: 'The whole account behind the key (GET /v1/user/balance, commercial builds only)',
	},
];

export interface Balance {
	kind: BalanceKind;
	unlimited: boolean;
	remaining: number | null;
	used: number | null;
	raw: IDataObject;
	/** The route that answered: `GET /v1/balance`, `GET /api/usage/token/`, the billing routes. */
	source: string;
	/** The amounts are USD (the relay's quota, converted); false: the gateway's own unit, unknown here. */
	inUsd: boolean;
	/** What the amounts are, in words. */
	unit: string;
	/** What the reading could not do (a unit left unconverted, a quota route rate limited). */
	note?: string;
}

/** How long a gateway's lack of `/v1/balance`, or a 429 of the quota route, is remembered across runs. */
export const ROUTE_MEMORY_MS = 10 * 60_000;
/** What a token balance read remembers when the build has no `/v1/balance` (api/relayBuild.ts reads it too). */
export const BALANCE_ROUTE_MISSING = 'noBalanceRoute:token';
/** What a token balance read remembers when `/v1/balance` answered: the build has the document's routes. */
export const BALANCE_ROUTE_SERVED = 'balanceRouteServed';

/** A balance record (docs/gateway-contract.md §2.2); `success: false`, even with HTTP 200, is an error. */
function balanceRecord(
	ctx: GatewayContext,
	kind: BalanceKind,
	body: IDataObject,
	itemIndex?: number,
): Balance {
	if (body.success === false) {
		const said =
			typeof body.message === 'string' && body.message ? body.message : 'no reason given';
		throw new NodeApiError(ctx.getNode(), body as JsonObject, {
			message: `The gateway could not read the ${kind} balance: ${said}`,
			description:
				kind === 'token'
					? 'The token may be deleted or disabled. Check the API Key in the credential.'
					: 'The user behind this key may be missing, or the gateway could not read its quota.',
			itemIndex,
		});
	}
	const unlimited = body.unlimited_quota === true;
	const number = (v: unknown) =>
		typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : null;
	return {
		kind,
		unlimited,
		remaining: unlimited ? null : number(body.remain_balance),
		used: number(body.used_balance),
		raw: body,
		source: `GET ${PATHS[kind]}`,
		inUsd: false,
		unit: 'as configured on the gateway (USD, CNY or tokens)',
	};
}

/** A 404 for the route: this build has no `/v1/balance` (the open-source relay's NoRoute answer). */
function routeMissing(error: unknown): boolean {
	return error instanceof GatewayRequestError && String(error.httpCode) === '404';
}

function fromQuota(reading: QuotaReading, note?: string): Balance {
	const notes = [note, reading.note].filter(Boolean).join(' ');
	return {
		kind: 'token',
		unlimited: reading.unlimited,
		remaining: reading.remaining,
		used: reading.used,
		raw: reading.raw,
		source: reading.source,
		inUsd: reading.inUsd,
		unit: reading.unit,
		...(notes ? { note: notes } : {}),
	};
}

/**
 * The key's quota from the relay's own routes (docs/gateway-contract.md §10.11): `/api/usage/token/`
 * unless it was found missing or rate limited lately (a 429 is reported, never waited out), then
 * the billing routes. Every failure is named when none answers.
 */
async function relayQuota(
	ctx: GatewayContext,
	balanceMissing: string,
	itemIndex?: number,
): Promise<Balance> {
	const problems = [balanceMissing];
	const usage = await keptBriefly<QuotaAnswer>(
		ctx,
		'usageToken',
		ROUTE_MEMORY_MS,
		async () => await readUsageToken(ctx, itemIndex),
		// Kept across runs only what says to read elsewhere for a while: the route is missing or limited.
		(answer) => 'problem' in answer && (answer.status === 404 || answer.status === 429),
	);
	let note: string | undefined;
	if ('problem' in usage) {
		problems.push(usage.problem);
		if (usage.status === 429)
			note = `${QUOTA_ROUTE} is rate limited (20 reads per 20 minutes per IP): read from the billing routes instead.`;
	} else {
		return fromQuota(usage);
	}
	const billing = await readBillingQuota(ctx, itemIndex);
	if (!('problem' in billing)) return fromQuota(billing, note);
	problems.push(billing.problem);
	throw new NodeOperationError(
		ctx.getNode(),
		'The gateway answered none of its balance routes for this key',
		{
			description:
				`${problems.join('\n')}\nCheck that the Base URL is the gateway's address ` +
				`(for example https://gateway.example.com/v1) and that the API Key is ` +
				`valid and enabled.`,
			itemIndex,
		},
	);
}

/**
 * Reads a balance: `GET /v1/balance` (a commercial build's extension, read as often as asked, as
 * before), else the relay's quota routes, at most once per node run (every item of Get Token
 * Balance, the spend guard and a trigger poll share that reading: its route allows 20 reads per 20
 * minutes per IP); `fresh` reads the relay's quota again (the spend guard's reading after a run,
 * never made on the rate-limited route).
 */
export async function readBalance(
	ctx: GatewayContext,
	kind: BalanceKind,
	itemIndex?: number,
	fresh?: 'fresh',
): Promise<Balance> {
	const name = kind === 'token' ? BALANCE_ROUTE_MISSING : 'noBalanceRoute:user';
	let missing = await recall<string>(ctx, name, ROUTE_MEMORY_MS);
	if (missing === undefined) {
		try {
			const { body } = await gatewayRequest.call(ctx, {
				method: 'GET',
				path: PATHS[kind],
				action: kind === 'token' ? 'checking the token balance' : 'checking the user balance',
				itemIndex,
			});
			if (kind === 'token')
				await remember(ctx, BALANCE_ROUTE_SERVED, `GET ${PATHS.token} answered`);
			return balanceRecord(ctx, kind, body, itemIndex);
		} catch (error) {
			if (!routeMissing(error)) throw nodeErrorOf(ctx.getNode(), error, itemIndex);
			missing = `GET ${PATHS[kind]}: HTTP 404 (${(error as GatewayRequestError).gatewaySaid ?? 'not found'})`;
			await remember(ctx, name, missing);
		}
	}
	if (kind === 'user')
		throw new NodeOperationError(
			ctx.getNode(),
			'This gateway has no user balance route (GET /v1/user/balance answered 404)',
			{
				description:
					`${missing}\nA gateway built on the open-source relay (new-api, one-api) ` +
					`tells a key only its own quota: use Token Balance.`,
				itemIndex,
			},
		);
	const noBalance = missing;
	if (fresh) return await relayQuota(ctx, noBalance, itemIndex);
	return await oncePerRun(
		ctx,
		'relayQuota',
		async () => await relayQuota(ctx, noBalance, itemIndex),
	);
}

/** Whether a later read of this balance costs one of the quota route's 20 reads per 20 minutes. */
export function rateLimitedSource(balance: Balance): boolean {
	return balance.source === `GET ${QUOTA_ROUTE}`;
}

/**
 * A balance to compare amounts with (the trigger's Balance Below, the spend guard): unlimited,
 * or a numeric remaining amount; an answer of success without one is an error.
 */
export async function readComparableBalance(
	ctx: GatewayContext,
	kind: BalanceKind,
	itemIndex?: number,
	fresh?: 'fresh',
): Promise<Balance> {
	const balance = await readBalance(ctx, kind, itemIndex, fresh);
	if (!balance.unlimited && (balance.remaining === null || !Number.isFinite(balance.remaining))) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The gateway's ${kind} balance answer has no remaining amount`,
			{
				description: `It answered success without a numeric remain_balance: ${JSON.stringify(balance.raw).slice(0, 300)}`,
				itemIndex,
			},
		);
	}
	return balance;
}

/** A balance as an output item's json (Account → Get Token / User Balance, the trigger's Balance Below). */
export function balanceJson(balance: Balance): IDataObject {
	const unit = balance.inUsd ? ' USD' : '';
	return {
		balanceType: balance.kind,
		unlimitedQuota: balance.unlimited,
		remainingBalance: balance.unlimited ? 'unlimited' : balance.remaining,
		usedBalance: balance.used,
		summary: balance.unlimited
			? `Unlimited quota (${balance.used ?? 0}${unit} used)`
			: `${balance.remaining}${unit} remaining, ${balance.used ?? 0}${unit} used`,
		unit: balance.unit,
		source: balance.source,
		...(balance.note ? { note: balance.note } : {}),
		raw: balance.raw,
	};
}
