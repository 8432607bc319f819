import type { IDataObject, IExecuteFunctions, NodeOperationError } from 'n8n-workflow';

import { readAdditionalBody } from '../../params/additionalBody';
import { registryFieldLabel, type ValueRefusal } from '../../params/registryRules';
import { readRegistryValues } from '../../params/registryValues';
import { checkPrompt } from '../../params/inputs';
import { refuse } from '../../pipeline/refusals';
import { gatewayCredentials } from '../../transport/context';
import { originsFrom } from '../../transport/urls';
import { IMAGE_FIELD_SETS } from './imageFields';
import { describeModel, MULTI_HOST_IDS, type ImageModel, type ImageOperation } from './imageModel';

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
	return readRegistryValues(ctx, itemIndex, IMAGE_FIELD_SETS[operation], model.id, model.spec, (refusal) =>
		imageRefusal(ctx, itemIndex, model, refusal),
	);
}

/** "Additional Body Fields (JSON)": extra keys for the body, never a key the node already sets. */
export function readAdditionalFields(
	ctx: IExecuteFunctions,
	itemIndex: number,
	model: ImageModel,
	operation: ImageOperation,
	fields: IDataObject,
): IDataObject {
	const limits = model.spec.limits ?? {};
	const rules = model.spec.fields?.[operation] ?? {};
	// The body the fields make, with the model's reference and mask keys (filled in at submit).
	const template: IDataObject = { model: model.id, prompt: '', ...fields };
	if (limits.referenceField) template[limits.referenceField] = [];
	if (limits.maskField) template[limits.maskField] = '';
	const labelOf = (key: string) => {
		if (rules[key]) return registryFieldLabel(key, rules[key]);
		if (key === limits.maskField) return 'Mask URL';
		if (key === limits.referenceField) return 'Reference Images';
		return key === 'model' ? 'Model' : key === 'prompt' ? 'Prompt' : key;
	};
	return readAdditionalBody(ctx.getNodeParameter('additionalBodyFields', itemIndex, ''), '{"seed": 7}', template, labelOf, (message, description) =>
		refuse(ctx, itemIndex, message, description),
	);
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
