import type { IBinaryData, IDataObject, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { cancelSignalOf, gatewayCredentials } from '../transport/context';
import { fetchResultFile, GatewayRequestError, type GatewayResponse } from '../transport/request';
import { isTimeoutCode, networkCodeOf, readableFrom, type ByteStream } from '../transport/responses';
import { backoffDelay } from '../transport/retry';
import { redact, secretForms } from '../transport/secrets';
import { abortableSleep } from '../transport/sleep';
import { keyOrigins, originOf, originsFrom } from '../transport/urls';
import { describeBytes, EXTENSIONS, MIME_BY_EXTENSION, sniffMedia } from './media';
import { shownUrl } from './results';
import { nodeErrorOf } from './nodeError';

/** A result file cut mid-way (or gone silent) is fetched again (a GET is safe) this many times in all. */
const DOWNLOAD_ATTEMPTS = 3;
/** No byte for this long: the file host has stopped sending. */
export const DOWNLOAD_IDLE_MS = 60_000;
/** Default size limits per kind; Options → Max File Size raises (or lowers) them. */
export const MAX_FILE_MB = { image: 50, video: 2048 } as const;
/** Bytes read before deciding whether the answer is a file at all (and shown when it is not). */
const HEAD_BYTES = 512;
const SHOWN_CHARS = 300;

/** What the user paid for, carried by every download error: the task, or the sync answer's URL. */
export interface Receipt {
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
	/** Size limit in bytes (default MAX_FILE_MB of the kind the bytes turn out to be). */
	maxBytes?: number;
	timeoutMs?: number;
	/** Epoch ms by which the whole download is over, retries included (Max Wait, a trigger poll's budget). */
	deadlineAt?: number;
	/** How the deadline is called in messages: "Max Wait", "the trigger's poll budget". */
	deadlineName?: string;
	idleMs?: number;
	receipt?: Receipt;
}

/** A download that failed: the URL (full, redacted) and the receipt travel with it. */
export class DownloadError extends NodeOperationError {
	url = '';
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
 */
export async function downloadToBinary(
	ctx: IExecuteFunctions | IPollFunctions,
	url: string,
	options: DownloadOptions,
): Promise<IBinaryData> {
	try {
		return await download(ctx, url, options);
	} catch (error) {
		if (error instanceof DownloadError) logFailure(ctx, error, options);
		throw nodeErrorOf(ctx.getNode(), error);
	}
}

/** n8n's log names the receipt of every failed download: it outlives the execution's items. */
function logFailure(ctx: IExecuteFunctions | IPollFunctions, error: DownloadError, options: DownloadOptions): void {
	let executionId = 'unknown';
	try {
		executionId = 'getExecutionId' in ctx ? ctx.getExecutionId() : executionId;
	} catch {
		// A trigger's poll has no execution yet.
	}
	const what = options.receipt?.taskId ? `task ${options.receipt.taskId}` : 'a synchronous result (no task ID)';
	ctx.logger?.warn(
		`Unified AI Gateway: execution ${executionId} node "${ctx.getNode().name}" item ${options.itemIndex} could not download ${error.url} of ${what}: ${error.message}. The result was paid for; fetch it again (URL above, or Task → Download Result for a task).`,
		{ executionId, itemIndex: options.itemIndex, url: error.url, ...(options.receipt?.taskId ? { taskId: options.receipt.taskId } : {}) },
	);
}

async function download(ctx: IExecuteFunctions | IPollFunctions, given: string, options: DownloadOptions): Promise<IBinaryData> {
	const credentials = await gatewayCredentials(ctx);
	// A gateway path (`/v1/videos/{id}/content`) is fetched from, and named as, the gateway's origin.
	const url = given.startsWith('/') ? `${originsFrom(credentials).main}${given}` : given;
	const secrets = secretForms(credentials);
	const gatewayOrigins = keyOrigins(credentials);
	const kind = options.kind ?? (options.defaultMimeType.startsWith('video/') ? 'video' : 'image');
	const limitOf = (type: string | undefined) => options.maxBytes ?? MAX_FILE_MB[type?.startsWith('video/') ? 'video' : 'image'] * 1024 * 1024;
	const fail = (message: string, description: string, facts: IDataObject = {}) => downloadError(ctx, url, options, secrets, message, description, facts);
	if (/^data:/i.test(url)) return await inlineToBinary(ctx, url, options, limitOf(sniffMedia(Buffer.from(url.slice(url.indexOf(',') + 1, url.indexOf(',') + 65), 'base64'))), secrets, fail);

	const signal = cancelSignalOf(ctx);
	for (let attempt = 1; ; attempt++) {
		if (options.deadlineAt !== undefined && Date.now() >= options.deadlineAt) throw fail(...deadlineWords(url, options, 0, secrets));
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
			if (signal?.aborted || networkCodeOf(error) === 'ERR_CANCELED' || /stopped/.test((error as Error).message)) throw stopped(ctx, url, options, secrets);
			if (!(error instanceof GatewayRequestError)) throw nodeErrorOf(ctx.getNode(), error);
			// The transport's own words name the network code (its message is about the gateway).
			const code = error.gatewayCode ?? networkCodeOf(error) ?? 'connection failed';
			const timedOut = isTimeoutCode(code);
			// The wait for an answer was what was left of the deadline: the deadline ran out, not the host.
			if (timedOut && left !== undefined && left <= requestTimeoutMs) throw fail(...deadlineWords(url, options, 0, secrets), { host: first.host });
			if (attempt > 1) {
				// An earlier attempt was cut mid-file: the host keeps dropping this file.
				throw fail(
					`The file ${shown(url, secrets)} from ${first.who} stopped arriving before its end, ${attempt} times (download interrupted)`,
					`The last attempt could not reach it (${code}).\n${advice(options, url, secrets)}`,
					{ host: first.host },
				);
			}
			const what = timedOut
				? `No answer from ${first.who} within ${Math.round(requestTimeoutMs / 1000)} s for the result ${shown(url, secrets)} (${code})`
				: /^(ECONNRESET|EPIPE|ERR_STREAM_PREMATURE_CLOSE)$/.test(code)
					? `${cap(first.who)} closed the connection before the result ${shown(url, secrets)} arrived (${code})`
					: `Could not reach ${first.who} for the result ${shown(url, secrets)} (${code})`;
			throw fail(what, `It was asked again (a GET is safe to repeat) before giving up.\n${advice(options, url, secrets)}`, { host: first.host });
		}
		const source = describeSource(response.url ?? url, gatewayOrigins);
		if (response.status >= 300 && response.status < 400) {
			throw fail(
				`${cap(source.who)} redirected the download of ${shown(url, secrets)} too many times (HTTP ${response.status}, a redirect loop)`,
				`The last redirect pointed to ${shownLocation(response, source, secrets)}.\n${advice(options, url, secrets)}`,
				{ host: source.host, status: response.status },
			);
		}
		if (response.status < 200 || response.status >= 300) {
			const sent = textOf(response.body, secrets);
			throw fail(
				`${cap(source.who)} answered ${response.status} for the result ${shown(url, secrets)}${sent ? `: ${firstLine(sent)}` : ''}`,
				[`${cap(source.who)} sent: ${sent || '(an empty body)'}`, source.fromGateway ? '' : 'The gateway created the result; its file host refused to hand it over (a signed link that expired, or storage that refuses this network).', advice(options, url, secrets)]
					.filter(Boolean)
					.join('\n'),
				{ host: source.host, status: response.status },
			);
		}
		const stream = response.body as ByteStream;
		const declared = Number(header(response, 'content-length'));
		const declaredType = header(response, 'content-type')?.toLowerCase();
		if (Number.isFinite(declared) && declared > limitOf(declaredType)) {
			stream.destroy();
			const limitKind = declaredType?.startsWith('video/') ? 'video' : 'image';
			throw fail(...tooLarge(url, limitKind, limitOf(declaredType), secrets, `it declares ${describeBytes(declared)}`, options), { host: source.host });
		}
		const outcome = await receive(ctx, stream, source, response, url, options, { kind, maxBytes: limitOf(declaredType), limitOf, secrets, fail, attempt });
		if (outcome.binary) return outcome.binary;
		if (attempt >= DOWNLOAD_ATTEMPTS || !outcome.retry) throw outcome.error;
		await abortableSleep(backoffDelay(attempt - 1), signal);
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
}

type Outcome = { binary: IBinaryData } | { binary?: undefined; error: Error; retry: boolean };

/**
 * Reads one answer: the first bytes decide whether it is a file; the rest streams into n8n's
 * binary store under a watchdog (idle, deadline, Stop) and a byte count (size limit).
 */
async function receive(
	ctx: IExecuteFunctions | IPollFunctions,
	stream: ByteStream,
	source: Attempt,
	response: GatewayResponse<unknown>,
	url: string,
	options: DownloadOptions,
	limits: Limits,
): Promise<Outcome> {
	const signal = cancelSignalOf(ctx);
	const idleMs = options.idleMs ?? DOWNLOAD_IDLE_MS;
	let lastByteAt = Date.now();
	let received = 0;
	let reason: 'idle' | 'deadline' | 'stopped' | 'large' | undefined;
	let finished = false;
	let sizeKind: 'image' | 'video' = header(response, 'content-type')?.toLowerCase().startsWith('video/') ? 'video' : 'image';
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
		const { value, done } = await iterator.next();
		if (done) return undefined;
		const chunk = Buffer.isBuffer(value) ? value : Buffer.from(value as string);
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
		if (reason === 'stopped' || signal?.aborted) return { error: stopped(ctx, url, options, limits.secrets), retry: false };
		if (reason === 'large') {
			return { error: limits.fail(...tooLarge(url, sizeKind, limits.maxBytes, limits.secrets, 'more than that arrived', options), { host: source.host }), retry: false };
		}
		if (reason === 'deadline') return { error: limits.fail(...deadlineWords(url, options, received, limits.secrets), { host: source.host }), retry: false };
		const code = networkCodeOf(error);
		const what =
			reason === 'idle'
				? `${cap(source.who)} stopped sending ${shown(url, limits.secrets)} for ${Math.round(idleMs / 1000)} s (${describeBytes(received)} received)`
				: `The file ${shown(url, limits.secrets)} from ${source.who} stopped arriving before its end, ${limits.attempt} time${limits.attempt > 1 ? 's' : ''} (download interrupted)`;
		return {
			error: limits.fail(what, `The connection closed mid-file${code && code !== 'ERR_CANCELED' ? ` (${code})` : ''}; it was fetched ${limits.attempt} time${limits.attempt > 1 ? 's' : ''}.\n${advice(options, url, limits.secrets)}`, { host: source.host }),
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
			const sent = first.length === 0 ? '' : redact(first.toString('utf8'), limits.secrets).slice(0, SHOWN_CHARS);
			const label = notMediaLabel(first, contentType);
			return {
				error: limits.fail(
					`${cap(source.who)} sent ${label} instead of ${limits.kind === 'video' ? 'a video' : 'an image'} for ${shown(url, limits.secrets)} (HTTP ${response.status}${contentType ? `, Content-Type ${contentType}` : ''}): not the result, nothing was stored`,
					[`First bytes: ${sent ? JSON.stringify(sent) : '(none)'}`, advice(options, url, limits.secrets)].join('\n'),
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
		if (ended) return { binary: await ctx.helpers.prepareBinaryData(first, fileName, media) };
		const rest = async function* () {
			yield first;
			for (let chunk = await next(); chunk; chunk = await next()) yield chunk;
		};
		const body = readableFrom(stream, rest());
		if (!body) {
			const chunks: Buffer[] = [first];
			for (let chunk = await next(); chunk; chunk = await next()) chunks.push(chunk);
			return { binary: await ctx.helpers.prepareBinaryData(Buffer.concat(chunks), fileName, media) };
		}
		return { binary: await ctx.helpers.prepareBinaryData(body as unknown as Buffer, fileName, media) };
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
	if (!media) throw fail('The gateway\'s inline result (base64) is not an image or a video', `It decodes to ${describeBytes(bytes.length)} starting with ${JSON.stringify(redact(bytes.subarray(0, 4096).toString('utf8'), secrets).slice(0, 40))}.`);
	if (bytes.length > maxBytes) throw fail(`The gateway's inline result is larger than the limit of ${describeBytes(maxBytes)}`, 'Raise Options → Max File Size (MB).');
	return await ctx.helpers.prepareBinaryData(bytes as Buffer, `${options.baseName}.${EXTENSIONS[media] ?? 'bin'}`, media);
}

function downloadError(
	ctx: IExecuteFunctions | IPollFunctions,
	url: string,
	options: DownloadOptions,
	secrets: string[],
	message: string,
	description: string,
	facts: IDataObject,
): DownloadError {
	const error = new DownloadError(ctx.getNode(), redact(message, secrets), { itemIndex: options.itemIndex, description: redact(description, secrets) });
	// n8n swaps a message that names a network code (ECONNRESET…) for a generic text; ours says who failed.
	error.message = redact(message, secrets);
	// An inline (data:) result is named, not copied: its base64 would fill errors, logs and items.
	error.url = shownUrl(redact(url, secrets));
	Object.assign(error.context, facts, { url: error.url, downloadFailed: true });
	if (options.receipt?.taskId) error.context.taskId = options.receipt.taskId;
	return error;
}

function stopped(ctx: IExecuteFunctions | IPollFunctions, url: string, options: DownloadOptions, secrets: string[]): DownloadError {
	const error = new DownloadError(ctx.getNode(), 'The execution was stopped', {
		itemIndex: options.itemIndex,
		description: redact(`The download of ${url} was cancelled because the workflow was stopped.\n${advice(options, url, secrets)}`, secrets),
	});
	// An inline (data:) result is named, not copied: its base64 would fill errors, logs and items.
	error.url = shownUrl(redact(url, secrets));
	Object.assign(error.context, { url: error.url, downloadFailed: true, stopped: true });
	return error;
}

/** What to do next: a sync result is fetched again by its URL; a task's with Task → Download Result. */
function advice(options: DownloadOptions, url: string, secrets: string[]): string {
	const expiry = options.receipt?.expiresAt ? ` (the gateway says it expires at ${options.receipt.expiresAt})` : ' (result URLs are temporary)';
	if (options.receipt?.taskId) {
		return `Task ${options.receipt.taskId} finished and was paid for: download its result again with Task → Download Result soon${expiry}. Do not submit it again.`;
	}
	if (/^https?:/i.test(url)) {
		return `This result was created and paid for and has no task ID: fetch this URL again before it expires${expiry}, e.g. with an HTTP Request node: ${redact(url, secrets)}\nDo not run the item again (that is a new charge).`;
	}
	return 'This result was created and paid for; do not run the item again (that is a new charge).';
}

function deadlineWords(url: string, options: DownloadOptions, received: number, secrets: string[]): [string, string] {
	const name = options.deadlineName ?? 'Max Wait';
	return [
		`The download of ${redact(url, secrets)} did not finish within ${name} (${describeBytes(received)} received)`,
		`The file host sends too slowly to finish in time. Raise ${name}, or fetch the file later.\n${advice(options, url, secrets)}`,
	];
}

function tooLarge(url: string, kind: 'image' | 'video', maxBytes: number, secrets: string[], what: string, options: DownloadOptions): [string, string] {
	return [
		`The result ${redact(url, secrets)} is larger than the limit of ${describeBytes(maxBytes)} for ${kind === 'video' ? 'videos' : 'images'} (${what})`,
		`Nothing was stored. If the file is expected to be that large, raise Options → Max File Size (MB).\n${advice(options, url, secrets)}`,
	];
}

function describeSource(url: string, gatewayOrigins: ReadonlySet<string>): Attempt {
	const origin = originOf(url) ?? '';
	const host = origin.replace(/^https?:\/\//, '') || 'an unknown host';
	const fromGateway = gatewayOrigins.has(origin);
	return { host, fromGateway, who: fromGateway ? `the gateway (${host})` : `the file host ${host}` };
}

function shown(url: string, secrets: string[]): string {
	return redact(url, secrets);
}

function cap(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

function header(response: GatewayResponse<unknown>, name: string): string | undefined {
	const value = response.headers[name];
	return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

function shownLocation(response: GatewayResponse<unknown>, source: Attempt, secrets: string[]): string {
	const location = header(response, 'location');
	return location ? redact(location, secrets) : source.host;
}

function textOf(body: unknown, secrets: string[]): string {
	const text = typeof body === 'string' ? body : body === undefined || body === null ? '' : JSON.stringify(body);
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
	return contentType?.startsWith('text/') || isPrintableAscii(text.slice(0, 64)) ? 'text' : 'bytes of an unknown kind';
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
function fileNameOf(response: GatewayResponse<unknown>, url: string, options: DownloadOptions, media: string): string {
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
	return extension && MIME_BY_EXTENSION[extension] === media ? name : `${name.replace(/\.[a-z0-9]{2,5}$/i, '')}.${EXTENSIONS[media] ?? 'bin'}`;
}
