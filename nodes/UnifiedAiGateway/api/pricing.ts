import type { IDataObject } from 'n8n-workflow';

import type { GatewayContext } from '../transport/context';
import { asObject } from '../transport/responses';
import { keptBriefly, numberOf, oncePerRun, quietGet } from './runReads';

/*
 * The gateway's own price list, `GET /api/pricing` of the relay (docs/gateway-contract.md §10.11):
 * public by default, no key needed (one sent is ignored). Read at most once per node run and kept a
 * minute across runs. Nothing in it ever fails a generation: an answer that is missing, refused,
 * a web page, another shape or absurd leaves the estimate on the document's list price, and the
 * reason is said.
 */

/** A model's price as the gateway lists it, with the group ratio that applies. */
export interface GatewayPrice {
	/** `model_price`: USD per call, or per second on a channel that bills by the second. */
	usd: number;
	/**
	 * The ratio of the key's group where the user named it (Spend Guard → Key Group), else the
	 * `default` group's: the key's own group is in no answer a key can read (docs/gateway-contract.md
	 * §10.11), so that one is assumed, and said to be.
	 */
	groupRatio: number;
	/** The group whose ratio that is ("default", "vip"), or none where the user gave a ratio. */
	group?: string;
	/** True when the key's group is not known: `default` assumed. */
	groupAssumed: boolean;
	/** The group is the one the gateway's usage log last billed the key in. */
	groupLearned?: boolean;
	/**
	 * With the group assumed: the dearest ratio of a group the list shows the model in, when dearer
	 * than the one assumed. A cap judges the call at it, so a key in that group cannot cross it.
	 */
	dearest?: { group: string; ratio: number };
	/** Why the ratio is 1 although the list gave none. */
	groupRatioNote?: string;
}

/** What the list says of one model: its price, or why it has none the node can use. */
export type PriceLookup = { price: GatewayPrice } | { unpriced: string };

/**
 * A model the list prices by tokens (`quota_type` 0): `model_ratio` 1 is 2 USD per million input
 * tokens, output × `completion_ratio` (docs/gateway-contract.md §10.11); `price.usd` is 0 (no call price).
 */
export type TokenLookup =
	| { price: GatewayPrice; inputUsdPerMillion: number; outputUsdPerMillion: number }
	| { unpriced: string };

export interface PriceList {
	find(model: string): PriceLookup;
	/** A chat model's price by tokens, or why there is none (a per-call model: use find). */
	findTokens(model: string): TokenLookup;
	/**
	 * The same list priced for a key in `keyGroup` (Spend Guard → Key Group: a group the list shows,
	 * or a ratio as a number), or why that cannot be: a group the list does not show.
	 */
	forKeyGroup(keyGroup: string): PriceList | { problem: string };
	/** The same list priced at the group and ratio the gateway's usage log billed the key at. */
	forLearnedGroup(group: string, ratio: number): PriceList;
}

/** The relay's placeholder ratio of a model the admin gave no price (the relay refuses it). */
const UNSET_RATIO = 37.5;
const KEEP_MS = 60_000;

function unusable(reason: string): PriceList {
	const list: PriceList = {
		find: () => ({ unpriced: reason }),
		findTokens: () => ({ unpriced: reason }),
		forKeyGroup: () => list,
		forLearnedGroup: () => list,
	};
	return list;
}

/** The ratio applied to the list's prices, and where it comes from. */
interface GroupChoice {
	ratio: number;
	group?: string;
	assumed: boolean;
	/** The group is the one the gateway's usage log billed the key in (engine/spend/usageCharges.ts). */
	learned?: boolean;
	note?: string;
}

/** Every group ratio the list shows that is a number ≥ 0 (new-api shows the groups a user may pick). */
function shownRatios(groups: IDataObject | undefined): Map<string, number> {
	const ratios = new Map<string, number>();
	for (const [group, value] of Object.entries(groups ?? {})) {
		const ratio = numberOf(value);
		if (ratio !== undefined && ratio >= 0) ratios.set(group, ratio);
	}
	return ratios;
}

/**
 * The dearest ratio of a group the model can be used in (its `enable_groups`, where the list names
 * them; `all` or none: every group shown), when dearer than the one assumed.
 */
function dearestFor(
	entry: IDataObject,
	ratios: Map<string, number>,
	assumed: number,
): { group: string; ratio: number } | undefined {
	const enabled = Array.isArray(entry.enable_groups) ? entry.enable_groups.map(String) : [];
	const every = enabled.length === 0 || enabled.includes('all');
	let dearest: { group: string; ratio: number } | undefined;
	for (const [group, ratio] of ratios) {
		if (!every && !enabled.includes(group)) continue;
		if (ratio > (dearest?.ratio ?? assumed)) dearest = { group, ratio };
	}
	return dearest;
}

/** A price at the chosen group's ratio, with the dearest group a cap judges it at when assumed. */
function groupPrice(
	usd: number,
	entry: IDataObject,
	choice: GroupChoice,
	ratios: Map<string, number>,
): GatewayPrice {
	const dearest = choice.assumed ? dearestFor(entry, ratios, choice.ratio) : undefined;
	return {
		usd,
		groupRatio: choice.ratio,
		...(choice.group !== undefined ? { group: choice.group } : {}),
		groupAssumed: choice.assumed,
		...(choice.learned ? { groupLearned: true } : {}),
		...(dearest ? { dearest } : {}),
		...(choice.note ? { groupRatioNote: choice.note } : {}),
	};
}

/** USD per million input tokens at `model_ratio` 1 (new-api: 0.002 USD per 1K tokens). */
const USD_PER_MILLION_AT_RATIO_1 = 2;

/** What one entry says of its model's price by tokens (`quota_type` 0). */
function entryTokens(
	entry: IDataObject,
	choice: GroupChoice,
	ratios: Map<string, number>,
): TokenLookup {
	const quotaType = numberOf(entry.quota_type);
	if (quotaType !== 0) {
		const perCall = entryPrice(entry, choice, ratios);
		return 'unpriced' in perCall ? perCall : { unpriced: 'the gateway prices it per call' };
	}
	const ratio = numberOf(entry.model_ratio);
	if (ratio === UNSET_RATIO)
		return {
			unpriced: `the gateway has set no price for it (model_ratio ${UNSET_RATIO}, the relay's placeholder)`,
		};
	const completion = entry.completion_ratio === undefined ? 1 : numberOf(entry.completion_ratio);
	if (ratio === undefined || ratio < 0 || completion === undefined || completion < 0)
		return {
			unpriced:
				"the gateway's price list gives it no usable token ratio " +
				`(model_ratio ${JSON.stringify(entry.model_ratio ?? null).slice(0, 20)}, ` +
				`completion_ratio ${JSON.stringify(entry.completion_ratio ?? null).slice(0, 20)})`,
		};
	const input = ratio * USD_PER_MILLION_AT_RATIO_1;
	return {
		price: groupPrice(0, entry, choice, ratios),
		inputUsdPerMillion: input,
		outputUsdPerMillion: input * completion,
	};
}

/** What one entry of the list says about its model. */
function entryPrice(
	entry: IDataObject,
	choice: GroupChoice,
	ratios: Map<string, number>,
): PriceLookup {
	const quotaType = numberOf(entry.quota_type);
	if (quotaType === 1) {
		const usd = numberOf(entry.model_price);
		if (usd === undefined || usd < 0)
			return {
				unpriced:
					"the gateway's price list gives it no usable per-call price " +
					`(model_price ${JSON.stringify(entry.model_price ?? null).slice(0, 40)})`,
			};
		return { price: groupPrice(usd, entry, choice, ratios) };
	}
	if (quotaType === 0) {
		const ratio = numberOf(entry.model_ratio);
		if (ratio === UNSET_RATIO)
			return {
				unpriced: `the gateway has set no price for it (model_ratio ${UNSET_RATIO}, the relay's placeholder)`,
			};
		return {
			unpriced:
				`the gateway prices it by tokens (model_ratio ${JSON.stringify(entry.model_ratio ?? null).slice(0, 20)}), ` +
				`which cannot be known before the call`,
		};
	}
	return {
		unpriced:
			"the gateway's price list gives an unknown quota_type " +
			`(${JSON.stringify(entry.quota_type ?? null).slice(0, 20)})`,
	};
}

/** The answer of `GET /api/pricing` as a price list, whatever it holds. */
function priceListOf(body: unknown): PriceList {
	const root = asObject(body);
	if (!root) return unusable("the gateway's price list answer is not a JSON object");
	if (root.success === false)
		return unusable(
			`the gateway refused its price list (${String(root.message ?? 'no reason given').slice(0, 120)})`,
		);
	if (!Array.isArray(root.data))
		return unusable("the gateway's price list has another shape (no data list)");
	if (root.data.length === 0) return unusable("the gateway's price list is empty");
	const groups = asObject(root.group_ratio);
	let groupRatio = 1;
	let ratioNote: string | undefined;
	if (groups && 'default' in groups) {
		const ratio = numberOf(groups.default);
		if (ratio === undefined || ratio < 0)
			return unusable(
				"the gateway's price list gives no usable ratio for the default group " +
					`(${JSON.stringify(groups.default ?? null).slice(0, 30)})`,
			);
		groupRatio = ratio;
	} else {
		ratioNote = 'the price list names no default group ratio: 1 assumed';
	}
	const entries = new Map<string, IDataObject>();
	for (const item of root.data) {
		const entry = asObject(item);
		const name = entry?.model_name;
		if (entry && typeof name === 'string' && !entries.has(name)) entries.set(name, entry);
	}
	const ratios = shownRatios(groups);
	const listFor = (choice: GroupChoice): PriceList => ({
		find: (model) => {
			const entry = entries.get(model);
			if (!entry) return { unpriced: "the model is not in the gateway's price list" };
			return entryPrice(entry, choice, ratios);
		},
		findTokens: (model) => {
			const entry = entries.get(model);
			if (!entry) return { unpriced: "the model is not in the gateway's price list" };
			return entryTokens(entry, choice, ratios);
		},
		forKeyGroup: (keyGroup) => {
			const name = keyGroup.trim();
			const shown = ratios.get(name);
			if (shown !== undefined) return listFor({ ratio: shown, group: name, assumed: false });
			// A group the anonymous list does not show (one the admin gave this user alone): its ratio given as a number.
			const given = numberOf(name);
			if (given !== undefined && given >= 0) return listFor({ ratio: given, assumed: false });
			const names = [...ratios.keys()].join(', ') || 'none';
			return {
				problem:
					`Key Group ${JSON.stringify(name).slice(0, 60)} is not a group the gateway's price list ` +
					`shows (${names.slice(0, 200)}), nor a ratio`,
			};
		},
		forLearnedGroup: (group, ratio) => listFor({ ratio, group, assumed: false, learned: true }),
	});
	return listFor({ ratio: groupRatio, group: 'default', assumed: true, note: ratioNote });
}

/** The gateway's price list, read once per node run (and kept a minute across runs). */
export async function readPriceList(ctx: GatewayContext): Promise<PriceList> {
	return await oncePerRun(ctx, 'priceList', async () => {
		const read = async (): Promise<{ list: PriceList; transient: boolean }> => {
			const answer = await quietGet(ctx, '/api/pricing', "reading the gateway's price list");
			if ('problem' in answer) {
				const why =
					answer.status === 401 || answer.status === 403
						? `the gateway does not make its price list public (${answer.problem})`
						: `the gateway's price list could not be read (${answer.problem})`;
				return { list: unusable(why), transient: answer.transient };
			}
			return { list: priceListOf(answer.body), transient: false };
		};
		return (await keptBriefly(ctx, 'priceList', KEEP_MS, read, (r) => !r.transient)).list;
	});
}
