import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { IMAGE_MODELS, UNKNOWN_IMAGE_MODEL } from '../../registry/imageModels';
import type { FieldRule } from '../../registry/models';
import type { GatewayHost } from '../../transport/urls';
import { isNumericRule, KNOWN_IMAGE_IDS, labelOf, MULTI_HOST_IDS, ruleKind, type ImageOperation } from './models';

/*
 * The node's model-dependent fields, built from the registry rows. Rows that take the same
 * rule for a body key share one field shown for all their ids; another rule for the same key
 * is another field of the same name, shown for other ids (n8n resolves such duplicates by
 * their displayOptions). A row of a multi-host id is also tied to the Host choice.
 */

type Show = NonNullable<IDisplayOptions['show']>;

interface Placement {
	ids: string[];
	host?: GatewayHost;
}

function showFor(operation: ImageOperation, placement: Placement): Show {
	return {
		resource: ['image'],
		operation: [operation],
		'/modelId': placement.ids,
		...(placement.host ? { imageHost: [placement.host] } : {}),
	};
}

/** The fields of models the registry does not know: shown when the id is none of its ids. */
function unknownModelDisplay(operation: ImageOperation): IDisplayOptions {
	return { show: { resource: ['image'], operation: [operation] }, hide: { '/modelId': KNOWN_IMAGE_IDS } };
}

const UPPER_CASE_VALUES = new Set(['png', 'jpeg', 'webp', 'url']);

function optionName(value: string | number, multipliers?: Record<string, number>): string {
	const text = String(value);
	const name = UPPER_CASE_VALUES.has(text) ? text.toUpperCase() : text.charAt(0).toUpperCase() + text.slice(1);
	const factor = multipliers?.[text];
	return factor !== undefined && factor !== 1 ? `${name} (${factor}× Price)` : name;
}

/** One rule as an n8n field: a list for fixed values, a number for ranges, else text. */
function ruleProperty(key: string, rule: FieldRule, multipliers?: Record<string, number>): INodeProperties {
	const common = { displayName: labelOf(key, rule), name: key, description: rule.description };
	if (rule.values) {
		return {
			...common,
			type: 'options',
			options: rule.values.map((value) => ({ name: optionName(value, multipliers), value })),
			default: (rule.default as string | number | undefined) ?? rule.values[0],
		};
	}
	if (isNumericRule(rule)) {
		return {
			...common,
			type: 'number',
			typeOptions: {
				...(rule.min !== undefined ? { minValue: rule.min } : {}),
				...(rule.max !== undefined ? { maxValue: rule.max } : {}),
				...(rule.integer ? { numberPrecision: 0 } : {}),
			},
			default: (rule.default as number | undefined) ?? rule.min ?? 0,
		};
	}
	return { ...common, type: 'string', default: (rule.default as string | undefined) ?? '' };
}

/** Body keys in the order they first appear in the registry: the order of the fields. */
function keyOrder(operation: ImageOperation): string[] {
	return [...new Set(IMAGE_MODELS.flatMap((m) => Object.keys(m.fields?.[operation] ?? {})))];
}

/** Fields of rules with a default: one per distinct rule, shown for the ids that take it. */
function fieldProperties(operation: ImageOperation): INodeProperties[] {
	const groups = new Map<string, { key: string; rule: FieldRule; multipliers?: Record<string, number>; placement: Placement }>();
	for (const model of IMAGE_MODELS) {
		for (const [key, rule] of Object.entries(model.fields?.[operation] ?? {})) {
			if (ruleKind(rule) !== 'field') continue;
			const multipliers = model.price?.multiplierField === key ? model.price.multipliers : undefined;
			const host = MULTI_HOST_IDS.includes(model.id) ? model.host : undefined;
			const signature = JSON.stringify([key, rule, multipliers, host]);
			const group = groups.get(signature) ?? { key, rule, multipliers, placement: { ids: [], host } };
			group.placement.ids.push(model.id);
			groups.set(signature, group);
		}
	}
	const order = keyOrder(operation);
	return [...groups.values()]
		.sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key))
		.map(({ key, rule, multipliers, placement }) => ({
			...ruleProperty(key, rule, multipliers),
			displayOptions: { show: showFor(operation, placement) },
		}));
}

function optionsCollection(rules: Array<[string, FieldRule]>, displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Options',
		name: 'imageOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'Optional body fields of this model; a field not added here is not sent and the gateway uses its own default',
		options: rules
			.map(([key, rule]) => ruleProperty(key, rule))
			.sort((a, b) => a.displayName.localeCompare(b.displayName)),
		displayOptions,
	};
}

/** Rules without a default: the entries of an "Options" collection per distinct set of them. */
function optionProperties(operation: ImageOperation): INodeProperties[] {
	const groups = new Map<string, { rules: Array<[string, FieldRule]>; placement: Placement }>();
	for (const model of IMAGE_MODELS) {
		const rules = Object.entries(model.fields?.[operation] ?? {}).filter(([, rule]) => ruleKind(rule) === 'option');
		if (rules.length === 0) continue;
		const host = MULTI_HOST_IDS.includes(model.id) ? model.host : undefined;
		const signature = JSON.stringify([rules, host]);
		const group = groups.get(signature) ?? { rules, placement: { ids: [], host } };
		group.placement.ids.push(model.id);
		groups.set(signature, group);
	}
	const unknownRules = Object.entries(UNKNOWN_IMAGE_MODEL.fields?.[operation] ?? {});
	return [
		...[...groups.values()].map(({ rules, placement }) => optionsCollection(rules, { show: showFor(operation, placement) })),
		optionsCollection(unknownRules, unknownModelDisplay(operation)),
	];
}

/** Every model-dependent field of one operation: its own fields, then its Options. */
export function modelFieldProperties(operation: ImageOperation): INodeProperties[] {
	return [...fieldProperties(operation), ...optionProperties(operation)];
}

/** The Host choice for ids served by both hosts; its text is derived from their rows. */
export function hostField(): INodeProperties {
	const describe = (host: GatewayHost) => {
		const row = IMAGE_MODELS.find((m) => MULTI_HOST_IDS.includes(m.id) && m.host === host);
		const price = row?.price ? `, ${row.price.baseUsd} USD per ${row.price.per}` : '';
		return host === 'alt'
			? `The alt-host image service on the credential's Alt Base URL${price}`
			: `The main gateway on the credential's Base URL${price}`;
	};
	return {
		displayName: 'Host',
		name: 'imageHost',
		type: 'options',
		default: 'main',
		options: [
			{ name: 'Main (Base URL)', value: 'main', description: describe('main') },
			{ name: 'Alt (Alt Base URL)', value: 'alt', description: describe('alt') },
		],
		description: `${MULTI_HOST_IDS.join(', ')} is served by both hosts: pick the one to run it on`,
		displayOptions: { show: { resource: ['image'], '/modelId': MULTI_HOST_IDS } },
	};
}
