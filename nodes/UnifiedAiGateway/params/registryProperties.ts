import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { multiHostIds, type FieldRule, type ModelSpec } from '../registry/models';
import { valueMultipliers } from '../registry/prices';
import type { GatewayHost } from '../transport/urls';
import {
	allowedValues,
	capitalised,
	placementOf,
	rangeText,
	registryFieldLabel,
	registryParameterName,
	spreadRules,
	typeOf,
	type RegistryFieldSet,
} from './registryRules';

/*
 * Registry rows → node fields, for any resource. Rows that take the same rule for a body key
 * share one field shown for all their ids; another rule for the same key is another field of
 * the same name, shown for other ids (n8n resolves such duplicates by their displayOptions).
 * So adding a model is adding a row.
 */

type Multipliers = Record<string, number> | undefined;

interface Group {
	key: string;
	rule: FieldRule;
	multipliers: Multipliers;
	ids: string[];
	host?: GatewayHost;
}

type OptionsEntry = [key: string, rule: FieldRule, multipliers: Multipliers];

interface OptionsGroup {
	entries: OptionsEntry[];
	ids: string[];
	host?: GatewayHost;
}

/** File formats read better in capitals; other values are capitalised word by word. */
const CAPITAL_VALUES = new Set(['png', 'jpeg', 'webp', 'url']);

function optionName(value: string | number | boolean, multipliers: Multipliers): string {
	if (typeof value === 'boolean') return value ? 'Yes' : 'No';
	const text = String(value);
	const name = CAPITAL_VALUES.has(text) ? text.toUpperCase() : text.split('_').map(capitalised).join(' ');
	const factor = multipliers?.[text];
	return factor !== undefined && factor !== 1 ? `${name} (${factor}× Price)` : name;
}

/** The rule's own help, then what a number takes and where a nested key goes. */
function describe(key: string, rule: FieldRule): string | undefined {
	const numeric = typeOf(rule) === 'number' && (rule.min !== undefined || rule.max !== undefined);
	const parts = [
		rule.description,
		numeric ? `Takes ${rangeText(rule)}` : undefined,
		rule.plausibleMax !== undefined ? `Above ${rule.plausibleMax} needs Allow Unusual Values` : undefined,
		rule.suggest ? 'The list holds the usual values; for another, switch the field to Expression and type it: it is sent as typed' : undefined,
		key.includes('.') ? `Sent as ${key}` : undefined,
	];
	const sentences = parts.filter((part): part is string => Boolean(part));
	// A single sentence stays as the registry wrote it (n8n style: no final period on one sentence).
	if (sentences.length <= 1) return sentences[0];
	return `${sentences.map((s) => s.replace(/\.$/, '')).join('. ')}.`;
}

/** One rule as an n8n field: a list for fixed values, a switch, a number for ranges, else text. */
function ruleProperty(set: RegistryFieldSet, key: string, rule: FieldRule, multipliers: Multipliers): INodeProperties {
	const type = typeOf(rule);
	const fallback = type === 'options' ? rule.values?.[0] : type === 'number' ? (rule.min ?? 0) : type === 'boolean' ? false : '';
	const property: INodeProperties = {
		displayName: registryFieldLabel(key, rule),
		name: registryParameterName(set, key),
		type,
		default: rule.default ?? rule.omit ?? fallback ?? '',
		description: describe(key, rule),
	};
	if (type === 'options') {
		property.options = allowedValues(rule).map((value) => ({ name: optionName(value, multipliers), value }));
		if (rule.omit !== undefined) property.options.unshift({ name: 'Channel Default (Not Sent)', value: rule.omit });
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

function multipliersFor(model: Pick<ModelSpec, 'price'>, key: string, rule: FieldRule): Multipliers {
	return valueMultipliers(model.price, key, allowedValues(rule));
}

/** The operation's conditions, then: these ids, this host (ids on two hosts), the rule's routes. */
function conditions(set: RegistryFieldSet, rule?: FieldRule, ids?: string[], host?: GatewayHost): Record<string, string[]> {
	return {
		...set.show,
		...(ids ? { [set.modelCondition ?? 'modelId']: ids } : {}),
		...(host && set.hostParameter ? { [set.hostParameter]: [host] } : {}),
		...(rule?.routes && set.routeParameter ? { [set.routeParameter]: [...rule.routes] } : {}),
	};
}

function optionsCollection(set: RegistryFieldSet, entries: OptionsEntry[], displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Options',
		name: set.optionsCollection!.name,
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: set.optionsCollection!.description,
		options: entries
			.map(([key, rule, multipliers]) => ruleProperty(set, key, rule, multipliers))
			.sort((a, b) => a.displayName.localeCompare(b.displayName)),
		displayOptions,
	};
}

/** The fields of ids the registry does not know: shown when the model is none of the known ids. */
function unknownModelProperties(set: RegistryFieldSet): INodeProperties[] {
	const rules = spreadRules(set.unknownModel?.fields?.[set.operation]);
	const hide = { [set.modelCondition ?? 'modelId']: [...new Set(set.models.map((m) => m.id))] };
	const fields = rules
		.filter(([, rule]) => placementOf(set, rule) === 'field')
		.map(([key, rule]) => ({ ...ruleProperty(set, key, rule, undefined), displayOptions: { show: conditions(set, rule), hide } }));
	const entries = rules
		.filter(([, rule]) => placementOf(set, rule) === 'option')
		.map(([key, rule]): OptionsEntry => [key, rule, undefined]);
	return [...fields, ...(entries.length > 0 ? [optionsCollection(set, entries, { show: conditions(set), hide })] : [])];
}

/**
 * Every model-dependent field of the set: one field per distinct rule with a default (in the
 * order the keys first appear in the registry), then one Options collection per distinct set of
 * rules without one, then the fields of unknown ids. Single-valued rules get no field when the
 * set sends them as they are.
 */
export function registryProperties(set: RegistryFieldSet): INodeProperties[] {
	const multiHost = set.hostParameter ? multiHostIds(set.models) : [];
	const fields = new Map<string, Group>();
	const options = new Map<string, OptionsGroup>();
	for (const model of set.models) {
		const host = multiHost.includes(model.id) ? model.host : undefined;
		const rules = spreadRules(model.fields?.[set.operation]);
		for (const [key, rule] of rules) {
			if (placementOf(set, rule) !== 'field') continue;
			const multipliers = multipliersFor(model, key, rule);
			const signature = JSON.stringify([key, rule, multipliers, host]);
			const group = fields.get(signature) ?? { key, rule, multipliers, ids: [], host };
			group.ids.push(model.id);
			fields.set(signature, group);
		}
		const entries = rules
			.filter(([, rule]) => placementOf(set, rule) === 'option')
			.map(([key, rule]): OptionsEntry => [key, rule, multipliersFor(model, key, rule)]);
		if (entries.length === 0) continue;
		const signature = JSON.stringify([entries, host]);
		const group = options.get(signature) ?? { entries, ids: [], host };
		group.ids.push(model.id);
		options.set(signature, group);
	}
	const keyOrder = [...new Set(set.models.flatMap((m) => Object.keys(m.fields?.[set.operation] ?? {})))];
	return [
		...[...fields.values()]
			.sort((a, b) => keyOrder.indexOf(a.key) - keyOrder.indexOf(b.key))
			.map(({ key, rule, multipliers, ids, host }) => ({
				...ruleProperty(set, key, rule, multipliers),
				displayOptions: { show: conditions(set, rule, ids, host) },
			})),
		...[...options.values()].map(({ entries, ids, host }) => optionsCollection(set, entries, { show: conditions(set, undefined, ids, host) })),
		...unknownModelProperties(set),
	];
}
