import type { IDataObject } from 'n8n-workflow';

import { roundUsd } from '../registry/prices';
import type { GatewayContext } from '../transport/context';
import { quotaToUsd, readSiteStatus } from './siteStatus';
import type { TaskSnapshot } from './tasks/snapshot';

/*
 * What the gateway says a finished task cost (docs/gateway-contract.md §10.11): the relay's task
 * record carries its settled charge in raw quota, turned into USD with `GET /api/status` (read once
 * per node run). Where no answer carries a charge (a synchronous image, a build whose task answers
 * have none) the item says "not reported", never a guess.
 */

const CHARGE_SOURCE = "the gateway's task record (data.quota)";
export const NOT_REPORTED = 'not reported';

const SYNC_NOTE =
	"A synchronous answer carries no charge; the gateway's usage log has it. See estimatedCost.";
const TASK_NOTE =
	"This gateway's answer for the task carries no charge (the relay's GET " +
	'/v1/video/generations/{id} does). See estimatedCost.';

/**
 * A synchronous call's `charge` until the relay's usage log is read after the run
 * (engine/spend/usageCharges.ts finds its row by `requestId`); `billedBy` says what the relay counts.
 */
export function usageLogCharge(requestId: string, billedBy: string): IDataObject {
	return {
		amount: null,
		source: NOT_REPORTED,
		note: `The answer carries no charge (billed by ${billedBy}); the gateway's usage log has it.`,
		requestId,
	};
}

/**
 * The item's `charge`: `share` is its part of the task (a task that made 4 images gives each item a
 * quarter, so a run's items add up to what it was charged); `taskAmount` the whole when shared.
 * `deadlineAt`: when the run must be over (a trigger poll's budget), for the read of the quota unit.
 */
export async function chargeJson(
	ctx: GatewayContext,
	snapshot: TaskSnapshot | undefined,
	outputItems = 1,
	itemIndex?: number,
	deadlineAt?: number,
): Promise<IDataObject> {
	const quota = snapshot?.settledQuota;
	if (quota === undefined)
		return { amount: null, source: NOT_REPORTED, note: snapshot ? TASK_NOTE : SYNC_NOTE };
	const items = Math.max(1, outputItems);
	const refund =
		snapshot!.state === 'failed'
			? quota === 0
				? {
						refunded: true,
						note: 'The task failed and the gateway refunded it: nothing was charged.',
					}
				: { note: 'The task failed; the gateway kept this charge.' }
			: {};
	// 0 is 0 in every unit: a refund needs no conversion.
	const site = quota === 0 ? undefined : await readSiteStatus(ctx, itemIndex, deadlineAt);
	if (site && !('status' in site))
		return {
			amount: roundUsd(quota / items),
			currency: 'quota',
			quota,
			source: CHARGE_SOURCE,
			note: `In the gateway's raw quota units, not converted to USD: ${site.problem}`,
		};
	const usd = site ? quotaToUsd(quota, site.status) : 0;
	return {
		amount: roundUsd(usd / items),
		...(items > 1 ? { taskAmount: usd } : {}),
		currency: 'USD',
		quota,
		...(site ? { quotaPerUnit: site.status.quotaPerUnit } : {}),
		source: CHARGE_SOURCE,
		...refund,
	};
}

/**
 * The charge a finished task's answer carries, for the Task operations and the trigger: only where
 * there is one.
 */
export async function reportedChargeJson(
	ctx: GatewayContext,
	snapshot: TaskSnapshot,
	itemIndex?: number,
	deadlineAt?: number,
): Promise<IDataObject> {
	if (snapshot.settledQuota === undefined) return {};
	return { charge: await chargeJson(ctx, snapshot, 1, itemIndex, deadlineAt) };
}
