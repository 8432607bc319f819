import type { IDataObject } from 'n8n-workflow';

import type { GatewayContext } from '../transport/context';
import { asObject } from '../transport/responses';
import { numberOf, oncePerRun, quietGet, recall, remember } from './runReads';

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

/** How long the group a usage log row named prices the key's next runs (an admin may move the key). */
const LEARNED_MS = 10 * 60_000;
const LEARNED = 'learnedKeyGroup';
const LIMITED = 'usageLogLimited';
const LIMITED_MS = 10 * 60_000;

/** Keeps the group and ratio a row of this key's log was billed at, for the estimates of the next runs. */
export async function rememberKeyGroup(
	ctx: GatewayContext,
	rows: Iterable<UsageRow>,
): Promise<void> {
	for (const row of rows)
		if (row.group !== undefined && row.groupRatio !== undefined)
			return await remember(ctx, LEARNED, { group: row.group, ratio: row.groupRatio });
}

/** The group and ratio the usage log last billed this key at, within the last ten minutes. */
export async function learnedKeyGroup(
	ctx: GatewayContext,
): Promise<{ group: string; ratio: number } | undefined> {
	return await recall(ctx, LEARNED, LEARNED_MS);
}

/** The rows of the calls `wanted` names (request ids), read once per node run; or why none. */
export async function readUsageLog(ctx: GatewayContext, wanted: Set<string>): Promise<UsageLog> {
	return await oncePerRun(ctx, 'usageLog', async (): Promise<UsageLog> => {
		// A 429 is remembered ten minutes: the route's limit is shared with the quota route's reads.
		const limited = await recall<string>(ctx, LIMITED, LIMITED_MS);
		if (limited) return { problem: `${limited} (not asked again for ten minutes)` };
		const answer = await quietGet(
			ctx,
			USAGE_LOG_ROUTE,
			'reading the key usage log',
			undefined,
			undefined,
			'list',
		);
		if ('problem' in answer) {
			if (answer.status === 429) await remember(ctx, LIMITED, answer.problem);
			return { problem: answer.problem };
		}
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
