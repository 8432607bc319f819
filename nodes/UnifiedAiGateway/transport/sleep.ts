import { ManualExecutionCancelledError, sleep } from 'n8n-workflow';

/**
 * Waits `ms`, or less: the wait ends the moment the execution's cancel signal fires, with the
 * error n8n itself throws for a stopped execution. Our own because n8n-workflow 2.x no longer
 * exports `sleepWithAbort`; both lines export `sleep` and `ManualExecutionCancelledError`.
 * `sleep` cannot be cleared, so the wait is taken in short slices: after Stop, no timer longer
 * than one slice keeps the process busy.
 */
const SLICE_MS = 1_000;

export async function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
	const endAt = Date.now() + Math.max(0, ms);
	if (!signal) {
		await sleep(Math.max(0, ms));
		return;
	}
	let onAbort: (() => void) | undefined;
	const aborted = new Promise<never>((_, reject) => {
		onAbort = () => reject(new ManualExecutionCancelledError(''));
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
