import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { cancelSignalOf } from '../../transport/context';
import { nodeErrorOf } from '../../transport/nodeError';
import { unlessStopped } from '../../transport/sleep';
import { estimatedTimeOf, type TaskSnapshot } from '../../api/tasks/snapshot';
import { reportedChargeJson } from '../../api/charges';
import { limiter, settleLimited } from '../concurrency';
import { downloadsAtOnce } from '../files/downloads';
import { createSpendGuard, type Estimator, type SpendGuard } from '../spend/guard';
import type { ItemEstimate, SpendSettings } from '../spend/types';
import { TaskFeed } from '../waiting/taskFeed';
import { waitForTasks, type PendingTask, type WaitOutcome } from '../waiting/waiter';
import {
	errorJson,
	failure,
	finished,
	pendingItem,
	reportedFailed,
	taskError,
	type PendingFacts,
} from './itemResults';
import type { RunOptions } from './perItem';
import { ReceiptLog } from './receipts';
import { hintInNodeWait, hintJobRun } from './runHints';
import { createdOf } from './submitAnswer';
import { isToolRun, toolPendingJson, toolWait } from './toolMode';
import { fingerprintOf, tryMemory, type TryMemory } from './tries';
import type { ItemError, ItemState, Submitted, WaitSettings } from './types';
import { errorItem } from './perItem';

/*
 * A batch: one run of an operation over all its input items, as the operation's execute calls it,
 * one step after the other in the order they happen (Image → Generate, for one):
 *
 *   const batch = await readItems(this, run, settings, readJob);      every item read and checked, nothing sent
 *   await checkSpend(batch, readSpend, estimate);                       the Spend Guard, before any request
 *   const submits = submitItems(batch, submitJob);                      one billed call per item, under Concurrency
 *   const results = await waitForResults(batch, submits, itemsOf);      each task read until it ends, its items then
 *   return await outputItems(batch, results, pendingFacts);             input order, pending and error items, summary
 *
 * What each step guarantees is the engine's, whatever the operation: nothing is sent before every
 * item is read; every submit is receipted as it goes out and as it answers (receipts.ts) and never
 * repeated, by this run or by n8n's Retry On Fail (tries.ts); a pressed Stop ends every step; a task
 * id is never dropped (a pending item carries it); an AI Agent's tool call waits briefly
 * (toolMode.ts). What the operation brings are its own functions: how an item is read, what one
 * submit sends, what a finished item outputs.
 */

/** How a batch runs: what its work is, how many at once, how it waits (read by the operation). */
export interface BatchSettings {
	/** What one item's work is called in messages: "image job". */
	noun: string;
	/** How many submits (and downloads) run at once: Options → Concurrency. */
	concurrency: number;
	/** The wait for tasks (Wait for Result on), or false: the task ids are output at once. */
	wait: false | WaitSettings;
	/**
	 * 'billed': each submit is a paid request (receipts, Retry On Fail's memory, a tool's task
	 * created here). 'reads': the tasks exist already (Task → Wait for Completion): nothing is sent
	 * that costs anything, nothing to receipt or remember.
	 */
	work: 'billed' | 'reads';
}

/** One run of an operation over its items, from readItems to outputItems. */
export interface Batch<P> {
	readonly ctx: IExecuteFunctions;
	/** As the operation read them; an AI Agent's tool call waits at most a minute (toolMode.ts). */
	readonly settings: BatchSettings;
	readonly continueOnFail: boolean;
	/** Every input item, by index: its request, its answer, its wait, its items or error. */
	readonly states: Array<ItemState<P, Submitted>>;
	/** An AI Agent's tool call: a pending task is answered in words a model can act on. */
	readonly tool: boolean;
	/** What earlier tries of this run created (Retry On Fail); billed work only. */
	readonly memory?: TryMemory;
	/** Where every submit is recorded as it goes out and as it answers; billed work only. */
	readonly receipts?: ReceiptLog;
	/** Set by checkSpend: the run's estimate, each item's part of it, the summary at the end. */
	spendGuard?: SpendGuard<P>;
}

/**
 * Step 1. Every item read and checked (`read`: the operation's own, sends nothing); a failure stops
 * the run, naming the item, before anything is sent (unless Continue On Fail: the item becomes an
 * error item). With Retry On Fail, what an earlier try of this run created is taken up here.
 */
export async function readItems<P>(
	ctx: IExecuteFunctions,
	run: RunOptions,
	settings: BatchSettings,
	read: (itemIndex: number) => P | Promise<P>,
): Promise<Batch<P>> {
	const tool = isToolRun(ctx);
	const billed = settings.work === 'billed';
	// Only work that creates something is remembered for a retry (Task → Wait creates nothing).
	const memory = billed ? tryMemory(ctx) : undefined;
	const batch: Batch<P> = {
		ctx,
		settings: tool ? { ...settings, wait: toolWait(settings.wait) } : settings,
		continueOnFail: run.continueOnFail,
		states: Array.from({ length: run.items.length }, () => ({})),
		tool,
		memory,
		// Made before this try sends anything: what is 'sending' now was sent by an earlier try.
		receipts: billed
			? new ReceiptLog(ctx, settings.noun, memory?.unanswered(), memory?.createdBefore())
			: undefined,
	};
	for (let i = 0; i < batch.states.length; i++) {
		try {
			batch.states[i].prepared = await read(i);
		} catch (error) {
			if (!batch.continueOnFail) throw nodeErrorOf(ctx.getNode(), error, i);
			batch.states[i].error = error as ItemError;
			batch.states[i].created = 'no';
		}
	}
	if (memory) takeUpEarlierTries(batch, memory);
	return batch;
}

/**
 * Step 2. The Spend Guard sees the whole run before the first request: every item to submit is
 * estimated (`estimate`, the gateway's price list at hand), the cap and the balance checked; a
 * refusal stops every item, nothing sent. `readSettings` reads the Spend Guard options
 * (params/spendGuardOptions.ts; a bad option is a refusal too).
 */
export async function checkSpend<P>(
	batch: Batch<P>,
	readSettings: () => SpendSettings,
	estimate: Estimator<P>,
): Promise<void> {
	const guard = createSpendGuard<P>(batch.ctx, readSettings, estimate);
	batch.spendGuard = guard;
	const toSubmit = itemsToSubmit(batch);
	const refusal = await guard.beforeSubmit(
		toSubmit.map((i) => ({ itemIndex: i, prepared: batch.states[i].prepared as P })),
	);
	if (!refusal) return;
	if (!batch.continueOnFail) throw refusal;
	for (const i of toSubmit) Object.assign(batch.states[i], { error: refusal, created: 'no' });
}

/**
 * Step 2b. What an item's request becomes on this gateway's build, once the run's cost is checked
 * and before anything billed is sent (`fit`: may read the gateway's free routes, once per run, and
 * changes the item's request in place: its estimate is kept by it); a refusal is an item's
 * refusal, as at step 1: it stops the run unless Continue On Fail.
 */
export async function fitItems<P>(
	batch: Batch<P>,
	fit: (prepared: P, itemIndex: number) => Promise<void>,
): Promise<void> {
	for (const i of itemsToSubmit(batch)) {
		const state = batch.states[i];
		try {
			await fit(state.prepared as P, i);
		} catch (error) {
			if (!batch.continueOnFail) throw nodeErrorOf(batch.ctx.getNode(), error, i);
			Object.assign(state, { error: error as ItemError, created: 'no' });
		}
	}
}

/** An item's part of the run's estimate, made by checkSpend before anything was sent (for its output). */
export function estimateOf<P>(batch: Batch<P>, prepared: P): ItemEstimate | undefined {
	return batch.spendGuard?.estimateOf(prepared);
}

/** The submits under way: each task joins the wait the moment its submit answers. */
export interface Submits<S extends Submitted> {
	/** The tasks for the wait, in the order they joined, and the item of each. */
	readonly feed: TaskFeed<PendingTask>;
	readonly itemOf: number[];
	/** Settles when every submit has answered or failed (never rejects). */
	readonly done: Promise<void>;
	/** Only for the type: what one submit produced. */
	readonly answer?: S;
}

/**
 * Step 3. One submit per item still to send (`submit`: the operation's one billed call and its
 * answer parsed), at most Concurrency at once. Billed work is recorded in the receipts as it goes
 * out and as it answers, and no new submit starts once Stop was pressed. Not awaited: the wait
 * (waitForResults) reads the first tasks while the last are still being sent.
 */
export function submitItems<P, S extends Submitted>(
	batch: Batch<P>,
	submit: (prepared: P, itemIndex: number) => Promise<S>,
): Submits<S> {
	const { states } = batch;
	const toSubmit = itemsToSubmit(batch);
	const takenUp = states.flatMap((s, i) => (s.takenUp ? [i] : []));
	const feed = new TaskFeed<PendingTask>(toSubmit.length + takenUp.length);
	const itemOf: number[] = [];
	const offer = (i: number, startedAt?: number) => {
		const s = states[i].submitted;
		if (!batch.settings.wait || !s?.taskId || !s.route || states[i].output) return;
		itemOf.push(i);
		feed.push({
			taskId: s.taskId,
			route: s.route,
			// A task taken up from an earlier try is read at once and gets a wait of its own.
			startedAt: states[i].takenUp ? undefined : startedAt,
			estimatedTimeS: states[i].takenUp ? undefined : (s.estimatedTimeS ?? estimatedTimeOf(s.raw)),
			pollNow: states[i].takenUp,
			language: s.language,
		});
	};
	takenUp.forEach((i) => offer(i));
	const send = batch.receipts ? receipted(batch, submit) : submit;
	const done = settleLimited(toSubmit, batch.settings.concurrency, async (i) => {
		states[i].submitted = await send(states[i].prepared as P, i);
		// Its age counts from the answer: the gateway has the task by then, so a read at a given
		// age never comes before the task has run that long.
		offer(i, Date.now());
	})
		.then((sent) =>
			sent.forEach((result, k) => {
				if (result.ok) return;
				const state = states[toSubmit[k]];
				state.error = result.error as ItemError;
				state.created = createdOf(result.error);
			}),
		)
		// A failed submit does not stop the others' waits: the error at the end carries their results.
		.finally(() => feed.close());
	return { feed, itemOf, done };
}

/** What an item outputs once its answer is final: a sync answer, or its task finished (`task`). */
export type ItemsOf<P, S extends Submitted> = (
	prepared: P,
	answer: S,
	itemIndex: number,
	task?: TaskSnapshot,
) => Promise<INodeExecutionData[]>;

/** The batch after its wait: every item's state, and how a finished item's output is built. */
export interface Results<P, S extends Submitted> {
	readonly batch: Batch<P>;
	readonly itemsOf: ItemsOf<P, S>;
}

/**
 * Step 4. One wait over every task of the batch (engine/waiting/waiter.ts: the one poll loop, its
 * fault policy), fed as the submits answer; the moment a task finishes its output is built
 * (`itemsOf`, its download above all) while the other tasks still run, then every synchronous
 * answer's. Ends on Stop (the Stop error) after the submits and downloads under way have ended.
 */
export async function waitForResults<P, S extends Submitted>(
	batch: Batch<P>,
	submits: Submits<S>,
	itemsOf: ItemsOf<P, S>,
): Promise<Results<P, S>> {
	const results: Results<P, S> = { batch, itemsOf };
	const waiting = batch.settings.wait ? waitAll(results, submits) : undefined;
	// Awaited once the submits are over; a Stop meanwhile is not "unhandled".
	waiting?.catch(() => undefined);
	await submits.done;
	await waiting;
	// Every item's output is built before a failure is thrown, so the error can carry them all.
	for (let i = 0; i < batch.states.length; i++) {
		const state = batch.states[i];
		if (state.submitted && !state.submitted.taskId && !state.output && !state.error)
			await buildOutput(results, i);
	}
	return results;
}

/**
 * Step 5. The node's output, in input order: each item's own items, a pending item for a task still
 * running (its id kept, with `pendingFacts`: what it asked for and its estimate), an error item
 * (Continue On Fail). Otherwise a failed item stops the node with an error naming every other
 * item's result. Then the Spend Guard's summary and the run's hints.
 */
export async function outputItems<P, S extends Submitted>(
	{ batch }: Results<P, S>,
	pendingFacts?: PendingFacts<P, S>,
): Promise<INodeExecutionData[]> {
	const { ctx, states, settings } = batch;
	// Without waiting, each pending item carries the plan of Check Once's first rounds: the items of
	// this run are one batch, begun with its first submit's answer (engine/waiting/checkPlan.ts).
	const round = settings.wait
		? undefined
		: {
				at: Math.min(...states.map((s) => s.submitted?.startedAt ?? Infinity)),
				items: states.length,
			};
	const output: INodeExecutionData[] = [];
	for (let i = 0; i < states.length; i++) {
		const state = states[i];
		if (!state.output && !state.error && state.submitted) {
			const pending = pendingItem(state, i, settings.wait !== false, round, pendingFacts);
			state.output = [{ ...pending, pairedItem: { item: i } }];
		}
		if (state.output) output.push(...state.output);
		else {
			// A failed task whose answer carries its charge shows it (0 after the gateway's refund).
			const snapshot = state.outcome?.snapshot;
			const charge = snapshot ? await reportedChargeJson(ctx, snapshot, i) : {};
			output.push(errorItem(ctx, { ...errorJson(state), ...charge }, state.error, i));
		}
	}
	// A failing run keeps the spend guard's "Submitting …" line in custom data, as before.
	const failed = states.findIndex((s) => s.error);
	if (!batch.continueOnFail && failed >= 0) throw failure(ctx, states, failed, settings.noun);
	// A submit whose answer was lost may be billed: it counts as spent.
	await batch.spendGuard?.afterRun(
		output,
		states.flatMap((s, i) => (s.submitted || s.created === 'unknown' ? [i] : [])),
	);
	const billed = settings.work === 'billed';
	if (batch.tool) {
		for (const item of output)
			if (item.json.pending === true)
				item.json = toolPendingJson(item.json, billed ? 'created' : 'reads');
	}
	hintJobRun(ctx, output, billed, settings.wait !== false);
	if (settings.wait && !batch.tool)
		hintInNodeWait(
			ctx,
			settings.wait,
			states.flatMap((s) => (s.submitted?.taskId && s.submitted.route ? [s.submitted.route] : [])),
		);
	return output;
}

/** The items read without error, not taken up from an earlier try: the ones a submit is for. */
function itemsToSubmit<P>(batch: Batch<P>): number[] {
	return batch.states.flatMap((s, i) =>
		s.prepared !== undefined && !s.takenUp && !s.error ? [i] : [],
	);
}

/**
 * The wait over the feed: a finished task's output (its download, above all) is built while the
 * other tasks still run, as many at once as the Concurrency, or more once n8n is seen streaming
 * files to disk (engine/files/downloads.ts downloadsAtOnce): a 500-item batch does not end with 500
 * downloads in a row.
 */
async function waitAll<P, S extends Submitted>(
	results: Results<P, S>,
	{ feed, itemOf }: Submits<S>,
): Promise<void> {
	const { batch } = results;
	const { ctx, states, memory } = batch;
	const wait = batch.settings.wait as WaitSettings;
	const building: Array<Promise<void>> = [];
	const underLimit = limiter(() => downloadsAtOnce(ctx, batch.settings.concurrency));
	let outcomes: WaitOutcome[];
	try {
		outcomes = await waitForTasks(ctx, feed, {
			...wait,
			onOutcome: (k, outcome) => {
				if (outcome.kind !== 'succeeded') return;
				const i = itemOf[k];
				states[i].outcome = outcome;
				building.push(underLimit(async () => await buildOutput(results, i)));
			},
		});
	} finally {
		// On Stop the downloads under way end with the signal; none is left running after the node.
		await Promise.all(building);
	}
	outcomes.forEach((outcome, k) => {
		const state = states[itemOf[k]];
		state.outcome = outcome;
		if (outcome.kind === 'failed' || (outcome.kind === 'timeout' && wait.onTimeout === 'fail')) {
			state.error = taskError(ctx, outcome, itemOf[k]);
			state.created = 'yes';
		}
		// Only a task the gateway itself reported failed or cancelled made nothing: a retry submits
		// the item again. A task that could not be read (it may be running or finished) or one
		// completed without a result URL (finished, billed) stays taken up and is read again.
		if (reportedFailed(outcome)) memory?.forget(itemOf[k]);
	});
}

/** A finished item's output into its state (paired with its input), or its failure; never throws. */
async function buildOutput<P, S extends Submitted>(
	{ batch, itemsOf }: Results<P, S>,
	i: number,
): Promise<void> {
	const state = batch.states[i];
	try {
		const items = await itemsOf(
			state.prepared as P,
			state.submitted as S,
			i,
			state.outcome?.snapshot,
		);
		state.output = items.map((item) => ({ ...item, pairedItem: { item: i } }));
		if (batch.memory && finished(state)) batch.memory.built(i, state.output);
	} catch (error) {
		state.error = error as ItemError;
		// A failed download is an attempt on a paid result: created, whatever the download did.
		state.created =
			state.submitted?.taskId || state.error.context?.downloadFailed ? 'yes' : 'unknown';
	}
}

/**
 * A submit recorded in the receipts (custom data, receipt executions, log) as it goes out and as it
 * answers, and in Retry On Fail's memory; none starts once Stop was pressed.
 */
function receipted<P, S extends Submitted>(
	batch: Batch<P>,
	submit: (prepared: P, itemIndex: number) => Promise<S>,
): (prepared: P, itemIndex: number) => Promise<S> {
	const { ctx, memory } = batch;
	const receipts = batch.receipts!;
	const signal = cancelSignalOf(ctx);
	return async (prepared, itemIndex) => {
		await unlessStopped(ctx, itemIndex); // the Stop error: nothing sent
		const fingerprint = memory ? fingerprintOf(prepared) : '';
		memory?.sending(itemIndex, fingerprint);
		receipts.submitting(itemIndex);
		const answer = await submit(prepared, itemIndex).then(
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
	};
}

/**
 * Retry On Fail: what an earlier try of this run created is taken up (a task is waited for or
 * read, a sync answer's result URLs downloaded again), and a submit that may have been created
 * without an answer stays an error: neither is sent again. Everything else is submitted.
 */
function takeUpEarlierTries<P>(batch: Batch<P>, memory: TryMemory): void {
	const { ctx, states } = batch;
	const where = (i: number) =>
		`execution ${ctx.getExecutionId()} node "${ctx.getNode().name}" item ${i}`;
	states.forEach((state, i) => {
		if (state.prepared === undefined) return;
		const record = memory.recall(i, fingerprintOf(state.prepared));
		const what = (s: Submitted) => (s.taskId ? `task ${s.taskId}` : 'the answer');
		if (record?.state === 'created' && record.output) {
			// Finished and downloaded in an earlier try: output again, neither read nor fetched again.
			state.submitted = record.submitted;
			state.output = record.output.map((item) => ({ ...item }));
			state.takenUp = true;
			ctx.logger?.info(
				`Unified AI Gateway: ${where(i)}: Retry On Fail outputs the result of ${what(record.submitted)} ` +
					'an earlier try downloaded, instead of submitting or downloading again',
			);
		} else if (record?.state === 'created') {
			// A fresh start: the downloads' deadline (Max Wait) counts from this try, as the wait does;
			// the earlier try's start would leave a retry only the last few seconds for its files.
			state.submitted = { ...record.submitted, startedAt: Date.now() };
			state.takenUp = true;
			ctx.logger?.info(
				`Unified AI Gateway: ${where(i)}: Retry On Fail takes up ${what(record.submitted)} ` +
					'of an earlier try instead of submitting again',
			);
		} else if (record?.state === 'sending') {
			state.error = new NodeOperationError(
				ctx.getNode(),
				`The ${batch.settings.noun} of this item may have been created: ` +
					'an earlier try sent it and got no answer it could use (no task id, no result)',
				{
					itemIndex: i,
					description:
						'Retry On Fail did not send it again, so it is not billed twice. Check the ' +
						"key's usage log (for a task, the account's task list); if nothing was made, run the workflow again.",
				},
			);
			state.created = 'unknown';
		}
	});
}
