import type { IDataObject, INode } from 'n8n-workflow';
import { ManualExecutionCancelledError, NodeApiError, NodeOperationError } from 'n8n-workflow';

/*
 * The node's own errors, each with one home: the wrapper every error passes through before the
 * node throws it (nodeErrorOf), and the error every Stop ends work with (stopError).
 */

/** The message of every Stop: n8n shows it on the node; the description says what was cancelled. */
const STOPPED = 'The execution was stopped';

/**
 * The class of the Stop error. Its name says "Cancelled" because that is how n8n tells a stopped
 * run from a failed one: n8n-core's WorkflowExecute (both lines) marks the execution canceled, not
 * failed, when the error the node ended with has "Cancelled" in its name (as n8n's own
 * ManualExecutionCancelledError has).
 */
export class CancelledByStopError extends NodeOperationError {}

/**
 * The one Stop error: the execution's cancel signal fired while `cancelled` ran ("A request to
 * the gateway", "The download of …"). A NodeOperationError of the item (when there is one) whose
 * context says `stopped: true`, so no caller takes it for a failure of the work itself and tries
 * again. `more`: what the user should know besides (a download's receipt).
 */
export function stopError(
	node: INode,
	cancelled: string,
	options: { itemIndex?: number; more?: string } = {},
): CancelledByStopError {
	const error = new CancelledByStopError(node, STOPPED, {
		...(options.itemIndex === undefined ? {} : { itemIndex: options.itemIndex }),
		description: [`${cancelled} was cancelled because the workflow was stopped.`, options.more]
			.filter(Boolean)
			.join('\n'),
	});
	error.context.stopped = true;
	return error;
}

/** Whether an error is a Stop (ours, or n8n's own cancellation), not a failure of the work. */
export function isStop(error: unknown): boolean {
	return (
		error instanceof ManualExecutionCancelledError ||
		(error as { context?: IDataObject } | undefined)?.context?.stopped === true
	);
}

/**
 * The one wrapper, used wherever an error leaves for n8n: n8n's own node errors (every error of
 * ours is one) are passed on with the item they belong to; a cancellation of n8n's becomes the
 * Stop error; anything else is wrapped as a NodeOperationError of the item. `itemIndex` undefined
 * only where the error is no one item's (a trigger poll, a wait over every item that Stop ended):
 * the error then keeps the item it names, if any.
 */
export function nodeErrorOf(
	node: INode,
	error: unknown,
	itemIndex: number | undefined,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	if (error instanceof ManualExecutionCancelledError)
		return stopError(node, 'The work of this node', { itemIndex });
	return new NodeOperationError(node, error as Error, itemIndex === undefined ? {} : { itemIndex });
}
