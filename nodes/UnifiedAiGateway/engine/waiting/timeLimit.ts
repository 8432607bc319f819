import type { GatewayContext } from '../../transport/context';

/*
 * n8n cancels an execution at its time limit (the workflow's Timeout Workflow setting,
 * `settings.executionTimeout` in seconds, else the instance's EXECUTIONS_TIMEOUT, capped by
 * EXECUTIONS_TIMEOUT_MAX). A wait cancelled there outputs nothing, so a wait inside the node ends
 * early enough to output its pending items (task ids and how to resume) instead.
 */

export interface ExecutionLimit {
	/** Epoch ms at which n8n cancels the execution. */
	endsAt: number;
	/** Epoch ms at which a wait stops, leaving time to output the items. */
	waitEndsAt: number;
}

/** Time kept for output after a wait stops: a tenth of what is left, between 1 and 30 s. */
const MARGIN = { share: 0.1, minMs: 1_000, maxMs: 30_000 };

/**
 * When n8n will cancel this execution, if the node can learn it. n8n's WorkflowRunner (and a
 * queue worker's JobProcessor) put the moment in the execution's additional data
 * (`executionTimeoutTimestamp`, both lines, both limits already combined); a context that does
 * not carry it gives the workflow setting, counted from `runStartedAt` (the execution began
 * earlier, so this only errs towards waiting longer, as before).
 */
export function executionLimit(
	ctx: GatewayContext,
	runStartedAt = Date.now(),
): ExecutionLimit | undefined {
	const now = Date.now();
	let endsAt: number | undefined;
	const stamp = (ctx as { additionalData?: { executionTimeoutTimestamp?: unknown } }).additionalData
		?.executionTimeoutTimestamp;
	if (typeof stamp === 'number' && Number.isFinite(stamp) && stamp > 0) endsAt = stamp;
	else {
		let seconds: unknown;
		try {
			seconds =
				'getWorkflowSettings' in ctx && typeof ctx.getWorkflowSettings === 'function'
					? ctx.getWorkflowSettings().executionTimeout
					: undefined;
		} catch {
			seconds = undefined;
		}
		if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0)
			endsAt = runStartedAt + seconds * 1000;
	}
	if (endsAt === undefined) return undefined;
	const left = Math.max(0, endsAt - now);
	const margin = Math.min(MARGIN.maxMs, Math.max(MARGIN.minMs, left * MARGIN.share));
	return { endsAt, waitEndsAt: endsAt - margin };
}
