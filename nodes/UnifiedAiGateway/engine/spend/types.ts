import type { BalanceKind } from '../../api/account';

/** One item's part of a run's cost, estimated before anything is sent. */
export interface ItemEstimate {
	/** Model id as the user knows it ("gemini-3-pro-image-preview (alt host)"). */
	model: string;
	/** What sets the price besides the model: "16:9, 2K, n=4", "8 s". */
	detail: string;
	/** USD at list price; null when the node knows no price for it. */
	amountUsd: number | null;
	/** Price of one unit and what a unit is. */
	unitUsd?: number;
	per?: 'call' | 'image' | 'second';
	units?: number;
	/** Why there is no price: "video cost is not estimated"… */
	unpriced?: string;
	/** What would price it, for the run's summary: "give Spend Guard → Video Prices per Second"… */
	advice?: string;
	/** Where the price comes from (pipeline/cost.ts PRICE_SOURCES); none when unpriced. */
	source?: PriceSource;
	/** Why the gateway's own price list did not price it (the estimate fell back, or is unpriced). */
	fallback?: string;
	/** The gateway's price before any ratio (its `model_price`), when it priced the item. */
	gatewayPrice?: number;
	/** The group ratio applied: the key's group's where the user named it, else the `default` group's. */
	groupRatio?: number;
	/** The group whose ratio that is ("default" when assumed); none where the user gave a ratio. */
	group?: string;
	/** The key's group is not known (it is in no answer a key can read): the `default` group assumed. */
	groupAssumed?: boolean;
	/** The group is the one the gateway's usage log last billed this key in (kept ten minutes). */
	groupLearned?: boolean;
	/**
	 * With the group assumed and a dearer group shown: the item at the dearest group ratio of the
	 * price list, what the cap judges it at (a key in that group would pay it).
	 */
	capUsd?: number;
	/** That dearest group and its ratio. */
	dearest?: { group: string; ratio: number };
	/** A per-second family's size or resolution ratio. */
	sizeRatio?: number;
	/** A chat priced by tokens: the text guessed in tokens, the answer's bound, the list's prices. */
	tokens?: {
		input: number;
		maxOutput: number;
		inputUsdPerMillion: number;
		outputUsdPerMillion: number;
	};
}

/** The gateway's price list, the document's list price (docs/gateway-contract.md §2.8), your price per second. */
export type PriceSource = 'gateway' | 'document' | 'yours';

/** The Spend Guard options of one node run (params/spendGuardOptions.ts). */
export interface SpendSettings {
	/** Max Estimated Cost per Run (USD); undefined = no cap. */
	capUsd?: number;
	/** Key Group: the key's group as the gateway names it, or its ratio as a number; undefined = not known. */
	keyGroup?: string;
	/** Check Balance Before Submitting: which balance; undefined = no check. */
	balance?: BalanceKind;
	/** How many of the gateway's balance units make one USD (1 when it reports USD). */
	balanceUnitsPerUsd: number;
	/** A balance call that fails stops the run (else the run goes on and says so). */
	stopIfBalanceUnreadable: boolean;
	/** With a cap: items without a price are let through (counted as 0 and said so). */
	allowUnpriced: boolean;
	/** Video Prices per Second, by model id. */
	videoUsdPerSecond: Record<string, number>;
}
