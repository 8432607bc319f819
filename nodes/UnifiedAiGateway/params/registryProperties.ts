import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import type { FieldRule } from '../registry/models';
import type { GatewayHost } from '../transport/urls';
import {
	allowedValues,
	capitalised,
	fieldDefault,
	rangeText,
	registryFieldLabel,
	registryVariants,
	typeOf,
	type Multipliers,
	type OptionsVariant,
	type RegistryFieldSet,
} from './registryRules';

/*
 * Registry rows → node fields, for any resource. Rows that take the same rule for a body key
 * share one field shown for all their ids; another rule for the same key is another field with a
 * name of its own (registryVariants names them), shown for the other ids, and read back into the
 * same body key (registryValues.ts). So no parameter name is shown twice for one operation, and
 * adding a model is adding a row.
 */

/** File formats read better in capitals; other values are capitalised word by word. */
const CAPITAL_VALUES = new Set([
	'png',
	'jpeg',
	'webp',
	'url',
	'mp3',
	'aac',
	'flac',
	'wav',
	'pcm',
	'json',
	'srt',
	'vtt',
]);

function optionName(value: string | number | boolean, multipliers: Multipliers): string {
	if (typeof value === 'boolean') return value ? 'Yes' : 'No';
	const text = String(value);
	const name = text
		.split('_')
		.map((word) => (CAPITAL_VALUES.has(word) ? word.toUpperCase() : capitalised(word)))
		.join(' ');
	const factor = multipliers?.[text];
	return factor !== undefined && factor !== 1 ? `${name} (${factor}× Price)` : name;
}

/** The rule's own help, then what a number takes and where a nested key goes. */
function describe(key: string, rule: FieldRule): string | undefined {
	const numeric = typeOf(rule) === 'number' && (rule.min !== undefined || rule.max !== undefined);
	const parts = [
		rule.description,
		numeric ? `Takes ${rangeText(rule)}` : undefined,
		rule.plausibleMax !== undefined
			? `Above ${rule.plausibleMax} needs Allow Unusual Values`
			: undefined,
		rule.suggest
			? 'The list holds the usual values; for another, switch the field to Expression and type it: it is sent as typed'
			: undefined,
		key.includes('.') ? `Sent as ${key}` : undefined,
	];
	const sentences = parts.filter((part): part is string => Boolean(part));
	// A single sentence stays as the registry wrote it (n8n style: no final period on one sentence).
	if (sentences.length <= 1) return sentences[0];
	return `${sentences.map((s) => s.replace(/\.$/, '')).join('. ')}.`;
}

/** One rule as an n8n field: a list for fixed values, a switch, a number for ranges, else text. */
function ruleProperty(
	name: string,
	key: string,
	rule: FieldRule,
	multipliers: Multipliers,
): INodeProperties {
	const type = typeOf(rule);
	const property: INodeProperties = {
		displayName: registryFieldLabel(key, rule),
		name,
		type,
		default: fieldDefault(rule),
		description: describe(key, rule),
		...(rule.required ? { required: true } : {}),
	};
	if (type === 'options') {
		property.options = allowedValues(rule).map((value) => ({
			name: optionName(value, multipliers),
			value,
		}));
		if (rule.omit !== undefined)
			property.options.unshift({ name: 'Channel Default (Not Sent)', value: rule.omit });
	}
	if (type === 'number') {
		property.typeOptions = {
			...(rule.min !== undefined ? { minValue: rule.min } : {}),
			...(rule.max !== undefined ? { maxValue: rule.max } : {}),
			...(rule.integer ? { numberPrecision: 0 } : {}),
		};
	}
	return property;
}

/** The operation's conditions, then: these ids, this host (ids on two hosts), the rule's routes. */
function conditions(
	set: RegistryFieldSet,
	rule?: FieldRule,
	ids?: string[],
	host?: GatewayHost,
): Record<string, string[]> {
	return {
		...set.show,
		...(ids ? { [set.modelCondition ?? 'modelId']: ids } : {}),
		...(host && set.hostParameter ? { [set.hostParameter]: [host] } : {}),
		...(rule?.routes && set.routeParameter ? { [set.routeParameter]: [...rule.routes] } : {}),
	};
}

function optionsCollection(
	set: RegistryFieldSet,
	variant: OptionsVariant,
	displayOptions: IDisplayOptions,
): INodeProperties {
	return {
		// Not "Options": that collection holds the operation's knobs (params/commonFields.ts).
		displayName: 'Model Options',
		name: variant.name,
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: set.optionsCollection!.description,
		// Inside one collection each entry is named by its body key: the collection is the variant.
		options: variant.entries
			.map(([key, rule, multipliers]) => ruleProperty(key, key, rule, multipliers))
			.sort((a, b) => a.displayName.localeCompare(b.displayName)),
		displayOptions,
	};
}

/**
 * Every model-dependent field of the set: one field per variant (a distinct rule of a body key;
 * in the order the keys first appear in the registry), then one Options collection per distinct
 * set of rules without a default, then the variants of unknown ids (shown when the model is none
 * of the known ids). Single-valued rules get no field when the set sends them as they are.
 */
export function registryProperties(set: RegistryFieldSet): INodeProperties[] {
	const variants = registryVariants(set);
	const keyOrder = [
		...new Set(
			[...set.models, set.unknownModel ?? {}].flatMap((m) =>
				Object.keys(m.fields?.[set.operation] ?? {}),
			),
		),
	];
	const modelCondition = set.modelCondition ?? 'modelId';
	const knownIds = [...new Set(set.models.map((m) => m.id))];
	const display = (ids: string[], rule?: FieldRule, host?: GatewayHost): IDisplayOptions =>
		ids.length > 0
			? { show: conditions(set, rule, ids, host) }
			: { show: conditions(set, rule), hide: { [modelCondition]: knownIds } };
	const known = variants.fields.filter((v) => v.ids.length > 0);
	const unknown = variants.fields.filter((v) => v.ids.length === 0);
	return [
		// A former name is a hidden field shown where its variant shows (registryRules FormerName).
		// First: where n8n shows both it and another field of that name (a route from an expression),
		// n8n keeps what the later one says, so that field's own default wins.
		...variants.formerNames.map(
			({ name, variant }): INodeProperties => ({
				displayName: `${registryFieldLabel(variant.key, variant.rule)} (Former Name)`,
				name,
				type: 'hidden',
				default: '',
				description: `Kept from an earlier version of this node: sent when ${variant.name} is left at its default`,
				displayOptions: display(variant.ids, variant.rule, variant.host),
			}),
		),
		...known
			.sort((a, b) => keyOrder.indexOf(a.key) - keyOrder.indexOf(b.key))
			.map((v) => ({
				...ruleProperty(v.name, v.key, v.rule, v.multipliers),
				displayOptions: display(v.ids, v.rule, v.host),
			})),
		...variants.options
			.filter((v) => v.ids.length > 0)
			.map((v) => optionsCollection(set, v, display(v.ids, undefined, v.host))),
		...unknown.map((v) => ({
			...ruleProperty(v.name, v.key, v.rule, v.multipliers),
			displayOptions: display([], v.rule),
		})),
		...variants.options
			.filter((v) => v.ids.length === 0)
			.map((v) => optionsCollection(set, v, display([]))),
	];
}
