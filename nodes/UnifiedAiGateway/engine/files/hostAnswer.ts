// What a host answered, read for the words of a download's failure: who sent it, a header, a short
// excerpt with the key taken out, and its shape (kind and size) where its bytes must not be quoted.
import type { GatewayResponse } from '../../transport/request';
import { redact } from '../../transport/secrets';
import { originOf } from '../../transport/urls';
import type { Attempt } from './downloadTypes';
import { describeBytes } from './media';

/** How much of an answer an error quotes. */
const SHOWN_CHARS = 300;

/** Who sent an answer at `url`: the gateway (one of its origins) or a file host. */
export function describeSource(url: string, gatewayOrigins: ReadonlySet<string>): Attempt {
	const origin = originOf(url) ?? '';
	const host = origin.replace(/^https?:\/\//, '') || 'an unknown host';
	const fromGateway = gatewayOrigins.has(origin);
	return {
		host,
		fromGateway,
		who: fromGateway ? `the gateway (${host})` : `the file host ${host}`,
	};
}

export function capitalized(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

export function header(response: GatewayResponse<unknown>, name: string): string | undefined {
	const value = response.headers[name];
	return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

export function shownLocation(
	response: GatewayResponse<unknown>,
	source: Attempt,
	secrets: string[],
): string {
	const location = header(response, 'location');
	return location ? redact(location, secrets) : source.host;
}

/** An answer's body as one short line of text, the key taken out: what an error quotes of it. */
export function bodyExcerpt(body: unknown, secrets: string[]): string {
	const text =
		typeof body === 'string'
			? body
			: body === undefined || body === null
				? ''
				: JSON.stringify(body);
	return redact(text.replace(/\s+/g, ' ').trim().slice(0, SHOWN_CHARS), secrets);
}

export function firstLine(text: string): string {
	return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/**
 * What a host sent instead of the file, without a byte of it (docs/gateway-contract.md §10.12): its
 * kind and size. A gateway's answer may send n8n to a service that is not a file host (an admin
 * API, a metadata service): what that answered must not be copied into an item, an error or a log.
 */
export function shapeOf(
	body: Buffer | unknown,
	contentType: string | undefined,
	size: { declared?: number; read?: number },
): string {
	const bytes = Buffer.isBuffer(body)
		? body
		: Buffer.from(
				typeof body === 'string'
					? body
					: body === undefined || body === null
						? ''
						: JSON.stringify(body),
			);
	const label = notMediaLabel(bytes, contentType);
	if (label === 'an empty body') return label;
	const length = size.declared ?? size.read ?? bytes.length;
	const atLeast = size.declared === undefined && size.read !== undefined ? 'at least ' : '';
	return `${label} of ${atLeast}${describeBytes(length)}`;
}

/** A signed link's refusal that says it has expired (S3's `Request has expired`, …): recognised, never quoted. */
const EXPIRED_LINK =
	/\bexpired\b|ExpiredToken|expir(?:y|ation) (?:time|date) (?:has )?passed|链接已过期|已过期|签名过期/i;

/** Whether a file host's refusal says the link expired (a fresh URL may be had from the gateway). */
export function saysExpired(status: number, body: unknown): boolean {
	if (![400, 401, 403, 404, 410].includes(status)) return false;
	const text = typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body);
	return EXPIRED_LINK.test(text);
}

export function notMediaLabel(bytes: Buffer, contentType: string | undefined): string {
	if (bytes.length === 0) return 'an empty body';
	const text = bytes.toString('utf8').trimStart();
	if (/^<(!doctype html|html|head|body)/i.test(text)) return 'an HTML page';
	if (/^<\?xml|^<[A-Za-z]/.test(text)) return 'XML';
	if (/^[{[]/.test(text)) return 'JSON';
	return contentType?.startsWith('text/') || isPrintableAscii(text.slice(0, 64))
		? 'text'
		: 'bytes of an unknown kind';
}

/** Tab, line breaks and printable ASCII only: what a plain-text error page is made of. */
function isPrintableAscii(text: string): boolean {
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (!(code === 9 || code === 10 || code === 13 || (code >= 32 && code <= 126))) return false;
	}
	return true;
}
