import type { IExecuteFunctions } from 'n8n-workflow';

import { findModel, type ModelGroup, type ModelSpec } from '../registry/models';
import { refuse } from './refusals';

const RESOURCE: Record<ModelGroup, string> = { text: 'Text', image: 'Image', video: 'Video' };
const article = (group: ModelGroup) => (group === 'image' ? 'an' : 'a');

/**
 * Step one of the pipeline: the model an item runs on. `value` is the Model field as read (a list
 * pick or an expression); an id of another resource's model is refused, an id the registry does
 * not know runs with the resource's unknown-model rules (`row` undefined).
 */
export function resolveModelId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	group: ModelGroup,
	examples: readonly string[],
): { id: string; row?: ModelSpec } {
	const id = String(value ?? '').trim();
	if (!id) throw refuse(ctx, itemIndex, `Model is empty: pick ${article(group)} ${group} model`, `For example ${examples.slice(0, 3).join(', ')}.`);
	const row = findModel(id);
	if (row && row.group !== group) {
		throw refuse(
			ctx,
			itemIndex,
			`Model '${id}' is ${article(row.group)} ${row.group} model, not ${article(group)} ${group} model`,
			`Use the ${RESOURCE[row.group]} resource for it, or pick ${article(group)} ${group} model.`,
		);
	}
	return { id, row };
}
