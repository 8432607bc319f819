/** A response body read as a stream (no import of Node's stream module: n8n's lint bans it). */
export type ByteStream = AsyncIterable<Buffer | string> & { destroy(): void; on: (...args: never[]) => unknown };

export function parseBody(body: unknown): unknown {
	if (Buffer.isBuffer(body)) body = body.toString('utf8');
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

export async function readSmallStream(stream: unknown, limit = 64 * 1024): Promise<unknown> {
	const readable = stream as ByteStream | undefined;
	if (!readable || typeof readable.on !== 'function') return parseBody(stream);
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
	return parseBody(Buffer.concat(chunks).toString('utf8'));
}

/** n8n wraps the HTTP client's error; the network code ends up in httpCode or the message. */
export function networkCodeOf(error: unknown): string | undefined {
	const e = error as { code?: unknown; httpCode?: unknown; cause?: { code?: unknown }; messages?: unknown; message?: unknown };
	for (const candidate of [e?.cause?.code, e?.code, e?.httpCode]) {
		if (typeof candidate === 'string' && /^[A-Z][A-Z_]+$/.test(candidate)) return candidate;
	}
	const texts = [...(Array.isArray(e?.messages) ? e.messages : []), e?.message].map(String).join(' ');
	if (/timeout of \d+ms exceeded/i.test(texts)) return 'ECONNABORTED';
	if (/socket hang up/i.test(texts)) return 'ECONNRESET';
	if (/cancel|aborted/i.test(texts)) return 'ERR_CANCELED';
	return /\b(E[A-Z]{3,}|ERR_[A-Z_]+|UND_ERR_[A-Z_]+)\b/.exec(texts)?.[1];
}
