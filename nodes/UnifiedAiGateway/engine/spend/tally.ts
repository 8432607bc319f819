import { roundUsd } from '../../registry/prices';
import type { ItemEstimate, PriceSource } from './types';

/** Where an estimate's price comes from, in words. */
export const PRICE_SOURCES: Record<PriceSource, string> = {
	gateway: "the gateway's price list",
	document: "the document's list price",
	yours: 'your price per second (Spend Guard)',
};

/** A run's estimate: the priced total and the lines that make it up, count per model and size. */
export interface RunEstimate {
	items: number;
	totalUsd: number;
	unpricedItems: number;
	/** "3 × gpt-image-2 (16:9, 2K) = 0.0675 USD (0.0225 USD per call)", dearest first. */
	lines: string[];
	/** "2 × sora-2 (8 s): video cost is not estimated". */
	unpricedLines: string[];
	/** Models of the unpriced items, for hints. */
	unpricedModels: string[];
	/** What would price them, each once (ItemEstimate.advice). */
	unpricedAdvice: string[];
	/** Where the priced items' prices come from (PRICE_SOURCES), most items first. */
	sources: string[];
	/** Why the gateway's price list did not price some: "gpt-image-2, nano-banana: <reason>". */
	fallbacks: string[];
	/**
	 * What the cap judges: the priced items at the dearest group ratio the price list shows where
	 * the key's group is not known (else at their estimate); equal to totalUsd when no group is dearer.
	 */
	capTotalUsd: number;
	/** The groups the estimate assumed and the dearer ones the cap judged at: "default (1)", "vip (2)". */
	assumedGroups: string[];
	dearestGroups: string[];
}

/** Lines shown in an error or a summary before "… and N more". */
const MAX_LINES = 8;

export function usd(amount: number): string {
	return `${roundUsd(amount)} USD`;
}

interface Group {
	estimate: ItemEstimate;
	count: number;
	totalUsd: number;
}

function label(e: ItemEstimate): string {
	return e.detail ? `${e.model} (${e.detail})` : e.model;
}

function firstLines(lines: string[]): string[] {
	if (lines.length <= MAX_LINES) return lines;
	return [...lines.slice(0, MAX_LINES), `… and ${lines.length - MAX_LINES} more kinds of item`];
}

export function tally(estimates: ItemEstimate[]): RunEstimate {
	const groups = new Map<string, Group>();
	for (const e of estimates) {
		const key = JSON.stringify([
			e.model,
			e.detail,
			e.unitUsd,
			e.per,
			e.amountUsd === null ? e.unpriced : 'priced',
		]);
		const group = groups.get(key) ?? { estimate: e, count: 0, totalUsd: 0 };
		group.count += 1;
		group.totalUsd += e.amountUsd ?? 0;
		groups.set(key, group);
	}
	const all = [...groups.values()];
	const priced = all
		.filter((g) => g.estimate.amountUsd !== null)
		.sort((a, b) => b.totalUsd - a.totalUsd);
	const unpriced = all.filter((g) => g.estimate.amountUsd === null);
	return {
		items: estimates.length,
		totalUsd: roundUsd(priced.reduce((sum, g) => sum + g.totalUsd, 0)),
		unpricedItems: unpriced.reduce((sum, g) => sum + g.count, 0),
		lines: firstLines(
			priced.map(({ estimate: e, count, totalUsd }) => {
				const unit = e.unitUsd !== undefined && e.per ? ` (${usd(e.unitUsd)} per ${e.per})` : '';
				return `${count} × ${label(e)} = ${usd(totalUsd)}${unit}`;
			}),
		),
		unpricedLines: firstLines(
			unpriced.map(
				({ estimate: e, count }) => `${count} × ${label(e)}: ${e.unpriced ?? 'no price'}`,
			),
		),
		unpricedModels: [...new Set(unpriced.map((g) => g.estimate.model))],
		unpricedAdvice: [
			...new Set(unpriced.flatMap((g) => (g.estimate.advice ? [g.estimate.advice] : []))),
		],
		sources: sourcesOf(estimates),
		fallbacks: fallbacksOf(estimates),
		capTotalUsd: roundUsd(
			estimates.reduce((sum, e) => sum + (e.amountUsd === null ? 0 : (e.capUsd ?? e.amountUsd)), 0),
		),
		assumedGroups: groupsOf(
			estimates.filter((e) => e.groupAssumed).map((e) => [e.group, e.groupRatio]),
		),
		dearestGroups: groupsOf(estimates.map((e) => [e.dearest?.group, e.dearest?.ratio])),
	};
}

/** "vip (×2)", once each. */
function groupsOf(pairs: Array<[string | undefined, number | undefined]>): string[] {
	const named = pairs.filter(([g, r]) => g !== undefined && r !== undefined);
	return [...new Set(named.map(([g, r]) => `${g} (×${r})`))];
}

function sourcesOf(estimates: ItemEstimate[]): string[] {
	const counts = new Map<PriceSource, number>();
	for (const e of estimates) if (e.source) counts.set(e.source, (counts.get(e.source) ?? 0) + 1);
	return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([s]) => PRICE_SOURCES[s]);
}

/** One line per reason, naming its models: the same reason for every model is said once. */
function fallbacksOf(estimates: ItemEstimate[]): string[] {
	const models = new Map<string, Set<string>>();
	for (const e of estimates) {
		if (!e.fallback) continue;
		const found = models.get(e.fallback) ?? new Set<string>();
		found.add(e.model);
		models.set(e.fallback, found);
	}
	return firstLines([...models.entries()].map(([why, ids]) => `${[...ids].join(', ')}: ${why}`));
}
