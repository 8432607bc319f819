import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { addHint } from '../hints';
import type { WaitSettings } from './types';
import { QUERY_ROUTES, type QueryRoute } from '../../api/tasks/routes';
import { executionLimit } from '../waiting/timeLimit';

/** Shown on every billed run with n8n's Retry On Fail on: what a retry does with tasks already created. */
export const RETRY_ON_FAIL_HINT =
	'Retry On Fail is on: a retry re-uses tasks this execution already ' +
	'created; items whose submit failed are submitted again';

/** Where pending items go when a render outlasts a node run (the loop of examples/long-render-loop.json). */
const LONG_RENDER_HINT =
	'Long renders: a Wait node (70 s or more), then Task → Check Once in a loop, keeps waiting through n8n restarts';

function plural(n: number, word: string): string {
	return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The output pane's lines after a job run: items still pending and what to connect next, and
 * what Retry On Fail does to a billed run. `billed`: this run submitted (and paid for) tasks.
 */
export function hintJobRun(
	ctx: IExecuteFunctions,
	output: INodeExecutionData[],
	billed: boolean,
	waited: boolean,
): void {
	const pending = output.filter((item) => item.json.pending === true).length;
	if (pending > 0 && billed) {
		const state = waited
			? `${plural(pending, 'item')} still running after Max Wait`
			: `${plural(pending, 'task')} submitted without waiting`;
		addHint(
			ctx,
			`${state}: collect them with Task → Wait for Completion (re-running this node bills again)`,
			waited ? 'warning' : 'info',
		);
		addHint(ctx, LONG_RENDER_HINT, 'info');
	} else if (pending > 0) {
		addHint(
			ctx,
			`${plural(pending, 'task')} still running after Max Wait (pending: true): ` +
				`run Task → Wait for Completion later; reading is free`,
			'warning',
		);
		addHint(ctx, LONG_RENDER_HINT, 'info');
	}
	if (billed && ctx.getNode().retryOnFail === true) addHint(ctx, RETRY_ON_FAIL_HINT, 'info');
}

/** An in-node wait longer than this is worth the Wait-node loop (docs/receipts.md). */
export const LONG_IN_NODE_WAIT_MS = 5 * 60_000;

const LOOP_POINTER = 'Use a Wait-node loop: README "Long renders that survive a restart"';

/** n8n Cloud, as the node can tell without `process`: the instance's own address. */
function onN8nCloud(ctx: IExecuteFunctions): boolean {
	try {
		return /\.n8n\.cloud$/i.test(new URL(ctx.getInstanceBaseUrl()).hostname);
	} catch {
		return false;
	}
}

/**
 * Where the user decides how to wait, the output pane says when a wait inside the node cannot
 * outlive n8n: on n8n Cloud, under an execution time limit, or for a Max Wait over 5 minutes (a
 * restart, a deploy or a crash ends it; the task ids survive in the receipts, the wait does not).
 * `routes`: the query routes of the tasks waited for (Max Wait 0 follows each route's window).
 * One line, at most 120 characters.
 */
export function hintInNodeWait(
	ctx: IExecuteFunctions,
	wait: WaitSettings,
	routes: QueryRoute[],
): void {
	if (routes.length === 0) return;
	const longest = Math.max(
		...routes.map((route) =>
			wait.deadlineMs && wait.deadlineMs > 0 ? wait.deadlineMs : QUERY_ROUTES[route].deadlineMs,
		),
	);
	const limit = executionLimit(ctx);
	if (onN8nCloud(ctx))
		addHint(ctx, `On n8n Cloud a restart or time limit ends this wait. ${LOOP_POINTER}`);
	else if (limit) addHint(ctx, `A time limit or restart of n8n ends this wait. ${LOOP_POINTER}`);
	else if (longest > LONG_IN_NODE_WAIT_MS)
		addHint(
			ctx,
			`A restart of n8n ends this wait of up to ${Math.round(longest / 60_000)} min. ${LOOP_POINTER}`,
		);
}
