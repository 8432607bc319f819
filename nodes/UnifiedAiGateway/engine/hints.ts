import type { GatewayContext } from '../transport/context';

export type HintType = 'info' | 'warning';

/** n8n keeps a hint within this many characters (its community lint's hint-max-length). */
export const MAX_HINT_LENGTH = 120;

interface HintSink {
	addExecutionHints?: (
		...hints: Array<{ message: string; type?: HintType; location?: 'outputPane' }>
	) => void;
}

/**
 * A line above the node's output, where people look after a run (n8n-core keeps it on the run's
 * task data as `hints`). Both n8n lines give execute contexts addExecutionHints; poll contexts
 * and list loads have none, so it is looked up, and a hint is never allowed to fail the run.
 */
export function addHint(ctx: GatewayContext, message: string, type: HintType = 'info'): void {
	const sink = (ctx as HintSink).addExecutionHints;
	if (typeof sink !== 'function') return;
	try {
		sink.call(ctx, { message, type, location: 'outputPane' });
	} catch {
		// Only the hint is lost: the output and the log still say everything it says.
	}
}
