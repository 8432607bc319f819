import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { addHint } from './hints';

/** Shown on every billed run with n8n's Retry On Fail on: what a retry does with tasks already created. */
export const RETRY_ON_FAIL_HINT =
	'Retry On Fail is on: a retry re-uses tasks this execution already created; items whose submit failed are submitted again';

function plural(n: number, word: string): string {
	return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The output pane's lines after a job run: items still pending and what to connect next, and
 * what Retry On Fail does to a billed run. `billed`: this run submitted (and paid for) tasks.
 */
export function hintJobRun(ctx: IExecuteFunctions, output: INodeExecutionData[], billed: boolean, waited: boolean): void {
	const pending = output.filter((item) => item.json.pending === true).length;
	if (pending > 0 && billed) {
		const state = waited ? `${plural(pending, 'item')} still running after Max Wait` : `${plural(pending, 'task')} submitted without waiting`;
		addHint(
			ctx,
			`${state} (pending: true, with the task ID). To collect them connect Task → Wait for Completion, or for long renders a Wait node (65 s or more) and Task → Check Once in a loop (README: Long renders that survive a restart); running this node again would submit and bill them again.`,
			waited ? 'warning' : 'info',
		);
	} else if (pending > 0) {
		addHint(
			ctx,
			`${plural(pending, 'task')} still running after Max Wait (pending: true). Run Task → Wait for Completion on them again later, or send them through a Wait node (65 s or more) and Task → Check Once in a loop (README: Long renders that survive a restart); reading a task is free.`,
			'warning',
		);
	}
	if (billed && ctx.getNode().retryOnFail === true) addHint(ctx, RETRY_ON_FAIL_HINT, 'info');
}
