import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { balanceJson, readBalance, type Balance, type BalanceKind } from '../UnifiedAiGateway/actions/account/balance';
import { readBalanceState, writeBalanceState } from './state';

function itemJson(balance: Balance, threshold: number, below: boolean): IDataObject {
	return { ...balanceJson(balance), threshold, belowThreshold: below };
}

/**
 * Fires once when the remaining balance drops below the threshold, and again only after it
 * has been at or above the threshold in between. Unlimited quota never fires. A failed balance
 * call throws (n8n shows it as a failed poll), it is never an empty poll.
 */
export async function pollBalanceBelow(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const kind = ctx.getNodeParameter('balanceType', 'token') as BalanceKind;
	const threshold = Number(ctx.getNodeParameter('threshold', 1));
	const balance = await readBalance(ctx, kind);
	const remaining = balance.remaining;
	if (!balance.unlimited && (remaining === null || !Number.isFinite(remaining))) {
		throw new NodeOperationError(ctx.getNode(), `The gateway's ${kind} balance answer has no remaining amount`, {
			description: `It answered success without a numeric remain_balance: ${JSON.stringify(balance.raw).slice(0, 300)}`,
		});
	}
	const below = !balance.unlimited && (remaining as number) < threshold;
	// "Fetch Test Event": the balance as it stands, whether below or not; static data untouched.
	if (ctx.getMode() === 'manual') return [[{ json: itemJson(balance, threshold, below) }]];

	const previous = readBalanceState(ctx, kind, threshold);
	writeBalanceState(ctx, { kind, threshold, below });
	return below && !previous.below ? [[{ json: itemJson(balance, threshold, below) }]] : null;
}
