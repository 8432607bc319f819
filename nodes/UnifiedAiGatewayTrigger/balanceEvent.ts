import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import {
	balanceJson,
	readComparableBalance,
	type Balance,
	type BalanceKind,
} from '../UnifiedAiGateway/api/account';
import { readTriggerNumber } from '../UnifiedAiGateway/params/inputs';
import { readBalanceState, writeBalanceState } from './state';

function itemJson(balance: Balance, threshold: number, below: boolean): IDataObject {
	return { ...balanceJson(balance), threshold, belowThreshold: below };
}

/**
 * Fires once when the remaining balance drops below the threshold, and again only after it
 * has been at or above the threshold in between. Unlimited quota never fires. A failed balance
 * call throws (n8n shows it as a failed poll), it is never an empty poll.
 */
export async function pollBalanceBelow(
	ctx: IPollFunctions,
): Promise<INodeExecutionData[][] | null> {
	const kind = ctx.getNodeParameter('balanceType', 'token') as BalanceKind;
	const threshold = readTriggerNumber(ctx, 'balanceThreshold', 'threshold', 1);
	const balance = await readComparableBalance(ctx, kind);
	const below = !balance.unlimited && (balance.remaining as number) < threshold;
	// "Fetch Test Event": the balance as it stands, whether below or not; static data untouched.
	if (ctx.getMode() === 'manual') return [[{ json: itemJson(balance, threshold, below) }]];

	const previous = readBalanceState(ctx, kind, threshold);
	writeBalanceState(ctx, { kind, threshold, below });
	return below && !previous.below ? [[{ json: itemJson(balance, threshold, below) }]] : null;
}
