import type { IDataObject, INodeProperties } from 'n8n-workflow';

/*
 * "Additional Body Fields (JSON)": the escape hatch of every resource that builds a request
 * body (image, video, text), for keys the node has no field for. Which keys it may not set
 * stays with each resource: only it knows what its fields already send.
 */

export const ADDITIONAL_BODY_LABEL = 'Additional Body Fields (JSON)';

export function isPlainObject(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The field itself; `show` is left out for an entry of an options collection. */
export function additionalBodyField(name: string, description: string, show?: Record<string, string[]>): INodeProperties {
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
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return {};
	const help = `Write a JSON object, for example ${example}.`;
	let parsed: unknown = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value) as unknown;
		} catch (error) {
			throw fail(`${ADDITIONAL_BODY_LABEL} is not valid JSON: ${(error as Error).message}`, help);
		}
	}
	if (!isPlainObject(parsed)) throw fail(`${ADDITIONAL_BODY_LABEL} must be a JSON object, not ${kindOf(parsed)}`, help);
	return parsed;
}
