import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/** Keys are pasted with a stray space or newline; the gateway only ever sees the trimmed key. */
export function apiKeyOf(credentials: ICredentialDataDecryptedObject): string {
	return String(credentials.apiKey ?? '').trim();
}

/**
 * Every form in which the key may come back inside a gateway's or a client's text: as pasted,
 * trimmed, URL-encoded, JSON-escaped, and as the header value. Longest first, so a form that
 * contains another is replaced whole.
 */
export function secretForms(credentials: ICredentialDataDecryptedObject): string[] {
	const raw = String(credentials.apiKey ?? '');
	const key = raw.trim();
	if (key.length < 4) return [];
	const forms = new Set([raw, key, `Bearer ${key}`, encodeURIComponent(key), JSON.stringify(raw).slice(1, -1)]);
	return [...forms].filter((f) => f.trim().length >= 4).sort((a, b) => b.length - a.length);
}

export function redact(text: string, forms: readonly string[]): string {
	let out = text;
	for (const form of forms) out = out.split(form).join('***');
	return out;
}
