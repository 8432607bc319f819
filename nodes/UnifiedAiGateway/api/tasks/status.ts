/** Where a task stands, whatever family of status words its route uses (docs/gateway-contract.md §3, §10.2). */
export type TaskPhase = 'waiting' | 'running' | 'succeeded' | 'failed';

/**
 * Every word the relay and its forks use (docs/gateway-contract.md §3, §10.2), compared without
 * case: NOT_START, SUBMITTED, QUEUED, IN_PROGRESS, SUCCESS, FAILURE, succeeded … `UNKNOWN` is left
 * out on purpose: like any word not listed it means "not known yet", and the task is polled on.
 */
const PHASES: Record<string, TaskPhase> = {
	submitted: 'waiting',
	waiting: 'waiting',
	created: 'waiting',
	pending: 'waiting',
	not_start: 'waiting',
	queued: 'waiting',
	in_progress: 'running',
	processing: 'running',
	running: 'running',
	completed: 'succeeded',
	complete: 'succeeded',
	done: 'succeeded',
	finished: 'succeeded',
	succeeded: 'succeeded',
	success: 'succeeded',
	failed: 'failed',
	failure: 'failed',
	cancelled: 'failed',
	canceled: 'failed',
	error: 'failed',
	expired: 'failed',
	timeout: 'failed',
	timed_out: 'failed',
	deleted: 'failed',
};

/**
 * The relay's other final words, by a rule rather than a list (docs/gateway-contract.md §3): a word
 * that says the task ended without its result (failed, cancelled, aborted, rejected, timed out,
 * expired, deleted, terminated, blocked, refused, denied, errored, in any case) is final; a word
 * still on its way there (`cancelling`, `deleting`) is not yet.
 */
const ENDED_WITHOUT_RESULT =
	/^(?:.*_)?(?:fail|cancel|abort|reject|time_?out|timed_?out|expire|delete|terminat|block|refus|denied|error)/;

/** The phase of a raw status; undefined for a word never seen before (keep waiting, name it later). */
export function phaseOf(status: unknown): TaskPhase | undefined {
	if (typeof status !== 'string') return undefined;
	const word = status
		.trim()
		.toLowerCase()
		.replace(/[\s-]+/g, '_');
	return (
		PHASES[word] ??
		(ENDED_WITHOUT_RESULT.test(word) && !word.endsWith('ing') ? 'failed' : undefined)
	);
}

/** Progress as a number 0-100, from `50`, `"50"` or `"50%"`. */
export function readProgress(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return clamp(value);
	if (typeof value === 'string') {
		const match = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(value);
		if (match) return clamp(Number(match[1]));
	}
	return undefined;
}

function clamp(n: number): number {
	return Math.max(0, Math.min(100, n));
}
