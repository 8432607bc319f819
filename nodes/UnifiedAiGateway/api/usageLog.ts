import type { IDataObject } from 'n8n-workflow';

import type { GatewayContext } from '../transport/context';
import { asObject } from '../transport/responses';
import { numberOf, oncePerRun, quietGet } from './runReads';

/*
 * The charge of a synchronous call on new-api (docs/gateway-contract.md §10.11): its answer carries
 * none, but the relay's consume log, `GET /api/log/token` with the key (new-api only; 20 reads per
 * 20 minutes per IP, counted with /api/usage/token/), has one row per billed call: its request id
 * (the answer's `X-Oneapi-Request-Id`), its quota, the key's group and that group's ratio (`other`).
 * Read at most once per node run, after the run's calls, never per item.
 */

export const USAGE_LOG_ROUTE = '/api/log/token';
export const USAGE_LOG_SOURCE =
	"the gateway's usage log (GET /api/log/token, the call's request id)";

/** The relay's request id of an answer (`X-Oneapi-Request-Id`), when it names a plain one. */
export function relayRequestId(headers: IDataObject | undefined): string | undefined {
	const id = headers?.['x-oneapi-request-id'];
	return typeof id === 'string' && /^[\w-]{1,64}$/.test(id) ? id : undefined;
}

/** One call's row: what it was charged (raw quota) and the group the relay billed the key in. */
export interface UsageRow {
	quota: number;
	group?: string;
	groupRatio?: number;
}

export type UsageLog = { rows: Map<string, UsageRow> } | { problem: string };

/** The log's `other`: a JSON text in new-api's rows (an object in some forks). */
function otherOf(value: unknown): IDataObject | undefined {
	if (typeof value !== 'string') return asObject(value);
	try {
		return asObject(JSON.parse(value.slice(0, 64 * 1024)));
	} catch {
		return undefined;
	}
}

function rowOf(raw: unknown): [string, UsageRow] | undefined {
	const row = asObject(raw);
	const id = row?.request_id;
	const quota = numberOf(row?.quota);
	// Type 2 is a consume row (model/log.go); refunds (6) and errors (5) are not the call's charge.
	if (typeof id !== 'string' || numberOf(row?.type) !== 2 || quota === undefined || quota < 0)
		return undefined;
	const group =
		typeof row?.group === 'string' && row.group !== '' ? row.group.slice(0, 60) : undefined;
	const ratio = numberOf(otherOf(row?.other)?.group_ratio);
	return [
		id,
		{
			quota,
			...(group ? { group } : {}),
			...(ratio !== undefined && ratio >= 0 ? { groupRatio: ratio } : {}),
		},
	];
}

/** The rows of the calls `wanted` names (request ids), read once per node run; or why none. */
export async function readUsageLog(ctx: GatewayContext, wanted: Set<string>): Promise<UsageLog> {
	return await oncePerRun(ctx, 'usageLog', async (): Promise<UsageLog> => {
		const answer = await quietGet(
			ctx,
			USAGE_LOG_ROUTE,
			'reading the key usage log',
			undefined,
			undefined,
			'list',
		);
		if ('problem' in answer) return { problem: answer.problem };
		const body = asObject(answer.body);
		if (body?.success === false)
			return {
				problem: `GET ${USAGE_LOG_ROUTE}: refused (${String(body.message ?? 'no reason given').slice(0, 160)})`,
			};
		if (!Array.isArray(body?.data))
			return { problem: `GET ${USAGE_LOG_ROUTE}: an answer without a list of rows` };
		const rows = new Map<string, UsageRow>();
		for (const raw of body.data) {
			const found = rowOf(raw);
			if (found && wanted.has(found[0]) && !rows.has(found[0])) rows.set(found[0], found[1]);
		}
		return { rows };
	});
}
