import type { IBinaryData, IDataObject, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { cancelSignalOf, gatewayCredentials } from '../../transport/context';
import {
	fetchResultFile,
	GatewayRequestError,
	type GatewayResponse,
} from '../../transport/request';
import {
	certificateProblem,
	discard,
	isTimeoutCode,
	networkCodeOf,
	type ByteStream,
} from '../../transport/responses';
import { backoffDelay } from '../../transport/retry';
import { redact, secretForms } from '../../transport/secrets';
import { abortableSleep } from '../../transport/sleep';
import { keyOrigins, originOf, originsFrom } from '../../transport/urls';
import {
	binaryModeOf,
	holdsWholeFile,
	knownMode,
	LARGE_FILE_BYTES,
	modeLimitMb,
	storeBinary,
	takeLargeSlot,
	tryTakeLargeSlot,
} from './binaryStore';
import { describeBytes, EXTENSIONS, sniffMedia } from './media';
import { isStop, nodeErrorOf } from '../../transport/nodeError';
import { videoContentPath } from '../../api/tasks/routes';
import { DownloadError, type Attempting, type DownloadOptions } from './downloadTypes';
import {
	advice,
	blockedDownload,
	certificateFix,
	deadlineWords,
	downloadError,
	stopped,
	storageError,
	tooLarge,
} from './downloadWords';
import {
	bodyExcerpt,
	capitalized,
	describeSource,
	firstLine,
	header,
	saysExpired,
	shapeOf,
	shownLocation,
} from './hostAnswer';
import { receive } from './receive';
import { FILE_KINDS, fileKindOfMime } from '../../registry/fileKinds';

/** A result file cut mid-way (or gone silent) is fetched again (a GET is safe) this many times in all. */
const DOWNLOAD_ATTEMPTS = 3;

/**
 * Finished results fetched at once in one node run where n8n streams each file to disk or S3 (the
 * Concurrency instead when higher). A round of reads that finds 200 tasks done would otherwise queue
 * their files five by five: 3-4 s of a 25 s batch in bench:n8n (docs/PERFORMANCE.md). A file's
 * GET is safe to repeat, and asked again after a 429, so these do not risk a paid result.
 */
export const STREAMED_DOWNLOADS_AT_ONCE = 20;

/**
 * How many finished results may be fetched (and their outputs built) at once: the Concurrency until
 * a file of this run shows that n8n streams files (filesystem or S3), then STREAMED_DOWNLOADS_AT_ONCE.
 * Where n8n holds each file whole in its memory (memory and database modes) it stays the Concurrency.
 */
export function downloadsAtOnce(
	ctx: IExecuteFunctions | IPollFunctions,
	concurrency: number,
): number {
	const mode = knownMode(ctx);
	return mode === undefined || holdsWholeFile(mode)
		? concurrency
		: Math.max(concurrency, STREAMED_DOWNLOADS_AT_ONCE);
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
		`Unified AI Gateway: execution ${executionId} node "${ctx.getNode().name}" ` +
			`item ${options.itemIndex} ${verb} ${url} of ${what}: ${error.message}. ` +
			`The result was paid for: do not submit it again (the item's error says ` +
			`how to fetch it).`,
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
	const kind = options.kind ?? fileKindOfMime(options.defaultMimeType) ?? 'image';
	// Where n8n keeps binaries sets the default limit and how a file is stored (engine/files/binaryStore.ts); learned
	// when it matters.
	let mode = knownMode(ctx);
	const limitOf = (type: string | undefined) =>
		options.maxBytes ??
		modeLimitMb(FILE_KINDS[fileKindOfMime(type) ?? 'image'].maxMb, mode) * 1024 * 1024;
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
				// Refused before it was sent (the node's address rule, n8n's SSRF protection): the same
				// every time, so not asked again, and the advice is what lifts it, not "try again".
				if (error.blocked)
					throw fail(...blockedDownload(url, error.blocked, options, secrets), {
						host: first.host,
						local: true,
						blocked: error.blocked.by,
					});
				// The transport's own words name the network code (its message is about the gateway).
				const code = error.gatewayCode ?? networkCodeOf(error) ?? 'connection failed';
				const timedOut = isTimeoutCode(code);
				// The wait for an answer was what was left of the deadline: the deadline ran out, not the host.
				if (timedOut && left !== undefined && left <= requestTimeoutMs)
					throw fail(...deadlineWords(url, options, 0, secrets), { host: first.host, local: true });
				if (attempt > 1) {
					// An earlier attempt was cut mid-file: the host keeps dropping this file.
					throw fail(
						`The file ${redact(url, secrets)} from ${first.who} stopped arriving ` +
							`before its end, ${attempt} times (download interrupted)`,
						`The last attempt could not reach it (${code}).\n${advice(options, url, secrets)}`,
						{ host: first.host },
					);
				}
				const certificate = certificateProblem(code);
				if (certificate) {
					// Reached, and its certificate refused: asking again gets the same certificate.
					throw fail(
						`The TLS certificate of ${first.who} was refused for the result ${redact(url, secrets)}: ` +
							`${certificate} (${code})`,
						`${certificateFix(first.fromGateway)}\n${advice(options, url, secrets)}`,
						{ host: first.host },
					);
				}
				const what = timedOut
					? `No answer from ${first.who} within ${Math.round(requestTimeoutMs / 1000)} ` +
						`s for the result ${redact(url, secrets)} (${code})`
					: /^(ECONNRESET|EPIPE|ERR_STREAM_PREMATURE_CLOSE)$/.test(code)
						? `${capitalized(first.who)} closed the connection before the result ${redact(url, secrets)} arrived (${code})`
						: `Could not reach ${first.who} for the result ${redact(url, secrets)} (${code})`;
				throw fail(
					what,
					`It was asked again (a GET is safe to repeat) before giving up.\n${advice(options, url, secrets)}`,
					{ host: first.host },
				);
			}
			const source = describeSource(response.url ?? url, gatewayOrigins);
			if (response.status >= 300 && response.status < 400) {
				throw fail(
					`${capitalized(source.who)} redirected the download of ${redact(url, secrets)} ` +
						`too many times (HTTP ${response.status}, a redirect loop)`,
					`The last redirect pointed to ${shownLocation(response, source, secrets)}.\n${advice(options, url, secrets)}`,
					{ host: source.host, status: response.status },
				);
			}
			if (response.status < 200 || response.status >= 300) {
				// The gateway's own words are shown; a file host's answer only by its kind and size (it
				// may be a service that is no file host) and whether it says the link expired.
				const expired = !source.fromGateway && saysExpired(response.status, response.body);
				const sent = source.fromGateway ? bodyExcerpt(response.body, secrets) : '';
				const shape = source.fromGateway
					? ''
					: shapeOf(response.body, header(response, 'content-type'), {
							declared: numberOr(header(response, 'content-length')),
						});
				throw fail(
					`${capitalized(source.who)} answered ${response.status} for the result ${redact(url, secrets)}` +
						(sent ? `: ${firstLine(sent)}` : expired ? ': the signed link has expired' : ''),
					[
						source.fromGateway
							? `${capitalized(source.who)} sent: ${sent || '(an empty body)'}`
							: `${capitalized(source.who)} sent ${shape}${expired ? ', which says the link has expired' : ''}; ` +
								`what it sent is not copied here.`,
						source.fromGateway
							? ''
							: 'The gateway created the result; its file host refused to hand it over (a ' +
								'signed link that expired, or storage that refuses this network).',
						advice(options, url, secrets),
					]
						.filter(Boolean)
						.join('\n'),
					{ host: source.host, status: response.status, ...(expired ? { linkExpired: true } : {}) },
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
			`It decodes to ${describeBytes(bytes.length)} starting with ` +
				`${JSON.stringify(redact(bytes.subarray(0, 4096).toString('utf8'), secrets).slice(0, 40))}.`,
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

/** A header's number (Content-Length), when it is one. */
function numberOr(value: string | undefined): number | undefined {
	const n = Number(value);
	return value !== undefined && value.trim() !== '' && Number.isFinite(n) ? n : undefined;
}
