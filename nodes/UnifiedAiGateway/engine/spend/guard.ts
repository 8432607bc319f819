import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { rateLimitedSource, readComparableBalance, type Balance } from '../../api/account';
import { readPriceList, type PriceList } from '../../api/pricing';
import { learnedKeyGroup } from '../../api/usageLog';
import { roundUsd } from '../../registry/prices';
import { addHint } from '../hints';
import { chargeHint, tallyCharges } from './charged';
import {
	plannedText,
	runSummary,
	spendHint,
	writeCustomData,
	type BalanceReading,
} from './summary';
import { tally, usd, type RunEstimate } from './tally';
import { chargesFromUsageLog } from './usageCharges';
import type { ItemEstimate, SpendSettings } from './types';

/**
 * What a batch calls around its submits (engine/running/batch.ts checkSpend, outputItems):
 * `beforeSubmit` sees every prepared item before the first request and returns the error that
 * stops the whole run (nothing sent), `afterRun` adds the run's summary to the first output item
 * and to the execution's custom data.
 */
export interface SpendGuard<P> {
	beforeSubmit(items: Array<{ itemIndex: number; prepared: P }>): Promise<Error | undefined>;
	afterRun(output: INodeExecutionData[], submittedItems: number[]): Promise<void>;
	/** An item's estimate made before the run (for its own output), once beforeSubmit ran. */
	estimateOf(prepared: P): ItemEstimate | undefined;
}

export type Estimator<P> = (
	prepared: P,
	settings: SpendSettings,
	prices: PriceList,
) => ItemEstimate;

const NOT_SENT = 'Nothing was sent.';

function stop(ctx: IExecuteFunctions, message: string, description: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex: 0, description });
}

function itemsText(run: RunEstimate): string {
	const lines = [...run.lines, ...run.unpricedLines];
	return `The run's ${run.items} item${run.items === 1 ? '' : 's'}: ${lines.join('; ')}.`;
}

function capRefusal(
	ctx: IExecuteFunctions,
	run: RunEstimate,
	settings: SpendSettings,
): NodeOperationError | undefined {
	const cap = settings.capUsd;
	if (cap === undefined) return undefined;
	if (run.unpricedItems > 0 && !settings.allowUnpriced) {
		return stop(
			ctx,
			`${run.unpricedItems} of ${run.items} items have no known price, so the ` +
				`Max Estimated Cost per Run of ${usd(cap)} cannot be checked: ${NOT_SENT.toLowerCase()}`,
			`${itemsText(run)} Give a price for ${run.unpricedModels.join(', ')} ` +
				`(Spend Guard → Video Prices per Second, for a video model), or turn on ` +
				`Allow Unpriced Items to let them through uncounted.`,
		);
	}
	if (run.totalUsd <= cap && run.capTotalUsd <= cap) return undefined;
	if (run.totalUsd <= cap) {
		// The key's group is not known: a key in the dearest group the list shows would pay capTotalUsd.
		return stop(
			ctx,
			`Estimated cost ${usd(run.totalUsd)} in the ${run.assumedGroups.join(', ')} group assumed is ` +
				`${usd(run.capTotalUsd)} in the dearest group the gateway's price list shows ` +
				`(${run.dearestGroups.join(', ')}), over the Max Estimated Cost per Run of ${usd(cap)}: ` +
				NOT_SENT.toLowerCase(),
			`${itemsText(run)} The key's group, and so its ratio, is in no answer the gateway gives a key, ` +
				`so the cap judges each call at the dearest group it could be in. Name the key's group in ` +
				`Spend Guard → Key Group (the gateway's token page shows it) to be judged at its own ratio, ` +
				`or raise the cap.`,
		);
	}
	return stop(
		ctx,
		`Estimated cost ${usd(run.totalUsd)} is over the Max Estimated Cost per ` +
			`Run of ${usd(cap)}: ${NOT_SENT.toLowerCase()}`,
		`${itemsText(run)} Raise the cap, send fewer items, or choose a cheaper ` +
			`model or size. List prices (the gateway price list); the account plan ` +
			`decides the final charge.`,
	);
}

/** "about 0.0675 USD", or in the gateway's units when it does not report USD. */
function needText(totalUsd: number, unitsPerUsd: number): string {
	if (unitsPerUsd === 1) return `about ${usd(totalUsd)}`;
	return `about ${roundUsd(totalUsd * unitsPerUsd)} (${usd(totalUsd)} at ${unitsPerUsd} per USD)`;
}

/** Reads the balance once; a failing read stops the run only when the user asked for that. */
async function checkBalance(
	ctx: IExecuteFunctions,
	run: RunEstimate,
	settings: SpendSettings,
): Promise<{ reading: BalanceReading; refusal?: Error }> {
	const kind = settings.balance!;
	let balance: Balance;
	try {
		balance = await readComparableBalance(ctx, kind, 0);
	} catch (error) {
		const reason = (error as Error).message;
		const reading: BalanceReading = { kind, error: reason };
		if (!settings.stopIfBalanceUnreadable) return { reading };
		return {
			reading,
			refusal: stop(
				ctx,
				`Could not read the ${kind} balance before submitting: ${NOT_SENT.toLowerCase()}`,
				`${reason}. Stop If Balance Cannot Be Read is on; turn it off to submit anyway when the balance call fails.`,
			),
		};
	}
	// A quota the node turned into USD needs no Balance Units per USD.
	const unitsPerUsd = balance.inUsd ? 1 : settings.balanceUnitsPerUsd;
	const reading: BalanceReading = {
		kind,
		before: balance.unlimited ? 'unlimited' : balance.remaining!,
		source: balance.source,
		...(balance.inUsd ? { inUsd: true } : {}),
		...(balance.note ? { note: balance.note } : {}),
		rateLimited: rateLimitedSource(balance),
	};
	if (balance.unlimited) return { reading };
	const need = run.totalUsd * unitsPerUsd;
	if (need <= balance.remaining!) return { reading };
	const name = kind === 'token' ? 'Token' : 'User';
	const have = balance.inUsd ? `${balance.remaining} USD` : `${balance.remaining}`;
	return {
		reading,
		refusal: stop(
			ctx,
			`${name} balance ${have}, this run needs ${needText(run.totalUsd, unitsPerUsd)} — top up or lower the batch`,
			`${NOT_SENT} ${itemsText(run)}`,
		),
	};
}

/**
 * `readSettings` reads the Spend Guard options (params/spendGuardOptions.ts) when the run is planned:
 * the engine reads no node parameter itself, and a bad option refuses the run before any request.
 */
export function createSpendGuard<P>(
	ctx: IExecuteFunctions,
	readSettings: () => SpendSettings,
	estimate: Estimator<P>,
): SpendGuard<P> {
	let settings: SpendSettings | undefined;
	const estimates = new Map<number, ItemEstimate>();
	const byPrepared = new Map<P, ItemEstimate>();
	let planned: RunEstimate | undefined;
	let reading: BalanceReading | undefined;
	let refused: string | undefined;

	return {
		async beforeSubmit(items) {
			if (items.length === 0) return undefined;
			try {
				settings = readSettings();
			} catch (error) {
				return error as Error;
			}
			// The gateway's own prices, read once per run (and kept a minute): a free read, never billed.
			const list = await readPriceList(ctx);
			// Key Group as set, else the group the gateway's usage log last billed this key in, else assumed.
			const learned = settings.keyGroup === undefined ? await learnedKeyGroup(ctx) : undefined;
			const prices =
				settings.keyGroup !== undefined
					? list.forKeyGroup(settings.keyGroup)
					: learned
						? list.forLearnedGroup(learned.group, learned.ratio)
						: list;
			if ('problem' in prices) {
				refused = prices.problem;
				writeCustomData(ctx, `Nothing submitted: ${refused}`);
				return stop(
					ctx,
					`${prices.problem}: ${NOT_SENT.toLowerCase()}`,
					"Spend Guard → Key Group takes the key's group as the gateway's token page names it, " +
						"or that group's ratio as a number where the price list does not show the group.",
				);
			}
			for (const { itemIndex, prepared } of items) {
				const found = estimate(prepared, settings, prices);
				estimates.set(itemIndex, found);
				byPrepared.set(prepared, found);
			}
			planned = tally([...estimates.values()]);
			// The cap is checked first: a run over it sends no request at all, not even the balance call.
			let refusal: Error | undefined = capRefusal(ctx, planned, settings);
			if (!refusal && settings.balance)
				({ reading, refusal } = await checkBalance(ctx, planned, settings));
			if (refusal) refused = refusal.message;
			writeCustomData(ctx, refused ? `Nothing submitted: ${refused}` : plannedText(planned));
			return refusal;
		},

		async afterRun(output, submittedItems) {
			if (!settings || !planned) return;
			const submitted = tally(
				submittedItems.flatMap((i) => (estimates.has(i) ? [estimates.get(i)!] : [])),
			);
			if (
				reading &&
				reading.before !== undefined &&
				reading.before !== 'unlimited' &&
				submitted.items > 0
			) {
				// The quota route allows 20 reads per 20 minutes per IP: one per run, not two.
				if (reading.rateLimited) reading.afterSkipped = true;
				else
					try {
						const after = await readComparableBalance(ctx, reading.kind, 0, 'fresh');
						reading.after = after.unlimited ? 'unlimited' : after.remaining!;
					} catch (error) {
						reading.afterError = (error as Error).message;
					}
			}
			// Synchronous calls: their charge from the relay's usage log, read once per run (never per item).
			await chargesFromUsageLog(ctx, output);
			const charged = tallyCharges(output, submittedItems, estimates);
			const summary = runSummary({ planned, submitted, settings, reading, refused, charged });
			writeCustomData(ctx, String(summary.text));
			if (output.length > 0) output[0].json.spendSummary = summary;
			addHint(ctx, spendHint(submitted, refused, charged), 'info');
			const differs = chargeHint(charged);
			if (differs) addHint(ctx, differs, 'warning');
		},

		estimateOf: (prepared) => byPrepared.get(prepared),
	};
}
