import type { GatewayContext } from '../transport/context';
import { BALANCE_ROUTE_MISSING, BALANCE_ROUTE_SERVED, ROUTE_MEMORY_MS } from './account';
import { oncePerRun, quietGet, recall, remember } from './runReads';

/*
 * Which build of the relay the gateway runs, read once where a request's form depends on it
 * (docs/gateway-contract.md §10.11): the document's gateway adds its own routes to the open-source
 * relay (`/v1/balance`, `/v1/tasks`, uploads) and its own request fields (gpt-image-2's ratio with
 * `resolution`); a plain new-api or one-api lacks both and answers the route with its NoRoute 404
 * (`Invalid URL (GET /v1/balance)`). `GET /api/status` cannot tell them apart: both serve it.
 */

export interface RelayBuild {
	/** extended: the document's routes answer; plain: the open-source relay; unknown: not readable. */
	kind: 'extended' | 'plain' | 'unknown';
	/** What showed it, in words a note can repeat. */
	evidence: string;
}

/** What a plain build showed, in the words of a note (the gateway's own text is in the balance read's). */
const NO_BALANCE_ROUTE = 'GET /v1/balance answered 404';

/**
 * `GET /v1/balance` (free, the key's own), once per run; either answer is kept 10 minutes, the 404
 * as the balance read's own memory of it (api/account.ts): a key refused or a gateway down says
 * nothing of the build and is read again next run.
 */
export async function readRelayBuild(ctx: GatewayContext, itemIndex?: number): Promise<RelayBuild> {
	return await oncePerRun(ctx, 'relayBuild', async () => {
		const missing = await recall<string>(ctx, BALANCE_ROUTE_MISSING, ROUTE_MEMORY_MS);
		if (missing !== undefined) return { kind: 'plain', evidence: NO_BALANCE_ROUTE };
		const served = await recall<string>(ctx, BALANCE_ROUTE_SERVED, ROUTE_MEMORY_MS);
		if (served !== undefined) return { kind: 'extended', evidence: served };
		const answer = await quietGet(
			ctx,
			'/v1/balance',
			'reading which relay build the gateway runs',
			itemIndex,
		);
		if (!('problem' in answer)) {
			const evidence = 'GET /v1/balance answered';
			await remember(ctx, BALANCE_ROUTE_SERVED, evidence);
			return { kind: 'extended', evidence };
		}
		if (answer.status !== 404) return { kind: 'unknown', evidence: answer.problem };
		await remember(ctx, BALANCE_ROUTE_MISSING, answer.problem);
		return { kind: 'plain', evidence: NO_BALANCE_ROUTE };
	});
}
