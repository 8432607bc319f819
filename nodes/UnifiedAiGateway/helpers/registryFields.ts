import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FieldRule, ModelOperation, ModelSpec } from '../registry/models';

/**
 * Registry rows → node fields, checks and body values, for any resource. Models sharing the
 * same rule for a key share one field (shown for exactly those models), so adding a model
 * is adding a row.
 */
export interface RegistryFieldSet {
	/** Which `fields` map of each row: 'video', 'generate', 'edit'. */
	operation: ModelOperation;
	models: readonly ModelSpec[];
	/** Display conditions of the operation, e.g. { resource: ['video'], operation: ['generate'] }. */
	show: Record<string, string[]>;
	/** Parameter name prefix, so two resources never share a parameter: 'video' → videoSeconds. */
	prefix: string;
	/** The node parameter holding the request route, for rules limited by `routes`. */
	routeParameter?: string;
	/** The model picker's parameter name. Default 'modelId'. */
	modelParameter?: string;
}

type RuleKind = 'options' | 'boolean' | 'number' | 'string';

function kindOf(rule: FieldRule): RuleKind {
	if (rule.values) return 'options';
	if (typeof rule.default === 'boolean') return 'boolean';
	if (typeof rule.default === 'number' || rule.integer || rule.min !== undefined || rule.max !== undefined) return 'number';
	return 'string';
}

function words(key: string): string[] {
	return key.split(/[._]|(?=[A-Z])/).filter(Boolean);
}

/** 'metadata.generate_audio' with prefix 'video' → 'videoMetadataGenerateAudio'. */
export function registryParameterName(prefix: string, key: string): string {
	return prefix + words(key).map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

/** The field's label: the rule's, else the key's last part in Title Case. */
export function registryFieldLabel(key: string, rule: FieldRule): string {
	if (rule.label) return rule.label;
	return words(key.split('.').pop() ?? key).map((w) => w[0].toUpperCase() + w.slice(1)).join(' ');
}

function allowedText(rule: FieldRule): string {
	return (rule.values ?? []).filter((v) => v !== rule.omit).map(String).join(', ');
}

function rangeText(rule: FieldRule): string {
	if (rule.min !== undefined && rule.max !== undefined) return `${rule.min} to ${rule.max}`;
	if (rule.min !== undefined) return `at least ${rule.min}`;
	if (rule.max !== undefined) return `at most ${rule.max}`;
	return '';
}

function propertyFor(set: RegistryFieldSet, key: string, rule: FieldRule, modelIds: string[]): INodeProperties {
	const kind = kindOf(rule);
	const sentAs = key.includes('.') ? ` Sent as ${key}.` : '';
	const range = kind === 'number' && rangeText(rule) ? ` Allowed: ${rangeText(rule)}${rule.integer ? ', whole numbers' : ''}.` : '';
	const show: Record<string, string[]> = { ...set.show, [set.modelParameter ?? 'modelId']: modelIds };
	if (rule.routes && set.routeParameter) show[set.routeParameter] = [...rule.routes];
	const property: INodeProperties = {
		displayName: registryFieldLabel(key, rule),
		name: registryParameterName(set.prefix, key),
		type: kind,
		default: rule.default ?? (kind === 'boolean' ? false : kind === 'number' ? 0 : ''),
		description: `${rule.description ?? registryFieldLabel(key, rule)}.${range}${sentAs}`.replace(/\.\./g, '.'),
		displayOptions: { show },
	};
	if (kind === 'options') {
		property.options = (rule.values ?? []).map((value) => ({ name: String(value), value }));
		if (rule.omit !== undefined) property.options.unshift({ name: 'Channel Default (Not Sent)', value: rule.omit });
	}
	if (kind === 'number') {
		property.typeOptions = {
			...(rule.min !== undefined ? { minValue: rule.min } : {}),
			...(rule.max !== undefined ? { maxValue: rule.max } : {}),
			...(rule.integer ? { numberPrecision: 0 } : {}),
		};
	}
	return property;
}

/** The node fields of every row of the set: one per distinct (key, rule), shown for its models. */
export function registryProperties(set: RegistryFieldSet): INodeProperties[] {
	const groups = new Map<string, { key: string; rule: FieldRule; modelIds: string[] }>();
	for (const model of set.models) {
		for (const [key, rule] of Object.entries(model.fields?.[set.operation] ?? {})) {
			const id = `${key} ${JSON.stringify(rule)}`;
			const group = groups.get(id) ?? { key, rule, modelIds: [] };
			group.modelIds.push(model.id);
			groups.set(id, group);
		}
	}
	return [...groups.values()].map(({ key, rule, modelIds }) => propertyFor(set, key, rule, modelIds));
}

/** A value checked against its rule: the value to send, undefined for "not sent", or an error text. */
function checked(rule: FieldRule, raw: unknown): { value?: string | number | boolean; problem?: string } {
	const kind = kindOf(rule);
	if (kind === 'options') {
		if (rule.omit !== undefined && String(raw ?? '').trim() === String(rule.omit)) return {};
		// An expression may give '8' for 8 or 8 for '8': compare as text, send the registry's value.
		const match = (rule.values ?? []).find((v) => String(v) === String(raw ?? '').trim());
		if (match === undefined) return { problem: `allowed values are ${allowedText(rule)}` };
		return { value: match };
	}
	if (kind === 'boolean') {
		if (typeof raw === 'boolean') return { value: raw };
		if (raw === 'true' || raw === 'false') return { value: raw === 'true' };
		return { problem: 'use true or false' };
	}
	if (kind === 'number') {
		if (raw === '' || raw === null || raw === undefined) return {};
		const n = Number(raw);
		if (n === rule.omit) return {};
		const need = [rule.integer ? 'a whole number' : 'a number', rangeText(rule)].filter(Boolean).join(', ');
		if (!Number.isFinite(n) || (rule.integer && !Number.isInteger(n))) return { problem: `use ${need}` };
		if ((rule.min !== undefined && n < rule.min) || (rule.max !== undefined && n > rule.max)) return { problem: `use ${need}` };
		return { value: n };
	}
	const text = String(raw ?? '').trim();
	if (text === '' || text === rule.omit) return {};
	if (rule.pattern && !new RegExp(rule.pattern).test(text)) return { problem: `it must match ${rule.pattern}` };
	return { value: text };
}

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
function modelFromExpression(ctx: IExecuteFunctions, set: RegistryFieldSet): boolean {
	const raw = ctx.getNode().parameters[set.modelParameter ?? 'modelId'] as unknown;
	const value = raw && typeof raw === 'object' ? (raw as { value?: unknown }).value : raw;
	return typeof value === 'string' && value.startsWith('=');
}

/** Whether some row's rule for this key has `value` as its default (so n8n may have filled it in). */
function isSomeRowsDefault(set: RegistryFieldSet, key: string, value: unknown): boolean {
	return set.models.some((m) => {
		const rule = m.fields?.[set.operation]?.[key];
		return rule?.default !== undefined && String(rule.default) === String(value);
	});
}

/**
 * Reads the model's fields for one item, checks each against its rule and places it at its
 * body key. Throws (before anything is sent) naming the field, the model and what it accepts.
 */
export function readRegistryValues(
	ctx: IExecuteFunctions,
	itemIndex: number,
	model: ModelSpec | undefined,
	set: RegistryFieldSet,
	route?: string,
): IDataObject {
	const body: IDataObject = {};
	const fromExpression = modelFromExpression(ctx, set);
	for (const [key, rule] of Object.entries(model?.fields?.[set.operation] ?? {})) {
		if (rule.routes && (route === undefined || !rule.routes.includes(route))) continue;
		// A field hidden in the UI still gets the row's default.
		const raw = ctx.getNodeParameter(registryParameterName(set.prefix, key), itemIndex, rule.default);
		let { value, problem } = checked(rule, raw);
		// Another model's default that this model refuses was filled in by n8n, not chosen: use ours.
		if (problem && fromExpression && isSomeRowsDefault(set, key, raw)) ({ value, problem } = checked(rule, rule.default));
		if (problem) {
			throw new NodeOperationError(
				ctx.getNode(),
				`${registryFieldLabel(key, rule)} (${key}): ${JSON.stringify(raw)} is not accepted by ${model!.id}; ${problem}`,
				{ itemIndex, description: 'Nothing was sent. Correct the field and run again.' },
			);
		}
		if (value !== undefined) setPath(body, key, value);
	}
	return body;
}
