import type { IDataObject } from 'n8n-workflow';

import type { ModelPrice, ResolutionTier } from './types';

/*
 * docs/gateway-contract.md §2.8 prices from a registry row and a request body. A multiplier is keyed by the
 * resolution tier the request asks for, whichever field says it: gpt-image-2 `resolution`
 * (1k/2k/4k), the alt host's `image_size` (1K/2K/4K) or a pixel `size` (the GPT 2.5 size
 * table: up to 1920 px is the standard tier, larger is high resolution).
 */

const TIER_ORDER: readonly ResolutionTier[] = ['1K', '2K', '4K'];

/** docs/gateway-contract.md §2.8: the GPT image models' multipliers. */
export const GPT_TIERS: ModelPrice['tiers'] = { '1K': 1, '2K': 1.5, '4K': 1.5 };
/** docs/gateway-contract.md §2.8: nano-banana models use 1 at every resolution. */
export const NANO_TIERS: ModelPrice['tiers'] = { '1K': 1, '2K': 1, '4K': 1 };

/** The tier one body value names, if it names one: '2k', '4K', '2048x2048'… ('16:9' names none). */
export function tierOfValue(key: string, value: unknown): ResolutionTier | undefined {
	const text = String(value ?? '').trim();
	if (key === 'resolution' || key === 'image_size') {
		const tier = text.toUpperCase();
		return (TIER_ORDER as readonly string[]).includes(tier) ? (tier as ResolutionTier) : undefined;
	}
	if (key === 'size') {
		const pixels = /^(\d{2,5})x(\d{2,5})$/i.exec(text);
		if (!pixels) return undefined;
		const longest = Math.max(Number(pixels[1]), Number(pixels[2]));
		// The spec's standard sizes stop at 1920 px; its high-resolution table runs to 3840.
		return longest <= 1920 ? '1K' : longest < 3000 ? '2K' : '4K';
	}
	return undefined;
}

/**
 * The highest tier the request names (a guard should not under-count when a pixel size and a
 * resolution disagree); 1K when it names none, the gateway's default (docs/gateway-contract.md §4.4, §4.6).
 */
export function requestTier(request: IDataObject): ResolutionTier {
	const named = ['resolution', 'image_size', 'size'].map((key) => tierOfValue(key, request[key]));
	return TIER_ORDER.reduce<ResolutionTier>(
		(found, tier) => (named.includes(tier) ? tier : found),
		'1K',
	);
}

export function tierMultiplier(price: ModelPrice, tier: ResolutionTier): number {
	return price.tiers?.[tier] ?? 1;
}

/** For a field's option labels: the multiplier of each value that names a tier priced above 1×. */
export function valueMultipliers(
	price: ModelPrice | undefined,
	key: string,
	values: readonly unknown[],
): Record<string, number> | undefined {
	if (!price) return undefined;
	const found: Record<string, number> = {};
	for (const value of values) {
		const tier = tierOfValue(key, value);
		if (tier && tierMultiplier(price, tier) !== 1)
			found[String(value)] = tierMultiplier(price, tier);
	}
	return Object.keys(found).length > 0 ? found : undefined;
}

export interface ListPrice {
	/** USD for one request: base × multiplier, × images when priced per image. */
	amount: number;
	basePrice: number;
	per: ModelPrice['per'];
	tier: ResolutionTier;
	multiplier: number;
	/** What the amount counts: 1 call, or the images. */
	units: number;
}

/** Rounded to a micro-dollar so 0.015 × 1.5 reads 0.0225, not 0.022499999999999996. */
export function roundUsd(amount: number): number {
	return Math.round(amount * 1e6) / 1e6;
}

/** The list price of one request that makes `images` images (docs/gateway-contract.md §2.8). */
export function listPrice(price: ModelPrice, request: IDataObject, images: number): ListPrice {
	const tier = requestTier(request);
	const multiplier = tierMultiplier(price, tier);
	const units = price.per === 'image' ? images : 1;
	return {
		amount: roundUsd(price.baseUsd * multiplier * units),
		basePrice: price.baseUsd,
		per: price.per,
		tier,
		multiplier,
		units,
	};
}
