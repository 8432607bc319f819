import type { IBinaryData, IDataObject, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { cancelSignalOf, gatewayCredentials } from '../../transport/context';
import {
	fetchResultFile,
	GatewayRequestError,
	type GatewayResponse,
} from '../../transport/request';
import {
	certificateProblem,
	isTimeoutCode,
	networkCodeOf,
	readableFrom,
	type ByteStream,
} from '../../transport/responses';
import { backoffDelay } from '../../transport/retry';
import { redact, secretForms } from '../../transport/secrets';
import { abortableSleep } from '../../transport/sleep';
import { keyOrigins, originOf, originsFrom } from '../../transport/urls';
import {
	binaryModeOf,
	describeStorage,
	describeStorageFailure,
	holdsWholeFile,
	binaryFolder,
	knownMode,
	DATABASE_MODE_MAX_MB,
	LARGE_FILE_BYTES,
	modeLimitMb,
	storageFolderOf,
	storeBinary,
	takeLargeSlot,
	tryTakeLargeSlot,
	type BinaryMode,
} from './binaryStore';
import { describeBytes, EXTENSIONS, MIME_BY_EXTENSION, sniffMedia } from './media';
import { shownUrl } from '../../api/tasks/results';
import { isStop, nodeErrorOf, stopError } from '../../transport/nodeError';
import { videoContentPath } from '../../api/tasks/routes';

/** A result file cut mid-way (or gone silent) is fetched again (a GET is safe) this many times in all. */
const DOWNLOAD_ATTEMPTS = 3;
/** No byte for this long: the file host has stopped sending. */
export const DOWNLOAD_IDLE_MS = 60_000;
/** Default size limits per kind; Options → Max File Size raises (or lowers) them. */
export const MAX_FILE_MB = { image: 50, video: 2048 } as const;
/** Bytes read before deciding whether the answer is a file at all (and shown when it is not). */
const HEAD_BYTES = 512;
const SHOWN_CHARS = 300;

/** The paid result a file belongs to, carried by every download error (its receipt with the URL): the task, and when its URLs expire. */
export interface PaidResult {
	/** The task the file belongs to; none for a synchronous answer (gpt-image-2 / gpt-image-2.5). */
	taskId?: string;
	/** When the gateway says the URL expires. */
	expiresAt?: string;
}

export interface DownloadOptions {
	itemIndex: number;
	/** File name to use when neither the response nor the URL gives one (without extension). */
	baseName: string;
	defaultMimeType: string;
	/** What is expected, for messages ("instead of a video"); from defaultMimeType when not given. */
	kind?: 'image' | 'video';
	/** Size limit in bytes (default: MAX_FILE_MB of the kind the bytes turn out to be, lowered where n8n holds files whole: engine/files/binaryStore.ts). */
	maxBytes?: number;
	timeoutMs?: number;
	/** Epoch ms by which the whole download is over, retries included (Max Wait, a trigger poll's budget). */
	deadlineAt?: number;
	/** How the deadline is called in messages: "Max Wait", "the trigger's poll budget". */
	deadlineName?: string;
	idleMs?: number;
	paid?: PaidResult;
}

/** One URL's attempts; `relayUrl`: the task's result URL this one (the gateway's content route) stands in for. */
interface Attempting extends DownloadOptions {
	relayUrl?: string;
	/** Why the result URL itself failed, when it was tried first. */
	relayFailure?: string;
}

/** A download that failed: the URL (full, redacted) and the receipt travel with it. */
export class DownloadError extends NodeOperationError {
	url = '';
}

/** A stored result file, and where it came from when that is not the URL asked for. */
export interface DeliveredFile {
	binary: IBinaryData;
	/**
	 * The gateway's content route under the Base URL (`{Base URL}/v1/videos/{id}/content`), when it
	 * delivered instead of a result URL on the relay's own server address (docs/gateway-contract.md §10.2).
	 */
	from?: string;
}

/** Who sent an answer: the gateway (one of the credential's origins) or a file host. */
interface Attempt {
	host: string;
	fromGateway: boolean;
	/** "the gateway (gw.example.com)" or "the file host cdn.example.com". */
	who: string;
}

/**
 * Fetches one result file into n8n binary data, or fails with an error that names who failed (the
 * gateway or the file host), what it sent, and the receipt. The bytes must be an image or a video
 * (sniffed, whatever the Content-Type says), within the size limit, the idle timeout and the
 * deadline. Large files stream into n8n's binary store; the key goes only to the gateway's origins.
 * Tells also which route delivered (the item's `downloadedFrom`).
 */
export async function deliverFile(
	ctx: IExecuteFunctions | IPollFunctions,
	url: string,
	options: DownloadOptions,
): Promise<DeliveredFile> {
	try {
		return await downloadByRoute(ctx, url, options);
	} catch (error) {
		if (error instanceof DownloadError || isStop(error))
			logFailure(ctx, error as NodeOperationError, options);
		throw nodeErrorOf(ctx.getNode(), error, options.itemIndex);
	}
}

/** n8n's log names the receipt of every failed download: it outlives the execution's items. */
function logFailure(
	ctx: IExecuteFunctions | IPollFunctions,
	error: NodeOperationError,
	options: DownloadOptions,
): void {
	const url = String(error.context.url);
	let executionId = 'unknown';
	try {
		executionId = 'getExecutionId' in ctx ? ctx.getExecutionId() : executionId;
	} catch {
		// A trigger's poll has no execution yet.
	}
	const what = options.paid?.taskId
		? `task ${options.paid.taskId}`
		: 'a synchronous result (no task ID)';
	const verb = error.context.storageFailed ? 'could not store the file of' : 'could not download';
	ctx.logger?.warn(
		`Unified AI Gateway: execution ${executionId} node "${ctx.getNode().name}" item ${options.itemIndex} ${verb} ${url} of ${what}: ${error.message}. The result was paid for: do not submit it again (the item's error says how to fetch it).`,
		{
			executionId,
			itemIndex: options.itemIndex,
			url,
			...(options.paid?.taskId ? { taskId: options.paid.taskId } : {}),
		},
	);
}

/**
 * The relay builds a video's `result_url` from its own configured server address
 * (`{server address}/v1/videos/{id}/content`), which need not be the Base URL the user pasted
 * (docs/gateway-contract.md §10.2): another host name, or a reverse proxy's path prefix left out.
 * Such a URL on another origin is read from the same route under the Base URL (the key may not go
 * to another origin, and the route refuses without it); on the gateway's own origin it is tried
 * first, and the Base URL's route when it fails at the host.
 */
async function downloadByRoute(
	ctx: IExecuteFunctions | IPollFunctions,
	given: string,
	options: DownloadOptions,
): Promise<DeliveredFile> {
	const credentials = await gatewayCredentials(ctx);
	const base = originsFrom(credentials).main;
	// A gateway path (`/v1/videos/{id}/content`) is fetched from, and named as, the gateway's origin.
	const url = given.startsWith('/') ? `${base}${given}` : given;
	const own = ownContentRoute(url, options.paid?.taskId, base);
	if (!own) return { binary: await download(ctx, url, options) };
	if (!keyOrigins(credentials).has(originOf(url) ?? '')) {
		return { binary: await download(ctx, own, { ...options, relayUrl: url }), from: own };
	}
	try {
		return { binary: await download(ctx, url, options) };
	} catch (error) {
		// Only the host's refusal sends the download elsewhere: a full disk, Stop or the deadline would fail there too.
		if (!(error instanceof DownloadError) || isStop(error) || error.context.local)
			throw nodeErrorOf(ctx.getNode(), error, options.itemIndex);
		return {
			binary: await download(ctx, own, { ...options, relayUrl: url, relayFailure: error.message }),
			from: own,
		};
	}
}

/**
 * `{Base URL}/v1/videos/{id}/content` when `url` is the relay's content route of this task under
 * another origin or path prefix; undefined otherwise (a file host's URL, or the route itself).
 */
function ownContentRoute(
	url: string,
	taskId: string | undefined,
	base: string,
): string | undefined {
	if (!taskId || !base) return undefined;
	const match =
		/^https?:\/\/[^/?#]+(?:\/[^?#]*)?\/v1\/videos\/([^/?#]+)\/content(?:[?#].*)?$/i.exec(url);
	if (!match) return undefined;
	let id: string;
	try {
		id = decodeURIComponent(match[1]);
	} catch {
		return undefined;
	}
	if (id !== taskId) return undefined;
	const own = `${base}${videoContentPath(taskId)}`;
	return url.split(/[?#]/)[0] === own ? undefined : own;
}

async function download(
	ctx: IExecuteFunctions | IPollFunctions,
	url: string,
	options: Attempting,
): Promise<IBinaryData> {
	const credentials = await gatewayCredentials(ctx);
	const secrets = secretForms(credentials);
	const gatewayOrigins = keyOrigins(credentials);
	const kind = options.kind ?? (options.defaultMimeType.startsWith('video/') ? 'video' : 'image');
	// Where n8n keeps binaries sets the default limit and how a file is stored (engine/files/binaryStore.ts); learned when it matters.
	let mode = knownMode(ctx);
	const limitOf = (type: string | undefined) =>
		options.maxBytes ??
		modeLimitMb(MAX_FILE_MB[type?.startsWith('video/') ? 'video' : 'image'], mode) * 1024 * 1024;
	const fail = (message: string, description: string, facts: IDataObject = {}) =>
		downloadError(ctx, url, options, secrets, message, description, facts);
	if (/^data:/i.test(url))
		return await inlineToBinary(
			ctx,
			url,
			options,
			limitOf(
				sniffMedia(Buffer.from(url.slice(url.indexOf(',') + 1, url.indexOf(',') + 65), 'base64')),
			),
			secrets,
			fail,
		);

	const signal = cancelSignalOf(ctx);
	// Held while a large file is stored whole (memory and database modes): one such file at a time.
	let release: (() => void) | undefined;
	try {
		for (let attempt = 1; ; attempt++) {
			if (options.deadlineAt !== undefined && Date.now() >= options.deadlineAt)
				throw fail(...deadlineWords(url, options, 0, secrets), { local: true });
			const left = options.deadlineAt === undefined ? undefined : options.deadlineAt - Date.now();
			const requestTimeoutMs = options.timeoutMs ?? 600_000;
			let response: GatewayResponse<ByteStream | unknown>;
			const first = describeSource(url, gatewayOrigins);
			try {
				response = await fetchResultFile.call(ctx, url, {
					action: `downloading the result ${first.host}`,
					itemIndex: options.itemIndex,
					timeoutMs: Math.min(requestTimeoutMs, left ?? Infinity),
					deadlineAt: options.deadlineAt,
				});
			} catch (error) {
				if (signal?.aborted || isStop(error) || networkCodeOf(error) === 'ERR_CANCELED')
					throw stopped(ctx, url, options, secrets);
				if (!(error instanceof GatewayRequestError))
					throw nodeErrorOf(ctx.getNode(), error, options.itemIndex);
				// The transport's own words name the network code (its message is about the gateway).
				const code = error.gatewayCode ?? networkCodeOf(error) ?? 'connection failed';
				const timedOut = isTimeoutCode(code);
				// The wait for an answer was what was left of the deadline: the deadline ran out, not the host.
				if (timedOut && left !== undefined && left <= requestTimeoutMs)
					throw fail(...deadlineWords(url, options, 0, secrets), { host: first.host, local: true });
				if (attempt > 1) {
					// An earlier attempt was cut mid-file: the host keeps dropping this file.
					throw fail(
						`The file ${shown(url, secrets)} from ${first.who} stopped arriving before its end, ${attempt} times (download interrupted)`,
						`The last attempt could not reach it (${code}).\n${advice(options, url, secrets)}`,
						{ host: first.host },
					);
				}
				const certificate = certificateProblem(code);
				if (certificate) {
					// Reached, and its certificate refused: asking again gets the same certificate.
					throw fail(
						`The TLS certificate of ${first.who} was refused for the result ${shown(url, secrets)}: ${certificate} (${code})`,
						`${certificateFix(first.fromGateway)}\n${advice(options, url, secrets)}`,
						{ host: first.host },
					);
				}
				const what = timedOut
					? `No answer from ${first.who} within ${Math.round(requestTimeoutMs / 1000)} s for the result ${shown(url, secrets)} (${code})`
					: /^(ECONNRESET|EPIPE|ERR_STREAM_PREMATURE_CLOSE)$/.test(code)
						? `${capitalized(first.who)} closed the connection before the result ${shown(url, secrets)} arrived (${code})`
						: `Could not reach ${first.who} for the result ${shown(url, secrets)} (${code})`;
				throw fail(
					what,
					`It was asked again (a GET is safe to repeat) before giving up.\n${advice(options, url, secrets)}`,
					{ host: first.host },
				);
			}
			const source = describeSource(response.url ?? url, gatewayOrigins);
			if (response.status >= 300 && response.status < 400) {
				throw fail(
					`${capitalized(source.who)} redirected the download of ${shown(url, secrets)} too many times (HTTP ${response.status}, a redirect loop)`,
					`The last redirect pointed to ${shownLocation(response, source, secrets)}.\n${advice(options, url, secrets)}`,
					{ host: source.host, status: response.status },
				);
			}
			if (response.status < 200 || response.status >= 300) {
				const sent = textOf(response.body, secrets);
				throw fail(
					`${capitalized(source.who)} answered ${response.status} for the result ${shown(url, secrets)}${sent ? `: ${firstLine(sent)}` : ''}`,
					[
						`${capitalized(source.who)} sent: ${sent || '(an empty body)'}`,
						source.fromGateway
							? ''
							: 'The gateway created the result; its file host refused to hand it over (a signed link that expired, or storage that refuses this network).',
						advice(options, url, secrets),
					]
						.filter(Boolean)
						.join('\n'),
					{ host: source.host, status: response.status },
				);
			}
			const stream = response.body as ByteStream;
			const declared = Number(header(response, 'content-length'));
			const sized = header(response, 'content-length') !== undefined && Number.isFinite(declared);
			const declaredType = header(response, 'content-type')?.toLowerCase();
			// Past LARGE_FILE_BYTES (or of unknown size) where n8n keeps the file decides the limit and how it is stored.
			const large = !sized || declared > LARGE_FILE_BYTES;
			if (large && !mode) {
				try {
					mode = await binaryModeOf(ctx);
				} catch (error) {
					discard(stream);
					throw storageError(ctx, url, options, secrets, error, undefined);
				}
			}
			if (sized && declared > limitOf(declaredType)) {
				discard(stream);
				const limitKind = declaredType?.startsWith('video/') ? 'video' : 'image';
				throw fail(
					...tooLarge(
						url,
						limitKind,
						limitOf(declaredType),
						secrets,
						`it declares ${describeBytes(declared)}`,
						options,
						mode,
					),
					{ host: source.host, local: true },
				);
			}
			if (large && holdsWholeFile(mode) && !release) {
				release = tryTakeLargeSlot();
				if (!release) {
					// Another large file is being held whole: this one waits, its connection closed meanwhile
					// (a file host drops a connection left idle), and is asked again once it may be held.
					discard(stream);
					try {
						release = await takeLargeSlot(ctx, options.deadlineAt, options.itemIndex);
					} catch {
						throw stopped(ctx, url, options, secrets);
					}
					if (!release)
						throw fail(...deadlineWords(url, options, 0, secrets), {
							host: source.host,
							local: true,
						});
					attempt--;
					continue;
				}
			}
			const outcome = await receive(ctx, stream, source, response, url, options, {
				kind,
				maxBytes: limitOf(declaredType),
				limitOf,
				secrets,
				fail,
				attempt,
				mode,
				declared: sized ? declared : undefined,
			});
			if (outcome.binary) return outcome.binary;
			if (attempt >= DOWNLOAD_ATTEMPTS || !outcome.retry) throw outcome.error;
			await abortableSleep(backoffDelay(attempt - 1), ctx, options.itemIndex);
		}
	} finally {
		release?.();
	}
}

interface Limits {
	kind: 'image' | 'video';
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
async function receive(
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
	let sizeKind: 'image' | 'video' = header(response, 'content-type')
		?.toLowerCase()
		.startsWith('video/')
		? 'video'
		: 'image';
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
				? `${capitalized(source.who)} stopped sending ${shown(url, limits.secrets)} for ${Math.round(idleMs / 1000)} s (${describeBytes(received)} received)`
				: `The file ${shown(url, limits.secrets)} from ${source.who} stopped arriving before its end, ${limits.attempt} time${limits.attempt > 1 ? 's' : ''} (download interrupted)`;
		return {
			error: limits.fail(
				what,
				`The connection closed mid-file${code && code !== 'ERR_CANCELED' ? ` (${code})` : ''}; it was fetched ${limits.attempt} time${limits.attempt > 1 ? 's' : ''}.\n${advice(options, url, limits.secrets)}`,
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
		const first = Buffer.concat(head);
		const contentType = header(response, 'content-type')?.split(';')[0].trim().toLowerCase();
		const media = sniffMedia(first);
		if (!media) {
			if (!ended) stream.destroy();
			// Redacted before it is cut: a key that crosses the cut is still found whole.
			const sent =
				first.length === 0
					? ''
					: redact(first.toString('utf8'), limits.secrets).slice(0, SHOWN_CHARS);
			const label = notMediaLabel(first, contentType);
			return {
				error: limits.fail(
					`${capitalized(source.who)} sent ${label} instead of ${limits.kind === 'video' ? 'a video' : 'an image'} for ${shown(url, limits.secrets)} (HTTP ${response.status}${contentType ? `, Content-Type ${contentType}` : ''}): not the result, nothing was stored`,
					[
						`First bytes: ${sent ? JSON.stringify(sent) : '(none)'}`,
						advice(options, url, limits.secrets),
					].join('\n'),
					{ host: source.host, status: response.status },
				),
				retry: false,
			};
		}
		limits.maxBytes = limits.limitOf(media);
		sizeKind = media.startsWith('video/') ? 'video' : 'image';
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

async function inlineToBinary(
	ctx: IExecuteFunctions | IPollFunctions,
	url: string,
	options: DownloadOptions,
	maxBytes: number,
	secrets: string[],
	fail: (message: string, description: string) => DownloadError,
): Promise<IBinaryData> {
	const comma = url.indexOf(',');
	const bytes = Buffer.from(url.slice(comma + 1), 'base64');
	const media = sniffMedia(bytes);
	if (!media)
		throw fail(
			"The gateway's inline result (base64) is not an image or a video",
			`It decodes to ${describeBytes(bytes.length)} starting with ${JSON.stringify(redact(bytes.subarray(0, 4096).toString('utf8'), secrets).slice(0, 40))}.`,
		);
	if (bytes.length > maxBytes)
		throw fail(
			`The gateway's inline result is larger than the limit of ${describeBytes(maxBytes)}`,
			'Raise Options → Max File Size (MB).',
		);
	try {
		return await storeBinary(
			ctx,
			bytes,
			`${options.baseName}.${EXTENSIONS[media] ?? 'bin'}`,
			media,
		);
	} catch (error) {
		throw storageError(ctx, url, options, secrets, error, knownMode(ctx));
	}
}

function downloadError(
	ctx: IExecuteFunctions | IPollFunctions,
	url: string,
	options: Attempting,
	secrets: string[],
	message: string,
	description: string,
	facts: IDataObject,
): DownloadError {
	const error = new DownloadError(ctx.getNode(), redact(message, secrets), {
		itemIndex: options.itemIndex,
		description: redact(withRelayNote(description, options, secrets), secrets),
	});
	// n8n swaps a message that names a network code (ECONNRESET…) for a generic text; ours says who failed.
	error.message = redact(message, secrets);
	// The receipt is the task's result URL, also when its file was asked of the Base URL's content route.
	error.url = shownUrl(redact(options.relayUrl ?? url, secrets));
	Object.assign(error.context, facts, { url: error.url, downloadFailed: true });
	if (options.relayUrl) error.context.contentRoute = shownUrl(redact(url, secrets));
	if (options.paid?.taskId) error.context.taskId = options.paid.taskId;
	return error;
}

/** A download that stood in for the relay's result URL says so first: both routes were tried. */
function withRelayNote(description: string, options: Attempting, secrets: string[]): string {
	if (!options.relayUrl) return description;
	const relay = redact(options.relayUrl, secrets);
	const note = options.relayFailure
		? `The task's result URL ${relay} failed first (${redact(options.relayFailure, secrets)}); the file was then asked of the gateway's content route under your Base URL, which failed as above.`
		: `The task's result URL ${relay} names the relay's own server address, not your Base URL (the key is never sent to another address), so the file was asked of the gateway's content route under your Base URL instead, which failed as above.`;
	return `${note}\n${description}`;
}

/**
 * n8n could not keep a file it was given: its host's disk is full or not writable, n8n's database
 * mode refused the size, or memory ran out. The task is finished and paid for; the file host did
 * nothing wrong, and fetching it again would fail the same way.
 */
function storageError(
	ctx: IExecuteFunctions | IPollFunctions,
	url: string,
	options: Attempting,
	secrets: string[],
	cause: unknown,
	mode: BinaryMode | undefined,
): DownloadError {
	const failure = describeStorageFailure(cause);
	const storedIn = mode ?? (failure.code === 'N8N_DATABASE_LIMIT' ? 'database' : undefined);
	const where = describeStorage(
		storedIn,
		storedIn === undefined || storedIn === 'filesystem'
			? (storageFolderOf(failure.path) ?? binaryFolder(ctx))
			: undefined,
	);
	const paidFor = options.paid?.taskId
		? `Task ${options.paid.taskId} completed at the gateway and was paid for; only storing its file failed`
		: 'The result was created and paid for; only storing its file failed';
	const fix =
		failure.code === 'N8N_DATABASE_LIMIT'
			? "Raise N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE in n8n's environment (at most 1024 MB), or set N8N_DEFAULT_BINARY_DATA_MODE=filesystem (files then stream to disk), and restart n8n."
			: failure.code === 'ENOMEM' || failure.code === 'ERR_STRING_TOO_LONG'
				? "Set N8N_DEFAULT_BINARY_DATA_MODE=filesystem in n8n's environment and restart n8n (files then stream to disk), or lower Options → Max File Size (MB)."
				: /^(ENOSPC|EDQUOT|EFBIG|SQLITE_FULL)$/.test(failure.code)
					? 'Free space there, or point N8N_BINARY_DATA_STORAGE_PATH at a larger disk and restart n8n.'
					: /^(EACCES|EPERM|EROFS)$/.test(failure.code)
						? 'Let the user n8n runs as write there, or point N8N_BINARY_DATA_STORAGE_PATH at a writable folder and restart n8n.'
						: "Check the n8n host's storage and n8n's log.";
	const error = downloadError(
		ctx,
		url,
		options,
		secrets,
		`The result ${shown(options.relayUrl ?? url, secrets)} could not be stored: ${failure.what}. ${paidFor}`,
		[
			`Where n8n stores binaries: ${where}${failure.path ? ` (the error names ${failure.path})` : ''}.`,
			'This is the n8n host, not the gateway or its file host: the file was not fetched again, as the same storage would refuse it again.',
			fix,
			advice(options, url, secrets),
		].join('\n'),
		{ local: true, storageFailed: true, storageCode: failure.code },
	);
	return error;
}

/** The Stop error of a download, carrying its receipt (the URL) as a failed download's error does. */
function stopped(
	ctx: IExecuteFunctions | IPollFunctions,
	url: string,
	options: Attempting,
	secrets: string[],
): NodeOperationError {
	const error = stopError(
		ctx.getNode(),
		redact(`The download of ${options.relayUrl ?? url}`, secrets),
		{
			itemIndex: options.itemIndex,
			more: redact(advice(options, url, secrets), secrets),
		},
	);
	// An inline (data:) result is named, not copied: its base64 would fill errors, logs and items.
	Object.assign(error.context, {
		url: shownUrl(redact(options.relayUrl ?? url, secrets)),
		downloadFailed: true,
	});
	return error;
}

/**
 * What to do next: a sync result is fetched again by its URL; a task's with Task → Download Result.
 * Never back to a route that just failed for a reason fetching again cannot change: when both the
 * relay's result URL and the Base URL's content route failed, the relay's setting is named instead.
 */
function advice(options: Attempting, url: string, secrets: string[]): string {
	const expiry = options.paid?.expiresAt
		? ` (the gateway says it expires at ${options.paid.expiresAt})`
		: ' (result URLs are temporary)';
	if (options.paid?.taskId && options.relayUrl) {
		return `Task ${options.paid.taskId} finished and was paid for; do not submit it again. Its result URL names the relay's own server address${options.relayFailure ? '' : ` (${originOf(options.relayUrl) ?? options.relayUrl})`}, and the gateway's content route under your Base URL (${redact(url, secrets)}) failed too, so fetching again the same way fails the same way: ask the gateway's operator to set the relay's server address to the address you use, or to check its content route, then download it with Task → Download Result.`;
	}
	if (options.paid?.taskId) {
		return `Task ${options.paid.taskId} finished and was paid for: download its result again with Task → Download Result soon${expiry}. Do not submit it again.`;
	}
	if (/^https?:/i.test(url)) {
		return `This result was created and paid for and has no task ID: fetch this URL again before it expires${expiry}, e.g. with an HTTP Request node: ${redact(url, secrets)}\nDo not run the item again (that is a new charge).`;
	}
	return 'This result was created and paid for; do not run the item again (that is a new charge).';
}

/**
 * What lets n8n accept the certificate. Ignore SSL Issues reaches only requests with the key
 * (the gateway's own origins, docs/gateway-contract.md §5 rule 7): a file host keeps its checks.
 */
function certificateFix(fromGateway: boolean): string {
	const trust =
		"trust the certificate's authority on the n8n host (its CA file in NODE_EXTRA_CA_CERTS=/path/to/ca.pem in n8n's environment, then restart n8n)";
	return fromGateway
		? `n8n reached the gateway but did not trust its certificate. Either ${trust}, or turn on Ignore SSL Issues (Insecure) in the Unified AI Gateway API credential.`
		: `n8n reached the file host but did not trust its certificate. The credential's Ignore SSL Issues applies to Base URL and Alt Base URL only, never to a file host: ${trust}, or ask the gateway's operator for result URLs on a host with a valid certificate.`;
}

/**
 * Ends a body nothing was read from, and its connection. n8n 2.x hands a streamed body over
 * through axios's length guard, a stream made from a generator that opens the connection's own
 * stream only when first read: destroyed unread, it leaves that connection open. So one chunk is
 * pulled, then the reading is ended, which destroys the body and, through it, the connection
 * (on n8n 1.x, where the body is the connection's own stream, the same steps close it).
 */
function discard(stream: ByteStream): void {
	const reading = stream[Symbol.asyncIterator]();
	const end = async () => {
		await reading.return?.();
	};
	reading
		.next()
		.then(end, end)
		.catch(() => stream.destroy());
}

function deadlineWords(
	url: string,
	options: DownloadOptions,
	received: number,
	secrets: string[],
): [string, string] {
	const name = options.deadlineName ?? 'Max Wait';
	return [
		`The download of ${redact(url, secrets)} did not finish within ${name} (${describeBytes(received)} received)`,
		`The file host sends too slowly to finish in time. Raise ${name}, or fetch the file later.\n${advice(options, url, secrets)}`,
	];
}

/**
 * Past the limit. The default limit follows where n8n keeps binaries (engine/files/binaryStore.ts): the
 * words say which, and how to lift it, when that is what refused the file.
 */
function tooLarge(
	url: string,
	kind: 'image' | 'video',
	maxBytes: number,
	secrets: string[],
	what: string,
	options: DownloadOptions,
	mode: BinaryMode | undefined,
): [string, string] {
	const byMode =
		options.maxBytes === undefined && modeLimitMb(MAX_FILE_MB[kind], mode) < MAX_FILE_MB[kind]
			? mode
			: undefined;
	const where =
		byMode === 'memory'
			? ' while n8n keeps binary data in memory'
			: byMode === 'database'
				? " (n8n's own default limit per file in its database binary mode)"
				: '';
	const why =
		byMode === 'memory'
			? `n8n keeps binary data in memory here (n8n 1.x's default, or N8N_DEFAULT_BINARY_DATA_MODE=default): a file this size could run n8n out of memory and end every execution running on it. Set N8N_DEFAULT_BINARY_DATA_MODE=filesystem in n8n's environment and restart n8n (files then stream to disk), or raise Options → Max File Size (MB) if n8n has the memory to spare.`
			: byMode === 'database'
				? `n8n keeps binary data in its database here and refuses files over N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE (${DATABASE_MODE_MAX_MB} MB unless set, at most 1024): if yours is set higher, raise Options → Max File Size (MB) to match; or set N8N_DEFAULT_BINARY_DATA_MODE=filesystem.`
				: 'If the file is expected to be that large, raise Options → Max File Size (MB).';
	return [
		`The result ${redact(url, secrets)} is larger than the limit of ${describeBytes(maxBytes)} for ${kind === 'video' ? 'videos' : 'images'}${where} (${what})`,
		`Nothing was stored. ${why}\n${advice(options, url, secrets)}`,
	];
}

function describeSource(url: string, gatewayOrigins: ReadonlySet<string>): Attempt {
	const origin = originOf(url) ?? '';
	const host = origin.replace(/^https?:\/\//, '') || 'an unknown host';
	const fromGateway = gatewayOrigins.has(origin);
	return {
		host,
		fromGateway,
		who: fromGateway ? `the gateway (${host})` : `the file host ${host}`,
	};
}

function shown(url: string, secrets: string[]): string {
	return redact(url, secrets);
}

function capitalized(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

function header(response: GatewayResponse<unknown>, name: string): string | undefined {
	const value = response.headers[name];
	return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

function shownLocation(
	response: GatewayResponse<unknown>,
	source: Attempt,
	secrets: string[],
): string {
	const location = header(response, 'location');
	return location ? redact(location, secrets) : source.host;
}

function textOf(body: unknown, secrets: string[]): string {
	const text =
		typeof body === 'string'
			? body
			: body === undefined || body === null
				? ''
				: JSON.stringify(body);
	return redact(text.replace(/\s+/g, ' ').trim().slice(0, SHOWN_CHARS), secrets);
}

function firstLine(text: string): string {
	return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

function notMediaLabel(bytes: Buffer, contentType: string | undefined): string {
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

/** Content-Disposition's name, else the URL's last segment, else `<baseName>.<ext>`; undecodable names kept as they are. */
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
