import type { INode } from 'n8n-workflow';
import { ManualExecutionCancelledError, NodeApiError, NodeOperationError } from 'n8n-workflow';

/** An error passed on unchanged when it is n8n's own (ours all are; a Stop's cancellation too), else wrapped as one. */
export function nodeErrorOf(node: INode, error: unknown): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError || error instanceof ManualExecutionCancelledError) return error;
	return new NodeOperationError(node, error as Error);
}
