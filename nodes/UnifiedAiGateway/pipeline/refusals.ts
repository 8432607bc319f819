import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

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
