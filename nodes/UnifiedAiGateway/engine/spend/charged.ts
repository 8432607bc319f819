import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { NOT_REPORTED } from '../../api/charges';
import { roundUsd } from '../../registry/prices';
import { usd } from './tally';
import type { ItemEstimate } from './types';

/** What the gateway says a run's items cost (their `charge`), beside what they were estimated at. */
export interface ChargeTally {
	/** Submitted items whose charge the gateway reported in USD (refunds included). */
	items: number;
	totalUsd: number;
	/** Of those, failed tasks the gateway refunded (charged 0). */
	refunded: number;
	/** Items whose charge came only in the gateway's raw quota (not converted). */
	unconverted: number;
	/** Finished items whose answer carried no charge (a synchronous image, a build without it). */
	notReported: number;
	/** Finished, priced and charged items: their estimate and their charge, side by side. */
	compared: { items: number; estimatedUsd: number; chargedUsd: number };
}

/** How far the charge may stray from the estimate before the output pane says so. */
const CHARGE_TOLERANCE = 0.2;

function chargeOf(output: INodeExecutionData[], itemIndex: number): IDataObject | undefined {
	for (const item of output) {
		const paired = item.pairedItem as { item?: number } | undefined;
		const charge = item.json.charge as IDataObject | undefined;
		if (paired?.item === itemIndex && charge && typeof charge === 'object') return charge;
	}
	return undefined;
}

/** The charges the run's items carry, per submitted item (an item's several images count once). */
export function tallyCharges(
	output: INodeExecutionData[],
	submittedItems: number[],
	estimates: Map<number, ItemEstimate>,
): ChargeTally {
	const tally: ChargeTally = {
		items: 0,
		totalUsd: 0,
		refunded: 0,
		unconverted: 0,
		notReported: 0,
		compared: { items: 0, estimatedUsd: 0, chargedUsd: 0 },
	};
	for (const i of submittedItems) {
		const charge = chargeOf(output, i);
		if (!charge) continue;
		if (charge.source === NOT_REPORTED) {
			tally.notReported++;
			continue;
		}
		if (charge.currency !== 'USD') {
			tally.unconverted++;
			continue;
		}
		const amount = Number(charge.taskAmount ?? charge.amount);
		tally.items++;
		tally.totalUsd += amount;
		const refund = charge.refunded === true;
		if (refund) tally.refunded++;
		const estimate = estimates.get(i);
		if (!refund && estimate && estimate.amountUsd !== null) {
			tally.compared.items++;
			tally.compared.estimatedUsd += estimate.amountUsd;
			tally.compared.chargedUsd += amount;
		}
	}
	tally.totalUsd = roundUsd(tally.totalUsd);
	tally.compared.estimatedUsd = roundUsd(tally.compared.estimatedUsd);
	tally.compared.chargedUsd = roundUsd(tally.compared.chargedUsd);
	return tally;
}

/** "+22 %"; undefined when the estimate was 0, or the two agree to the percent. */
function difference({ estimatedUsd, chargedUsd }: ChargeTally['compared']): string | undefined {
	if (estimatedUsd <= 0) return undefined;
	const percent = Math.round(((chargedUsd - estimatedUsd) / estimatedUsd) * 100);
	return percent === 0 ? undefined : `${percent > 0 ? '+' : ''}${percent} %`;
}

/** "charged 0.61 USD for 2 items (estimated 0.5 USD, +22 %)". */
export function chargeText(charged: ChargeTally): string | undefined {
	if (charged.items === 0) return undefined;
	const { compared } = charged;
	const by = difference(compared);
	const of = compared.items === charged.items ? '' : ` for ${compared.items} of them`;
	const side =
		compared.items > 0
			? ` (estimated ${usd(compared.estimatedUsd)}${of}${by ? `, ${by}` : ''})`
			: '';
	const refunds = charged.refunded > 0 ? `, ${charged.refunded} refunded` : '';
	return `charged ${usd(charged.totalUsd)} for ${charged.items} item${charged.items === 1 ? '' : 's'}${refunds}${side}`;
}

/**
 * The output pane's warning when the gateway charged more than 20 % away from the estimate (within
 * n8n's 120 characters), else nothing.
 */
export function chargeHint(charged: ChargeTally): string | undefined {
	const { compared } = charged;
	if (compared.items === 0) return undefined;
	const { estimatedUsd, chargedUsd } = compared;
	const off =
		estimatedUsd > 0
			? Math.abs(chargedUsd - estimatedUsd) / estimatedUsd > CHARGE_TOLERANCE
			: chargedUsd > 0;
	if (!off) return undefined;
	const by = difference(compared);
	return (
		`Charged ${usd(chargedUsd)}, estimated ${usd(estimatedUsd)}${by ? ` (${by})` : ''}: ` +
		`the gateway's prices differ (spendSummary)`
	);
}
