import type { IDataObject } from 'n8n-workflow';

/** A response body read as a stream (no import of Node's stream module: n8n's lint bans it). */
export type ByteStream = AsyncIterable<Buffer | string> & {
	destroy(error?: Error): void;
	on: (...args: never[]) => unknown;
};

/**
 * Ends a body nothing was read from, and its connection. n8n 2.x hands a streamed body over
 * through axios's length guard, a stream made from a generator that opens the connection's own
 * stream only when first read: destroyed unread, it leaves that connection open. So one chunk is
 * pulled, then the reading is ended, which destroys the body and, through it, the connection
 * (on n8n 1.x, where the body is the connection's own stream, the same steps close it).
 */
export function discard(stream: ByteStream): void {
	if (typeof stream?.[Symbol.asyncIterator] !== 'function') return;
	const reading = stream[Symbol.asyncIterator]();
	const end = async () => {
		await reading.return?.();
	};
	reading
		.next()
		.then(end, end)
		.catch(() => stream.destroy());
}

/** A JSON object: not null, not a list. The one guard of the package for "is this an object". */
export function isPlainObject(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** An answer's object field, or undefined (a list, text or nothing is none). */
export function asObject(value: unknown): IDataObject | undefined {
	return isPlainObject(value) ? value : undefined;
}

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

/**
 * How much of an answer the node reads, by what the answer is (docs/gateway-contract.md §10.12):
 * counted after decompression, as the bytes arrive, and refused past it before it is parsed. A
 * gzip answer of 1 MB on the wire can inflate to gigabytes: read whole, it would cost n8n that.
 */
export const ANSWER_LIMITS = {
	/** A task read, a balance, an upload's answer, an error: kilobytes. */
	task: 1024 * 1024,
	/**
	 * A billed submit's answer (a task): kilobytes too, but refusing it loses a paid task's id, so
	 * the bound is wide (a relay may echo the request, references included).
	 */
	submit: 16 * 1024 * 1024,
	/** GET /v1/models and price lists: 20,000 models are about 3 MB. */
	list: 8 * 1024 * 1024,
	/** A chat completion (a long answer, tool calls). */
	chat: 8 * 1024 * 1024,
	/** A streamed chat completion: every event's JSON around each few characters of the answer. */
	chatStream: 64 * 1024 * 1024,
	/** A synchronous image answer, which may hold its images inline (b64_json: four 4K pictures). */
	images: 64 * 1024 * 1024,
} as const;

export type AnswerKind = keyof typeof ANSWER_LIMITS;

/** What of an error answer is read: enough to explain it. */
export const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * The deepest nesting of lists and objects the node reads in an answer. The contract's deepest
 * shape is five levels; a relay that embeds its upstream's answer adds a few. Walking a
 * 20,000-level answer (copying it into an item, searching it, printing it) overflows the stack.
 */
export const MAX_ANSWER_DEPTH = 64;

/** One answer's bytes, read up to a limit. */
export interface BoundedRead {
	bytes: Buffer;
	/** Bytes that arrived (after decompression); past the limit, the reading stopped there. */
	received: number;
	/** More than the limit arrived: refused, `bytes` is empty. */
	over: boolean;
}

/**
 * Reads a body up to `limit` bytes, counted as they arrive (after the HTTP client's
 * decompression): past it the stream is destroyed, so the rest is neither inflated nor kept.
 * A body already in memory (a Buffer, text) is measured the same way.
 */
export async function readBounded(body: unknown, limit: number): Promise<BoundedRead> {
	const readable = body as ByteStream | undefined;
	if (!readable || typeof readable.on !== 'function' || !(Symbol.asyncIterator in readable)) {
		const bytes =
			body instanceof ArrayBuffer
				? Buffer.from(body)
				: body instanceof Uint8Array
					? Buffer.from(body.buffer, body.byteOffset, body.byteLength)
					: Buffer.from(
							typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body),
						);
		const over = bytes.length > limit;
		return { bytes: over ? Buffer.alloc(0) : bytes, received: bytes.length, over };
	}
	const chunks: Buffer[] = [];
	let received = 0;
	for await (const chunk of readable) {
		const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
		if (received < limit) chunks.push(buffer.subarray(0, limit - received));
		received += buffer.length;
		if (received > limit) {
			readable.destroy();
			break;
		}
	}
	// Past the limit nothing of it is used: its bytes are not joined.
	return received > limit
		? { bytes: Buffer.alloc(0), received, over: true }
		: { bytes: Buffer.concat(chunks), received, over: false };
}

/**
 * Whether JSON text nests lists and objects deeper than `max`: one pass over the characters,
 * strings skipped, nothing parsed, no recursion (the text may be nested 20,000 levels).
 */
export function nestedDeeperThan(text: string, max: number): boolean {
	let depth = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (inString) {
			if (c === 92 /* backslash: the next character is escaped */) i++;
			else if (c === 34 /* " */) inString = false;
		} else if (c === 34) inString = true;
		else if (c === 123 /* { */ || c === 91 /* [ */) {
			if (++depth > max) return true;
		} else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
	}
	return false;
}

/** An answer that is JSON nested past MAX_ANSWER_DEPTH: refused before it is parsed. */
export class TooDeep {
	constructor(readonly text: string) {}
}

/**
 * A body as the node reads it: JSON when it is JSON, else its text. JSON nested past
 * MAX_ANSWER_DEPTH is not parsed: a TooDeep holding its text is returned instead.
 */
export function parseAnswer(body: unknown, headers?: Record<string, unknown>): unknown {
	if (body instanceof ArrayBuffer) body = new Uint8Array(body);
	if (body instanceof Uint8Array) body = decodeText(body, headers);
	if (typeof body !== 'string') return body ?? '';
	const text = body.trim();
	if (text.startsWith('{') || text.startsWith('[')) {
		if (nestedDeeperThan(text, MAX_ANSWER_DEPTH)) return new TooDeep(body);
		try {
			return JSON.parse(text) as unknown;
		} catch {
			return body;
		}
	}
	return body;
}

/** parseAnswer for bodies only explained, never used (error answers): too deep is kept as its text. */
export function parseBody(body: unknown, headers?: Record<string, unknown>): unknown {
	const parsed = parseAnswer(body, headers);
	return parsed instanceof TooDeep ? parsed.text : parsed;
}

/** An error answer's first ERROR_BODY_LIMIT bytes, parsed: enough to explain it. */
export async function readSmallStream(
	stream: unknown,
	headers?: Record<string, unknown>,
	limit = ERROR_BODY_LIMIT,
): Promise<unknown> {
	const readable = stream as ByteStream | undefined;
	if (!readable || typeof readable.on !== 'function') return parseBody(stream, headers);
	// Its first bytes: what explains an error fits in them, the rest is left unread.
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of readable) {
		const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
		chunks.push(buffer.subarray(0, limit - size));
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

/** What n8n's SSRF protection (n8n 2.x) said when it blocked a request before it was sent. */
export interface SsrfBlock {
	/** The restricted address the host resolved to, when n8n names it. */
	address?: string;
	/** The host name n8n refused by name (N8N_SSRF_BLOCKED_HOSTNAMES), when that was the reason. */
	hostname?: string;
}

/**
 * n8n's SSRF protection refused the request (its SsrfBlockedIpError / SsrfBlockedHostnameError,
 * wherever the HTTP client put it): nothing was sent, and asking again is refused the same way.
 */
export function ssrfBlockOf(error: unknown): SsrfBlock | undefined {
	const seen = new Set<unknown>();
	for (let e = error as Record<string, unknown> | undefined; e && !seen.has(e); ) {
		seen.add(e);
		const name = typeof e.name === 'string' ? e.name : '';
		const message = typeof e.message === 'string' ? e.message : '';
		if (
			/^SsrfBlocked/.test(name) ||
			/blocked because (it resolves to a restricted IP address|the destination hostname is restricted)/i.test(
				message,
			)
		) {
			const extra = (e.extra ?? {}) as Record<string, unknown>;
			const address = [e.ip, extra.ip].find((v) => typeof v === 'string') as string | undefined;
			const hostname = [e.hostname, extra.hostname].find((v) => typeof v === 'string') as
				| string
				| undefined;
			return { ...(address ? { address } : {}), ...(hostname ? { hostname } : {}) };
		}
		e = (e.cause ?? undefined) as Record<string, unknown> | undefined;
	}
	return undefined;
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

/**
 * A 2xx answer that refuses the request (docs/gateway-contract.md §10.1): `success: false`, a
 * numeric `code` of 400 or more without a task, or an `error` object without a task. Nothing was
 * created, whatever the HTTP status says.
 */
export function refusedWithSuccess(body: unknown): boolean {
	const root = asObject(body);
	if (!root) return false;
	const data = asObject(root.data);
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
	const error = asObject(root.error);
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
