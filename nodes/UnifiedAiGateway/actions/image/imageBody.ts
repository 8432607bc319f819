import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { parseAdditionalBody } from '../../params/additionalBody';
import type { ValueRefusal } from '../../params/registryRules';
import { readRegistryValues } from '../../params/registryValues';
import { checkPrompt } from '../../params/inputs';
import { gatewayCredentials } from '../../transport/context';
import { originsFrom } from '../../transport/urls';
import { IMAGE_FIELD_SETS } from './imageFields';
import { describeModel, MULTI_HOST_IDS, type ImageModel, type ImageOperation } from './imageModel';

/** A refusal before anything is sent: names the field, the value and what the model takes. */
export function refuse(ctx: IExecuteFunctions, itemIndex: number, message: string, description?: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, {
		itemIndex,
		description: [description, 'Nothing was sent to the gateway, so nothing was charged.'].filter(Boolean).join(' '),
	});
}

export function readPrompt(ctx: IExecuteFunctions, itemIndex: number, operation: ImageOperation): string {
	const checked = checkPrompt(ctx.getNodeParameter('prompt', itemIndex, ''));
	if ('value' in checked) return checked.value;
	throw refuse(
		ctx,
		itemIndex,
		/ is empty$/.test(checked.problem) ? `${checked.problem}: every image model needs a text prompt` : checked.problem,
		operation === 'edit' ? 'Describe the change to make to the reference images.' : 'Describe the image to create.',
	);
}

/** An image value refusal: "Size (size) '512x512' is not accepted by model 'x': it takes …". */
function imageRefusal(ctx: IExecuteFunctions, itemIndex: number, model: ImageModel, r: ValueRefusal): NodeOperationError {
	const who = describeModel(model);
	if (r.reason === 'range') {
		return refuse(ctx, itemIndex, `${r.field} ${JSON.stringify(r.given)} is out of range for ${who}: it takes ${r.accepts}`);
	}
	const given = `${r.field} '${String(r.given).trim()}' is not accepted by ${who}`;
	if (r.reason === 'pattern') return refuse(ctx, itemIndex, `${given}: ${r.rule.description ?? `it takes ${r.accepts}`}`);
	return refuse(ctx, itemIndex, `${given}: it takes ${r.accepts}`, r.hint ?? r.rule.description);
}

/** The model's body fields for one item, read and checked against its registry rules. */
export function readModelFields(
	ctx: IExecuteFunctions,
	itemIndex: number,
	model: ImageModel,
	operation: ImageOperation,
): IDataObject {
	return readRegistryValues(ctx, itemIndex, IMAGE_FIELD_SETS[operation], model.spec.fields?.[operation], (refusal) =>
		imageRefusal(ctx, itemIndex, model, refusal),
	);
}

/** "Additional Body Fields (JSON)": extra keys for the body, never a key the node already sets. */
export function readAdditionalFields(
	ctx: IExecuteFunctions,
	itemIndex: number,
	model: ImageModel,
	taken: string[],
): IDataObject {
	const extra = parseAdditionalBody(ctx.getNodeParameter('additionalBodyFields', itemIndex, ''), '{"seed": 7}', (message, description) =>
		refuse(ctx, itemIndex, message, description),
	);
	const limits = model.spec.limits ?? {};
	const reserved = new Set(['model', 'prompt', ...taken, limits.referenceField, limits.maskField].filter(Boolean) as string[]);
	const clash = Object.keys(extra).find((key) => reserved.has(key));
	if (clash) {
		throw refuse(
			ctx,
			itemIndex,
			`Additional Body Fields sets '${clash}', which the node already sends for ${describeModel(model)}`,
			'Set it with its own field instead, so it is checked before sending.',
		);
	}
	return extra;
}

/** An alt-host model needs the credential's Alt Base URL: checked before any item is sent. */
export async function requireHost(ctx: IExecuteFunctions, itemIndex: number, model: ImageModel): Promise<void> {
	if (model.host !== 'alt') return;
	if (originsFrom(await gatewayCredentials(ctx)).alt) return;
	throw refuse(
		ctx,
		itemIndex,
		`Model '${model.id}' runs on the alt host, but the credential has no Alt Base URL`,
		`Open the Unified AI Gateway API credential and fill in Alt Base URL (the alt-host image service).${
			MULTI_HOST_IDS.includes(model.id) ? ' Or set Host to Main to run it on the main gateway.' : ''
		}`,
	);
}
