import type { IDataObject } from 'n8n-workflow';

import type { ModelSpec } from '../../registry/models';

export const COST_NOTE = 'Estimate from the gateway price list; the account plan decides the final charge.';

/**
 * The list price of one call (spec 2.8), from the model's registry row: base price × the
 * multiplier of the value sent in its multiplier field (GPT: 2K/4K = 1.5) × the images made.
 */
export function estimateCost(spec: Omit<ModelSpec, 'id'>, request: IDataObject, images: number): IDataObject {
	const price = spec.price;
	if (!price) {
		return { amount: null, currency: 'USD', images, note: `This model is not in the node's price list. ${COST_NOTE}` };
	}
	const sent = price.multiplierField ? request[price.multiplierField] : undefined;
	const multiplier = sent === undefined ? 1 : (price.multipliers?.[String(sent)] ?? 1);
	// Rounded to a micro-dollar so 0.015 × 1.5 reads 0.0225, not 0.022499999999999996.
	const amount = Math.round(price.baseUsd * multiplier * images * 1e6) / 1e6;
	return { amount, currency: 'USD', basePrice: price.baseUsd, multiplier, images, note: COST_NOTE };
}
