import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Created } from '../../transport/created';
import type { QueryRoute } from '../../api/tasks/routes';
import type { WaitOutcome } from '../waiting/waiter';

/*
 * What a batch (batch.ts) holds per item as it runs: what the item's submit produced, how the run
 * waits, and the item's state from its reading to its output or error.
 */

/** What one item's submit produced: a task to wait for, or a sync answer. */
export interface Submitted {
	taskId?: string;
	route?: QueryRoute;
	estimatedTimeS?: number;
	language?: string;
	startedAt: number;
	raw: IDataObject;
	/** A synchronous answer's result URLs: its receipt, recorded like a task id (receipts.ts). */
	receiptUrls?: string[];
}

/** How a run waits for its tasks (params/waitFields.ts reads it from the Waiting collection). */
export interface WaitSettings {
	deadlineMs?: number;
	intervalMs?: number;
	onTimeout: 'pending' | 'fail';
}

export type ItemError = Error & { description?: string | null; context?: IDataObject };

/** One item as the run goes: prepared, submitted, its wait's outcome, then its output or error. */
export interface ItemState<P, S> {
	prepared?: P;
	submitted?: S;
	outcome?: WaitOutcome;
	error?: ItemError;
	/** Whether the failure left a task (and a charge) behind: yes, no, or unknown (the answer was lost). */
	created?: Created;
	output?: INodeExecutionData[];
	/** Created by an earlier try of this run (Retry On Fail): taken up, not submitted again. */
	takenUp?: boolean;
}
