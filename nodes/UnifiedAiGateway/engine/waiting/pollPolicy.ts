import { GatewayRequestError } from '../../transport/request';
import { backoffDelay } from '../../transport/retry';

/**
 * How the engine treats the answers to a poll of a task that exists (when a running task is read
 * next is pollSchedule.ts's part). One policy for the node's
 * waits and the trigger, so both call a live task failed only for the same reasons.
 */
export const POLL_POLICY = {
	/**
	 * Answers in a row that give no reading of the task (404, 400 task_not_exist, 401, 403, a
	 * 200 that is not JSON) before the task is reported: one such answer is a gateway hiccup
	 * (maintenance page, a replica that has not seen the task yet), not a verdict.
	 */
	doubtfulAnswersToReport: 3,
	/** Polls in flight at once, over all tasks of one wait. */
	inFlight: 10,
	/** One poll may take this long; a slower answer only delays its own task. */
	timeoutMs: 30_000,
	/**
	 * Reads of a task that says finished but names no file before it is called failed: a gateway
	 * may flag it completed one read before it writes the URL.
	 */
	readsWithoutUrl: 3,
	/**
	 * The longest Retry-After a read of a task is held back by. The header is the gateway's hint,
	 * not its verdict: a date in the year 9999 or a day is read as "later", the task read again
	 * after this, and the wait goes on to its Max Wait as ever.
	 */
	maxRetryAfterMs: 60_000,
};

/**
 * What one failed poll means. `stop`: not a gateway answer (Stop, missing settings): ends the
 * wait. `transient`: 429, 5xx, a dropped or timed-out request: ask again later, no count.
 * `doubtful`: the gateway answered but not with the task: counts towards the report.
 */
export type PollFault = 'stop' | 'transient' | 'doubtful';

export function pollFaultOf(error: unknown): PollFault {
	if (!(error instanceof GatewayRequestError)) return 'stop';
	return error.transient ? 'transient' : 'doubtful';
}

/** A refusal of the key or the account (401, 403), not of one task: the same for every task. */
export function isAccountRefusal(error: unknown): boolean {
	return error instanceof GatewayRequestError && ['401', '403'].includes(String(error.httpCode));
}

/**
 * The wait after a failed poll: backoff with jitter, at least the interval and any Retry-After,
 * that capped at POLL_POLICY.maxRetryAfterMs (or the interval, if longer).
 */
export function failedPollDelay(
	intervalMs: number,
	failuresInRow: number,
	retryAfterMs = 0,
): number {
	const hinted = Math.min(retryAfterMs, Math.max(POLL_POLICY.maxRetryAfterMs, intervalMs));
	return Math.max(hinted, intervalMs, backoffDelay(failuresInRow));
}

/**
 * The report after too many doubtful answers: the task may well be alive, so say how to check,
 * and the state an earlier read saw (`lastSeen`: "'in_progress' at 40%").
 */
export function doubtfulVerdict(
	taskId: string,
	count: number,
	lastAnswer: string,
	lastSeen?: string,
): string {
	return (
		`Task ${taskId} could not be read: ${count} checks in a row got no ` +
		`reading of the task (last answer: ${lastAnswer})${lastSeen ? `; it was last seen ${lastSeen}` : ''}. ` +
		`The task may still be running or finished: check it later with Task → ` +
		`Get or Task → Wait for Completion; do not submit it again.`
	);
}

/**
 * The report on a task the gateway calls finished that still names no file after the reads the
 * policy allows (POLL_POLICY.readsWithoutUrl; `reads` says how they were counted): not a failure
 * of the task, which is finished and may be billed, so it says what is missing and what to do.
 */
export function withoutUrlVerdict(
	taskId: string,
	status: string,
	reads: string,
): { message: string; advice: string } {
	return {
		message:
			`Task ${taskId}: the gateway reported it completed (status '${status}') ` +
			`without a result URL, ${reads}, so there is nothing to download yet`,
		advice:
			'The task is finished on the gateway and may be billed: do not submit it ' +
			'again. A gateway may write the URL later: read the task again in a while ' +
			'with Task → Get or Task → Download Result (this task ID); if it never ' +
			'comes, ask the gateway admin.',
	};
}
