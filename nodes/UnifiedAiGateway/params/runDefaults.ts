import { QUERY_ROUTES, type QueryRoute } from '../api/tasks/routes';

/**
 * How one operation runs with its Waiting and Options entries left out: each billed operation
 * declares its own object (its `DEFAULTS`), and both its form (runFields.ts: each field's default
 * and its "Left out: …" words) and its run (runSettings.ts) are built from it, so the two cannot
 * disagree.
 */
export interface RunDefaults {
	/** Max Wait (Minutes) left out. */
	maxWaitMinutes: number;
	/**
	 * Poll Interval left out or 0. Undefined: each query route's advised interval
	 * (api/tasks/routes.ts), which is also the floor a user's interval is raised to.
	 */
	pollIntervalSeconds?: number;
	/** The query routes the operation's tasks are read on: the routes the Poll Interval's words name. */
	routes: readonly QueryRoute[];
	/** Options → Concurrency left out. */
	concurrency: number;
}

/** "every 5 s", or the advice of each of the operation's routes: what a Poll Interval left out means. */
export function pollIntervalWords(defaults: RunDefaults): string {
	if (defaults.pollIntervalSeconds) return `every ${defaults.pollIntervalSeconds} s`;
	const advice = [...new Set(defaults.routes)]
		.map((route) => `${QUERY_ROUTES[route].label} ${QUERY_ROUTES[route].intervalMs / 1000} s`)
		.join(', ');
	return `the gateway's advised interval for the task's route (${advice})`;
}
