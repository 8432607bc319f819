import { GatewayRequestError, keyWorkedThisRun } from '../transport/request';
import type { GatewayContext } from '../transport/context';
import { asObject } from '../transport/responses';
import { readUsageToken, type QuotaReading } from './quota';

/*
 * What a bare 401 means (docs/gateway-contract.md §10.10). new-api answers a used-up,
 * expired or disabled key with the same `401 Invalid token` as a wrong one (its auth middleware
 * checks the key before anything else), so the words of the relay cannot tell them apart. Two
 * facts can: the key was accepted for a billed call earlier in this run, and the key's own usage
 * route (`GET /api/usage/token/`), which still answers for a used-up key (below zero) and names a
 * disabled one ("This token status is unavailable"). Read once per run, on the first such 401.
 */

/** What the usage route tells of the key. */
type KeyState =
	| { state: 'used-up'; left: string }
	| { state: 'expired' | 'disabled' | 'wrong' | 'accepted' }
	| { state: 'unknown'; why: string };

const readings = new WeakMap<object, Promise<KeyState>>();

const EXPIRED = /expired|过期/i;
const DISABLED = /unavailable|disabled|不可用|禁用/i;

function stateOf(answer: Awaited<ReturnType<typeof readUsageToken>>): KeyState {
	if ('problem' in answer) {
		if (answer.status === 401 && !EXPIRED.test(answer.problem) && !DISABLED.test(answer.problem))
			return { state: 'wrong' };
		if (EXPIRED.test(answer.problem)) return { state: 'expired' };
		if (DISABLED.test(answer.problem)) return { state: 'disabled' };
		return { state: 'unknown', why: answer.problem };
	}
	const reading: QuotaReading = answer;
	if (!reading.unlimited && reading.remaining !== null && reading.remaining <= 0)
		return { state: 'used-up', left: `${reading.remaining} ${reading.unit}` };
	const expiresAt = Number(asObject(reading.raw.data)?.expires_at);
	if (Number.isFinite(expiresAt) && expiresAt > 0 && expiresAt * 1000 < Date.now())
		return { state: 'expired' };
	return { state: 'accepted' };
}

/** The key's state, read at most once per node run. */
function keyState(ctx: GatewayContext, itemIndex: number): Promise<KeyState> {
	let reading = readings.get(ctx);
	if (!reading) {
		reading = readUsageToken(ctx, itemIndex).then(stateOf, (error: unknown) => ({
			state: 'unknown' as const,
			why: (error as Error).message,
		}));
		readings.set(ctx, reading);
	}
	return reading;
}

const SAME_401 =
	'This gateway answers a used-up, expired, disabled and wrong key with the same bare 401, so ' +
	"the node asked the key's own usage route (GET /api/usage/token/).";

/**
 * A billed call's bare 401 (rule key-rejected) told as what the key is: used up, expired,
 * disabled, limited (accepted by its usage route, refused here), or wrong. Nothing was charged
 * (the relay refuses before it bills): the error stays `created: no`.
 */
export async function explainKeyRefusal(
	ctx: GatewayContext,
	error: GatewayRequestError,
	itemIndex: number,
): Promise<void> {
	// What the node was doing, as the transport's message said it ("while submitting the image …").
	const action =
		/ while (.+?)(?: \(created: no\))?$/.exec(error.message)?.[1] ?? 'calling the gateway';
	const worked = keyWorkedThisRun(ctx);
	const known = await keyState(ctx, itemIndex);
	const earlier = worked ? ' It was accepted for an earlier call of this run.' : '';
	const said = (message: string, advice: string) => {
		error.message = `${message} (401) while ${action} (created: no)`;
		error.description = [`${SAME_401}${earlier}`, advice, 'Nothing was charged for this call.']
			.filter(Boolean)
			.join('\n');
		error.context.keyState = known.state;
	};
	switch (known.state) {
		case 'used-up':
			return said(
				"This API key's own quota at the gateway is used up",
				`Its usage route shows ${known.left} left. Raise the key's remaining quota (or make it ` +
					"unlimited) on the gateway's key page, or use another key; then run the items again.",
			);
		case 'expired':
			return said(
				'This API key has expired at the gateway',
				"Extend its expiry on the gateway's key page, or create a new key and paste it into the " +
					'Unified AI Gateway API credential.',
			);
		case 'disabled':
			return said(
				'This API key is disabled at the gateway',
				"Its usage route says the key's status is unavailable. Enable the key on the gateway's " +
					'key page, or use another key.',
			);
		case 'accepted':
			return said(
				'The gateway refused the API key for this call, though the key is valid with quota left',
				"The key's usage route accepts it: the key may be limited to some IP addresses or " +
					"models (its settings on the gateway's key page), or the gateway's user is disabled.",
			);
		case 'wrong':
			if (!worked) return;
			return said(
				'The gateway stopped accepting the API key during this run',
				'Its usage route refuses it too: the key was deleted or changed on the gateway. Copy the ' +
					"current key from the gateway's key page into the Unified AI Gateway API credential.",
			);
		case 'unknown':
			if (!worked) return;
			return said(
				'The gateway stopped accepting the API key during this run',
				`Most likely it is used up, expired or disabled, not wrong (its usage route could not ` +
					`be read: ${known.why}). Look at the key on the gateway's key page.`,
			);
	}
}
