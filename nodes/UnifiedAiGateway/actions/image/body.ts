import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FieldRule } from '../../registry/models';
import { CREDENTIAL_TYPE } from '../../transport/context';
import { originsFrom } from '../../transport/urls';
import {
	describeModel,
	isModelFromExpression,
	isNumericRule,
	isRegistryDefault,
	labelOf,
	MULTI_HOST_IDS,
	ruleKind,
	type ImageModel,
	type ImageOperation,
} from './models';

/** A refusal before anything is sent: names the field, the value and what the model takes. */
export function refuse(ctx: IExecuteFunctions, itemIndex: number, message: string, description?: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, {
		itemIndex,
		description: [description, 'Nothing was sent to the gateway, so nothing was charged.'].filter(Boolean).join(' '),
	});
}

export function readPrompt(ctx: IExecuteFunctions, itemIndex: number, operation: ImageOperation): string {
	const prompt = String(ctx.getNodeParameter('prompt', itemIndex, '') ?? '').trim();
	if (!prompt) {
		throw refuse(
			ctx,
			itemIndex,
			"Prompt is empty: every image model needs a text prompt",
			operation === 'edit' ? 'Describe the change to make to the reference images.' : 'Describe the image to create.',
		);
	}
	return prompt;
}

function rangeText(rule: FieldRule): string {
	const kind = rule.integer ? 'a whole number' : 'a number';
	if (rule.min !== undefined && rule.max !== undefined) return `${kind} from ${rule.min} to ${rule.max}`;
	if (rule.min !== undefined) return `${kind} of at least ${rule.min}`;
	if (rule.max !== undefined) return `${kind} of at most ${rule.max}`;
	return kind;
}

/** One value checked against its registry rule; returns it as the gateway wants it. */
function checkedValue(
	ctx: IExecuteFunctions,
	itemIndex: number,
	model: ImageModel,
	key: string,
	rule: FieldRule,
	raw: unknown,
): string | number {
	const label = `${labelOf(key, rule)} (${key})`;
	const who = describeModel(model);
	if (rule.values) {
		const found = rule.values.find((v) => v === raw || (typeof v === 'number' && Number(raw) === v));
		if (found !== undefined) return found;
		const otherCase = rule.values.find((v) => String(v).toLowerCase() === String(raw).trim().toLowerCase());
		throw refuse(
			ctx,
			itemIndex,
			`${label} '${String(raw)}' is not accepted by ${who}: it takes ${rule.values.join(', ')}`,
			otherCase !== undefined ? `Case matters: write '${otherCase}'.` : rule.description,
		);
	}
	if (isNumericRule(rule)) {
		const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
		const ok =
			String(raw).trim() !== '' &&
			Number.isFinite(n) &&
			(!rule.integer || Number.isInteger(n)) &&
			(rule.min === undefined || n >= rule.min) &&
			(rule.max === undefined || n <= rule.max);
		if (!ok) throw refuse(ctx, itemIndex, `${label} ${JSON.stringify(raw)} is out of range for ${who}: it takes ${rangeText(rule)}`);
		return n;
	}
	const text = String(raw).trim();
	if (rule.pattern && !new RegExp(rule.pattern).test(text)) {
		throw refuse(ctx, itemIndex, `${label} '${text}' is not accepted by ${who}: ${rule.description ?? `it must match ${rule.pattern}`}`);
	}
	return text;
}

/**
 * A rule's own field. With the model from an expression, n8n fills every model's field with
 * its default: such a value counts as not chosen (this model's default applies), an entry in
 * Options is taken first, and any other value is the user's and is checked as usual.
 */
function fieldValue(
	ctx: IExecuteFunctions,
	itemIndex: number,
	key: string,
	rule: FieldRule,
	options: IDataObject,
	byExpression: boolean,
): unknown {
	const given = ctx.getNodeParameter(key, itemIndex, undefined) as unknown;
	if (!byExpression) return given ?? rule.default;
	if (options[key] !== undefined && options[key] !== '') return options[key];
	return given === undefined || isRegistryDefault(key, given) ? rule.default : given;
}

/**
 * The model's body fields for one item, read and checked from its registry rules: a rule with
 * a default is its own field, one without is in Options, a single-valued one is sent as is.
 */
export function readModelFields(
	ctx: IExecuteFunctions,
	itemIndex: number,
	model: ImageModel,
	operation: ImageOperation,
): IDataObject {
	const rules = model.spec.fields?.[operation] ?? {};
	const options = (ctx.getNodeParameter('imageOptions', itemIndex, {}) ?? {}) as IDataObject;
	const body: IDataObject = {};
	const byExpression = isModelFromExpression(ctx);
	for (const [key, rule] of Object.entries(rules)) {
		const kind = ruleKind(rule);
		const raw =
			kind === 'fixed'
				? rule.values?.[0]
				: kind === 'field'
					? fieldValue(ctx, itemIndex, key, rule, options, byExpression)
					: options[key];
		if (raw === undefined || raw === null || raw === '' || raw === rule.omit) continue;
		body[key] = checkedValue(ctx, itemIndex, model, key, rule, raw);
	}
	return body;
}

/** "Additional Body Fields (JSON)": extra keys for the body, never a key the node already sets. */
export function readAdditionalFields(
	ctx: IExecuteFunctions,
	itemIndex: number,
	model: ImageModel,
	taken: string[],
): IDataObject {
	const raw = ctx.getNodeParameter('additionalBodyFields', itemIndex, '') as unknown;
	let extra: unknown = raw;
	if (typeof raw === 'string') {
		if (raw.trim() === '') return {};
		try {
			extra = JSON.parse(raw) as unknown;
		} catch (error) {
			throw refuse(ctx, itemIndex, `Additional Body Fields is not valid JSON: ${(error as Error).message}`, 'Write a JSON object, for example {"seed": 7}.');
		}
	}
	if (!extra || typeof extra !== 'object' || Array.isArray(extra)) {
		throw refuse(ctx, itemIndex, `Additional Body Fields must be a JSON object, got ${JSON.stringify(extra)}`, 'Write a JSON object, for example {"seed": 7}.');
	}
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
	return extra as IDataObject;
}

/** An alt-host model needs the credential's Alt Base URL: checked before any item is sent. */
export async function requireHost(ctx: IExecuteFunctions, itemIndex: number, model: ImageModel): Promise<void> {
	if (model.host !== 'alt') return;
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
	if (originsFrom(credentials).alt) return;
	throw refuse(
		ctx,
		itemIndex,
		`Model '${model.id}' runs on the alt host, but the credential has no Alt Base URL`,
		`Open the Unified AI Gateway API credential and fill in Alt Base URL (the alt-host image service).${
			MULTI_HOST_IDS.includes(model.id) ? ' Or set Host to Main to run it on the main gateway.' : ''
		}`,
	);
}
