import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Created } from '../../transport/created';
import type { QueryRoute } from '../../api/tasks/routes';
import type { TaskSnapshot } from '../../api/tasks/snapshot';
import type { SpendGuard } from '../spend/guard';
import type { WaitOutcome } from '../waiting/waiter';

/*
 * The shape of one batch of billed work (engine/running/jobRunner.ts runs it): what each item's submit
 * produced and what a resource supplies to check, submit and output its items.
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

export interface WaitSettings {
	deadlineMs?: number;
	intervalMs?: number;
	onTimeout: 'pending' | 'fail';
}

export interface JobPlan<P, S extends Submitted> {
	continueOnFail: boolean;
	concurrency: number;
	/** Checks and builds one item's request; runs for every item before anything is sent. */
	prepare(itemIndex: number): P | Promise<P>;
	/** Sends it. Called once per item, never repeated. */
	submit(prepared: P, itemIndex: number): Promise<S>;
	/** Waiting for tasks; false returns the task ids at once. */
	wait: false | WaitSettings;
	/** Output of a finished item; `snapshot` is undefined for a sync answer. */
	succeed(
		prepared: P,
		submitted: S,
		itemIndex: number,
		snapshot?: TaskSnapshot,
	): Promise<INodeExecutionData[]>;
	/** What the work is, for messages: "image job". */
	noun: string;
	/** What a pending item should also say about its request (model, parameters, cost). */
	describePending?(prepared: P, submitted: S): IDataObject;
	/** Billed work: checks the run's cost before the first submit and reports it after (engine/spend). */
	spendGuard?: SpendGuard<P>;
	/** Off when nothing is created here (Task → Wait for Completion): no receipts, no retry memory. */
	receipts?: boolean;
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
