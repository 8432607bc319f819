import { sleep } from 'n8n-workflow';

import { cancelSignalOf, type GatewayContext } from './context';
import { stopError } from './nodeError';

/**
 * Waits `ms`, or less: the wait ends the moment the execution's cancel signal fires, with the one
 * Stop error (nodeError.ts). Our own because n8n-workflow 2.x no longer exports `sleepWithAbort`;
 * both lines export `sleep`. `sleep` cannot be cleared, so the wait is taken in short slices:
 * after Stop, no timer longer than one slice keeps the process busy. Without a context (or in one
 * without a cancel signal: polls, list loads) it is a plain wait.
 */
const SLICE_MS = 1_000;

export async function abortableSleep(
	ms: number,
	ctx?: GatewayContext,
	itemIndex?: number,
): Promise<void> {
	const endAt = Date.now() + Math.max(0, ms);
	const signal = ctx ? cancelSignalOf(ctx) : undefined;
	if (!ctx || !signal) {
		await sleep(Math.max(0, ms));
		return;
	}
	let onAbort: (() => void) | undefined;
	const aborted = new Promise<never>((_, reject) => {
		onAbort = () => reject(stopError(ctx.getNode(), 'A wait', { itemIndex }));
		if (signal.aborted) onAbort();
		else signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		for (let left = endAt - Date.now(); left > 0; left = endAt - Date.now()) {
			await Promise.race([sleep(Math.min(left, SLICE_MS)), aborted]);
		}
		if (signal.aborted) await aborted;
	} finally {
		if (onAbort) signal.removeEventListener('abort', onAbort);
	}
}

/** Throws the Stop error when the execution was stopped; a check before work that must not start then. */
export async function unlessStopped(ctx: GatewayContext, itemIndex?: number): Promise<void> {
	if (cancelSignalOf(ctx)?.aborted) await abortableSleep(0, ctx, itemIndex);
}
