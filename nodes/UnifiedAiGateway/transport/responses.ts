/** A response body read as a stream (no import of Node's stream module: n8n's lint bans it). */
export type ByteStream = AsyncIterable<Buffer | string> & {
	destroy(error?: Error): void;
	on: (...args: never[]) => unknown;
};

/** The charset an answer names in its Content-Type (`application/json; charset=GBK`), if any. */
function charsetOf(headers: Record<string, unknown> | undefined): string | undefined {
	const type = headers?.['content-type'];
	const match = /charset\s*=\s*"?([^";\s]+)/i.exec(typeof type === 'string' ? type : '');
	return match?.[1];
}

/**
 * An answer's bytes as text, decoded by the charset its Content-Type names (docs/gateway-contract.md
 * §10.1: some relays answer in GBK): Node's TextDecoder knows the WHATWG labels (gbk,
 * gb18030, big5, shift_jis…). An unknown label, or none, is read as UTF-8.
 */
export function decodeText(bytes: Uint8Array, headers?: Record<string, unknown>): string {
	const label = charsetOf(headers);
	if (label && !/^utf-?8$/i.test(label)) {
		try {
			return new TextDecoder(label).decode(bytes);
		} catch {
			// Not a label the decoder knows: UTF-8 below.
		}
	}
	return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

export function parseBody(body: unknown, headers?: Record<string, unknown>): unknown {
	if (body instanceof ArrayBuffer) body = new Uint8Array(body);
	if (body instanceof Uint8Array) body = decodeText(body, headers);
	if (typeof body !== 'string') return body ?? '';
	const text = body.trim();
	if (text.startsWith('{') || text.startsWith('[')) {
		try {
			return JSON.parse(text) as unknown;
		} catch {
			return body;
		}
	}
	return body;
}

export async function readSmallStream(
	stream: unknown,
	headers?: Record<string, unknown>,
	limit = 64 * 1024,
): Promise<unknown> {
	const readable = stream as ByteStream | undefined;
	if (!readable || typeof readable.on !== 'function') return parseBody(stream, headers);
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of readable) {
		const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
		if (size < limit) chunks.push(buffer);
		size += buffer.length;
		if (size >= limit) {
			readable.destroy();
			break;
		}
	}
	return parseBody(Buffer.concat(chunks), headers);
}

/** Whether a network code means no answer came in time (the request's timeout, or the OS's). */
export function isTimeoutCode(code: string | undefined): boolean {
	return code === 'ECONNABORTED' || code === 'ETIMEDOUT';
}

/**
 * TLS codes that mean the gateway was reached but its certificate was not trusted, each with what
 * is wrong with it (Node's codes, as n8n's HTTP client passes them on). Nothing was sent.
 */
const CERTIFICATE_PROBLEMS: Record<string, string> = {
	DEPTH_ZERO_SELF_SIGNED_CERT: 'it is self-signed',
	SELF_SIGNED_CERT_IN_CHAIN: 'it is signed by a self-signed authority',
	UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'it is issued by an authority n8n does not know',
	UNABLE_TO_GET_ISSUER_CERT: 'it is issued by an authority n8n does not know',
	UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'it is issued by an authority n8n does not know',
	CERT_UNTRUSTED: 'it is not trusted',
	CERT_SIGNATURE_FAILURE: 'its signature does not verify',
	CERT_HAS_EXPIRED: 'it has expired',
	CERT_NOT_YET_VALID: 'it is not valid yet',
	CERT_REVOKED: 'it was revoked',
	ERR_TLS_CERT_ALTNAME_INVALID: 'it is issued for another host name',
	HOSTNAME_MISMATCH: 'it is issued for another host name',
};

/** What is wrong with the gateway's certificate, when a network code says it was refused. */
export function certificateProblem(code: string | undefined): string | undefined {
	if (!code) return undefined;
	return CERTIFICATE_PROBLEMS[code] ?? (/CERT/.test(code) ? 'it could not be verified' : undefined);
}

/** n8n wraps the HTTP client's error; the network code ends up in httpCode or the message. */
export function networkCodeOf(error: unknown): string | undefined {
	const e = error as {
		code?: unknown;
		httpCode?: unknown;
		cause?: { code?: unknown };
		messages?: unknown;
		message?: unknown;
	};
	for (const candidate of [e?.cause?.code, e?.code, e?.httpCode]) {
		if (typeof candidate === 'string' && /^[A-Z][A-Z_]+$/.test(candidate)) return candidate;
	}
	const texts = [...(Array.isArray(e?.messages) ? e.messages : []), e?.message]
		.map(String)
		.join(' ');
	if (/timeout of \d+ms exceeded/i.test(texts)) return 'ECONNABORTED';
	if (/socket hang up/i.test(texts)) return 'ECONNRESET';
	if (/cancel|aborted/i.test(texts)) return 'ERR_CANCELED';
	return /\b(E[A-Z]{3,}|ERR_[A-Z_]+|UND_ERR_[A-Z_]+)\b/.exec(texts)?.[1];
}

/** Every form of the key replaced by *** anywhere in a parsed body (strings, keys, nested values). */
export function redactBody(body: unknown, forms: readonly string[]): unknown {
	if (forms.length === 0 || body === null || body === undefined) return body;
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	if (!forms.some((form) => text.includes(form))) return body;
	let out = text;
	for (const form of forms) out = out.split(form).join('***');
	if (typeof body === 'string') return out;
	try {
		return JSON.parse(out) as unknown;
	} catch {
		// A form that spans JSON syntax: the object is given up for its redacted text.
		return out;
	}
}

function record(value: unknown): Record<string, unknown> | undefined {
	return value && typeof value === 'object' && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: undefined;
}

/**
 * A 2xx answer that refuses the request (docs/gateway-contract.md §10.1): `success: false`, a
 * numeric `code` of 400 or more without a task, or an `error` object without a task. Nothing was
 * created, whatever the HTTP status says.
 */
export function refusedWithSuccess(body: unknown): boolean {
	const root = record(body);
	if (!root) return false;
	const data = record(root.data);
	const hasWork =
		[root.task_id, root.id, data?.task_id, data?.id].some(
			(v) => typeof v === 'string' && v !== '',
		) ||
		Array.isArray(root.data) ||
		Boolean(root.choices) ||
		Boolean(root.result);
	if (root.success === false) return true;
	const code =
		typeof root.code === 'number'
			? root.code
			: typeof root.code === 'string' && /^\d+$/.test(root.code)
				? Number(root.code)
				: undefined;
	if (code !== undefined && code >= 400 && !hasWork) return true;
	const error = record(root.error);
	return Boolean(error && (error.message || error.code) && !hasWork);
}

type ReadableClass = { name?: string; from?: (source: AsyncIterable<Buffer>) => unknown };

/**
 * A Readable stream over `source`, built with the class of a response body we already hold: n8n's
 * binary store takes a Readable (its in-memory mode listens for 'data'), and n8n's lint bans
 * importing Node's stream module. Undefined when no such class is found (the caller buffers).
 */
export function readableFrom(sample: unknown, source: AsyncIterable<Buffer>): unknown {
	for (
		let proto = Object.getPrototypeOf(sample) as object | null;
		proto;
		proto = Object.getPrototypeOf(proto) as object | null
	) {
		const type = (proto as { constructor?: ReadableClass }).constructor;
		if (type?.name === 'Readable' && typeof type.from === 'function') return type.from(source);
	}
	return undefined;
}
