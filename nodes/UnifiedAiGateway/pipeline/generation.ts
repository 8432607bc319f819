import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Submitted } from '../engine/running/jobPlan';
import { runJobs } from '../engine/running/jobRunner';
import type { RunOptions } from '../engine/running/perItem';
import type { TaskSnapshot } from '../api/tasks/snapshot';
import { createSpendGuard } from '../engine/spend/guard';
import type { ItemEstimate, SpendSettings } from '../engine/spend/types';
import type { PriceList } from '../api/pricing';
import { readConcurrency, readWaitForCompletion, type WaitDefaults } from '../params/commonFields';
import { readDownloadLimits, type FileKind } from '../params/downloadOptions';
import type { PaidResult } from '../engine/files/downloadWords';
import { itemDownload, type FileOutputOptions } from './taskOutput';
import { readSpendSettings } from '../params/spendGuardOptions';
import { readBoolean } from '../params/inputs';

/*
 * The one pipeline of every billed generation (Image → Generate and Edit, Video → Generate): read
 * the model, read and check the request, estimate the cost, submit, parse the answer, build the
 * output. A resource brings an adapter with its own steps; checking every item before any is
 * sent, the spend guard, the Concurrency limit, the wait and the receipts are the engine's (engine/running/jobRunner.ts).
 */

/** What the output step knows besides the item: the finished task, the item's estimate, how its files are downloaded. */
export interface OutputContext {
	/** The finished task; undefined for a synchronous answer. */
	snapshot?: TaskSnapshot;
	/** The item's part of the run's estimate (the spend guard's), made before anything was sent. */
	estimate?: ItemEstimate;
	/**
	 * How the item's result files are downloaded (itemsPerUrl): the binary field, the deadline
	 * (Max Wait, counted from the submit), Continue On Fail; undefined when Download is off.
	 */
	files(
		kind: FileKind,
		file: { baseName: string; defaultMimeType?: string; paid: PaidResult },
	): FileOutputOptions | undefined;
}

export interface GenerationAdapter<P, S extends Submitted> {
	/** What the work is, for messages: "image job". */
	noun: string;
	/** Reads the model, then reads and checks the request: one item, nothing sent. */
	prepare(ctx: IExecuteFunctions, itemIndex: number): Promise<P>;
	/** The one billed call (reference uploads first) and its answer parsed: a task id, or the sync result. */
	submit(ctx: IExecuteFunctions, prepared: P, itemIndex: number): Promise<S>;
	/** The item's part of the run's cost, before anything is sent (engine/spend), the gateway's prices at hand. */
	estimate(prepared: P, settings: SpendSettings, prices: PriceList): ItemEstimate;
	/** The output items of a finished item. */
	output(
		ctx: IExecuteFunctions,
		prepared: P,
		submitted: S,
		itemIndex: number,
		context: OutputContext,
	): Promise<INodeExecutionData[]>;
	/** What a pending item also says about its request (model, parameters, cost). */
	describePending(prepared: P, submitted: S, estimate: ItemEstimate | undefined): IDataObject;
}

/**
 * Runs one operation's generation over all input items: check all, estimate, submit under the
 * Concurrency limit, wait, output. `defaults` are the operation's own (its WAIT, also its fields').
 */
export async function runGeneration<P, S extends Submitted>(
	ctx: IExecuteFunctions,
	run: RunOptions,
	adapter: GenerationAdapter<P, S>,
	defaults: WaitDefaults,
): Promise<INodeExecutionData[]> {
	const spendGuard = createSpendGuard<P>(
		ctx,
		() => readSpendSettings(ctx),
		(prepared, settings, prices) => adapter.estimate(prepared, settings, prices),
	);
	const concurrency = readConcurrency(ctx, defaults.concurrency);
	const wait = readWaitForCompletion(ctx, defaults);
	return await runJobs<P, S>(ctx, run.items.length, {
		noun: adapter.noun,
		continueOnFail: run.continueOnFail,
		concurrency,
		wait,
		prepare: async (i) => {
			const prepared = await adapter.prepare(ctx, i);
			// The download's own numbers are checked now, not after the paid answer arrives.
			if (readBoolean(ctx, 'download', i, true, 'Download Files')) readDownloadLimits(ctx, i);
			return prepared;
		},
		submit: async (prepared, i) => await adapter.submit(ctx, prepared, i),
		succeed: async (prepared, submitted, i, snapshot) =>
			await adapter.output(ctx, prepared, submitted, i, {
				snapshot,
				estimate: spendGuard.estimateOf(prepared),
				files: (kind, file) =>
					readBoolean(ctx, 'download', i, true, 'Download Files')
						? itemDownload(ctx, i, {
								kind,
								...file,
								wait: wait
									? { startedAt: submitted.startedAt, maxWaitMs: wait.deadlineMs }
									: undefined,
								continueOnFail: run.continueOnFail,
								...(submitted.route
									? { reread: { route: submitted.route, language: submitted.language } }
									: {}),
							})
						: undefined,
			}),
		describePending: (prepared, submitted) =>
			adapter.describePending(prepared, submitted, spendGuard.estimateOf(prepared)),
		spendGuard,
	});
}
