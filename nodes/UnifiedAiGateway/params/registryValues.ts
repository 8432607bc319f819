import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { FieldRule } from '../registry/models';
import {
	checkRuleValue,
	placementOf,
	registryFieldLabel,
	registryParameterName,
	spreadRules,
	type RegistryFieldSet,
	type ValueRefusal,
} from './registryRules';

/*
 * The node's registry fields of one item → checked body values, for any resource: the same
 * rules that built the fields (registryProperties.ts) decide, through checkRuleValue, what is
 * accepted and sent.
 */

/** Puts a value at a body key; a dotted key is nested: metadata.seed → { metadata: { seed } }. */
function setPath(target: IDataObject, key: string, value: unknown): void {
	const parts = key.split('.');
	let node = target;
	for (const part of parts.slice(0, -1)) {
		node[part] = (node[part] as IDataObject | undefined) ?? {};
		node = node[part] as IDataObject;
	}
	node[parts[parts.length - 1]] = value as IDataObject[string];
}

/**
 * Whether the model comes from an expression (per item, or an AI agent's $fromAI). n8n then
 * cannot evaluate the model conditions: it shows every model's fields, and the last field of a
 * shared name puts its default in the parameters.
 */
function isModelFromExpression(ctx: IExecuteFunctions, set: RegistryFieldSet): boolean {
	const raw = ctx.getNode().parameters[set.modelParameter ?? 'modelId'] as unknown;
	const value = raw && typeof raw === 'object' ? (raw as { value?: unknown }).value : raw;
	return typeof value === 'string' && value.startsWith('=');
}

/** Whether some row's rule for this key has `value` as its default (so n8n may have filled it in). */
function isSomeRowsDefault(set: RegistryFieldSet, key: string, value: unknown): boolean {
	return set.models.some((m) =>
		spreadRules(m.fields?.[set.operation]).some(
			([k, rule]) => k === key && rule.default !== undefined && String(rule.default) === String(value),
		),
	);
}

const isGiven = (value: unknown) => value !== undefined && value !== null && value !== '';

/**
 * Reads the model's registry fields for one item (`rules`: its row's rules for the set's
 * operation), checks each and places it at its body key. Throws `refuse(…)` before anything is
 * sent. A rule limited to other routes than `route` is skipped.
 *
 * With the model from an expression, an Options entry wins over the field of the same key (the
 * fields the user sees may belong to another model), and a value this model refuses that is
 * another row's default was filled in by n8n, not chosen: this model's default applies.
 */
export function readRegistryValues(
	ctx: IExecuteFunctions,
	itemIndex: number,
	set: RegistryFieldSet,
	rules: Record<string, FieldRule> | undefined,
	refuse: (refusal: ValueRefusal) => Error,
	route?: string,
): IDataObject {
	const body: IDataObject = {};
	const options = set.optionsCollection
		? ((ctx.getNodeParameter(set.optionsCollection.name, itemIndex, {}) ?? {}) as IDataObject)
		: {};
	const fromExpression = isModelFromExpression(ctx, set);
	const allowUnusual = set.allowUnusualParameter
		? (ctx.getNodeParameter(set.allowUnusualParameter, itemIndex, false) as boolean)
		: false;
	for (const [key, rule] of spreadRules(rules)) {
		if (rule.routes && (route === undefined || !rule.routes.includes(route))) continue;
		const name = registryParameterName(set, key);
		const placement = placementOf(set, rule);
		const fromField = placement === 'field' && !(fromExpression && isGiven(options[name]));
		let given: unknown;
		if (placement === 'fixed') given = rule.values![0];
		// A field hidden in the UI still gets the row's default.
		else if (fromField) given = ctx.getNodeParameter(name, itemIndex, rule.default);
		else given = options[name];
		let checked = checkRuleValue(rule, given, allowUnusual);
		// An Options entry is always the user's own; only a field can hold n8n's fill-in.
		// A listed-but-suggested value (gpt-image-2 takes 1024x1024 too) can be that fill-in as well.
		const fillIn = fromExpression && fromField && String(given) !== String(rule.default) && isSomeRowsDefault(set, key, given);
		if (fillIn && (checked.refusal || rule.suggest)) {
			checked = checkRuleValue(rule, rule.default, allowUnusual);
		}
		if (checked.refusal) {
			throw refuse({ field: `${registryFieldLabel(key, rule)} (${key})`, rule, given, ...checked.refusal });
		}
		if (checked.value !== undefined) setPath(body, key, checked.value);
	}
	// A value that only means something beside another (gpt-image-2 resolution with a ratio size).
	for (const [key, rule] of spreadRules(rules)) {
		const partner = rule.onlyWith && body[rule.onlyWith.key];
		if (rule.onlyWith && !(typeof partner === 'string' && new RegExp(rule.onlyWith.pattern).test(partner))) delete body[key];
	}
	return body;
}
