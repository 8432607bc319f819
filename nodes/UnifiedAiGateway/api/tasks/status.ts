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
};

/** The phase of a raw status; undefined for a word never seen before (keep waiting, name it later). */
export function phaseOf(status: unknown): TaskPhase | undefined {
	if (typeof status !== 'string') return undefined;
	return PHASES[
		status
			.trim()
			.toLowerCase()
			.replace(/[\s-]+/g, '_')
	];
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
