import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { nodeErrorOf } from '../../transport/nodeError';
import { errorItem } from './perItem';
import { limiter } from '../concurrency';
import { downloadsAtOnce } from '../files/downloads';
import { bodyCopy } from './bodyCopy';
import { checkPlanJson, seedCheckPlan } from '../waiting/checkPlan';
import type { ItemError, ItemState, JobPlan, Submitted, WaitSettings } from './jobPlan';
import { keepingIds, prepareAll, submitAll } from './submitAll';
import { tryMemory, type TryMemory } from './tries';
import { describeResults, otherResults } from './partialResults';
import { receiptsSettled } from './receipts';
import { hintInNodeWait, hintJobRun } from './runHints';
import { estimatedTimeOf } from '../../api/tasks/snapshot';
import { reportedChargeJson } from '../../api/charges';
import { isToolRun, toolPendingJson, toolWait, type ToolTask } from './toolMode';
import { TaskFeed } from '../waiting/taskFeed';
import { waitForTasks, type PendingTask, type WaitOutcome } from '../waiting/waiter';

/**
 * Submit many items under the Concurrency limit, wait for all their tasks in one loop, and turn each into
 * output items paired with its input. A submit is never repeated; no task id is ever dropped.
 * The two halves: submitAll (engine/running/submitAll.ts), then awaitResults.
 */
export async function runJobs<P, S extends Submitted>(
	ctx: IExecuteFunctions,
	itemCount: number,
	plannedJobs: JobPlan<P, S>,
): Promise<INodeExecutionData[]> {
	try {
		return await submitAndWait(ctx, itemCount, plannedJobs);
	} finally {
		// The node's output is never ahead of its receipt executions (docs/receipts.md).
		await receiptsSettled(ctx);
	}
}

async function submitAndWait<P, S extends Submitted>(
	ctx: IExecuteFunctions,
	itemCount: number,
	plannedJobs: JobPlan<P, S>,
): Promise<INodeExecutionData[]> {
	// An AI Agent's tool call waits briefly and answers pending tasks in words a model can act on.
	const tool = isToolRun(ctx);
	// Only work that creates something is remembered for a retry (Task → Wait creates nothing).
	const memory = plannedJobs.receipts === false ? undefined : tryMemory(ctx);
	const plan = keepingIds(
		ctx,
		tool ? { ...plannedJobs, wait: toolWait(plannedJobs.wait) } : plannedJobs,
		memory,
	);
	// The wait starts with the first submit: the first tasks are read while the last are still sent.
	let waiting: Waiting | undefined;
	let states: Array<ItemState<P, S>>;
	try {
		states = await submitAll(
			ctx,
			plan,
			itemCount,
			memory,
			plan.wait
				? {
						start: (all, expected) => {
							waiting = startWaiting(ctx, plan, all, memory, expected);
							for (let i = 0; i < all.length; i++) if (all[i].takenUp) waiting.offer(i);
						},
						// Its age counts from the answer: the gateway has the task by then, so a read at a
						// given age never comes before the task has run that long.
						submitted: (i) => waiting?.offer(i, Date.now()),
					}
				: undefined,
		);
	} finally {
		waiting?.feed.close();
	}
	const output = await awaitResults(ctx, plan, states, memory, waiting);
	return await finishRun(ctx, plan, states, output, tool && 'created');
}

/** How Task → Wait for Completion finds an item's task: its id, query route and language. */
export type ExistingTask = Pick<Submitted, 'taskId' | 'route' | 'language'>;

/**
 * The waiting half alone, for tasks created earlier (pending items, stored ids): nothing is
 * submitted, so there is no spend guard, receipt or retry memory; every item waits and outputs
 * as a submitted one would.
 */
export async function awaitExistingTasks<S extends Submitted>(
	ctx: IExecuteFunctions,
	itemCount: number,
	plannedWaits: Omit<JobPlan<ExistingTask, S>, 'submit' | 'receipts' | 'spendGuard'> & {
		startedAt: number;
	},
): Promise<INodeExecutionData[]> {
	const tool = isToolRun(ctx);
	const plan: JobPlan<ExistingTask, S> = {
		...plannedWaits,
		wait: tool ? toolWait(plannedWaits.wait) : plannedWaits.wait,
		receipts: false,
		// Nothing is sent: the task exists already, so "submitted" only hands it to the engine.
		submit: async (task) => ({ ...task, startedAt: plannedWaits.startedAt, raw: {} }) as S,
	};
	const states = await prepareAll(ctx, plan, itemCount);
	for (const state of states)
		if (state.prepared && !state.error) state.submitted = await plan.submit(state.prepared, 0);
	const waiting = plan.wait ? startWaiting(ctx, plan, states, undefined, states.length) : undefined;
	states.forEach((state, i) => waiting?.offer(i, state.submitted?.startedAt));
	waiting?.feed.close();
	const output = await awaitResults(ctx, plan, states, undefined, waiting);
	return await finishRun(ctx, plan, states, output, tool && 'reads');
}

/** One wait over the tasks of a run, fed as their submits answer. */
interface Waiting {
	feed: TaskFeed<PendingTask>;
	/** The item's task joins the wait (an item without one, or with its output already, does not). */
	offer(itemIndex: number, startedAt?: number): void;
	/** Settles once every task offered is done with and its output built; rejects on Stop. */
	done: Promise<void>;
}

/**
 * The waiting half: one loop over every submitted item's task; a finished task's output (its
 * download above all) is built the moment it finishes, while other tasks still run and (in
 * runJobs) while the last items are still being submitted.
 */
function startWaiting<P, S extends Submitted>(
	ctx: IExecuteFunctions,
	plan: JobPlan<P, S>,
	states: Array<ItemState<P, S>>,
	memory: TryMemory | undefined,
	expected: number,
): Waiting {
	const wait = plan.wait as WaitSettings;
	const feed = new TaskFeed<PendingTask>(expected);
	// The item of each task in the feed, in the order they joined.
	const items: number[] = [];
	// A finished task's output (its download, above all) is built while the other tasks still run: a
	// 500-item batch does not end with 500 downloads in a row. As many at once as the Concurrency, or
	// more once n8n is seen streaming files to disk (engine/files/downloads.ts downloadsAtOnce).
	const building: Array<Promise<void>> = [];
	const underLimit = limiter(() => downloadsAtOnce(ctx, plan.concurrency));
	const offer = (i: number, startedAt?: number) => {
		const s = states[i].submitted;
		if (!s?.taskId || !s.route || states[i].output) return;
		items.push(i);
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
	const run = async () => {
		let outcomes: WaitOutcome[];
		try {
			outcomes = await waitForTasks(ctx, feed, {
				...wait,
				onOutcome: (k, outcome) => {
					if (outcome.kind !== 'succeeded') return;
					const i = items[k];
					states[i].outcome = outcome;
					building.push(
						underLimit(async () => {
							await buildOutput(plan, states[i], i);
							if (memory && finished(states[i])) memory.built(i, states[i].output!);
						}),
					);
				},
			});
		} finally {
			// On Stop the downloads under way end with the signal; none is left running after the node.
			await Promise.all(building);
		}
		outcomes.forEach((outcome, k) => {
			const state = states[items[k]];
			state.outcome = outcome;
			if (outcome.kind === 'failed' || (outcome.kind === 'timeout' && wait.onTimeout === 'fail')) {
				state.error = taskError(ctx, outcome, items[k]);
				state.created = 'yes';
			}
			// Only a task the gateway itself reported failed or cancelled made nothing: a retry submits
			// the item again. A task that could not be read (it may be running or finished) or one
			// completed without a result URL (finished, billed) stays taken up and is read again.
			if (reportedFailed(outcome)) memory?.forget(items[k]);
		});
	};
	const done = run();
	// Awaited by awaitResults once the submits are over; a Stop meanwhile is not "unhandled".
	done.catch(() => undefined);
	return { feed, offer, done };
}

/** The wait's end, then every item's output or error item, in item order. */
async function awaitResults<P, S extends Submitted>(
	ctx: IExecuteFunctions,
	plan: JobPlan<P, S>,
	states: Array<ItemState<P, S>>,
	memory: TryMemory | undefined,
	waiting: Waiting | undefined,
): Promise<INodeExecutionData[]> {
	await waiting?.done;
	// Without waiting, each pending item carries the plan of Check Once's first rounds: the items of
	// this run are one batch, begun with its first submit's answer (engine/waiting/checkPlan.ts).
	const batch = plan.wait
		? undefined
		: {
				at: Math.min(...states.map((s) => s.submitted?.startedAt ?? Infinity)),
				items: states.length,
			};
	// Every item's output is built before a failure is thrown, so the error can carry them all.
	const output: INodeExecutionData[] = [];
	for (let i = 0; i < states.length; i++) {
		const state = states[i];
		// Built already (output or error) when its task finished during the wait.
		if (!state.output && !state.error && state.submitted) {
			await buildOutput(plan, state, i, batch);
			if (memory && finished(state)) memory.built(i, state.output!);
		}
		if (state.output) output.push(...state.output);
		else {
			// A failed task whose answer carries its charge shows it (0 after the gateway's refund).
			const snapshot = state.outcome?.snapshot;
			const charge = snapshot ? await reportedChargeJson(ctx, snapshot, i) : {};
			output.push(errorItem(ctx, { ...errorJson(state), ...charge }, state.error, i));
		}
	}
	return output;
}

/** The run's end: the stop-on-fail error naming every other item's result, the spend summary, hints. */
async function finishRun<P, S extends Submitted>(
	ctx: IExecuteFunctions,
	plan: JobPlan<P, S>,
	states: Array<ItemState<P, S>>,
	output: INodeExecutionData[],
	/** An AI Agent's tool call: whether its task was created here or only read (the wording of a pending answer). */
	tool: false | ToolTask,
): Promise<INodeExecutionData[]> {
	// A failing run keeps the spend guard's "Submitting …" line in custom data, as before.
	const failed = states.findIndex((s) => s.error);
	if (!plan.continueOnFail && failed >= 0) throw failure(ctx, states, failed, plan.noun);
	// A submit whose answer was lost may be billed: it counts as spent.
	await plan.spendGuard?.afterRun(
		output,
		states.flatMap((s, i) => (s.submitted || s.created === 'unknown' ? [i] : [])),
	);
	if (tool)
		for (const item of output)
			if (item.json.pending === true) item.json = toolPendingJson(item.json, tool);
	hintJobRun(ctx, output, plan.receipts !== false, plan.wait !== false);
	if (plan.wait && !tool)
		hintInNodeWait(
			ctx,
			plan.wait,
			states.flatMap((s) => (s.submitted?.taskId && s.submitted.route ? [s.submitted.route] : [])),
		);
	return output;
}

/** The gateway read the task and its status said failed or cancelled: nothing was made. */
function reportedFailed(outcome: WaitOutcome): boolean {
	return (
		outcome.kind === 'failed' && outcome.error === undefined && outcome.snapshot?.phase === 'failed'
	);
}

/**
 * The item's result is complete: a sync answer or a finished task, every file in. A pending item
 * (its task still running) or one with a failed file is read or fetched again by a retry.
 */
function finished(state: ItemState<unknown, Submitted>): boolean {
	if (!state.output || state.error || !state.submitted) return false;
	if (state.submitted.taskId && state.outcome?.kind !== 'succeeded') return false;
	return state.output.every(
		(item) => !item.error && item.json.error === undefined && item.json.pending !== true,
	);
}

/** The item's output into state.output, or its failure into state.error; never throws. */
async function buildOutput<P, S extends Submitted>(
	plan: JobPlan<P, S>,
	state: ItemState<P, S>,
	i: number,
	batch?: Batch,
): Promise<void> {
	try {
		state.output = (await itemOutput(plan, state, i, batch)).map((item) => ({
			...item,
			pairedItem: { item: i },
		}));
	} catch (error) {
		state.error = error as ItemError;
		// A failed download is an attempt on a paid result: created, whatever the download did.
		state.created =
			state.submitted?.taskId || state.error.context?.downloadFailed ? 'yes' : 'unknown';
	}
}

/** The items a run submitted without waiting: when their submits began (epoch ms), how many. */
interface Batch {
	at: number;
	items: number;
}

async function itemOutput<P, S extends Submitted>(
	plan: JobPlan<P, S>,
	state: ItemState<P, S>,
	i: number,
	batch?: Batch,
): Promise<INodeExecutionData[]> {
	const submitted = state.submitted as S;
	const outcome = state.outcome;
	if (!submitted.taskId) return await plan.succeed(state.prepared as P, submitted, i);
	const extra = () => plan.describePending?.(state.prepared as P, submitted) ?? {};
	if (!plan.wait || !outcome) {
		const seed = batch ? { checkPlan: checkPlanJson(seedCheckPlan(batch.at, i, batch.items)) } : {};
		return [{ json: { ...pendingJson(submitted, undefined, 'submitted'), ...extra(), ...seed } }];
	}
	if (outcome.kind === 'succeeded')
		return await plan.succeed(state.prepared as P, submitted, i, outcome.snapshot);
	return [{ json: { ...pendingJson(submitted, outcome, 'timeout'), ...extra() } }];
}

/** The item a user gets for a task still running: enough to resume it without paying again. */
export function pendingJson(
	submitted: Submitted,
	outcome: WaitOutcome | undefined,
	why: 'submitted' | 'timeout',
): IDataObject {
	const snapshot = outcome?.snapshot;
	return {
		taskId: submitted.taskId,
		status:
			snapshot?.status ??
			String(submitted.raw.status ?? (submitted.raw.data as IDataObject)?.status ?? 'submitted'),
		progress: snapshot?.progress,
		pending: true,
		queryRoute: submitted.route,
		message:
			why === 'timeout'
				? (outcome as { message: string }).message
				: 'Submitted without waiting. Feed this item to Task → Wait for Completion, or use the Unified AI Gateway Trigger, to get the result.',
		waitedMs: outcome?.waitedMs,
		...(Object.keys(submitted.raw).length > 0 ? { submitResponse: bodyCopy(submitted.raw) } : {}),
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
		created: taskId ? 'yes' : (state.created ?? 'no'),
		...(state.outcome?.snapshot ? { status: state.outcome.snapshot.status } : {}),
	};
}

/** The thrown error names this item's task and every task the other items created. */
function failure(
	ctx: IExecuteFunctions,
	states: Array<ItemState<unknown, Submitted>>,
	index: number,
	noun: string,
): Error {
	const state = states[index];
	const error = nodeErrorOf(ctx.getNode(), state.error, index) as ItemError;
	const taskId = state.submitted?.taskId ?? (error.context?.taskId as string | undefined);
	if (taskId && !error.message.includes(taskId))
		error.message = `${error.message} (task ${taskId})`;
	if (taskId && error.context) error.context.taskId = taskId;
	if (state.created === 'unknown' && !error.context?.created) {
		error.description = [
			error.description,
			`The ${noun} may have been created although its answer was lost: check the account's task list before running this item again.`,
		]
			.filter(Boolean)
			.join('\n');
	}
	const others = otherResults(states, index);
	if (others.length > 0) {
		error.description = [error.description, describeResults(others, noun)]
			.filter(Boolean)
			.join('\n');
		if (error.context) error.context.results = others;
		ctx.logger?.info(
			`Unified AI Gateway: execution ${ctx.getExecutionId()} stopped on item ${index}; the other items' results: ${JSON.stringify(others)}`,
		);
	}
	return error;
}
