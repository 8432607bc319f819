import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { cancelSignalOf } from '../../transport/context';
import { nodeErrorOf } from '../../transport/nodeError';
import { unlessStopped } from '../../transport/sleep';
import { settleLimited } from '../concurrency';
import type { ItemError, ItemState, JobPlan, Submitted } from './jobPlan';
import { ReceiptLog } from './receipts';
import { createdOf } from './submitAnswer';
import { fingerprintOf, type TryMemory } from './tries';

/*
 * The submitting half of a run (engine/running/jobRunner.ts runJobs): every item read and checked before
 * any is sent, what an earlier try created taken up, the spend guard, then one submit per item
 * under the Concurrency limit, each recorded as it goes out and as it answers. The waiting half is
 * jobRunner.ts awaitResults.
 */

/** Every item prepared (read and checked, nothing sent); a failure stops the run unless Continue On Fail. */
export async function prepareAll<P, S extends Submitted>(
	ctx: IExecuteFunctions,
	plan: JobPlan<P, S>,
	itemCount: number,
): Promise<Array<ItemState<P, S>>> {
	const states: Array<ItemState<P, S>> = Array.from({ length: itemCount }, () => ({}));
	for (let i = 0; i < itemCount; i++) {
		try {
			states[i].prepared = await plan.prepare(i);
		} catch (error) {
			if (!plan.continueOnFail) throw nodeErrorOf(ctx.getNode(), error, i);
			states[i].error = error as ItemError;
			states[i].created = 'no';
		}
	}
	return states;
}

/** Told as the submits go out, so the wait can begin before the last one answers (jobRunner.ts). */
export interface SubmitWatcher<P, S extends Submitted> {
	/** Before the first submit: every item's state (taken-up tasks included) and how many may create a task. */
	start(states: Array<ItemState<P, S>>, expected: number): void;
	/** Item `itemIndex`'s submit answered; its state holds what it produced. */
	submitted(itemIndex: number): void;
}

/** Prepares every item, then submits the ones to send: never one an earlier try may have sent. */
export async function submitAll<P, S extends Submitted>(
	ctx: IExecuteFunctions,
	plan: JobPlan<P, S>,
	itemCount: number,
	memory: TryMemory | undefined,
	watcher?: SubmitWatcher<P, S>,
): Promise<Array<ItemState<P, S>>> {
	const states = await prepareAll(ctx, plan, itemCount);
	if (memory) takeUpEarlierTries(ctx, memory, states, plan.noun);
	let toSubmit = states
		.map((s, i) => ({ s, i }))
		.filter(({ s }) => s.prepared !== undefined && !s.takenUp && !s.error);
	// The spend guard sees the whole run first; its refusal stops every item before any request.
	const refusal = await plan.spendGuard?.beforeSubmit(
		toSubmit.map(({ s, i }) => ({ itemIndex: i, prepared: s.prepared as P })),
	);
	if (refusal && !plan.continueOnFail) throw refusal;
	if (refusal) {
		for (const { s } of toSubmit) Object.assign(s, { error: refusal, created: 'no' });
		toSubmit = [];
	}
	watcher?.start(states, toSubmit.length + states.filter((s) => s.takenUp).length);
	const sent = await settleLimited(toSubmit, plan.concurrency, async ({ s, i }) => {
		s.submitted = await plan.submit(s.prepared as P, i);
		watcher?.submitted(i);
		return s.submitted;
	});
	sent.forEach((result, k) => {
		const state = toSubmit[k].s;
		if (result.ok) state.submitted = result.value;
		else {
			state.error = result.error as ItemError;
			state.created = createdOf(result.error);
		}
	});
	// A failed submit does not stop the others' waits: the error thrown at the end carries their results.
	return states;
}

/**
 * The plan with every submit recorded in the receipts (custom data, receipt executions, log) as it goes out and as
 * it answers, and no new submit started once Stop was pressed.
 */
export function keepingIds<P, S extends Submitted>(
	ctx: IExecuteFunctions,
	plan: JobPlan<P, S>,
	memory?: TryMemory,
): JobPlan<P, S> {
	if (plan.receipts === false) return plan;
	// Read before this try sends anything: what is 'sending' now was sent by an earlier try.
	const receipts = new ReceiptLog(ctx, plan.noun, memory?.unanswered(), memory?.createdBefore());
	const signal = cancelSignalOf(ctx);
	return {
		...plan,
		submit: async (prepared, itemIndex) => {
			await unlessStopped(ctx, itemIndex); // the Stop error: nothing sent
			const fingerprint = memory ? fingerprintOf(prepared) : '';
			memory?.sending(itemIndex, fingerprint);
			receipts.submitting(itemIndex);
			const answer = await plan.submit(prepared, itemIndex).then(
				(submitted) => ({ submitted, error: undefined }),
				(error: unknown) => ({ submitted: undefined, error }),
			);
			// A lost answer (Stop cancels the request in flight, too) stays listed as sent: the task may exist.
			if (answer.error === undefined || (createdOf(answer.error) === 'no' && !signal?.aborted)) {
				receipts.answered(
					itemIndex,
					answer.submitted?.taskId,
					answer.submitted?.route,
					answer.submitted?.receiptUrls,
				);
				if (answer.submitted) memory?.created(itemIndex, fingerprint, answer.submitted);
				else memory?.forget(itemIndex);
			}
			if (answer.submitted) return answer.submitted;
			throw nodeErrorOf(ctx.getNode(), answer.error, itemIndex);
		},
	};
}

/**
 * Retry On Fail: what an earlier try of this run created is taken up (a task is waited for or
 * read, a sync answer's result URLs downloaded again), and a submit that may have been created
 * without an answer stays an error: neither is sent again. Everything else is submitted.
 */
function takeUpEarlierTries<P, S extends Submitted>(
	ctx: IExecuteFunctions,
	memory: TryMemory,
	states: Array<ItemState<P, S>>,
	noun: string,
): void {
	states.forEach((state, i) => {
		if (state.prepared === undefined) return;
		const record = memory.recall(i, fingerprintOf(state.prepared));
		if (record?.state === 'created' && record.output) {
			// Finished and downloaded in an earlier try: output again, neither read nor fetched again.
			state.submitted = record.submitted as S;
			state.output = record.output.map((item) => ({ ...item }));
			state.takenUp = true;
			ctx.logger?.info(
				`Unified AI Gateway: execution ${ctx.getExecutionId()} node "${ctx.getNode().name}" item ${i}: Retry On Fail outputs the result of ${record.submitted.taskId ? `task ${record.submitted.taskId}` : 'the answer'} an earlier try downloaded, instead of submitting or downloading again`,
			);
		} else if (record?.state === 'created') {
			// A fresh start: the downloads' deadline (Max Wait) counts from this try, as the wait does;
			// the earlier try's start would leave a retry only the last few seconds for its files.
			state.submitted = { ...record.submitted, startedAt: Date.now() } as S;
			state.takenUp = true;
			ctx.logger?.info(
				`Unified AI Gateway: execution ${ctx.getExecutionId()} node "${ctx.getNode().name}" item ${i}: Retry On Fail takes up ${record.submitted.taskId ? `task ${record.submitted.taskId}` : 'the answer'} of an earlier try instead of submitting again`,
			);
		} else if (record?.state === 'sending') {
			state.error = new NodeOperationError(
				ctx.getNode(),
				`The ${noun} of this item may have been created: an earlier try sent it and got no task id back`,
				{
					itemIndex: i,
					description: `Retry On Fail did not send it again, so it is not billed twice. Check the account's task list; if no task was created, run the workflow again.`,
				},
			);
			state.created = 'unknown';
		}
	});
}
