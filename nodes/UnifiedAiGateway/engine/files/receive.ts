// Reading one answer's body into n8n's binary store: the first bytes decide whether it is a file,
// the rest streams under a watchdog (idle, deadline, Stop) and a byte count (size limit).
import type { IBinaryData, IDataObject, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { cancelSignalOf } from '../../transport/context';
import type { GatewayResponse } from '../../transport/request';
import { redact } from '../../transport/secrets';
import { networkCodeOf, readableFrom, type ByteStream } from '../../transport/responses';
import { FILE_KINDS, fileKindOfMime, type FileKind } from '../../registry/fileKinds';
import { holdsWholeFile, storeBinary, type BinaryMode } from './binaryStore';
import { describeBytes, EXTENSIONS, MIME_BY_EXTENSION, sniffMedia } from './media';
import {
	DownloadError,
	type Attempt,
	type Attempting,
	type DownloadOptions,
} from './downloadTypes';
import { advice, deadlineWords, stopped, storageError, tooLarge } from './downloadWords';
import { capitalized, header, shapeOf } from './hostAnswer';

/** No byte for this long: the file host has stopped sending. */
const DOWNLOAD_IDLE_MS = 60_000;
/** Bytes read before deciding whether the answer is a file at all (and shown when it is not). */
const HEAD_BYTES = 512;

export interface Limits {
	kind: FileKind;
	/** The limit until the bytes say what they are, then the limit of what they are. */
	maxBytes: number;
	limitOf: (type: string | undefined) => number;
	secrets: string[];
	fail: (message: string, description: string, facts?: IDataObject) => DownloadError;
	attempt: number;
	/** Where n8n keeps binaries, when known (engine/files/binaryStore.ts). */
	mode: BinaryMode | undefined;
	/** The Content-Length the host declared, when it declared one. */
	declared: number | undefined;
}

type Outcome = { binary: IBinaryData } | { binary?: undefined; error: Error; retry: boolean };

/**
 * Reads one answer: the first bytes decide whether it is a file; the rest streams into n8n's
 * binary store under a watchdog (idle, deadline, Stop) and a byte count (size limit). What fails
 * while n8n stores the bytes, and not in reading them, is n8n's own storage: named as such, never
 * fetched again.
 */
export async function receive(
	ctx: IExecuteFunctions | IPollFunctions,
	stream: ByteStream,
	source: Attempt,
	response: GatewayResponse<unknown>,
	url: string,
	options: Attempting,
	limits: Limits,
): Promise<Outcome> {
	const signal = cancelSignalOf(ctx);
	const idleMs = options.idleMs ?? DOWNLOAD_IDLE_MS;
	let lastByteAt = Date.now();
	let received = 0;
	let reason: 'idle' | 'deadline' | 'stopped' | 'large' | undefined;
	let finished = false;
	// Whether the bytes stopped coming (the network), as against n8n failing to store them.
	let readFailed = false;
	let storing = false;
	let sizeKind: FileKind = fileKindOfMime(header(response, 'content-type')) ?? 'image';
	const watchdog = (async () => {
		while (!finished) {
			await sleep(250);
			if (finished) return;
			const now = Date.now();
			if (signal?.aborted) reason = 'stopped';
			else if (options.deadlineAt !== undefined && now >= options.deadlineAt) reason = 'deadline';
			else if (now - lastByteAt >= idleMs) reason = 'idle';
			if (reason) {
				stream.destroy(new Error(`download ${reason}`));
				return;
			}
		}
	})();
	const iterator = stream[Symbol.asyncIterator]();
	const next = async (): Promise<Buffer | undefined> => {
		const step = await iterator.next().catch(async (error: unknown) => {
			readFailed = true;
			return await Promise.reject(error);
		});
		if (step.done) return undefined;
		const value = step.value;
		const chunk = Buffer.isBuffer(value) ? value : Buffer.from(value);
		received += chunk.length;
		lastByteAt = Date.now();
		if (received > limits.maxBytes) {
			reason = 'large';
			stream.destroy();
			throw new Error('download large');
		}
		return chunk;
	};
	const failure = (error: unknown): Outcome => {
		if (reason === 'stopped' || signal?.aborted)
			return { error: stopped(ctx, url, options, limits.secrets), retry: false };
		if (reason === 'large') {
			return {
				error: limits.fail(
					...tooLarge(
						url,
						sizeKind,
						limits.maxBytes,
						limits.secrets,
						'more than that arrived',
						options,
						limits.mode,
					),
					{ host: source.host, local: true },
				),
				retry: false,
			};
		}
		if (reason === 'deadline')
			return {
				error: limits.fail(...deadlineWords(url, options, received, limits.secrets), {
					host: source.host,
					local: true,
				}),
				retry: false,
			};
		// The file arrived (or was arriving) and n8n could not keep it: its host's disk, not the file host.
		if (storing && !readFailed && reason === undefined)
			return {
				error: storageError(ctx, url, options, limits.secrets, error, limits.mode),
				retry: false,
			};
		const code = networkCodeOf(error);
		const what =
			reason === 'idle'
				? `${capitalized(source.who)} stopped sending ${redact(url, limits.secrets)} ` +
					`for ${Math.round(idleMs / 1000)} s (${describeBytes(received)} received)`
				: `The file ${redact(url, limits.secrets)} from ${source.who} stopped ` +
					`arriving before its end, ${limits.attempt} time${limits.attempt > 1 ? 's' : ''} ` +
					`(download interrupted)`;
		return {
			error: limits.fail(
				what,
				`The connection closed mid-file${code && code !== 'ERR_CANCELED' ? ` (${code})` : ''}; ` +
					`it was fetched ${limits.attempt} time${limits.attempt > 1 ? 's' : ''}.\n${advice(options, url, limits.secrets)}`,
				{ host: source.host },
			),
			retry: true,
		};
	};
	try {
		const head: Buffer[] = [];
		let headSize = 0;
		let ended = false;
		while (headSize < HEAD_BYTES) {
			const chunk = await next();
			if (!chunk) {
				ended = true;
				break;
			}
			head.push(chunk);
			headSize += chunk.length;
		}
		// One chunk (the usual case) is used as it came: concat would copy it.
		const first = head.length === 1 ? head[0] : Buffer.concat(head);
		const contentType = header(response, 'content-type')?.split(';')[0].trim().toLowerCase();
		const media = sniffMedia(first);
		if (!media) {
			if (!ended) stream.destroy();
			// Its kind and size only, never its bytes: the URL may point at a service that is no file host.
			const sent = shapeOf(first, contentType, {
				declared: limits.declared,
				read: ended ? undefined : first.length,
			});
			return {
				error: limits.fail(
					`${capitalized(source.who)} sent ${sent} instead of ${FILE_KINDS[limits.kind].one} ` +
						`for ${redact(url, limits.secrets)} (HTTP ${response.status}` +
						(contentType ? `, Content-Type ${contentType}` : '') +
						`): not the result, nothing was stored`,
					[
						'What it sent is not copied here: a result URL may point at a service that is not a file host.',
						advice(options, url, limits.secrets),
					].join('\n'),
					{ host: source.host, status: response.status },
				),
				retry: false,
			};
		}
		limits.maxBytes = limits.limitOf(media);
		sizeKind = fileKindOfMime(media) ?? 'image';
		if (received > limits.maxBytes) {
			reason = 'large';
			throw new Error('download large');
		}
		const fileName = fileNameOf(response, url, options, media);
		if (
			!ended &&
			holdsWholeFile(limits.mode) &&
			limits.declared !== undefined &&
			limits.declared <= limits.maxBytes
		) {
			// n8n gathers the whole file into one buffer anyway (memory and database modes): given one
			// buffer of the declared size, it keeps that one instead of the chunks and their copy (half
			// the memory at the peak).
			const whole = Buffer.allocUnsafe(limits.declared);
			let filled = first.copy(whole, 0);
			for (let chunk = await next(); chunk; chunk = await next()) {
				if (filled + chunk.length > whole.length) {
					readFailed = true;
					throw new Error(`the file host sent more than the ${limits.declared} bytes it declared`);
				}
				filled += chunk.copy(whole, filled);
			}
			if (filled < whole.length) {
				readFailed = true;
				throw new Error(`the body ended after ${filled} of ${limits.declared} bytes`);
			}
			storing = true;
			return { binary: await storeBinary(ctx, whole, fileName, media) };
		}
		storing = true;
		if (ended) return { binary: await storeBinary(ctx, first, fileName, media) };
		const rest = async function* () {
			yield first;
			for (let chunk = await next(); chunk; chunk = await next()) yield chunk;
		};
		const body = readableFrom(stream, rest());
		if (!body) {
			storing = false;
			const chunks: Buffer[] = [first];
			for (let chunk = await next(); chunk; chunk = await next()) chunks.push(chunk);
			storing = true;
			return { binary: await storeBinary(ctx, Buffer.concat(chunks), fileName, media) };
		}
		return { binary: await storeBinary(ctx, body, fileName, media) };
	} catch (error) {
		stream.destroy();
		return failure(error);
	} finally {
		finished = true;
		void watchdog;
	}
}

/**
 * Content-Disposition's name, else the URL's last segment, else `<baseName>.<ext>`; undecodable names kept as they
 * are.
 */
function fileNameOf(
	response: GatewayResponse<unknown>,
	url: string,
	options: DownloadOptions,
	media: string,
): string {
	const disposition = header(response, 'content-disposition');
	const quoted = disposition && /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
	const last = url.split('?')[0].split('#')[0].split('/').pop();
	const raw = quoted ? quoted[1].trim() : last && /\.[a-z0-9]{2,5}$/i.test(last) ? last : undefined;
	if (!raw) return `${options.baseName}.${EXTENSIONS[media] ?? 'bin'}`;
	let name = raw;
	try {
		name = decodeURIComponent(raw);
	} catch {
		// A `%` that starts no escape (`50%off.png`): the name is used as it is.
	}
	const extension = name.split('.').pop()?.toLowerCase();
	return extension && MIME_BY_EXTENSION[extension] === media
		? name
		: `${name.replace(/\.[a-z0-9]{2,5}$/i, '')}.${EXTENSIONS[media] ?? 'bin'}`;
}
