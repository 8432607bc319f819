import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ValueRefusal } from '../params/registryRules';

/** What every refusal before a submit adds: the run stopped before the billed call. */
export const NOTHING_SENT = 'Nothing was sent to the gateway, so nothing was charged.';

/**
 * The one refusal of the generation pipeline (image, video): raised while an item is read and
 * checked, before anything is sent. The message names the field and what it takes; `hint` says
 * how to fix it.
 */
export function refuse(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: string,
	hint?: string | null,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, {
		itemIndex,
		description: [hint, NOTHING_SENT].filter(Boolean).join(' '),
	});
}

/**
 * A registry value refused (params/registryValues.ts), in the words Image and Audio use: "Size
 * (size) '512x512' is not accepted by model 'x': it takes …"; `who` names the model.
 */
export function registryRefusal(
	ctx: IExecuteFunctions,
	itemIndex: number,
	who: string,
	r: ValueRefusal,
): NodeOperationError {
	if (r.reason === 'range') {
		return refuse(
			ctx,
			itemIndex,
			`${r.field} ${JSON.stringify(r.given)} is out of range for ${who}: it takes ${r.accepts}`,
		);
	}
	const given = `${r.field} '${String(r.given).trim()}' is not accepted by ${who}`;
	if (r.reason === 'pattern')
		return refuse(ctx, itemIndex, `${given}: ${r.rule.description ?? `it takes ${r.accepts}`}`);
	return refuse(ctx, itemIndex, `${given}: it takes ${r.accepts}`, r.hint ?? r.rule.description);
}
