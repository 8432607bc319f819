import type { IExecuteFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	NUMBER_LIMITS,
	promptTooLong,
	type NumberField,
	type NumberLimit,
} from '../registry/limits';

/*
 * What arrives from an expression is untrusted: a number may come as text, empty or NaN, a
 * prompt as an object. These readers check the type and the bounds (registry/limits.ts) before
 * anything is sent, and name the field and the value in the refusal.
 */

/** What kind of value it is, for a message: "a list", "an object", "a boolean". */
export function kindOf(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Nothing, null or blank text: what a field or its expression gives when it gives no value. */
function isEmpty(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/** A value as the message shows it: "abc", 1e9, nothing. */
function shown(value: unknown): string {
	if (isEmpty(value)) return 'empty';
	if (typeof value === 'number') return String(value);
	const text = JSON.stringify(value) ?? String(value);
	return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function accepts(limit: NumberLimit): string {
	const kind = limit.integer ? 'a whole number' : 'a number';
	const range = `${kind} from ${limit.min} to ${limit.max}${limit.unit ? ` ${limit.unit}` : ''}`;
	return limit.zeroMeans ? `${range}, or 0 for ${limit.zeroMeans}` : range;
}

const NO_VALUE = '(the field or its expression gave no value)';

/** The number, or the refusal text that names the field, the value and what it takes. */
export function checkNumber(
	value: unknown,
	limit: NumberLimit,
): { value: number } | { problem: string } {
	const text = typeof value === 'string' ? value.trim() : undefined;
	const n =
		typeof value === 'number' ? value : text !== undefined && text !== '' ? Number(text) : NaN;
	const refuse = (why: string) => ({
		problem: `${limit.label}: ${shown(value)} ${why}; it takes ${accepts(limit)}`,
	});
	if (isEmpty(value)) return refuse(NO_VALUE);
	if (typeof value !== 'number' && text === undefined)
		return refuse(`is ${kindOf(value)}, not a number`);
	if (!Number.isFinite(n)) return refuse('is not a number');
	if (n === 0 && limit.zeroMeans) return { value: 0 };
	if (limit.integer && !Number.isInteger(n)) return refuse('is not a whole number');
	if (n < limit.min || n > limit.max) return refuse('is out of range');
	return { value: n };
}

/**
 * One of an options field's values (as an expression must give them), or the refusal text that
 * names the field, the value and the values it takes. An expression that gives nothing is refused
 * like any other value, not read as the field left out.
 */
export function checkChoice<T extends string>(
	value: unknown,
	label: string,
	choices: readonly T[],
): { value: T } | { problem: string } {
	if ((choices as readonly unknown[]).includes(value)) return { value: value as T };
	const why = isEmpty(value) ? NO_VALUE : 'is not an option';
	return { problem: `${label}: ${shown(value)} ${why}; use ${choices.join(' or ')}` };
}

/** A field's value refused before anything is billed: the item, and where to look. */
function refusedInput(
	ctx: IExecuteFunctions,
	problem: string,
	itemIndex: number,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), problem, {
		itemIndex,
		description:
			'Nothing was sent. If the value comes from an expression, check what it gives for this item.',
	});
}

/**
 * A number parameter of the node (a field or an option's value), checked against its row of
 * NUMBER_LIMITS. `given` is the value when it was read already (an option of a collection).
 */
export function readNumber(
	ctx: IExecuteFunctions,
	field: NumberField,
	itemIndex: number,
	given: { name: string; fallback: number } | { value: unknown },
): number {
	const value =
		'value' in given ? given.value : ctx.getNodeParameter(given.name, itemIndex, given.fallback);
	const checked = checkNumber(value, NUMBER_LIMITS[field]);
	if ('value' in checked) return checked.value;
	throw refusedInput(ctx, checked.problem, itemIndex);
}

/** A number parameter of the trigger, by the same rows and words as the node's. */
export function readTriggerNumber(
	ctx: IPollFunctions,
	field: NumberField,
	name: string,
	fallback: number,
): number {
	const checked = checkNumber(ctx.getNodeParameter(name, fallback), NUMBER_LIMITS[field]);
	if ('value' in checked) return checked.value;
	throw new NodeOperationError(ctx.getNode(), checked.problem, {
		description:
			'Nothing was requested. If the value comes from an expression, check what it gives.',
	});
}

/**
 * A switch from its field or an expression: true or false, also as the text `true` / `false`
 * (what a spreadsheet column gives). Anything else is refused rather than read as "on": the text
 * "false" is a non-empty string, truthy to JavaScript, and would download (or wait) against the
 * user's word.
 */
export function checkBoolean(
	value: unknown,
	label: string,
): { value: boolean } | { problem: string } {
	if (typeof value === 'boolean') return { value };
	if (typeof value === 'string' && /^\s*(true|false)\s*$/i.test(value))
		return { value: value.trim().toLowerCase() === 'true' };
	return {
		problem:
			`${label}: ${shown(value)} is ` +
			(value === undefined || value === null || value === '' ? 'no value' : kindOf(value)) +
			', not a switch; it takes true or false',
	};
}

/** A switch parameter of the node, checked (checkBoolean) before anything is sent. */
export function readBoolean(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback: boolean,
	label: string,
): boolean {
	const checked = checkBoolean(ctx.getNodeParameter(name, itemIndex, fallback), label);
	if ('value' in checked) return checked.value;
	throw refusedInput(ctx, checked.problem, itemIndex);
}

/** A switch parameter of the trigger, by the same words as the node's. */
export function readTriggerBoolean(
	ctx: IPollFunctions,
	name: string,
	fallback: boolean,
	label: string,
): boolean {
	const checked = checkBoolean(ctx.getNodeParameter(name, fallback), label);
	if ('value' in checked) return checked.value;
	throw new NodeOperationError(ctx.getNode(), checked.problem, {
		description:
			'Nothing was requested. If the value comes from an expression, check what it gives.',
	});
}

/**
 * Characters that show nothing (soft hyphen, joiners, direction marks, fillers, variation
 * selectors, BOM), as code-point ranges: a regular-expression class of them mixes combining
 * marks into one class, which n8n's lint refuses.
 */
const INVISIBLE: Array<[number, number]> = [
	[0x00ad, 0x00ad],
	[0x034f, 0x034f],
	[0x061c, 0x061c],
	[0x115f, 0x1160],
	[0x17b4, 0x17b5],
	[0x180e, 0x180e],
	[0x200b, 0x200f],
	[0x202a, 0x202e],
	[0x2060, 0x206f],
	[0x3164, 0x3164],
	[0xfe00, 0xfe0f],
	[0xfeff, 0xfeff],
	[0xffa0, 0xffa0],
];

/** Nothing but white space and characters that show nothing. */
function showsNothing(text: string): boolean {
	for (const char of text) {
		if (/\s/.test(char)) continue;
		const code = char.codePointAt(0) ?? 0;
		if (!INVISIBLE.some(([from, to]) => code >= from && code <= to)) return false;
	}
	return true;
}

/**
 * A prompt from its field or an expression: text (a number is taken as its digits), not empty
 * once invisible characters are removed, within MAX_PROMPT_CHARS. An object or a list is refused
 * rather than sent as "[object Object]" or "cat,dog".
 */
export function checkPrompt(
	value: unknown,
	label = 'Prompt',
): { value: string } | { problem: string } {
	if (
		value !== undefined &&
		value !== null &&
		typeof value !== 'string' &&
		typeof value !== 'number'
	) {
		return {
			problem:
				`${label} is ${kindOf(value)} (${shown(value)}), not text: map the text ` +
				`itself, for example {{ $json.prompt }} rather than {{ $json }}`,
		};
	}
	const text = value === undefined || value === null ? '' : String(value).trim();
	if (showsNothing(text)) {
		return {
			problem:
				text === ''
					? `${label} is empty`
					: `${label} holds only invisible characters (zero-width or blank)`,
		};
	}
	const tooLong = promptTooLong(text.length);
	return tooLong ? { problem: tooLong } : { value: text };
}
