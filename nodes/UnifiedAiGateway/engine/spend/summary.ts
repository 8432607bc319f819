import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { BalanceKind } from '../../api/account';
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
}

const COST_NOTE =
	'List prices (the gateway price list) and your video prices per second; the account plan decides the final charge.';

/** custom data limits shared by n8n 1.x and 2.x: keys [A-Za-z0-9_] up to 50, values up to 255 kept. */
const MAX_VALUE = 255;

function balanceText(reading: BalanceReading | undefined): string | undefined {
	if (!reading) return undefined;
	if (reading.before === undefined) return `${reading.kind} balance not read`;
	const after = reading.after === undefined ? '' : ` → ${reading.after}`;
	return `${reading.kind} balance ${reading.before}${after}`;
}

/** One line a person reads in the executions list: what was submitted, about how much, the balance. */
function headline(
	submitted: RunEstimate,
	reading: BalanceReading | undefined,
	refused: string | undefined,
): string {
	if (refused) return `Nothing submitted: ${refused}`;
	const parts = [
		`${submitted.items} item${submitted.items === 1 ? '' : 's'} submitted, about ${usd(submitted.totalUsd)}`,
	];
	if (submitted.unpricedItems > 0) parts.push(`${submitted.unpricedItems} not priced`);
	const balance = balanceText(reading);
	if (balance) parts.push(balance);
	return parts.join('; ');
}

/**
 * The output pane's line. n8n asks hints to stay within 120 characters (its community lint's
 * hint-max-length), so the balance and the price lines stay in spendSummary.
 */
export function spendHint(submitted: RunEstimate, refused: string | undefined): string {
	if (refused) return "Spend guard: nothing submitted (each item's error says why)";
	const unpriced = submitted.unpricedItems > 0 ? `, ${submitted.unpricedItems} not priced` : '';
	return `Estimated spend: ${submitted.items} item${submitted.items === 1 ? '' : 's'} submitted, about ${usd(submitted.totalUsd)}${unpriced} (details: spendSummary, first item)`;
}

export interface SummaryInput {
	planned: RunEstimate;
	submitted: RunEstimate;
	settings: SpendSettings;
	reading?: BalanceReading;
	refused?: string;
}

/** The run's summary, as the first output item carries it (`spendSummary`). */
export function runSummary({
	planned,
	submitted,
	settings,
	reading,
	refused,
}: SummaryInput): IDataObject {
	const summary: IDataObject = {
		text: headline(submitted, reading, refused),
		itemsSubmitted: submitted.items,
		estimatedTotalUsd: submitted.totalUsd,
		items: [...submitted.lines, ...submitted.unpricedLines],
		itemsPlanned: planned.items,
		plannedTotalUsd: planned.totalUsd,
	};
	if (planned.unpricedItems > 0) {
		summary.notEstimated = `Cost not estimated for ${planned.unpricedItems} item${planned.unpricedItems === 1 ? '' : 's'} (${planned.unpricedModels.join(', ')}): ${planned.unpricedLines.join('; ')}. Video is pre-charged by your site's price and the duration; give Spend Guard → Video Prices per Second to include it.`;
	}
	if (settings.capUsd !== undefined) summary.maxRunCostUsd = settings.capUsd;
	if (reading) {
		summary.balanceType = reading.kind;
		summary.balanceBefore = reading.before ?? null;
		if (reading.after !== undefined) summary.balanceAfter = reading.after;
		if (reading.error)
			summary.balanceError = `The balance could not be read, the run went on: ${reading.error}`;
		if (reading.afterError) summary.balanceAfterError = reading.afterError;
		if (settings.balanceUnitsPerUsd !== 1) summary.balanceUnitsPerUsd = settings.balanceUnitsPerUsd;
	}
	if (refused) summary.refused = refused;
	summary.note = COST_NOTE;
	return summary;
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
	return `Submitting ${planned.items} item${planned.items === 1 ? '' : 's'}, about ${usd(planned.totalUsd)}${planned.unpricedItems > 0 ? `; ${planned.unpricedItems} not priced` : ''}`;
}
