import type { IPollFunctions } from 'n8n-workflow';

/**
 * How long one poll may work. n8n 2.x's durable scheduler abandons a poll that runs past
 * N8N_SCHEDULER_POLL_TIMEOUT (45 s by default) and offers `getPollBudgetMs()` on the poll
 * context (36 s under the defaults; n8n-workflow 1.x has no such method). Without it a poll
 * keeps to this default, so it would also fit 2.x's default timeout.
 */
export const DEFAULT_POLL_BUDGET_MS = 40_000;
/** Below this, no new task query is started: it is left for the next poll. */
export const MIN_QUERY_MS = 2_000;
/** Below this, a finished task's files are not fetched: the task is left for the next poll. */
export const MIN_DOWNLOAD_MS = 5_000;

export interface PollBudget {
	startedAt: number;
	deadlineAt: number;
	remaining(): number;
}

/** The budget n8n offers this poll (feature-detected), else the default. */
export function pollBudget(ctx: IPollFunctions): PollBudget {
	const startedAt = Date.now();
	const offer = (ctx as { getPollBudgetMs?: unknown }).getPollBudgetMs;
	let budgetMs = DEFAULT_POLL_BUDGET_MS;
	if (typeof offer === 'function') {
		const offered = Number((offer as () => unknown).call(ctx));
		if (Number.isFinite(offered) && offered > 0) budgetMs = offered;
	}
	const deadlineAt = startedAt + budgetMs;
	return { startedAt, deadlineAt, remaining: () => deadlineAt - Date.now() };
}
