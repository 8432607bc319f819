import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { cancelSignalOf, CREDENTIAL_TYPE, type GatewayContext } from './context';
import { abortableSleep } from './sleep';
import { explainGatewayError, type ErrorFacts } from './errors';
import {
	backoffDelay,
	isRetryableNetworkCode,
	isRetryableStatus,
	parseRetryAfter,
	RETRY,
} from './retry';
import { isAbsoluteUrl, originsFrom, type GatewayHost } from './urls';

export const DEFAULT_TIMEOUT_MS = 60_000;
/** Sync image calls hold the connection until the image exists (spec 4.4: at least 300 s). */
export const SYNC_IMAGE_TIMEOUT_MS = 330_000;

export interface GatewayRequest {
	method: IHttpRequestMethods;
	/** `/v1/...` on the chosen host, or an absolute URL on the gateway's own origin. */
	path: string;
	host?: GatewayHost;
	qs?: IDataObject;
	body?: IDataObject | FormData;
	timeoutMs?: number;
	/** What the node was doing, for messages: "submitting the image job". */
	action: string;
	/** The request creates billed work: never retried, and a lost answer is said to maybe exist. */
	billed?: boolean;
	/** What a low balance cannot pay for, for the quota message: "the video pre-charge". */
	charge?: string;
	model?: string;
	/** Answer as a stream (file downloads); error bodies are still read and explained. */
	stream?: boolean;
	itemIndex?: number;
	/** Off for the task engine, which reschedules failed polls itself instead of blocking its loop. */
	retries?: boolean;
	/**
	 * Epoch ms by which this request and its retries are over (a trigger poll's budget): no retry
	 * waits past it and each attempt's timeout shrinks to it.
	 */
	deadlineAt?: number;
}

/** A response body read as a stream (no import of Node's stream module: n8n's lint bans it). */
export type ByteStream = AsyncIterable<Buffer | string> & { destroy(): void; on: (...args: never[]) => unknown };

export interface GatewayResponse<T = unknown> {
	status: number;
	headers: IDataObject;
	body: T;
}

interface FullResponse {
	body: unknown;
	headers: IDataObject;
	statusCode: number;
}

export class GatewayRequestError extends NodeApiError {
	gatewayCode?: string;

	/** Whether asking again later may succeed (429, 5xx, a dropped connection). */
	transient = false;

	retryAfterMs?: number;
}

/** The only way our nodes talk to the gateway. */
export async function gatewayRequest(
	this: GatewayContext,
	req: GatewayRequest,
): Promise<GatewayResponse<IDataObject>> {
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const origins = originsFrom(credentials);
	const host = req.host ?? 'main';
	if (host === 'alt' && !origins.alt) {
		throw new NodeOperationError(
			this.getNode(),
			`${req.model ? `Model '${req.model}' runs` : 'This request runs'} on the alt host, but the credential has no Alt Base URL`,
			{
				description: 'Open the Unified AI Gateway API credential and fill in Alt Base URL (the alt-host image service).',
				itemIndex: req.itemIndex,
			},
		);
	}
	if (!origins.main) {
		throw new NodeOperationError(this.getNode(), 'The credential has no Base URL', {
			description: 'Open the Unified AI Gateway API credential and fill in Base URL, for example https://gateway.example.com/v1.',
			itemIndex: req.itemIndex,
		});
	}
	const url = isAbsoluteUrl(req.path) ? req.path : `${origins[host]}${req.path}`;
	const isForm = typeof FormData !== 'undefined' && req.body instanceof FormData;
	const options: IHttpRequestOptions = {
		method: req.method,
		url,
		qs: req.qs,
		body: req.body as IHttpRequestOptions['body'],
		json: !isForm && !req.stream,
		ignoreHttpStatusErrors: true,
		returnFullResponse: true,
		encoding: req.stream ? 'stream' : undefined,
	};
	const send = async () =>
		(await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, {
			...options,
			timeout: attemptTimeout(req),
		})) as FullResponse;
	return await sendWithRetry<IDataObject>(this, send, req, String(credentials.apiKey ?? ''));
}

/** A file on another origin (result URLs): fetched WITHOUT the gateway's Authorization header. */
export async function fetchExternal(
	this: GatewayContext,
	url: string,
	req: Omit<GatewayRequest, 'path' | 'method' | 'host'>,
): Promise<GatewayResponse<ByteStream>> {
	const send = async () =>
		(await this.helpers.httpRequest({
			method: 'GET',
			url,
			encoding: 'stream',
			timeout: attemptTimeout(req),
			ignoreHttpStatusErrors: true,
			returnFullResponse: true,
			abortSignal: cancelSignalOf(this),
		})) as FullResponse;
	return await sendWithRetry<ByteStream>(this, send, { ...req, method: 'GET', path: url, stream: true }, '');
}

/** The request's own timeout, cut to what is left before its deadline (at least one second). */
function attemptTimeout(req: Pick<GatewayRequest, 'timeoutMs' | 'deadlineAt'>): number {
	const timeout = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	return req.deadlineAt === undefined ? timeout : Math.max(1_000, Math.min(timeout, req.deadlineAt - Date.now()));
}

/** Whether a retry after `delay` still ends before the deadline (with a second for the attempt). */
function retryFits(req: GatewayRequest, delay: number): boolean {
	return req.deadlineAt === undefined || Date.now() + delay + 1_000 <= req.deadlineAt;
}

async function sendWithRetry<T>(
	ctx: GatewayContext,
	send: () => Promise<FullResponse>,
	req: GatewayRequest,
	secret: string,
): Promise<GatewayResponse<T>> {
	const idempotent = req.method === 'GET' && !req.billed && req.retries !== false;
	const signal = cancelSignalOf(ctx);
	const started = Date.now();
	const facts: ErrorFacts = {
		action: req.action,
		model: req.model,
		billed: req.billed,
		charge: req.charge,
		timeoutMs: req.timeoutMs ?? DEFAULT_TIMEOUT_MS,
	};
	for (let attempt = 0; ; attempt++) {
		const canRetry = idempotent && attempt + 1 < RETRY.maxAttempts;
		let response: FullResponse;
		try {
			response = await send();
		} catch (thrown) {
			throwIfStopped(ctx, signal, thrown);
			const networkCode = networkCodeOf(thrown);
			if (canRetry && isRetryableNetworkCode(networkCode)) {
				const delay = backoffDelay(attempt);
				if (Date.now() - started + delay <= RETRY.budgetMs && retryFits(req, delay)) {
					await abortableSleep(delay, signal);
					continue;
				}
			}
			const error = buildError(ctx, { ...facts, networkCode }, req.itemIndex, secret);
			error.transient = isRetryableNetworkCode(networkCode);
			throw error;
		}
		const status = response.statusCode;
		if (status >= 200 && status < 300) {
			const body = req.stream ? response.body : parseBody(response.body);
			if (!req.stream && typeof body === 'string' && body.trim() !== '' && !req.billed) {
				// A 200 HTML page means the Base URL points at a website, not at the API.
				throw buildError(ctx, { ...facts, status: 502, body }, req.itemIndex, secret);
			}
			return { status, headers: response.headers ?? {}, body: body as T };
		}
		const body = req.stream ? await readSmallStream(response.body) : parseBody(response.body);
		const hinted = parseRetryAfter(response.headers?.['retry-after']);
		if (canRetry && isRetryableStatus(status)) {
			const delay = hinted ?? backoffDelay(attempt);
			if (delay <= RETRY.maxRetryAfterMs && Date.now() - started + delay <= RETRY.budgetMs && retryFits(req, delay)) {
				ctx.logger?.debug(`Gateway answered ${status} while ${req.action}; retrying in ${delay} ms`);
				await abortableSleep(delay, signal);
				continue;
			}
		}
		const error = buildError(ctx, { ...facts, status, body }, req.itemIndex, secret);
		error.transient = isRetryableStatus(status);
		error.retryAfterMs = hinted;
		throw error;
	}
}

function parseBody(body: unknown): unknown {
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

async function readSmallStream(stream: unknown, limit = 64 * 1024): Promise<unknown> {
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
function networkCodeOf(error: unknown): string | undefined {
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

function throwIfStopped(ctx: GatewayContext, signal: AbortSignal | undefined, error: unknown): void {
	const code = networkCodeOf(error);
	if (signal?.aborted || code === 'ERR_CANCELED') {
		throw new NodeOperationError(ctx.getNode(), 'The execution was stopped', {
			description: 'A request to the gateway was cancelled because the workflow was stopped.',
		});
	}
}

function redact(text: string, secret: string): string {
	return secret.length >= 4 ? text.split(secret).join('***') : text;
}

function buildError(
	ctx: GatewayContext,
	facts: ErrorFacts,
	itemIndex: number | undefined,
	secret: string,
): GatewayRequestError {
	const explained = explainGatewayError(facts);
	const message = redact(explained.message, secret);
	const description = redact(explained.description, secret);
	const httpCode = facts.status !== undefined ? String(facts.status) : undefined;
	// Built from our own plain facts, never from the HTTP client's error: that one carries
	// the request config, Authorization header included.
	const error = new GatewayRequestError(
		ctx.getNode(),
		{ message, description, ...(httpCode ? { httpCode } : {}) } as JsonObject,
		{ message, description, httpCode, itemIndex },
	);
	// NodeApiError swaps any message that mentions a network code (ECONNREFUSED…) for a generic
	// English text; ours already says what happened and what to do.
	error.message = message;
	error.gatewayCode = explained.code;
	if (explained.code) error.context.gatewayCode = explained.code;
	return error;
}
