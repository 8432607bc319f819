import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { isPlainObject } from '../transport/responses';

/*
 * "Additional Body Fields (JSON)": the escape hatch of every resource that builds a request
 * body (image, video, text), for keys the node has no field for. Each resource gives the body
 * its fields make (readAdditionalBody's template): the JSON may add keys, never replace one.
 */

export const ADDITIONAL_BODY_LABEL = 'Additional Body Fields (JSON)';

/** The field itself; `show` is left out for an entry of an options collection. */
export function additionalBodyField(
	name: string,
	description: string,
	show?: Record<string, string[]>,
): INodeProperties {
	return {
		displayName: ADDITIONAL_BODY_LABEL,
		name,
		type: 'json',
		default: '{}',
		description,
		...(show ? { displayOptions: { show } } : {}),
	};
}

function kindOf(value: unknown): string {
	if (Array.isArray(value)) return 'an array';
	if (value === null) return 'null';
	return `a ${typeof value}`;
}

/**
 * The field's value as an object: blank (or not set) is no extra keys; text must be a JSON
 * object. `example` is shown in the refusal, which `fail` turns into the resource's error.
 */
export function parseAdditionalBody(
	value: unknown,
	example: string,
	fail: (message: string, description: string) => Error,
): IDataObject {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
		return {};
	const help = `Write a JSON object, for example ${example}.`;
	let parsed: unknown = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value) as unknown;
		} catch (error) {
			throw fail(`${ADDITIONAL_BODY_LABEL} is not valid JSON: ${(error as Error).message}`, help);
		}
	}
	if (!isPlainObject(parsed))
		throw fail(`${ADDITIONAL_BODY_LABEL} must be a JSON object, not ${kindOf(parsed)}`, help);
	return parsed;
}

/** `extra` laid over `base`; objects on both sides (metadata) are merged key by key. */
export function mergeBody(base: IDataObject, extra: IDataObject): IDataObject {
	const out: IDataObject = { ...base };
	for (const [key, value] of Object.entries(extra)) {
		out[key] =
			isPlainObject(out[key]) && isPlainObject(value)
				? mergeBody(out[key] as IDataObject, value)
				: value;
	}
	return out;
}

/** Keys of `extra` that would replace one already set, as dotted paths. */
function collisions(base: IDataObject, extra: IDataObject, path = ''): string[] {
	return Object.entries(extra).flatMap(([key, value]) => {
		if (!(key in base)) return [];
		if (isPlainObject(base[key]) && isPlainObject(value))
			return collisions(base[key] as IDataObject, value, `${path}${key}.`);
		return [`${path}${key}`];
	});
}

/**
 * The field's value parsed, refusing a key the node already sets: `template` is the body without
 * it (its fields, with an empty placeholder for what is added at submit, such as reference URLs),
 * `labelOf` names the field that sets a key. So the escape hatch cannot bypass a field's checks.
 */
export function readAdditionalBody(
	value: unknown,
	example: string,
	template: IDataObject,
	labelOf: (key: string) => string,
	fail: (message: string, description: string) => Error,
): IDataObject {
	const extra = parseAdditionalBody(value, example, fail);
	const taken = collisions(template, extra);
	if (taken.length > 0) {
		throw fail(
			`${ADDITIONAL_BODY_LABEL}: '${taken[0]}' is already set by the field ${labelOf(taken[0])}; change it there`,
			'The JSON may only add keys the fields do not set, so every field is checked before sending.',
		);
	}
	return extra;
}
