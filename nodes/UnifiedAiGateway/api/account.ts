import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { GatewayContext } from '../transport/context';
import { gatewayRequest } from '../transport/request';

export type BalanceKind = 'token' | 'user';

const PATHS: Record<BalanceKind, string> = { token: '/v1/balance', user: '/v1/user/balance' };

/** The two balances a user can pick, for every field that asks which one (guard, trigger). */
export const BALANCE_KIND_OPTIONS = [
	{ name: 'Token Balance', value: 'token', description: "This API key's quota (GET /v1/balance)" },
	{
		name: 'User Balance',
		value: 'user',
		description: 'The whole account behind the key (GET /v1/user/balance)',
	},
];

export interface Balance {
	kind: BalanceKind;
	unlimited: boolean;
	remaining: number | null;
	used: number | null;
	raw: IDataObject;
}

/** Reads a balance record (docs/gateway-contract.md §2.2); `success: false`, even with HTTP 200, is an error. */
export async function readBalance(
	ctx: GatewayContext,
	kind: BalanceKind,
	itemIndex?: number,
): Promise<Balance> {
	const action = kind === 'token' ? 'checking the token balance' : 'checking the user balance';
	const { body } = await gatewayRequest.call(ctx, {
		method: 'GET',
		path: PATHS[kind],
		action,
		itemIndex,
	});
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
	};
}

/**
 * A balance to compare amounts with (the trigger's Balance Below, the spend guard): unlimited,
 * or a numeric remaining amount; an answer of success without one is an error.
 */
export async function readComparableBalance(
	ctx: GatewayContext,
	kind: BalanceKind,
	itemIndex?: number,
): Promise<Balance> {
	const balance = await readBalance(ctx, kind, itemIndex);
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

export function balanceJson(balance: Balance): IDataObject {
	return {
		balanceType: balance.kind,
		unlimitedQuota: balance.unlimited,
		remainingBalance: balance.unlimited ? 'unlimited' : balance.remaining,
		usedBalance: balance.used,
		summary: balance.unlimited
			? `Unlimited quota (${balance.used ?? 0} used)`
			: `${balance.remaining} remaining, ${balance.used ?? 0} used`,
		unit: 'as configured on the gateway (USD, CNY or tokens)',
		raw: balance.raw,
	};
}

export async function balanceOperation(
	this: IExecuteFunctions,
	kind: BalanceKind,
	itemIndex: number,
) {
	return balanceJson(await readBalance(this, kind, itemIndex));
}
