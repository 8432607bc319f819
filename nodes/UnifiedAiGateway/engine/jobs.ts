import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { errorItem } from '../helpers/perItem';
import type { Created } from '../transport/created';
import { cancelSignalOf } from '../transport/context';
import { abortableSleep } from '../transport/sleep';
import { limiter, settleLimited } from './concurrency';
import { capBody } from './bodyCopy';
import { createdOf } from './created';
import { TaskLedger } from './ledger';
import { fingerprintOf, tryMemory, type TryMemory } from './tries';
import { describeResults, otherResults } from './partialResults';
import { hintJobRun } from './runHints';
import type { QueryRoute } from './routes';
import { estimatedTimeOf, type TaskSnapshot } from './snapshot';
import type { SpendGuard } from './spend/guard';
import { isToolRun, toolPendingJson, toolWait } from './toolMode';
import { waitForTasks, type WaitOutcome } from './waiter';

/** What one item's submit produced: a task to wait for, or a sync answer. */
export interface Submitted {
	taskId?: string;
	route?: QueryRoute;
	estimatedTimeS?: number;
	language?: string;
	startedAt: number;
	raw: IDataObject;
	/** A synchronous answer's result URLs: its receipt, recorded like a task id (ledger.ts). */
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
	succeed(prepared: P, submitted: S, itemIndex: number, snapshot?: TaskSnapshot): Promise<INodeExecutionData[]>;
	/** What the work is, for messages: "image job". */
	noun: string;
	/** What a pending item should also say about its request (model, parameters, cost). */
	describePending?(prepared: P, submitted: S): IDataObject;
	/** Billed work: checks the run's cost before the first submit and reports it after (engine/spend). */
	spendGuard?: SpendGuard<P>;
	/** Off when nothing is created here (Task → Wait for Completion): no id ledger. */
	ledger?: boolean;
}

type ItemError = Error & { description?: string | null; context?: IDataObject };

interface ItemState<P, S> {
	prepared?: P;
	submitted?: S;
	outcome?: WaitOutcome;
	error?: ItemError;
	/** Whether the failure may have left a task (and a charge) behind. */
	taskCreated?: boolean | 'unknown';
	/** The same, as error items show it; set by the submit step for every failed submit. */
	created?: Created;
	output?: INodeExecutionData[];
	/** Created by an earlier try of this run (Retry On Fail): taken up, not submitted again. */
	takenUp?: boolean;
}

/**
 * Submit many items under a cap, wait for all their tasks in one loop, and turn each into
 * output items paired with its input. A submit is never repeated; no task id is ever dropped.
 */
export async function runJobs<P, S extends Submitted>(
	ctx: IExecuteFunctions,
	itemCount: number,
	plannedJobs: JobPlan<P, S>,
): Promise<INodeExecutionData[]> {
	// An AI Agent's tool call waits briefly and answers pending tasks in words a model can act on.
	const tool = isToolRun(ctx);
	// Only work that creates something is remembered for a retry (Task → Wait creates nothing).
	const memory = plannedJobs.ledger === false ? undefined : tryMemory(ctx);
	const plan = keepingIds(ctx, tool ? { ...plannedJobs, wait: toolWait(plannedJobs.wait) } : plannedJobs, memory);
	const states: Array<ItemState<P, S>> = Array.from({ length: itemCount }, () => ({}));

	for (let i = 0; i < itemCount; i++) {
		try {
			states[i].prepared = await plan.prepare(i);
		} catch (error) {
			if (!plan.continueOnFail) throw withItemIndex(ctx, error, i);
			states[i].error = error as ItemError;
			states[i].taskCreated = false;
			states[i].created = 'no';
		}
	}

	if (memory) takeUpEarlierTries(ctx, memory, states, plan.noun);
	let toSubmit = states.map((s, i) => ({ s, i })).filter(({ s }) => s.prepared !== undefined && !s.takenUp && !s.error);
	// The spend guard sees the whole run first; its refusal stops every item before any request.
	const refusal = await plan.spendGuard?.beforeSubmit(toSubmit.map(({ s, i }) => ({ itemIndex: i, prepared: s.prepared as P })));
	if (refusal && !plan.continueOnFail) throw refusal;
	if (refusal) {
		for (const { s } of toSubmit) Object.assign(s, { error: refusal, taskCreated: false });
		toSubmit = [];
	}
	const sent = await settleLimited(toSubmit, plan.concurrency, async ({ s, i }) => await plan.submit(s.prepared as P, i));
	sent.forEach((result, k) => {
		const state = toSubmit[k].s;
		if (result.ok) state.submitted = result.value;
		else {
			state.error = result.error as ItemError;
			state.created = createdOf(result.error);
			state.taskCreated = state.created === 'unknown' ? 'unknown' : state.created === 'yes';
		}
	});
	// A failed submit does not stop the others' waits: the error thrown at the end carries their results.

	// A finished task's output (its download, above all) is built while the other tasks still run,
	// under the same cap as the submits: a 500-item batch does not end with 500 downloads in a row.
	const building: Array<Promise<void>> = [];
	const cap = limiter(plan.concurrency);
	const build = (i: number) =>
		cap(async () => {
			await buildOutput(plan, states[i], i);
			if (memory && finished(states[i])) memory.built(i, states[i].output!);
		});
	if (plan.wait) {
		const waiting = states
			.map((s, i) => ({ s, i }))
			.filter(({ s }) => s.submitted?.taskId && s.submitted.route && !s.output);
		let outcomes: WaitOutcome[];
		try {
			outcomes = await waitForTasks(
				ctx,
				waiting.map(({ s }) => ({
					taskId: s.submitted!.taskId!,
					route: s.submitted!.route!,
					// A task taken up from an earlier try is read at once and gets a wait of its own.
					startedAt: s.takenUp ? undefined : s.submitted!.startedAt,
					estimatedTimeS: s.takenUp ? undefined : (s.submitted!.estimatedTimeS ?? estimatedTimeOf(s.submitted!.raw)),
					pollNow: s.takenUp,
					language: s.submitted!.language,
				})),
				{
					...plan.wait,
					onOutcome: (k, outcome) => {
						if (outcome.kind !== 'succeeded') return;
						waiting[k].s.outcome = outcome;
						building.push(build(waiting[k].i));
					},
				},
			);
		} finally {
			// On Stop the downloads under way end with the signal; none is left running after the node.
			await Promise.all(building);
		}
		outcomes.forEach((outcome, k) => {
			const state = waiting[k].s;
			state.outcome = outcome;
			if (outcome.kind === 'failed' || (outcome.kind === 'timeout' && plan.wait && plan.wait.onTimeout === 'fail')) {
				state.error = taskError(ctx, outcome, waiting[k].i);
				state.taskCreated = true;
			}
			// Only a task the gateway itself reported failed or cancelled made nothing: a retry submits
			// the item again. A task that could not be read (it may be running or finished) or one
			// completed without a result URL (finished, billed) stays taken up and is read again.
			if (reportedFailed(outcome)) memory?.forget(waiting[k].i);
		});
	}

	// Every item's output is built before a failure is thrown, so the error can carry them all.
	const output: INodeExecutionData[] = [];
	for (let i = 0; i < itemCount; i++) {
		const state = states[i];
		// Built already (output or error) when its task finished during the wait.
		if (!state.output && !state.error && state.submitted) await build(i);
		if (state.output) output.push(...state.output);
		else output.push(errorItem(ctx, errorJson(state), state.error, i));
	}
	// A failing run keeps the spend guard's "Submitting …" line in custom data, as before.
	const failed = states.findIndex((s) => s.error);
	if (!plan.continueOnFail && failed >= 0) throw failure(ctx, states, failed, plan.noun);
	// A submit whose answer was lost may be billed: it counts as spent.
	await plan.spendGuard?.afterRun(output, states.flatMap((s, i) => (s.submitted || s.taskCreated === 'unknown' ? [i] : [])));
	if (tool) for (const item of output) if (item.json.pending === true) item.json = toolPendingJson(ctx, item.json);
	hintJobRun(ctx, output, plan.ledger !== false, plan.wait !== false);
	return output;
}

/** The gateway read the task and its status said failed or cancelled: nothing was made. */
function reportedFailed(outcome: WaitOutcome): boolean {
	return outcome.kind === 'failed' && outcome.error === undefined && outcome.snapshot?.phase === 'failed';
}

/**
 * The plan with every submit recorded in the id ledger (custom data, log) as it goes out and as
 * it answers, and no new submit started once Stop was pressed.
 */
function keepingIds<P, S extends Submitted>(ctx: IExecuteFunctions, plan: JobPlan<P, S>, memory?: TryMemory): JobPlan<P, S> {
	if (plan.ledger === false) return plan;
	// Read before this try sends anything: what is 'sending' now was sent by an earlier try.
	const ledger = new TaskLedger(ctx, plan.noun, memory?.unanswered());
	const signal = cancelSignalOf(ctx);
	return {
		...plan,
		submit: async (prepared, itemIndex) => {
			if (signal?.aborted) await abortableSleep(0, signal); // throws n8n's cancellation error: nothing sent
			const fingerprint = memory ? fingerprintOf(prepared) : '';
			memory?.sending(itemIndex, fingerprint);
			ledger.submitting(itemIndex);
			const answer = await plan.submit(prepared, itemIndex).then(
				(submitted) => ({ submitted, error: undefined }),
				(error: unknown) => ({ submitted: undefined, error }),
			);
			// A lost answer (Stop cancels the request in flight, too) stays listed as sent: the task may exist.
			if (answer.error === undefined || (createdOf(answer.error) === 'no' && !signal?.aborted)) {
				ledger.answered(itemIndex, answer.submitted?.taskId, answer.submitted?.route, answer.submitted?.receiptUrls);
				if (answer.submitted) memory?.created(itemIndex, fingerprint, answer.submitted);
				else memory?.forget(itemIndex);
			}
			if (answer.submitted) return answer.submitted;
			throw withItemIndex(ctx, answer.error, itemIndex);
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
			state.error = new NodeOperationError(ctx.getNode(), `The ${noun} of this item may have been created: an earlier try sent it and got no task id back`, {
				itemIndex: i,
				description: `Retry On Fail did not send it again, so it is not billed twice. Check the account's task list; if no task was created, run the workflow again.`,
			});
			state.taskCreated = 'unknown';
			state.created = 'unknown';
		}
	});
}

/**
 * The item's result is complete: a sync answer or a finished task, every file in. A pending item
 * (its task still running) or one with a failed file is read or fetched again by a retry.
 */
function finished(state: ItemState<unknown, Submitted>): boolean {
	if (!state.output || state.error || !state.submitted) return false;
	if (state.submitted.taskId && state.outcome?.kind !== 'succeeded') return false;
	return state.output.every((item) => !item.error && item.json.error === undefined && item.json.pending !== true);
}

/** The item's output into state.output, or its failure into state.error; never throws. */
async function buildOutput<P, S extends Submitted>(plan: JobPlan<P, S>, state: ItemState<P, S>, i: number): Promise<void> {
	try {
		state.output = (await itemOutput(plan, state, i)).map((item) => ({ ...item, pairedItem: { item: i } }));
	} catch (error) {
		state.error = error as ItemError;
		// A failed download is an attempt on a paid result: created, whatever the download did.
		state.taskCreated = state.submitted?.taskId || state.error.context?.downloadFailed ? true : 'unknown';
	}
}

async function itemOutput<P, S extends Submitted>(
	plan: JobPlan<P, S>,
	state: ItemState<P, S>,
	i: number,
): Promise<INodeExecutionData[]> {
	const submitted = state.submitted as S;
	const outcome = state.outcome;
	if (!submitted.taskId) return await plan.succeed(state.prepared as P, submitted, i);
	const extra = () => plan.describePending?.(state.prepared as P, submitted) ?? {};
	if (!plan.wait || !outcome) return [{ json: { ...pendingJson(submitted, undefined, 'submitted'), ...extra() } }];
	if (outcome.kind === 'succeeded') return await plan.succeed(state.prepared as P, submitted, i, outcome.snapshot);
	return [{ json: { ...pendingJson(submitted, outcome, 'timeout'), ...extra() } }];
}

/** The item a user gets for a task still running: enough to resume it without paying again. */
export function pendingJson(submitted: Submitted, outcome: WaitOutcome | undefined, why: 'submitted' | 'timeout'): IDataObject {
	const snapshot = outcome?.snapshot;
	return {
		taskId: submitted.taskId,
		status: snapshot?.status ?? String(submitted.raw.status ?? (submitted.raw.data as IDataObject)?.status ?? 'submitted'),
		progress: snapshot?.progress,
		pending: true,
		queryRoute: submitted.route,
		message:
			why === 'timeout'
				? (outcome as { message: string }).message
				: 'Submitted without waiting. Feed this item to Task → Wait for Completion, or use the Unified AI Gateway Trigger, to get the result.',
		waitedMs: outcome?.waitedMs,
		...(Object.keys(submitted.raw).length > 0 ? { submitResponse: capBody(submitted.raw) } : {}),
	};
}

function taskError(ctx: IExecuteFunctions, outcome: WaitOutcome, itemIndex: number): ItemError {
	const message = outcome.kind === 'succeeded' ? '' : outcome.message;
	const prefix = outcome.kind === 'failed' ? `Task ${outcome.task.taskId} failed: ` : '';
	const error = new NodeOperationError(ctx.getNode(), `${prefix}${message}`, {
		itemIndex,
		description:
			outcome.kind === 'failed'
				? `Status '${outcome.snapshot?.status ?? 'unknown'}'. The task id is kept in the output so you can check it with Task → Get.`
				: undefined,
	});
	error.context.taskId = outcome.task.taskId;
	return error;
}

function errorJson(state: ItemState<unknown, Submitted>): IDataObject {
	const error = state.error as ItemError;
	const taskId = state.submitted?.taskId ?? (error.context?.taskId as string | undefined);
	return {
		error: error.message,
		...(error.description ? { description: error.description } : {}),
		...(taskId ? { taskId } : {}),
		taskCreated: taskId ? true : (state.taskCreated ?? false),
		...(state.created ? { created: state.created } : {}),
		...(state.outcome?.snapshot ? { status: state.outcome.snapshot.status } : {}),
	};
}

function withItemIndex(ctx: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (error instanceof NodeOperationError || error instanceof NodeApiError) {
		error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/** The thrown error names this item's task and every task the other items created. */
function failure(ctx: IExecuteFunctions, states: Array<ItemState<unknown, Submitted>>, index: number, noun: string): Error {
	const state = states[index];
	const error = withItemIndex(ctx, state.error, index) as ItemError;
	const taskId = state.submitted?.taskId ?? (error.context?.taskId as string | undefined);
	if (taskId && !error.message.includes(taskId)) error.message = `${error.message} (task ${taskId})`;
	if (taskId && error.context) error.context.taskId = taskId;
	if (state.taskCreated === 'unknown' && !error.context?.created) {
		error.description = [error.description, `The ${noun} may have been created although its answer was lost: check the account's task list before running this item again.`]
			.filter(Boolean)
			.join('\n');
	}
	const others = otherResults(states, index);
	if (others.length > 0) {
		error.description = [error.description, describeResults(others, noun)].filter(Boolean).join('\n');
		if (error.context) error.context.results = others;
		ctx.logger?.info(`Unified AI Gateway: execution ${ctx.getExecutionId()} stopped on item ${index}; the other items' results: ${JSON.stringify(others)}`);
	}
	return error;
}
