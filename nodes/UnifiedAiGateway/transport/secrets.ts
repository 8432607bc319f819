import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/** What a pasted API Key field becomes (docs/gateway-contract.md §5): the key to send, or why it cannot be sent. */
export interface PastedKey {
	/** The key as sent in `Authorization: Bearer <key>`; empty when `problem` is set. */
	key: string;
	/** The field with what was pasted around the key removed, before full-width forms were folded. */
	unwrapped: string;
	/** Why the key is refused before anything is sent: the character and its position, never the key. */
	problem?: string;
}

/** Pasted around a key: whitespace, and the zero-width characters an editor or a chat app adds. */
const EDGE = /^[\s\u200B-\u200D\u2060\uFEFF]+|[\s\u200B-\u200D\u2060\uFEFF]+$/g;
/** Quotes a key is pasted in (straight, curly, angle, full-width), the same on either side of it… */
const EITHER_SIDE = [
	'"',
	"'",
	'`',
	'\u201C',
	'\u201D',
	'\u2018',
	'\u2019',
	'\u00AB',
	'\u00BB',
	'\uFF02',
	'\uFF07',
];
/** …and those that open or close only: the low quote, the CJK corner brackets. */
const OPENING_QUOTES = new Set([...EITHER_SIDE, '\u201E', '\u300C', '\u300E']);
const CLOSING_QUOTES = new Set([...EITHER_SIDE, '\u300D', '\u300F']);

/** Characters a user cannot see or tell apart, named in the refusal. */
const CHARACTER_NAMES: Record<string, string> = {
	' ': 'a space',
	'\t': 'a tab',
	'\n': 'a line break',
	'\r': 'a carriage return',
	'\u00A0': 'a no-break space',
	'\u200B': 'a zero-width space',
	'\u200C': 'a zero-width non-joiner',
	'\u200D': 'a zero-width joiner',
	'\u2060': 'a word joiner',
	'\uFEFF': 'a byte order mark',
	'\u3000': 'a full-width (ideographic) space',
};

function unwrap(pasted: string): string {
	let value = pasted;
	for (let round = 0; round < 4; round++) {
		const before = value;
		value = value.replace(EDGE, '');
		if (
			value.length >= 2 &&
			OPENING_QUOTES.has(value[0]) &&
			CLOSING_QUOTES.has(value[value.length - 1])
		)
			value = value.slice(1, -1);
		// `Bearer` with nothing after it is the prefix alone (its spaces trimmed above), not a key.
		value = value.replace(EDGE, '').replace(/^bearer(?:\s+|$)/i, '');
		if (value === before) break;
	}
	return value;
}

/**
 * Full-width ASCII look-alikes (U+FF01–U+FF5E) typed with a Chinese or Japanese input method are
 * folded to their ASCII letter, digit or sign (NFKC of those forms): a gateway key is ASCII, so
 * `sk－abc` can only mean `sk-abc`. Any other character is left for the refusal to name.
 */
function foldFullWidth(value: string): string {
	return value.replace(/[\uFF01-\uFF5E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
}

function describeCharacter(c: string): string {
	const hex = `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
	const name = CHARACTER_NAMES[c];
	if (name) return `${name} (${hex})`;
	return /[\p{L}\p{N}\p{P}\p{S}]/u.test(c) ? `'${c}' (${hex})` : `an invisible character (${hex})`;
}

/**
 * The key as people paste it, made into the key the gateway expects: surrounding whitespace,
 * quotes and a leading `Bearer ` (any case) are removed, full-width look-alikes folded; a space,
 * another invisible or a non-ASCII character left inside is refused, naming the character and
 * its position (never the key).
 */
export function readPastedKey(raw: unknown): PastedKey {
	const unwrapped = unwrap(String(raw ?? ''));
	// Unwrapped again after folding: `Ｂｅａｒｅｒ sk-…` typed in full width is a prefix too.
	const key = unwrap(foldFullWidth(unwrapped));
	if (key === '')
		return {
			key: '',
			unwrapped,
			problem: "The API Key is empty: paste the key from the gateway's key page",
		};
	const characters = [...key];
	const bad = characters.findIndex((c) => !/^[\x21-\x7E]$/.test(c));
	if (bad < 0) return { key, unwrapped };
	return {
		key: '',
		unwrapped,
		problem:
			`The API Key contains ${describeCharacter(characters[bad])} at position ${bad + 1} ` +
			`of ${characters.length}: a gateway key has only letters, digits and ` +
			`ASCII signs. Copy the key again from the gateway's key page`,
	};
}

/**
 * Every form in which the key may come back inside a gateway's or a client's text: as pasted,
 * trimmed, unwrapped (quotes, `Bearer `) before and after full-width forms were folded,
 * URL-encoded, JSON-escaped, and as the header value. Longest first, so a form that contains
 * another is replaced whole.
 */
export function secretForms(credentials: ICredentialDataDecryptedObject): string[] {
	const raw = String(credentials.apiKey ?? '');
	const { key, unwrapped } = readPastedKey(raw);
	const sent = key || unwrapped;
	if (sent.length < 4) return [];
	const forms = new Set([
		raw,
		raw.trim(),
		unwrapped,
		sent,
		`Bearer ${sent}`,
		encodeURIComponent(sent),
		encodeURIComponent(unwrapped),
		JSON.stringify(raw).slice(1, -1),
		JSON.stringify(unwrapped).slice(1, -1),
	]);
	return [...forms].filter((f) => f.trim().length >= 4).sort((a, b) => b.length - a.length);
}

export function redact(text: string, forms: readonly string[]): string {
	let out = text;
	for (const form of forms) out = out.split(form).join('***');
	return out;
}
