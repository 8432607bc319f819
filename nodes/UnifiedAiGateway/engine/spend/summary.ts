import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { BalanceKind } from '../../api/account';
import { MAX_HINT_LENGTH } from '../hints';
import { chargeText, type ChargeTally } from './charged';
import { usd, type RunEstimate } from './tally';
import type { SpendSettings } from './types';

/** The balance as the guard read it: before the first submit and, when read, after the run. */
export interface BalanceReading {
	kind: BalanceKind;
	before?: number | 'unlimited';
	after?: number | 'unlimited';
	/** Why the balance could not be read before the run. */
	error?: string;
	afterError?: string;
	/** The route that answered (`GET /v1/balance`, `GET /api/usage/token/`, the billing routes). */
	source?: string;
	/** The amounts are USD (the relay's quota, converted). */
	inUsd?: boolean;
	note?: string;
	/** Its route allows 20 reads per 20 minutes per IP: read once per run, not again after it. */
	rateLimited?: boolean;
	afterSkipped?: boolean;
}

const COST_NOTE = 'The account plan and the gateway decide the final charge.';

/** custom data limits shared by n8n 1.x and 2.x: keys [A-Za-z0-9_] up to 50, values up to 255 kept. */
const MAX_VALUE = 255;

function balanceText(reading: BalanceReading | undefined): string | undefined {
	if (!reading) return undefined;
	if (reading.before === undefined) return `${reading.kind} balance not read`;
	const unit = reading.inUsd ? ' USD' : '';
	const after = reading.after === undefined ? '' : ` → ${reading.after}${unit}`;
	return `${reading.kind} balance ${reading.before}${reading.before === 'unlimited' ? '' : unit}${after}`;
}

const plural = (n: number, word = 'item') => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * What the estimate says: "about 0.045 USD"; with items the node could not price, their cost is
 * unknown, never 0: "cost unknown (2 not priced)", "about 0.045 USD for 1 priced, cost unknown for 2".
 */
function estimateText(run: RunEstimate): string {
	const priced = run.items - run.unpricedItems;
	if (run.unpricedItems === 0) return `about ${usd(run.totalUsd)}`;
	if (priced === 0) return `cost unknown (${run.unpricedItems} not priced)`;
	return `about ${usd(run.totalUsd)} for ${priced} priced, cost unknown for ${run.unpricedItems} not priced`;
}

/** One line a person reads in the executions list: what was submitted, about how much, the balance. */
function headline(
	submitted: RunEstimate,
	reading: BalanceReading | undefined,
	refused: string | undefined,
	charged: ChargeTally | undefined,
): string {
	if (refused) return `Nothing submitted: ${refused}`;
	const parts = [`${plural(submitted.items)} submitted, ${estimateText(submitted)}`];
	const paid = charged && chargeText(charged);
	if (paid) parts.push(paid);
	const balance = balanceText(reading);
	if (balance) parts.push(balance);
	return parts.join('; ');
}

/**
 * The output pane's line. n8n asks hints to stay within 120 characters (its community lint's
 * hint-max-length), so the balance and the price lines stay in spendSummary.
 */
export function spendHint(
	submitted: RunEstimate,
	refused: string | undefined,
	charged?: ChargeTally,
): string {
	if (refused) return "Spend guard: nothing submitted (each item's error says why)";
	const paid = charged && charged.items > 0 ? `, charged ${usd(charged.totalUsd)}` : '';
	const line = `Estimated spend: ${plural(submitted.items)} submitted, ${estimateText(submitted)}${paid}`;
	const details = ' (details: spendSummary, first item)';
	return line.length + details.length <= MAX_HINT_LENGTH ? `${line}${details}` : line;
}

export interface SummaryInput {
	planned: RunEstimate;
	submitted: RunEstimate;
	settings: SpendSettings;
	reading?: BalanceReading;
	refused?: string;
	charged?: ChargeTally;
}

/** The run's summary, as the first output item carries it (`spendSummary`). */
export function runSummary({
	planned,
	submitted,
	settings,
	reading,
	refused,
	charged,
}: SummaryInput): IDataObject {
	const summary: IDataObject = {
		text: headline(submitted, reading, refused, charged),
		itemsSubmitted: submitted.items,
		estimatedTotalUsd: submitted.totalUsd,
		items: [...submitted.lines, ...submitted.unpricedLines],
		itemsPlanned: planned.items,
		plannedTotalUsd: planned.totalUsd,
	};
	if (planned.unpricedItems > 0) {
		summary.notEstimated =
			`Cost not estimated for ${plural(planned.unpricedItems)} (${planned.unpricedModels.join(', ')}): ` +
			[`${planned.unpricedLines.join('; ')}.`, ...planned.unpricedAdvice].join(' ');
	}
	Object.assign(summary, priceSources(planned));
	if (charged && charged.items > 0) {
		summary.chargedTotalUsd = charged.totalUsd;
		summary.itemsCharged = charged.items;
		if (charged.compared.items > 0) summary.estimatedOfChargedUsd = charged.compared.estimatedUsd;
	}
	if (charged && charged.notReported > 0) summary.chargeNotReported = charged.notReported;
	if (charged && charged.unconverted > 0) summary.chargeNotConverted = charged.unconverted;
	if (settings.capUsd !== undefined) summary.maxRunCostUsd = settings.capUsd;
	if (reading) {
		summary.balanceType = reading.kind;
		summary.balanceBefore = reading.before ?? null;
		if (reading.after !== undefined) summary.balanceAfter = reading.after;
		if (reading.source) summary.balanceSource = reading.source;
		if (reading.inUsd) summary.balanceUnit = 'USD';
		if (reading.note) summary.balanceNote = reading.note;
		if (reading.error)
			summary.balanceError = `The balance could not be read, the run went on: ${reading.error}`;
		if (reading.afterError) summary.balanceAfterError = reading.afterError;
		if (reading.afterSkipped)
			summary.balanceAfterError = `Not read again after the run: ${reading.source} allows 20 reads per 20 minutes per IP`;
		if (!reading.inUsd && settings.balanceUnitsPerUsd !== 1)
			summary.balanceUnitsPerUsd = settings.balanceUnitsPerUsd;
	}
	if (refused) summary.refused = refused;
	summary.note = COST_NOTE;
	return summary;
}

/** Where the run's estimates come from, and why the gateway's price list did not price some. */
function priceSources(run: RunEstimate): IDataObject {
	const out: IDataObject = {};
	if (run.sources.length > 0) out.priceSources = run.sources;
	if (run.fallbacks.length > 0) out.priceListProblems = run.fallbacks;
	return out;
}

interface CustomData {
	set(key: string, value: string): void;
}

/** n8n 2.x puts custom data on the context; 1.x (and 2.x) has it on the expression proxy's $execution. */
function customDataOf(ctx: IExecuteFunctions): CustomData | undefined {
	const direct = (ctx as unknown as { customData?: CustomData }).customData;
	if (direct && typeof direct.set === 'function') return direct;
	const viaProxy = (
		ctx.getWorkflowDataProxy(0).$execution as { customData?: CustomData } | undefined
	)?.customData;
	return viaProxy && typeof viaProxy.set === 'function' ? viaProxy : undefined;
}

/**
 * The key of this node's summary in the execution's custom data: `gateway_<node name>_spend`,
 * beside the task-id keys of the same node (`gateway_<node name>_<route>`).
 */
export function customDataKey(nodeName: string): string {
	const name = nodeName
		.replace(/[^A-Za-z0-9_]+/g, '_')
		.replace(/^_+|_+$/g, '')
		.slice(0, 28);
	return `gateway_${name || 'node'}_spend`;
}

/** Shown in the executions list; never allowed to fail the run (custom data is an extra). */
export function writeCustomData(ctx: IExecuteFunctions, text: string): void {
	try {
		customDataOf(ctx)?.set(customDataKey(ctx.getNode().name), text.slice(0, MAX_VALUE));
	} catch (error) {
		ctx.logger?.warn(
			`Could not write the spend summary to the execution's custom data: ${(error as Error).message}`,
		);
	}
}

/** Written before the first submit: it holds the key (n8n keeps only 10) and says what is being sent. */
export function plannedText(planned: RunEstimate): string {
	return `Submitting ${plural(planned.items)}, ${estimateText(planned)}`;
}
