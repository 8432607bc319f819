import {
	multiHostIds,
	type FieldRule,
	type ModelOperation,
	type ModelSpec,
} from '../registry/models';
import { valueMultipliers } from '../registry/prices';
import type { GatewayHost } from '../transport/urls';

/*
 * What the registry field builder (registryProperties.ts) and the value reader (registryValues.ts)
 * agree on: which rules make which fields, how a body key is named in the node, and which
 * values a rule accepts. A resource describes itself once as a RegistryFieldSet.
 */

/**
 * A name a field variant was saved under before a rename made without a new node version
 * (docs/DEVELOPMENT.md, "Parameter names"). n8n keeps only the saved values whose names a shown
 * field has, so the set keeps a hidden field of the former name wherever the variant shows, and
 * the reader takes its value while the variant itself is left at its default.
 */
export interface FormerName {
	/** The name saved workflows hold. */
	name: string;
	/** The body key, a model id and (for a route-limited rule) a route: they pick the variant it became. */
	key: string;
	id: string;
	route?: string;
}

export interface RegistryFieldSet {
	/** Which `fields` map of each row: 'video', 'generate', 'edit'. */
	operation: ModelOperation;
	models: readonly ModelSpec[];
	/** Display conditions of the operation, e.g. { resource: ['video'], operation: ['generate'] }. */
	show: Record<string, string[]>;
	/**
	 * Parameter name prefix, so two resources never share a parameter: 'video' makes
	 * metadata.generate_audio videoMetadataGenerateAudio. Without one the body key is the name.
	 */
	prefix?: string;
	/** The model picker's parameter. Default 'modelId'. */
	modelParameter?: string;
	/** How display conditions name the model picker: 'modelId' (default) or '/modelId'. */
	modelCondition?: string;
	/** The node parameter holding the request route, for rules limited by `routes`. */
	routeParameter?: string;
	/** The boolean parameter that lets numbers past a rule's `plausibleMax` through. */
	allowUnusualParameter?: string;
	/** The parameter choosing the host of an id with a row per host: each row's fields follow it. */
	hostParameter?: string;
	/** Rules without a default become entries of this collection instead of fields of their own. */
	optionsCollection?: { name: string; description: string };
	/** A rule with a single value and a default gets no field: that value is always sent. */
	sendSingleValues?: boolean;
	/** The rules of ids the registry has no row for: shown when the model is none of `models`. */
	unknownModel?: Pick<ModelSpec, 'fields'>;
	/** Names variants had before they were renamed: still read (FormerName). */
	formerNames?: readonly FormerName[];
}

/** Where a rule's value comes from: always its one value, its own field, or the Options collection. */
export type RulePlacement = 'fixed' | 'field' | 'option';

export function placementOf(set: RegistryFieldSet, rule: FieldRule): RulePlacement {
	if (set.sendSingleValues && rule.values?.length === 1 && rule.default !== undefined)
		return 'fixed';
	if (set.optionsCollection && rule.default === undefined) return 'option';
	return 'field';
}

export type RuleType = 'options' | 'boolean' | 'number' | 'string';

export function typeOf(rule: FieldRule): RuleType {
	if (rule.values) return 'options';
	if (typeof rule.default === 'boolean') return 'boolean';
	if (
		typeof rule.default === 'number' ||
		rule.integer ||
		rule.min !== undefined ||
		rule.max !== undefined
	)
		return 'number';
	return 'string';
}

/**
 * The value a rule's field holds until the user changes it (n8n saves it with the node): the
 * rule's default, else the channel default it sends nothing for, else its type's own (the first
 * value of a list, the least number or 0, an empty text). registryProperties gives it to the
 * field; registryValues tells a changed field from an untouched one by it.
 */
export function fieldDefault(rule: FieldRule): string | number | boolean {
	if (rule.default !== undefined) return rule.default;
	if (rule.omit !== undefined) return rule.omit;
	const type = typeOf(rule);
	if (type === 'options') return rule.values?.[0] ?? '';
	if (type === 'number') return rule.min ?? 0;
	return '';
}

function words(key: string): string[] {
	return key.split(/[._]|(?=[A-Z])/).filter(Boolean);
}

export const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * The base name of a body key's parameter: the key itself, or with prefix 'video' metadata.seed →
 * videoMetadataSeed. Variants after the first add a tag (registryVariants).
 */
export function registryParameterName(set: RegistryFieldSet, key: string): string {
	return set.prefix ? set.prefix + words(key).map(capitalised).join('') : key;
}

/** Price multipliers per listed value (shown in the option names): part of what makes a variant. */
export type Multipliers = Record<string, number> | undefined;

/** One field variant: a body key under one rule, for the ids (and host) that take that rule. */
export interface FieldVariant {
	/** The node parameter: unique within the set, mapped back to `key` when read. */
	name: string;
	key: string;
	rule: FieldRule;
	multipliers: Multipliers;
	/** The ids it is shown for; empty for the variant of ids the registry does not know. */
	ids: string[];
	/** Set for an id with a row per host: the variant follows the Host choice. */
	host?: GatewayHost;
}

export type OptionsEntry = [key: string, rule: FieldRule, multipliers: Multipliers];

/** One Options collection: the optional keys (rules without a default) a group of ids shares. */
export interface OptionsVariant {
	name: string;
	entries: OptionsEntry[];
	ids: string[];
	host?: GatewayHost;
}

export interface RegistryVariants {
	fields: FieldVariant[];
	options: OptionsVariant[];
	/** The set's former names with the variant each now is (names whose variant is gone are left out). */
	formerNames: Array<{ name: string; variant: FieldVariant }>;
	/** The parameter a row reads a key from (`id` undefined: the unknown-model rules). */
	fieldOf(
		id: string | undefined,
		host: GatewayHost | undefined,
		key: string,
		rule: FieldRule,
	): FieldVariant | undefined;
	optionsOf(id: string | undefined, host: GatewayHost | undefined): OptionsVariant | undefined;
}

/**
 * The naming rule, one for every variant: the first variant of a body key (in registry row
 * order) is named by the key (registryParameterName); every later one adds `_` and a tag of the
 * first id it is shown for, its host when the id has a row per host, and its first route when
 * the rule is limited to routes: size_gptImage25, videoSeconds_grokImagineVideo15Unified. An
 * Options collection is always a variant (the optional keys of some models), so it always has
 * the tag: imageOptions_nanoBanana, imageOptions_gemini3ProImagePreviewAlt. The unknown-model
 * variants' tag is otherModels.
 * A row appended to the registry therefore never renames an existing parameter (a saved
 * workflow keeps its values); it only adds names for the rules it brings.
 */
function variantTag(
	id: string | undefined,
	host?: GatewayHost,
	routes?: readonly string[],
): string {
	const words = [
		...(id ? id.split(/[^A-Za-z0-9]+/) : ['other', 'models']),
		...(host ? [host] : []),
		...(routes ? [routes[0]] : []),
	];
	return words
		.filter(Boolean)
		.map((word, i) => (i === 0 ? word : capitalised(word)))
		.join('');
}

const lookupKey = (...parts: unknown[]) => JSON.stringify(parts);

function buildVariants(set: RegistryFieldSet): RegistryVariants {
	const multiHost = set.hostParameter ? multiHostIds(set.models) : [];
	const fields = new Map<string, FieldVariant>();
	const options = new Map<string, OptionsVariant>();
	const fieldByRow = new Map<string, FieldVariant>();
	const optionsByRow = new Map<string, OptionsVariant>();
	const taken = new Set<string>();
	const nameFor = (base: string, tag: () => string, always = false) => {
		const name = always || taken.has(base) ? `${base}_${tag()}` : base;
		taken.add(name);
		return name;
	};
	const addRow = (
		id: string | undefined,
		rowHost: GatewayHost | undefined,
		row: Pick<ModelSpec, 'fields' | 'price'>,
	) => {
		const host = id !== undefined && multiHost.includes(id) ? rowHost : undefined;
		const rules = spreadRules(row.fields?.[set.operation]);
		for (const [key, rule] of rules) {
			if (placementOf(set, rule) !== 'field') continue;
			const multipliers =
				id === undefined ? undefined : valueMultipliers(row.price, key, allowedValues(rule));
			const signature = lookupKey(id === undefined, key, rule, multipliers, host);
			let variant = fields.get(signature);
			if (!variant) {
				variant = {
					name: nameFor(registryParameterName(set, key), () => variantTag(id, host, rule.routes)),
					key,
					rule,
					multipliers,
					ids: [],
					host,
				};
				fields.set(signature, variant);
			}
			if (id !== undefined && !variant.ids.includes(id)) variant.ids.push(id);
			fieldByRow.set(lookupKey(id, rowHost, key, rule), variant);
		}
		const entries = rules
			.filter(([, rule]) => placementOf(set, rule) === 'option')
			.map(
				([key, rule]): OptionsEntry => [
					key,
					rule,
					id === undefined ? undefined : valueMultipliers(row.price, key, allowedValues(rule)),
				],
			);
		if (entries.length === 0 || !set.optionsCollection) return;
		const signature = lookupKey(id === undefined, entries, host);
		let variant = options.get(signature);
		if (!variant) {
			variant = {
				name: nameFor(set.optionsCollection.name, () => variantTag(id, host), true),
				entries,
				ids: [],
				host,
			};
			options.set(signature, variant);
		}
		if (id !== undefined && !variant.ids.includes(id)) variant.ids.push(id);
		optionsByRow.set(lookupKey(id, rowHost), variant);
	};
	for (const model of set.models) addRow(model.id, model.host, model);
	if (set.unknownModel) addRow(undefined, undefined, set.unknownModel);
	const variantOf = ({ key, id, route }: FormerName) =>
		[...fields.values()].find(
			(v) =>
				v.key === key &&
				v.ids.includes(id) &&
				(route === undefined || v.rule.routes?.includes(route) === true),
		);
	return {
		fields: [...fields.values()],
		options: [...options.values()],
		formerNames: (set.formerNames ?? []).flatMap((former) => {
			const variant = variantOf(former);
			return variant ? [{ name: former.name, variant }] : [];
		}),
		fieldOf: (id, host, key, rule) =>
			fieldByRow.get(lookupKey(id, id === undefined ? undefined : host, key, rule)),
		optionsOf: (id, host) => optionsByRow.get(lookupKey(id, id === undefined ? undefined : host)),
	};
}

const VARIANTS = new WeakMap<RegistryFieldSet, RegistryVariants>();

/** The set's field variants and their names: computed once, shared by the fields and the reader. */
export function registryVariants(set: RegistryFieldSet): RegistryVariants {
	let variants = VARIANTS.get(set);
	if (!variants) {
		variants = buildVariants(set);
		VARIANTS.set(set, variants);
	}
	return variants;
}

/** The field's label: the rule's, else the key's last part in Title Case. */
export function registryFieldLabel(key: string, rule: FieldRule): string {
	return (
		rule.label ??
		words(key.split('.').pop() ?? key)
			.map(capitalised)
			.join(' ')
	);
}

/** "a whole number from 1 to 4", "a number of at least 0": what a numeric rule takes. */
export function rangeText(rule: FieldRule): string {
	const kind = rule.integer ? 'a whole number' : 'a number';
	if (rule.min !== undefined && rule.max !== undefined)
		return `${kind} from ${rule.min} to ${rule.max}`;
	if (rule.min !== undefined) return `${kind} of at least ${rule.min}`;
	if (rule.max !== undefined) return `${kind} of at most ${rule.max}`;
	return kind;
}

/** The values a user may pick, without the "not sent" one. */
export function allowedValues(rule: FieldRule): Array<string | number | boolean> {
	return (rule.values ?? []).filter((v) => v !== rule.omit);
}

/** A rule as one rule per request route when it has route variants (grok), else itself. */
export function routeRules(rule: FieldRule): FieldRule[] {
	if (!rule.routeVariants) return [rule];
	const { routeVariants, ...base } = rule;
	return routeVariants.map((variant) => ({ ...base, ...variant }));
}

/** Every (key, rule) of a row's rules with route variants spread out. */
export function spreadRules(
	rules: Record<string, FieldRule> | undefined,
): Array<[string, FieldRule]> {
	return Object.entries(rules ?? {}).flatMap(([key, rule]) =>
		routeRules(rule).map((r): [string, FieldRule] => [key, r]),
	);
}

/** Why a value was refused, for the resource to word (its messages are part of its contract). */
export interface ValueRefusal {
	/** "Size (size)": the field's label and its body key. */
	field: string;
	rule: FieldRule;
	/** The value as the user (or an expression) gave it. */
	given: unknown;
	reason: 'values' | 'range' | 'pattern' | 'boolean' | 'unusual' | 'required';
	/** What the rule takes: "8, 12", "a whole number from 1 to 4", "text matching ^…$", "true or false". */
	accepts: string;
	/** "Case matters: write '4K'." when only the case was wrong. */
	hint?: string;
}

type Checked = {
	value?: string | number | boolean;
	refusal?: Pick<ValueRefusal, 'reason' | 'accepts' | 'hint'>;
};

/**
 * The switch that lets a value past a rule's plausibility bound (video is pre-charged by duration, so a typo costs
 * money: docs/gateway-contract.md §8).
 */
export const ALLOW_UNUSUAL_LABEL = 'Allow Unusual Values';

function unusual(max: number): NonNullable<Checked['refusal']> {
	return {
		reason: 'unusual',
		accepts: `at most ${max}`,
		hint:
			`A value this large is almost surely a typo, and video is charged in ` +
			`advance by duration. If the model really takes it, turn on ${ALLOW_UNUSUAL_LABEL}.`,
	};
}

/**
 * One value against its rule: the value to send (the registry's own value for a list, so '8'
 * and 8 both send what the gateway expects), nothing for "not sent", or why it is refused.
 * Empty is never sent (the gateway's default applies), nor is the rule's `omit` value; a
 * `required` rule refuses it.
 */
export function checkRuleValue(rule: FieldRule, given: unknown, allowUnusual = false): Checked {
	const value = typeof given === 'string' ? given.trim() : given;
	if (value === undefined || value === null || value === '') {
		// A field whose absence is billed at a costly default is never left out (FieldRule.required).
		return rule.required
			? {
					refusal: {
						reason: 'required',
						accepts: typeOf(rule) === 'number' ? rangeText(rule) : 'a value',
					},
				}
			: {};
	}
	const type = typeOf(rule);
	if (type === 'number') {
		const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
		if (rule.omit !== undefined && n === Number(rule.omit)) return {};
		const fits =
			Number.isFinite(n) &&
			(!rule.integer || Number.isInteger(n)) &&
			(rule.min === undefined || n >= rule.min) &&
			(rule.max === undefined || n <= rule.max);
		if (!fits) return { refusal: { reason: 'range', accepts: rangeText(rule) } };
		if (rule.plausibleMax !== undefined && n > rule.plausibleMax && !allowUnusual)
			return { refusal: unusual(rule.plausibleMax) };
		return { value: n };
	}
	const text = String(value);
	if (rule.omit !== undefined && text === String(rule.omit)) return {};
	if (type === 'options') {
		const match = rule.values!.find((v) => String(v) === text);
		if (match !== undefined) return { value: match };
		if (rule.suggest) {
			// The listed values are the spec's examples: another one is the user's to send.
			if (rule.pattern && !new RegExp(rule.pattern).test(text)) {
				return { refusal: { reason: 'pattern', accepts: `text matching ${rule.pattern}` } };
			}
			if (rule.plausibleMax !== undefined && Number(text) > rule.plausibleMax && !allowUnusual) {
				return { refusal: unusual(rule.plausibleMax) };
			}
			return { value: text };
		}
		const otherCase = allowedValues(rule).find(
			(v) => String(v).toLowerCase() === text.toLowerCase(),
		);
		const hint = otherCase !== undefined ? `Case matters: write '${otherCase}'.` : undefined;
		return { refusal: { reason: 'values', accepts: allowedValues(rule).join(', '), hint } };
	}
	if (type === 'boolean') {
		if (typeof value === 'boolean') return { value };
		if (text === 'true' || text === 'false') return { value: text === 'true' };
		return { refusal: { reason: 'boolean', accepts: 'true or false' } };
	}
	if (rule.pattern && !new RegExp(rule.pattern).test(text)) {
		return { refusal: { reason: 'pattern', accepts: `text matching ${rule.pattern}` } };
	}
	return { value: text };
}
