import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { addHint, MAX_HINT_LENGTH } from '../engine/hints';
import type { FieldRule, ModelSpec } from '../registry/models';
import {
	checkRuleValue,
	fieldDefault,
	placementOf,
	registryFieldLabel,
	registryVariants,
	spreadRules,
	type FieldVariant,
	type OptionsVariant,
	type RegistryFieldSet,
	type ValueRefusal,
} from './registryRules';
import { readBoolean } from './inputs';

/*
 * The node's registry fields of one item → checked body values, for any resource: the same
 * rules that built the fields (registryProperties.ts) decide, through checkRuleValue, what is
 * accepted and sent. Each variant of a body key has its own parameter (registryVariants); the
 * reader reads the one of the item's model and maps it back to the body key.
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
 * cannot evaluate the model conditions: it shows every model's variants, each with its default.
 */
function isModelFromExpression(ctx: IExecuteFunctions, set: RegistryFieldSet): boolean {
	const raw = ctx.getNode().parameters[set.modelParameter ?? 'modelId'] as unknown;
	const value = raw && typeof raw === 'object' ? (raw as { value?: unknown }).value : raw;
	return typeof value === 'string' && value.startsWith('=');
}

/** One variant of a body key as the node holds it: a field of its own or an entry of an Options collection. */
type Place = { field: FieldVariant } | { options: OptionsVariant; key: string; rule: FieldRule };

/**
 * "Size (size_gptImage25)", "Options → Size (imageOptions_nanoBanana.size)": what the user sees
 * and the parameter.
 */
function placeName(place: Place): string {
	if ('field' in place)
		return `${registryFieldLabel(place.field.key, place.field.rule)} (${place.field.name})`;
	return `Options → ${registryFieldLabel(place.key, place.rule)} (${place.options.name}.${place.key})`;
}

/**
 * Whether the user changed a variant: its value in the node's saved parameters (an expression
 * unevaluated) differs from the variant's default, or an Options entry was added. n8n fills
 * every shown field with its default, so an untouched variant holds exactly that.
 */
function isChanged(ctx: IExecuteFunctions, place: Place): boolean {
	const parameters = ctx.getNode().parameters;
	if ('options' in place) {
		const collection = parameters[place.options.name] as IDataObject | undefined;
		return (
			collection !== undefined &&
			collection !== null &&
			typeof collection === 'object' &&
			collection[place.key] !== undefined
		);
	}
	const value = parameters[place.field.name];
	return value !== undefined && String(value) !== String(fieldDefault(place.field.rule));
}

/** Every variant of a body key in the set, for the expression check. */
function placesOf(set: RegistryFieldSet, key: string): Place[] {
	const variants = registryVariants(set);
	return [
		...variants.fields.filter((field) => field.key === key).map((field): Place => ({ field })),
		...variants.options.flatMap((options) =>
			options.entries.filter(([k]) => k === key).map(([, rule]): Place => ({ options, key, rule })),
		),
	];
}

const samePlace = (a: Place, b: Place) =>
	'field' in a
		? 'field' in b && a.field === b.field
		: 'options' in b && a.options === b.options && a.key === b.key;

/**
 * With the model from an expression every model's variants are shown, so a user may fill the
 * field of another model than the one an item resolves to. The reader never guesses: it reads
 * only the variant of the item's model. It refuses (naming both fields) when that variant is
 * left untouched while another model's variant of the same body key was changed: the user set
 * a value for this key that this item would silently not send. Variants set for several models
 * (an expression choosing among them per item) are each read by their own model; a key the
 * item's model does not take is not sent, as its field would be hidden for a fixed model.
 */
function refuseOtherModelsValue(
	ctx: IExecuteFunctions,
	itemIndex: number,
	set: RegistryFieldSet,
	modelId: string,
	key: string,
	own: Place,
): void {
	if (isChanged(ctx, own)) return;
	const other = placesOf(set, key).find((place) => !samePlace(place, own) && isChanged(ctx, place));
	if (!other) return;
	const ids = 'field' in other ? other.field.ids : other.options.ids;
	const owner = ids.length > 0 ? ids.join(', ') : 'model IDs the node has no row for';
	throw new NodeOperationError(
		ctx.getNode(),
		`${placeName(other)} is set, but it belongs to ${owner}; this item's ` +
			`model is '${modelId}', whose field is ${placeName(own)}`,
		{
			itemIndex,
			description:
				'With the model from an expression, each model reads only its own fields. ' +
				'Set the value in the field of this model too (or clear the other). ' +
				'Nothing was sent to the gateway, so nothing was charged.',
		},
	);
}

const isExpression = (value: unknown) => typeof value === 'string' && value.startsWith('=');

/**
 * The former name (registryRules FormerName) whose saved value this item sends instead of the
 * variant's: the variant is left at its default and a value was saved under the name it had
 * before. Not with the route from an expression: n8n then also shows the field that has that name
 * now (grok's multipart Seconds is `videoSeconds`), and the value is that field's. With the model
 * from an expression n8n shows that field too and fills in its default: that default is no saved
 * value.
 */
function formerNameOf(
	ctx: IExecuteFunctions,
	set: RegistryFieldSet,
	field: FieldVariant,
): string | undefined {
	const variants = registryVariants(set);
	const former = variants.formerNames.find((f) => f.variant === field);
	if (!former) return undefined;
	const parameters = ctx.getNode().parameters;
	const saved = parameters[former.name];
	if (saved === undefined || saved === null || saved === '') return undefined;
	if (set.routeParameter && isExpression(parameters[set.routeParameter])) return undefined;
	const owner = variants.fields.find((v) => v.name === former.name);
	if (
		owner &&
		isModelFromExpression(ctx, set) &&
		String(saved) === String(fieldDefault(owner.rule))
	)
		return undefined;
	return isChanged(ctx, { field }) ? undefined : former.name;
}

/** Runs that were told a former name was read (once per run and name). */
const HINTED = new WeakMap<object, Set<string>>();

function hintFormerName(
	ctx: IExecuteFunctions,
	field: FieldVariant,
	formerName: string,
	value: unknown,
): void {
	const told = HINTED.get(ctx) ?? new Set<string>();
	if (told.has(formerName)) return;
	told.add(formerName);
	HINTED.set(ctx, told);
	const label = registryFieldLabel(field.key, field.rule);
	// The value is what may be long: it is cut to what the line leaves (the field's own name is in the error texts).
	const line = (sentText: string) =>
		`${label}: sent ${sentText}, saved under its former name ${formerName}; set ${label} to send another value`;
	const text = JSON.stringify(value);
	const room = MAX_HINT_LENGTH - line('').length;
	addHint(ctx, line(text.length <= room ? text : `${text.slice(0, Math.max(room - 1, 0))}…`));
}

/**
 * Reads the model's registry fields for one item (`row`: the item's registry row, or the
 * set's unknown-model rules; `modelId` the id it resolved to), checks each and places it at its
 * body key. Throws `refuse(…)` before anything is sent. A rule limited to other routes than
 * `route` is skipped.
 */
export function readRegistryValues(
	ctx: IExecuteFunctions,
	itemIndex: number,
	set: RegistryFieldSet,
	modelId: string,
	row: Pick<ModelSpec, 'fields' | 'host'> | undefined,
	refuse: (refusal: ValueRefusal) => Error,
	route?: string,
): IDataObject {
	const body: IDataObject = {};
	const rules = row?.fields?.[set.operation];
	const variants = registryVariants(set);
	const known = row !== set.unknownModel && set.models.some((m) => m.id === modelId);
	const id = known ? modelId : undefined;
	const host = known ? row?.host : undefined;
	const collection = variants.optionsOf(id, host);
	const options = collection
		? ((ctx.getNodeParameter(collection.name, itemIndex, {}) ?? {}) as IDataObject)
		: {};
	const fromExpression = isModelFromExpression(ctx, set);
	const allowUnusual = set.allowUnusualParameter
		? readBoolean(ctx, set.allowUnusualParameter, itemIndex, false, 'Allow Unusual Values')
		: false;
	for (const [key, rule] of spreadRules(rules)) {
		if (rule.routes && (route === undefined || !rule.routes.includes(route))) continue;
		const placement = placementOf(set, rule);
		let given: unknown;
		let formerName: string | undefined;
		if (placement === 'fixed') {
			given = rule.values![0];
		} else {
			const field = placement === 'field' ? variants.fieldOf(id, host, key, rule) : undefined;
			const own: Place | undefined = field
				? { field }
				: collection
					? { options: collection, key, rule }
					: undefined;
			if (!own) continue;
			formerName = field ? formerNameOf(ctx, set, field) : undefined;
			// A value saved under the former name is this item's own: no other model's field is in question.
			if (fromExpression && !formerName)
				refuseOtherModelsValue(ctx, itemIndex, set, modelId, key, own);
			// A field hidden in the UI still gets the row's default.
			if (formerName) given = ctx.getNodeParameter(formerName, itemIndex, '');
			else
				given =
					'field' in own
						? ctx.getNodeParameter(own.field.name, itemIndex, rule.default)
						: options[key];
		}
		const checked = checkRuleValue(rule, given, allowUnusual);
		if (checked.refusal) {
			const where = formerName
				? `, saved under its former name ${formerName} (now ${variants.fieldOf(id, host, key, rule)?.name})`
				: '';
			throw refuse({
				field: `${registryFieldLabel(key, rule)} (${key})${where}`,
				rule,
				given,
				...checked.refusal,
			});
		}
		if (checked.value !== undefined) setPath(body, key, checked.value);
		if (formerName && checked.value !== undefined)
			hintFormerName(ctx, variants.fieldOf(id, host, key, rule)!, formerName, checked.value);
	}
	// A value that only means something beside another (gpt-image-2 resolution with a ratio size).
	for (const [key, rule] of spreadRules(rules)) {
		const partner = rule.onlyWith && body[rule.onlyWith.key];
		if (
			rule.onlyWith &&
			!(typeof partner === 'string' && new RegExp(rule.onlyWith.pattern).test(partner))
		)
			delete body[key];
	}
	return body;
}
