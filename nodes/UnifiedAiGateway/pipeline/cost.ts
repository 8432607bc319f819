import type { IDataObject } from 'n8n-workflow';

import type { GatewayPrice, PriceList, PriceLookup, TokenLookup } from '../api/pricing';
import { PRICE_SOURCES } from '../engine/spend/tally';
import type { ItemEstimate } from '../engine/spend/types';
import type { FieldRule, ModelSpec, RelayBilling } from '../registry/models';
import { listPrice, roundUsd } from '../registry/prices';

/*
 * What a generation costs, before it is sent (the spend guard's estimate) and in its output
 * (`estimatedCost`): the one price computation. First the gateway's own price list
 * (docs/gateway-contract.md §10.11: `model_price` × the key's group ratio, the default group's where
 * the key's group is not known, with the dearest group shown beside it for the cap; × the images asked,
 * or × the seconds and a size ratio where the model's row says the relay bills by the second);
 * where it has no usable price, the document's list price in the registry (registry/prices.ts,
 * docs/gateway-contract.md §2.8), which gives no video price: a video is then priced only when the
 * user gives a price per second for the model (Spend Guard → Video Prices per Second); the length
 * is what the request asks for, else the model's default.
 */

/** What prices a video the gateway's list does not: the summary's advice. */
const VIDEO_ADVICE =
	"Video is pre-charged by your site's price and the duration; give Spend Guard → Video Prices per " +
	'Second to include it.';

const GROUP_GUESS =
	"the default group's ratio (a guess: the key's own group is not readable with the key; " +
	'Spend Guard → Key Group names it)';

/** The words of the ratio an estimate applied: assumed, the key's named group, or a ratio given. */
function groupWords(estimate: ItemEstimate): string {
	if (estimate.groupAssumed !== false) return GROUP_GUESS;
	if (estimate.groupLearned)
		return `the ${estimate.group} group's ratio (the group the gateway's usage log last billed this key in)`;
	if (estimate.group !== undefined)
		return `the ${estimate.group} group's ratio (the key's group, Spend Guard → Key Group)`;
	return 'the group ratio given in Spend Guard → Key Group';
}

/**
 * What an estimate says of the key's group: the group applied, whether assumed, and, where a cap
 * judges the item at a dearer group, that group and the amount (`amount` prices it at one ratio).
 */
function groupFields(
	price: GatewayPrice,
	amount: (ratio: number) => number,
): Partial<ItemEstimate> {
	return {
		groupRatio: price.groupRatio,
		...(price.group !== undefined ? { group: price.group } : {}),
		groupAssumed: price.groupAssumed,
		...(price.groupLearned ? { groupLearned: true } : {}),
		...(price.dearest
			? { dearest: price.dearest, capUsd: roundUsd(amount(price.dearest.ratio)) }
			: {}),
	};
}

/** An item's `estimatedCost` words of its group: which was applied and, when assumed, the dearest. */
function groupJson(estimate: ItemEstimate): IDataObject {
	return {
		groupRatio: estimate.groupRatio,
		...(estimate.group !== undefined ? { group: estimate.group } : {}),
		groupAssumed: estimate.groupAssumed !== false,
		...(estimate.dearest
			? {
					dearestGroup: { ...estimate.dearest, amount: estimate.capUsd },
				}
			: {}),
	};
}
/** Where the estimate says the true figure is found. */
const CHARGE_NOTE = 'The gateway reports what it charged in `charge` where its answer carries it.';

const COST_NOTE =
	"A list price, not a bill: the gateway's own prices and the account plan decide the charge.";

const PER_TEXT = {
	call: "The document's list price per call: one charge per request, whatever the number of images.",
	image: "The document's list price per image (alt host): each image made is charged.",
};

/**
 * The list price of one request (docs/gateway-contract.md §2.8) from the model's registry row: base price × the
 * multiplier of the resolution tier the request asks for; × `images` only when priced per image.
 * `amount` is the share of one of the `outputItems` the request became, so the amounts of a
 * run's items add up to its cost (n = 4 is one call, not four); `callAmount` is the whole request.
 */
function estimateCost(
	spec: Omit<ModelSpec, 'id'>,
	request: IDataObject,
	images: number,
	outputItems = images,
): IDataObject {
	if (!spec.price) {
		return {
			amount: null,
			currency: 'USD',
			images,
			note: `This model is not in the node's price list. ${COST_NOTE}`,
		};
	}
	const price = listPrice(spec.price, request, images);
	const items = Math.max(1, outputItems);
	const share =
		items > 1 ? ` This item's amount is its share of the ${items} items the call made.` : '';
	return {
		amount: roundUsd(price.amount / items),
		callAmount: price.amount,
		currency: 'USD',
		per: price.per,
		basePrice: price.basePrice,
		resolutionTier: price.tier,
		multiplier: price.multiplier,
		images,
		note: `${PER_TEXT[price.per]}${share} ${COST_NOTE}`,
	};
}

/** Images one request asks for, before it is sent: `n` (also from Additional Body Fields), else 1. */
function requestedImages(request: IDataObject): number {
	const n = Number(request.n ?? 1);
	return Number.isInteger(n) && n > 0 ? n : 1;
}

/** "16:9, 2K, n=4": what sets this request's price, for the spend guard's per-model lines. */
function requestDetail(request: IDataObject, tier: string | undefined): string {
	const parts = [
		request.size,
		request.aspect_ratio,
		tier,
		request.n !== undefined && Number(request.n) > 1 ? `n=${request.n}` : undefined,
	];
	return parts
		.filter((p) => p !== undefined && p !== '')
		.map(String)
		.join(', ');
}

/** One item's part of a run's estimate (engine/spend) from the registry's list price, before anything is sent. */
function listPriceEstimate(
	model: { id: string; host: string; spec: Omit<ModelSpec, 'id'> },
	request: IDataObject,
): ItemEstimate {
	const label = model.host === 'alt' ? `${model.id} (alt host)` : model.id;
	const images = requestedImages(request);
	// The one price computation (estimateCost), read as the guard's line: the whole call's amount.
	const cost = estimateCost(model.spec, request, images, 1);
	if (cost.amount === null) {
		return {
			model: label,
			detail: requestDetail(request, undefined),
			amountUsd: null,
			unpriced: 'not in the price list',
		};
	}
	const per = cost.per as 'call' | 'image';
	return {
		model: label,
		detail: requestDetail(request, cost.resolutionTier as string),
		amountUsd: cost.callAmount as number,
		unitUsd: roundUsd((cost.basePrice as number) * (cost.multiplier as number)),
		per,
		units: per === 'image' ? images : 1,
	};
}

/** Why a model of the alt host is not priced from the Base URL's price list. */
const ALT_NOT_LISTED = "the alt host's models are not in the Base URL's price list";

/**
 * One image item's part of a run's estimate: the gateway's price × the key's group ratio × the
 * images asked (the relay bills an image call per image asked); else the document's list price,
 * saying why.
 */
export function imageEstimate(
	model: { id: string; host: string; spec: Omit<ModelSpec, 'id'> },
	request: IDataObject,
	prices: PriceList,
): ItemEstimate {
	const lookup: PriceLookup =
		model.host === 'main' ? prices.find(model.id) : { unpriced: ALT_NOT_LISTED };
	if ('unpriced' in lookup) {
		const listed = listPriceEstimate(model, request);
		return {
			...listed,
			...(listed.amountUsd === null ? {} : { source: 'document' as const }),
			fallback: lookup.unpriced,
		};
	}
	const { usd, groupRatio } = lookup.price;
	const images = requestedImages(request);
	const unitUsd = roundUsd(usd * groupRatio);
	return {
		model: model.id,
		detail: requestDetail(request, undefined),
		amountUsd: roundUsd(unitUsd * images),
		unitUsd,
		per: 'image',
		units: images,
		source: 'gateway',
		gatewayPrice: usd,
		...groupFields(lookup.price, (ratio) => usd * ratio * images),
	};
}

/**
 * An image item's `estimatedCost`: from the run's estimate where the gateway's price list priced
 * it, else the document's list price of the images made (estimateCost), with the reason.
 */
export function imageCostJson(
	spec: Omit<ModelSpec, 'id'>,
	request: IDataObject,
	images: number,
	estimate: ItemEstimate | undefined,
	outputItems = images,
): IDataObject {
	if (estimate?.source === 'gateway') {
		const callAmount = estimate.amountUsd as number;
		const items = Math.max(1, outputItems);
		const share =
			items > 1 ? ` This item's amount is its share of the ${items} items the call made.` : '';
		return {
			amount: roundUsd(callAmount / items),
			callAmount,
			currency: 'USD',
			per: 'image',
			source: PRICE_SOURCES.gateway,
			basePrice: estimate.gatewayPrice,
			...groupJson(estimate),
			images: estimate.units,
			note:
				`The gateway's price per image (GET /api/pricing) × ${groupWords(estimate)} × the images ` +
				`asked.${share} ${CHARGE_NOTE}`,
		};
	}
	const cost = estimateCost(spec, request, images, outputItems);
	return {
		...cost,
		...(cost.amount === null ? {} : { source: PRICE_SOURCES.document }),
		...(estimate?.fallback ? { fallback: estimate.fallback } : {}),
	};
}

/** The duration keys of docs/gateway-contract.md §4.8, in the order the gateway prefers them. */
const DURATION_KEYS = ['duration', 'seconds', 'metadata.durationSeconds'];

function at(body: IDataObject, dotted: string): unknown {
	return dotted
		.split('.')
		.reduce<unknown>(
			(value, key) =>
				value && typeof value === 'object' ? (value as IDataObject)[key] : undefined,
			body,
		);
}

function positive(value: unknown): number | undefined {
	const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** A row's rule of a body key as it applies on one submit route (grok's seconds differ per route). */
function ruleOn(rule: FieldRule | undefined, route: string | undefined): FieldRule | undefined {
	if (!rule?.routeVariants) return rule;
	const variant = rule.routeVariants.find((v) => route !== undefined && v.routes.includes(route));
	return variant ? { ...rule, ...variant } : undefined;
}

/** The length a video request will be billed for, and whether it was assumed rather than asked for. */
interface RequestedLength {
	seconds?: number;
	/**
	 * 'absent': the request names no length and the row says what the channel makes (and bills)
	 * then, or the most it may pick (FieldRule.whenAbsent); 'default': the row's default length.
	 */
	assumed?: 'absent' | 'default';
}

/**
 * The length the request asks for (fields, then Additional Body Fields); else what the channel
 * bills when none is sent (docs/gateway-contract.md §10.9: Grok 8 s; Seedance 2.5 picks, so the
 * longest, 30 s, is assumed); else the row's default length. A length the model picks (-1) is no length.
 */
function requestedLength(
	values: IDataObject,
	extra: IDataObject,
	row: ModelSpec | undefined,
	route?: string,
): RequestedLength {
	for (const key of DURATION_KEYS) {
		const found = positive(at(values, key)) ?? positive(at(extra, key));
		if (found !== undefined) return { seconds: found };
	}
	const rules = row?.fields?.video ?? {};
	for (const key of DURATION_KEYS) {
		const found = positive(ruleOn(rules[key], route)?.whenAbsent);
		if (found !== undefined) return { seconds: found, assumed: 'absent' };
	}
	for (const key of DURATION_KEYS) {
		const found = positive(ruleOn(rules[key], route)?.default);
		if (found !== undefined) return { seconds: found, assumed: 'default' };
	}
	return {};
}

/**
 * One video item's part of a run's estimate (engine/spend), before anything is sent: the user's
 * price per second of the model (Spend Guard) × the requested length. An id without a row
 * (`known` false) has an unknown price unless the user gives one and a length.
 */
function perSecondEstimate(
	modelId: string,
	length: RequestedLength | number | undefined,
	usdPerSecond: Record<string, number>,
	known = true,
): ItemEstimate {
	const { seconds, assumed } =
		typeof length === 'object' ? length : { seconds: length, assumed: undefined };
	const lengthText =
		assumed === 'absent'
			? `${seconds} s (no length sent: what the channel bills then, or the most it may pick)`
			: `${seconds} s`;
	const detail = seconds === undefined ? 'length set by the channel' : lengthText;
	const rate = usdPerSecond[modelId];
	if (rate === undefined) {
		const why = known
			? 'video cost is not estimated (no price per second given)'
			: "unknown price: the model is not in the node's model table and no price per second is given";
		return { model: modelId, detail, amountUsd: null, unpriced: why, advice: VIDEO_ADVICE };
	}
	if (seconds === undefined) {
		const why = known
			? 'video cost is not estimated (set Seconds or Duration to price it)'
			: 'unknown price: the length is set by the channel (set Duration to price it)';
		return { model: modelId, detail, amountUsd: null, unpriced: why, advice: VIDEO_ADVICE };
	}
	return {
		model: modelId,
		detail,
		amountUsd: roundUsd(rate * seconds),
		unitUsd: rate,
		per: 'second',
		units: seconds,
	};
}

/** An item's `estimatedCost` from a per-second estimate when its price is known; else the item keeps its price note. */
function perSecondCostJson(estimate: ItemEstimate | undefined): IDataObject {
	if (!estimate || estimate.amountUsd === null) return {};
	return {
		estimatedCost: {
			amount: estimate.amountUsd,
			currency: 'USD',
			per: 'second',
			pricePerSecond: estimate.unitUsd,
			seconds: estimate.units,
			note:
				'Your price per second (Spend Guard) × the requested length; the site ' +
				'price and the account plan decide the final charge.',
		},
	};
}

/** A per-second family's ratio for this request: the value its row names, else 1. */
function billingRatio(billing: RelayBilling, values: IDataObject, extra: IDataObject): number {
	if (!billing.ratio) return 1;
	const value = at(values, billing.ratio.key) ?? at(extra, billing.ratio.key);
	if (value === undefined || value === null || value === '') return 1;
	const wanted = String(value).trim().toLowerCase();
	const found = Object.entries(billing.ratio.values).find(([v]) => v.toLowerCase() === wanted);
	return found ? found[1] : 1;
}

/** What a video request asks for, as the estimate reads it. */
export interface VideoAsk {
	modelId: string;
	model?: ModelSpec;
	values: IDataObject;
	extra: IDataObject;
	route?: string;
}

/**
 * One video item's part of a run's estimate: the gateway's price × the key's group ratio, per
 * call, or × the seconds and the size ratio where the row says the relay bills by the second;
 * else the user's price per second (perSecondEstimate), saying why.
 */
export function videoEstimate(
	ask: VideoAsk,
	usdPerSecond: Record<string, number>,
	prices: PriceList,
): ItemEstimate {
	const length = requestedLength(ask.values, ask.extra, ask.model, ask.route);
	const lookup = prices.find(ask.modelId);
	if ('unpriced' in lookup) {
		const yours = perSecondEstimate(ask.modelId, length, usdPerSecond, ask.model !== undefined);
		return {
			...yours,
			...(yours.amountUsd === null ? {} : { source: 'yours' as const }),
			fallback: lookup.unpriced,
		};
	}
	const { usd, groupRatio } = lookup.price;
	const unitUsd = roundUsd(usd * groupRatio);
	const gateway = { source: 'gateway' as const, gatewayPrice: usd, unitUsd };
	const billing = ask.model?.relayBilling;
	if (billing?.per !== 'second') {
		const detail = length.seconds === undefined ? '' : `${length.seconds} s`;
		const group = groupFields(lookup.price, (ratio) => usd * ratio);
		return {
			model: ask.modelId,
			detail,
			amountUsd: unitUsd,
			per: 'call',
			units: 1,
			...gateway,
			...group,
		};
	}
	const seconds = length.seconds ?? billing.defaultSeconds;
	const sizeRatio = billingRatio(billing, ask.values, ask.extra);
	const group = groupFields(lookup.price, (ratio) => usd * ratio * seconds * sizeRatio);
	const detail = [
		length.seconds === undefined
			? `${seconds} s (no length sent: the channel's default)`
			: `${seconds} s`,
		sizeRatio !== 1 ? `size ratio ${sizeRatio}` : undefined,
	]
		.filter(Boolean)
		.join(', ');
	return {
		model: ask.modelId,
		detail,
		amountUsd: roundUsd(unitUsd * seconds * sizeRatio),
		per: 'second',
		units: seconds,
		sizeRatio,
		...gateway,
		...group,
	};
}

/**
 * A video item's `estimatedCost` where it is priced (the gateway's price list, or your price per
 * second); else the item keeps its price note (Video → Generate's modelNotes).
 */
export function videoCostJson(estimate: ItemEstimate | undefined): IDataObject {
	if (estimate?.source !== 'gateway') {
		const yours = perSecondCostJson(estimate);
		if (!yours.estimatedCost) return {};
		return {
			estimatedCost: {
				...(yours.estimatedCost as IDataObject),
				source: PRICE_SOURCES.yours,
				...(estimate?.fallback ? { fallback: estimate.fallback } : {}),
			},
		};
	}
	const perSecond = estimate.per === 'second';
	return {
		estimatedCost: {
			amount: estimate.amountUsd,
			currency: 'USD',
			per: estimate.per,
			source: PRICE_SOURCES.gateway,
			basePrice: estimate.gatewayPrice,
			...groupJson(estimate),
			...(perSecond ? { seconds: estimate.units, sizeRatio: estimate.sizeRatio } : {}),
			note: perSecond
				? `The gateway's price per second (GET /api/pricing) × the seconds × the ` +
					`size ratio × ${groupWords(estimate)}. ${CHARGE_NOTE}`
				: `The gateway's price per call (GET /api/pricing) × ${groupWords(estimate)}. ${CHARGE_NOTE}`,
		},
	};
}

/**
 * One item's part of a run's estimate for a call billed once whatever it makes (Audio → Generate
 * Speech): the gateway's per-call `model_price` × the key's group ratio. A model the list prices by
 * tokens (tts-1: `model_ratio` × the text on new-api) has no per-call figure: unpriced, saying why.
 */
export function perCallEstimate(model: string, detail: string, prices: PriceList): ItemEstimate {
	const lookup = prices.find(model);
	if ('unpriced' in lookup) return { model, detail, amountUsd: null, unpriced: lookup.unpriced };
	const { usd, groupRatio } = lookup.price;
	const unitUsd = roundUsd(usd * groupRatio);
	return {
		model,
		detail,
		amountUsd: unitUsd,
		unitUsd,
		per: 'call',
		units: 1,
		source: 'gateway',
		gatewayPrice: usd,
		// The key's group (Key Group, or learned), else default assumed and the cap at the dearest.
		...groupFields(lookup.price, (ratio) => usd * ratio),
	};
}

/**
 * A call priced by the gateway's token ratios: `input` tokens and at most `maxOutput` at its prices
 * per million, × the key's group ratio (the dearest group's where it is assumed).
 */
function tokenPricedEstimate(
	model: string,
	detail: string,
	lookup: Extract<TokenLookup, { price: GatewayPrice }>,
	input: number,
	maxOutput: number,
): ItemEstimate {
	const { inputUsdPerMillion, outputUsdPerMillion } = lookup;
	const at = (ratio: number) =>
		((input * inputUsdPerMillion + maxOutput * outputUsdPerMillion) / 1e6) * ratio;
	const amountUsd = roundUsd(at(lookup.price.groupRatio));
	return {
		model,
		detail,
		amountUsd,
		unitUsd: amountUsd,
		per: 'call',
		units: 1,
		source: 'gateway',
		tokens: { input, maxOutput, inputUsdPerMillion, outputUsdPerMillion },
		...groupFields(lookup.price, at),
	};
}

/**
 * One speech call's part of a run's estimate (Audio → Generate Speech): the gateway's price per call
 * where it lists one (gpt-4o-mini-tts), else its ratio price for the text: new-api counts one token per
 * character of the input for speech (`real-newapi/audio-speech.json`: 44 characters × tts-1's ratio 7.5
 * = 330 quota, 0.00066 USD) and bills the audio it makes at the audio completion ratio, 0 by default,
 * so the audio is not counted: a guess, said so.
 */
export function speechEstimate(
	model: string,
	characters: number,
	detail: string,
	prices: PriceList,
): ItemEstimate {
	if ('price' in prices.find(model)) return perCallEstimate(model, detail, prices);
	const lookup = prices.findTokens(model);
	if ('unpriced' in lookup) return perCallEstimate(model, detail, prices);
	return tokenPricedEstimate(model, detail, lookup, characters, 0);
}

/** A speech item's `estimatedCost`: per call as listed, or the text's characters at the ratio price. */
export function speechCostJson(estimate: ItemEstimate): IDataObject {
	const base = perCallCostJson(estimate);
	if (!estimate.tokens) return base;
	return {
		...base,
		per: 'call',
		characters: estimate.tokens.input,
		inputUsdPerMillion: estimate.tokens.inputUsdPerMillion,
		note:
			"A guess: the gateway's ratio price (GET /api/pricing) × the text's characters (the relay " +
			`counts one token per character for speech) × ${groupWords(estimate)}; the audio made is not ` +
			'counted (billed at the audio completion ratio, 0 by default). The usage log gives what it ' +
			'charged in `charge`.',
	};
}

/** A per-call item's `estimatedCost`: the run's estimate, its source and group, or why it is unpriced. */
export function perCallCostJson(estimate: ItemEstimate): IDataObject {
	return {
		amount: estimate.amountUsd,
		currency: 'USD',
		...(estimate.source ? { source: PRICE_SOURCES[estimate.source] } : {}),
		...(estimate.source === 'gateway' ? groupJson(estimate) : {}),
		...(estimate.unpriced ? { unpriced: estimate.unpriced } : {}),
	};
}

/** Characters per token the chat estimate assumes: the rule of thumb for English text, a guess. */
const CHARS_PER_TOKEN = 4;

/** What a chat body asks of the model's tokens: its text guessed in tokens, its files, its answer's bound. */
function chatTokens(body: IDataObject): { input: number; files: number; maxOutput?: number } {
	let characters = 0;
	let files = 0;
	const messages = Array.isArray(body.messages) ? (body.messages as IDataObject[]) : [];
	for (const message of messages) {
		const content = message?.content;
		if (typeof content === 'string') characters += content.length;
		else if (Array.isArray(content))
			for (const part of content as IDataObject[]) {
				if (part?.type === 'text' && typeof part.text === 'string') characters += part.text.length;
				else files++;
			}
	}
	const bound = [body.max_tokens, body.max_completion_tokens].find(
		(n) => typeof n === 'number' && Number.isFinite(n) && n >= 0,
	) as number | undefined;
	return {
		input: Math.ceil(characters / CHARS_PER_TOKEN),
		files,
		...(bound !== undefined ? { maxOutput: bound } : {}),
	};
}

/**
 * One chat call's part of a run's estimate (Text → Message a Model, the Analyze operations): the
 * gateway's price per call where it lists one, else its token ratios × the text guessed in tokens
 * (4 characters a token) plus the answer at its Maximum Number of Tokens, × the key's group ratio.
 * Files are not counted (their tokens are the model's to decide); an answer without a bound, or a
 * model the list does not price, is unpriced, saying why: a cap cannot judge it.
 */
export function chatEstimate(model: string, body: IDataObject, prices: PriceList): ItemEstimate {
	const tokens = chatTokens(body);
	const files =
		tokens.files > 0 ? `, ${tokens.files} file${tokens.files > 1 ? 's' : ''} not counted` : '';
	const perCall = prices.find(model);
	if ('price' in perCall) return perCallEstimate(model, `chat${files}`, prices);
	const lookup = prices.findTokens(model);
	const detail = `≈${tokens.input} input tokens${
		tokens.maxOutput !== undefined ? ` + at most ${tokens.maxOutput} output tokens` : ''
	}${files}`;
	if ('unpriced' in lookup) return { model, detail, amountUsd: null, unpriced: lookup.unpriced };
	if (tokens.maxOutput === undefined)
		return {
			model,
			detail,
			amountUsd: null,
			unpriced:
				"the answer's length is not bounded: add Options → Maximum Number of Tokens so that " +
				'its cost can be judged',
		};
	return tokenPricedEstimate(model, detail, lookup, tokens.input, tokens.maxOutput);
}

/** A chat item's `estimatedCost`: the run's estimate, its source, its tokens and group, or why it is unpriced. */
export function chatCostJson(estimate: ItemEstimate): IDataObject {
	const base = perCallCostJson(estimate);
	if (!estimate.tokens) return base;
	return {
		...base,
		per: 'call',
		inputTokens: estimate.tokens.input,
		maxOutputTokens: estimate.tokens.maxOutput,
		inputUsdPerMillion: estimate.tokens.inputUsdPerMillion,
		outputUsdPerMillion: estimate.tokens.outputUsdPerMillion,
		note:
			`A guess: the gateway's token prices (GET /api/pricing) × the text at ${CHARS_PER_TOKEN} ` +
			`characters a token and the answer at its Maximum Number of Tokens × ${groupWords(estimate)}; ` +
			'files are not counted. The usage log gives what it charged in `charge`.',
	};
}
