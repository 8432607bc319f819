import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readAdditionalBody } from '../params/additionalBody';
import { checkPrompt, kindOf } from '../params/inputs';
import { registryFieldLabel } from '../params/registryRules';
import {
	findModel,
	MODEL_GROUPS,
	MODELS,
	multiHostIds,
	type FieldRule,
	type ModelGroup,
	type ModelSpec,
} from '../registry/models';
import { gatewayCredentials } from '../transport/context';
import { originsFrom, type GatewayHost } from '../transport/urls';
import { refuse } from './refusals';

/*
 * The first steps of the pipeline, the same for every resource: the model an item runs on, then
 * its prompt, Additional Body Fields and host, read and checked before anything is sent. The
 * model's own fields are read by params/registryValues.ts from the registry rows; each resource
 * words its value refusals (its adapter).
 */

/** The model one item runs on: the id, its registry row on the chosen host (none for an unknown id), the host. */
export interface ChosenModel {
	id: string;
	row?: ModelSpec;
	host: GatewayHost;
}

/** Ids of a resource with a row on each host (gemini-3-pro-image-preview): the user picks the host. */
export function multiHostIdsOf(group: ModelGroup): string[] {
	return multiHostIds(MODELS.filter((m) => m.group === group));
}

/**
 * Step one of the pipeline: the model an item runs on, from the Model field (a list pick or an
 * expression) and the registry. Empty, or an id of another resource's model, is refused; an id the
 * registry does not know runs with the resource's unknown-model rules (no `row`). An id with a row
 * on each host follows the resource's Host field (`<group>Host`).
 */
export function resolveModel(
	ctx: IExecuteFunctions,
	itemIndex: number,
	group: ModelGroup,
): ChosenModel {
	const raw = ctx.getNodeParameter('modelId', itemIndex, '', { extractValue: true });
	const rows = MODELS.filter((m) => m.group === group);
	// An expression may give anything: an object would be sent as "[object Object]" and blamed on the key's group.
	if (raw !== undefined && raw !== null && typeof raw !== 'string' && typeof raw !== 'number')
		throw refuse(
			ctx,
			itemIndex,
			`Model is ${kindOf(raw)}, not a model ID: map the ID itself, for example {{ $json.model }} rather than {{ $json }}`,
			`It gave ${JSON.stringify(raw)?.slice(0, 80) ?? String(raw)}.`,
		);
	const id = String(raw ?? '').trim();
	if (!id) {
		const examples = [...new Set(rows.map((m) => m.id))].slice(0, 3).join(', ');
		throw refuse(
			ctx,
			itemIndex,
			`Model is empty: pick ${MODEL_GROUPS[group].aModel}`,
			`For example ${examples}.`,
		);
	}
	const other = findModel(id);
	if (other && other.group !== group) {
		throw refuse(
			ctx,
			itemIndex,
			`Model '${id}' is ${MODEL_GROUPS[other.group].aModel}, not ${MODEL_GROUPS[group].aModel}`,
			`Use the ${MODEL_GROUPS[other.group].name} resource for it, or pick ${MODEL_GROUPS[group].aModel}.`,
		);
	}
	const own = rows.filter((m) => m.id === id);
	if (own.length === 0) return { id, host: 'main' };
	const host =
		own.length > 1
			? (ctx.getNodeParameter(`${group}Host`, itemIndex, own[0].host) as GatewayHost)
			: own[0].host;
	const row = own.find((m) => m.host === host) ?? own[0];
	return { id, row, host: row.host };
}

/** "model 'x'" or "model 'x' on the alt host", for messages. */
export function describeModel(model: { id: string; host: GatewayHost }): string {
	return `model '${model.id}'${model.host === 'alt' ? ' on the alt host' : ''}`;
}

/** The item's prompt, checked; `whenEmpty` completes "Prompt is empty: …", `hint` says what to write. */
export function readPrompt(
	ctx: IExecuteFunctions,
	itemIndex: number,
	whenEmpty: string,
	hint?: string,
): string {
	const checked = checkPrompt(ctx.getNodeParameter('prompt', itemIndex, ''));
	if ('value' in checked) return checked.value;
	throw refuse(
		ctx,
		itemIndex,
		/ is empty$/.test(checked.problem) ? `${checked.problem}: ${whenEmpty}` : checked.problem,
		hint,
	);
}

export interface ExtraBodyField {
	/** The field's value as read (its parameter name differs by resource). */
	value: unknown;
	/** Shown in the refusal of text that is not a JSON object. */
	example: string;
	/** The body the other fields make: a key here is the node's to set, never replaced. */
	template: IDataObject;
	/** The model's rules, by body key, for naming a field a key belongs to. */
	rules: Record<string, FieldRule>;
	/** Other body keys with a field of their own (reference images, mask), by their label. */
	labels?: Record<string, string>;
}

/**
 * "Additional Body Fields (JSON)": extra keys for the body, never a key a field already sets (named in the refusal).
 */
export function readExtraBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: ExtraBodyField,
): IDataObject {
	const labelOf = (key: string) => {
		if (field.rules[key]) return registryFieldLabel(key, field.rules[key]);
		if (field.labels?.[key]) return field.labels[key];
		return key === 'model' ? 'Model' : key === 'prompt' ? 'Prompt' : key;
	};
	return readAdditionalBody(field.value, field.example, field.template, labelOf, (message, hint) =>
		refuse(ctx, itemIndex, message, hint),
	);
}

/** A model on the alt host needs the credential's Alt Base URL: checked before any item is sent. */
export async function requireHost(
	ctx: IExecuteFunctions,
	itemIndex: number,
	model: { id: string; host: GatewayHost; group?: ModelGroup },
): Promise<void> {
	if (model.host !== 'alt') return;
	if (originsFrom(await gatewayCredentials(ctx)).alt) return;
	const group = model.group;
	throw refuse(
		ctx,
		itemIndex,
		`Model '${model.id}' runs on the alt host, but the credential has no Alt Base URL`,
		`Open the Unified AI Gateway API credential and fill in Alt Base URL (the alt-host image service).${
			group && multiHostIdsOf(group).includes(model.id)
				? ' Or set Host to Main to run it on the main gateway.'
				: ''
		}`,
	);
}
