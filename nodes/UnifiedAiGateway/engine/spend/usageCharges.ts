import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { NOT_REPORTED } from '../../api/charges';
import { quotaToUsd, readSiteStatus } from '../../api/siteStatus';
import { readUsageLog, rememberKeyGroup, USAGE_LOG_SOURCE } from '../../api/usageLog';
import { roundUsd } from '../../registry/prices';

/*
 * The charge of the run's synchronous calls (docs/gateway-contract.md §10.11): their answers carry none, so after
 * the run the relay's usage log is read once (api/usageLog.ts) and each item whose `charge` names
 * its call's request id gets what the gateway settled, labelled with that source, beside its
 * estimate. A call that made several items shares its charge between them, as a task's does.
 */

/** Output items whose charge waits for the usage log, by request id. */
function waiting(output: INodeExecutionData[]): Map<string, IDataObject[]> {
	const byId = new Map<string, IDataObject[]>();
	for (const item of output) {
		const charge = item.json.charge as IDataObject | undefined;
		if (!charge || charge.source !== NOT_REPORTED || typeof charge.requestId !== 'string') continue;
		byId.set(charge.requestId, [...(byId.get(charge.requestId) ?? []), charge]);
	}
	return byId;
}

/** Fills in the charge of every synchronous item the usage log has, in place. */
export async function chargesFromUsageLog(
	ctx: IExecuteFunctions,
	output: INodeExecutionData[],
): Promise<void> {
	const byId = waiting(output);
	if (byId.size === 0) return;
	const log = await readUsageLog(ctx, new Set(byId.keys()));
	if ('problem' in log) {
		for (const charges of byId.values())
			for (const charge of charges)
				charge.note =
					`${String(charge.note ?? '')} The usage log could not be read: ${log.problem}.`.trim();
		return;
	}
	// The gateway told the key's group: the next runs' estimates and cap use its ratio (Key Group wins).
	await rememberKeyGroup(ctx, log.rows.values());
	const site = await readSiteStatus(ctx);
	for (const [id, charges] of byId) {
		const row = log.rows.get(id);
		if (!row) {
			for (const charge of charges)
				charge.note =
					"The gateway's usage log has no row for this call's request id (its consume log may be " +
					'off).';
			continue;
		}
		const converted = 'status' in site;
		const whole = converted ? quotaToUsd(row.quota, site.status) : row.quota;
		for (const charge of charges) {
			delete charge.note;
			Object.assign(charge, {
				amount: roundUsd(whole / charges.length),
				...(charges.length > 1 ? { taskAmount: roundUsd(whole) } : {}),
				currency: converted ? 'USD' : 'quota',
				quota: row.quota,
				...(converted ? { quotaPerUnit: site.status.quotaPerUnit } : {}),
				source: USAGE_LOG_SOURCE,
				...(row.group !== undefined ? { group: row.group } : {}),
				...(row.groupRatio !== undefined ? { groupRatio: row.groupRatio } : {}),
				...(converted
					? {}
					: { note: `In the gateway's raw quota units, not converted to USD: ${site.problem}` }),
			});
		}
	}
}
