import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { RequestBlocked, type Blocked } from './addresses';
import { cancelSignalOf, gatewayCredentials, type GatewayContext } from './context';
import { AT_ONCE_NOTE, CREATED_NOTE, refusedBeforeBilling } from './created';
import { explainGatewayError, gatewayText, type ErrorFacts } from './errors';
import { stopError } from './nodeError';
import { pacerFor } from './pacer';
import {
	ANSWER_LIMITS,
	networkCodeOf,
	parseAnswer,
	readBounded,
	readSmallStream,
	redactBody,
	refusedWithSuccess,
	MAX_ANSWER_DEPTH,
	TooDeep,
	type AnswerKind,
	type BoundedRead,
	type ByteStream,
} from './responses';
import {
	backoffDelay,
	isRetryableNetworkCode,
	isRetryableStatus,
	parseRetryAfter,
	RATE_LIMIT,
	RETRY,
} from './retry';
import { readPastedKey, redact, secretForms } from './secrets';
import { sendFollowingRedirects, type SentResponse } from './send';
import { abortableSleep } from './sleep';
import {
	BASE_URL_FIELDS,
	checkBaseUrl,
	isAbsoluteUrl,
	keyOrigins,
	originOf,
	originsFrom,
	type GatewayHost,
	type GatewayOrigins,
} from './urls';

export type { ByteStream } from './responses';

export const DEFAULT_TIMEOUT_MS = 60_000;
/** Sync image calls hold the connection until the image exists (docs/gateway-contract.md §4.4: at least 300 s). */
export const SYNC_IMAGE_TIMEOUT_MS = 330_000;

export interface GatewayRequest {
	method: IHttpRequestMethods;
	/** `/v1/...` on the chosen host, or an absolute URL (the key goes with it only to the gateway's origins). */
	path: string;
	host?: GatewayHost;
	qs?: IDataObject;
	body?: IDataObject | FormData;
	timeoutMs?: number;
	/** What the node was doing, for messages: "submitting the image job". */
	action: string;
	/**
	 * The request creates billed work: never re-sent unless refused unprocessed (429, the relay's
	 * overload guard), and its errors say created yes/no/unknown.
	 */
	billed?: boolean;
	/**
	 * A billed call answered at once (a chat, a synchronous image, speech, a transcript): no task,
	 * its charge in the relay's usage log; the words of its errors say so (errorRules.ts).
	 */
	answeredAtOnce?: boolean;
	/** What a low balance cannot pay for, for the quota message: "the video pre-charge". */
	charge?: string;
	model?: string;
	/** Answer as a stream (file downloads); error bodies are still read and explained. */
	stream?: boolean;
	/**
	 * What the answer is, for how much of it is read (responses.ts ANSWER_LIMITS; a task read's
	 * kilobytes when not given): more is refused unread, with what the node was doing.
	 */
	answer?: AnswerKind;
	itemIndex?: number;
	/** Off for the task engine, which reschedules failed polls itself instead of blocking its loop. */
	retries?: boolean;
	/**
	 * Epoch ms by which this request and its retries are over (a trigger poll's budget): no retry
	 * waits past it and each attempt's timeout shrinks to it.
	 */
	deadlineAt?: number;
	/**
	 * Answer with whatever status the last hop gave (after the GET retries) instead of an error:
	 * result downloads judge a file host's answer themselves (who failed, what it sent). A non-2xx
	 * answer's body is then its first 64 KB, parsed and redacted, not a stream.
	 */
	anyStatus?: boolean;
}

export interface GatewayResponse<T = unknown> {
	status: number;
	headers: IDataObject;
	body: T;
	/** Where the answer came from, after redirects. */
	url?: string;
}

export class GatewayRequestError extends NodeApiError {
	gatewayCode?: string;

	/** Whether asking again later may succeed (429, 5xx, a dropped connection). */
	transient = false;

	retryAfterMs?: number;

	/** The gateway's own words (redacted), e.g. `Invalid URL (GET /v1/tasks/…)` for a route it lacks. */
	gatewaySaid?: string;

	/** The rule of transport/errorRules.ts that explained it (MODEL_NOT_OFFERED: api/models.ts names other models). */
	rule?: string;

	/** Not sent: the node refused the address, or n8n's SSRF protection blocked it (never asked again). */
	blocked?: Blocked;
}

/** The only way our nodes talk to the gateway. */
export async function gatewayRequest(
	this: GatewayContext,
	req: GatewayRequest,
): Promise<GatewayResponse<IDataObject>> {
	const credential = credentialFacts(await gatewayCredentials(this));
	const origins = checkedOrigins(this, credential, req);
	const host = req.host ?? 'main';
	if (host === 'alt' && !origins.alt) {
		throw refusal(
			this,
			req,
			`${req.model ? `Model '${req.model}' runs` : 'This request runs'} on the ` +
				`alt host, but the credential has no Alt Base URL`,
			'Open the Unified AI Gateway API credential and fill in Alt Base URL (the alt-host image service).',
		);
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
		// A stream of bytes, for every answer: counted as it arrives (and decompresses), so an answer
		// past its limit is refused before it fills memory; decoded by its own charset (GBK…).
		encoding: 'stream',
	};
	return await sendWithRetry<IDataObject>(this, options, req, credential);
}

/**
 * A result file by URL. The key goes with it only when the URL (or a redirect hop) is on the
 * origin of Base URL or Alt Base URL: a gateway's own `…/content` route needs it, a storage host
 * must never see it.
 */
export async function fetchResultFile(
	this: GatewayContext,
	url: string,
	req: Omit<GatewayRequest, 'path' | 'method' | 'host' | 'stream' | 'anyStatus'>,
): Promise<GatewayResponse<ByteStream>> {
	return (await gatewayRequest.call(this, {
		...req,
		method: 'GET',
		path: url,
		stream: true,
		anyStatus: true,
	})) as unknown as GatewayResponse<ByteStream>;
}

/**
 * What every request reads from the credential: whether its Base URLs and key can be used, where
 * paths go, the only origins the key goes to, the forms of the key to redact. Derived once per
 * credential object, that is once per node run (context.ts gatewayCredentials reads it once), not
 * again for each of its thousands of requests.
 */
interface CredentialFacts {
	/** Why nothing can be sent (a Base URL or the key as pasted), and what to do. */
	problem?: { message: string; description: string };
	origins: GatewayOrigins;
	keyOrigins: ReadonlySet<string>;
	secrets: readonly string[];
}

const factsOfCredential = new WeakMap<ICredentialDataDecryptedObject, CredentialFacts>();

function credentialFacts(credentials: ICredentialDataDecryptedObject): CredentialFacts {
	let facts = factsOfCredential.get(credentials);
	if (!facts) {
		facts = {
			problem: credentialProblem(credentials),
			origins: originsFrom(credentials),
			keyOrigins: keyOrigins(credentials),
			secrets: secretForms(credentials),
		};
		factsOfCredential.set(credentials, facts);
	}
	return facts;
}

function credentialProblem(
	credentials: ICredentialDataDecryptedObject,
): CredentialFacts['problem'] {
	for (const [host, field] of Object.entries(BASE_URL_FIELDS) as Array<[GatewayHost, string]>) {
		const raw = host === 'main' ? credentials.baseUrl : credentials.altBaseUrl;
		const { problem } = checkBaseUrl(raw, field, host === 'main');
		if (problem)
			return {
				message: problem,
				description: `Open the Unified AI Gateway API credential and correct ${field}. Nothing was sent.`,
			};
	}
	// The key as pasted (transport/secrets.ts): a character no gateway key has is named before anything is billed.
	const keyProblem = readPastedKey(credentials.apiKey).problem;
	if (keyProblem)
		return {
			message: `${keyProblem} (in the Unified AI Gateway API credential)`,
			description:
				'Open the Unified AI Gateway API credential and paste the key again. Nothing was sent.',
		};
	return undefined;
}

/**
 * The credential checked as every request checks it, before any is sent: the Chat Model sub-node
 * refuses a Base URL or key the node would refuse when the agent asks for the model, not at its
 * first chat call.
 */
export async function checkCredential(
	ctx: GatewayContext,
	req: Pick<GatewayRequest, 'action' | 'model' | 'itemIndex' | 'path' | 'billed'>,
): Promise<void> {
	checkedOrigins(ctx, credentialFacts(await gatewayCredentials(ctx)), { ...req, method: 'POST' });
}

function checkedOrigins(ctx: GatewayContext, credential: CredentialFacts, req: GatewayRequest) {
	const { problem } = credential;
	if (problem) throw refusal(ctx, req, problem.message, problem.description);
	return credential.origins;
}

/** An error for a request refused before it left this machine. */
function refusal(
	ctx: GatewayContext,
	req: GatewayRequest,
	message: string,
	description: string,
): NodeOperationError {
	const error = new NodeOperationError(
		ctx.getNode(),
		req.billed ? `${message}${CREATED_NOTE.no.suffix}` : message,
		{
			description,
			itemIndex: req.itemIndex,
		},
	);
	if (req.billed) error.context.created = 'no';
	return error;
}

/** The request's own timeout, cut to what is left before its deadline (at least one second). */
function attemptTimeout(req: Pick<GatewayRequest, 'timeoutMs' | 'deadlineAt'>): number {
	const timeout = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	return req.deadlineAt === undefined
		? timeout
		: Math.max(1_000, Math.min(timeout, req.deadlineAt - Date.now()));
}

/** Whether a retry after `delay` still ends before the deadline (with a second for the attempt). */
function retryFits(req: GatewayRequest, delay: number): boolean {
	return req.deadlineAt === undefined || Date.now() + delay + 1_000 <= req.deadlineAt;
}

/** The runs (their contexts) in which a billed call was answered with the credential's key. */
const keysThatWorked = new WeakSet<object>();

/** Whether the key was accepted for a billed call earlier in this node run. */
export function keyWorkedThisRun(ctx: GatewayContext): boolean {
	return keysThatWorked.has(ctx);
}

async function sendWithRetry<T>(
	ctx: GatewayContext,
	options: IHttpRequestOptions,
	req: GatewayRequest,
	{ keyOrigins: origins, secrets }: CredentialFacts,
): Promise<GatewayResponse<T>> {
	const idempotent = req.method === 'GET' && !req.billed && req.retries !== false;
	const pacer = req.method === 'POST' ? pacerFor(ctx) : undefined;
	const signal = cancelSignalOf(ctx);
	const started = Date.now();
	const facts: ErrorFacts = {
		action: req.action,
		model: req.model,
		billed: req.billed,
		...(req.answeredAtOnce ? { answeredAtOnce: true } : {}),
		charge: req.charge,
		timeoutMs: req.timeoutMs ?? DEFAULT_TIMEOUT_MS,
	};
	// Answers refused unprocessed (429, overload) so far: what a give-up says it tried.
	let limited = 0;
	for (let attempt = 0, limitedAttempt = 0; ; attempt++) {
		const canRetry = idempotent && attempt + 1 < RETRY.maxAttempts;
		const ticket = pacer ? await pacer.acquire(ctx) : undefined;
		let response: SentResponse;
		// A 2xx answer's bytes, read within the limit of its kind (a broken-off read is retried as a drop).
		let read: BoundedRead | undefined;
		try {
			response = await sendFollowingRedirects(
				ctx,
				{ ...options, timeout: attemptTimeout(req) },
				origins,
			);
			if (!req.stream && response.statusCode >= 200 && response.statusCode < 300)
				read = await readBounded(response.body, ANSWER_LIMITS[req.answer ?? 'task']);
		} catch (thrown) {
			throwIfStopped(ctx, signal, thrown, req.itemIndex);
			if (thrown instanceof RequestBlocked) {
				// Not sent, by the node's address rule or by n8n's SSRF protection: the same every time.
				const error = buildError(ctx, { ...facts, blocked: thrown.blocked }, req, secrets);
				error.blocked = thrown.blocked;
				throw error;
			}
			const networkCode = networkCodeOf(thrown);
			if (canRetry && isRetryableNetworkCode(networkCode)) {
				const delay = backoffDelay(attempt);
				if (Date.now() - started + delay <= RETRY.budgetMs && retryFits(req, delay)) {
					await abortableSleep(delay, ctx, req.itemIndex);
					continue;
				}
			}
			const error = buildError(ctx, { ...facts, networkCode }, req, secrets);
			error.transient = isRetryableNetworkCode(networkCode);
			throw error;
		}
		const status = response.statusCode;
		if (status >= 200 && status < 300) {
			pacer?.succeeded();
			// A billed call answered with the key: a 401 later in this run is no wrong key (api/keyState.ts).
			if (req.billed) keysThatWorked.add(ctx);
			// What the gateway says is read within its limit, and redacted before anything can copy it
			// into an item, a message or a log.
			const body = req.stream
				? response.body
				: redactBody(answerOf(ctx, req, response, read, facts, secrets), secrets);
			if (!req.stream && typeof body === 'string' && body.trim() !== '' && !req.billed) {
				// A 200 HTML page means the Base URL points at a website, not at the API.
				throw buildError(ctx, { ...facts, status: 502, body }, req, secrets);
			}
			if (req.billed && refusedWithSuccess(body)) {
				throw buildError(ctx, { ...facts, status, body, refusedWith200: true }, req, secrets);
			}
			return { status, headers: response.headers ?? {}, body: body as T, url: response.url };
		}
		// Its first 64 KB: enough to explain it (a body a redirect left unread reads as nothing).
		const body = await readSmallStream(response.body, response.headers).catch(() => '');
		const hinted = parseRetryAfter(response.headers?.['retry-after']);
		// Not processed: a 429, or the relay's overload guard (created.ts refusedBeforeBilling), which
		// answers before the key is checked. The only answers after which a POST may be sent again; an
		// overloaded relay is given room the same way, by the run's pacer.
		if ((status === 429 || refusedBeforeBilling(status, body)) && pacer && ticket) {
			pacer.limited(ticket, hinted);
			limited++;
			const delay = hinted ?? backoffDelay(limitedAttempt++);
			if (
				delay <= RETRY.maxRetryAfterMs &&
				Date.now() - started + delay <= RATE_LIMIT.budgetMs &&
				limited < RATE_LIMIT.maxAttempts &&
				retryFits(req, delay)
			) {
				ctx.logger?.debug(
					`Gateway answered ${status} while ${req.action}; sending again in ${delay} ms`,
				);
				await abortableSleep(delay, ctx, req.itemIndex);
				continue;
			}
		}
		if (canRetry && isRetryableStatus(status)) {
			const delay = hinted ?? backoffDelay(attempt);
			if (
				delay <= RETRY.maxRetryAfterMs &&
				Date.now() - started + delay <= RETRY.budgetMs &&
				retryFits(req, delay)
			) {
				ctx.logger?.debug(
					`Gateway answered ${status} while ${req.action}; retrying in ${delay} ms`,
				);
				await abortableSleep(delay, ctx, req.itemIndex);
				continue;
			}
		}
		// Its first 64 KB, redacted: a download names what the host sent instead of the file.
		if (req.anyStatus)
			return {
				status,
				headers: response.headers ?? {},
				body: redactBody(body, secrets) as T,
				url: response.url,
			};
		// Worked out for an error only: two URL parses on every answer otherwise.
		const redirectedTo =
			originOf(response.url) !== originOf(String(options.url)) ? originOf(response.url) : undefined;
		// A refusal given up on after sending again: how often and how long, for its words.
		const limitedTries =
			limited > 1 ? { sends: limited, waitedMs: Date.now() - started } : undefined;
		const error = buildError(
			ctx,
			{
				...facts,
				status,
				body,
				redirectedTo,
				unfollowedRedirect: response.unfollowedRedirect,
				...(limitedTries ? { limitedTries } : {}),
			},
			req,
			secrets,
		);
		error.transient = isRetryableStatus(status);
		error.retryAfterMs = hinted;
		throw error;
	}
}

/**
 * The error for an answer the layer above found unusable (a task read naming another task): made
 * by the rules table like every gateway error, redacted, read by the fault policy as a bad read.
 */
export async function answerError(
	ctx: GatewayContext,
	facts: ErrorFacts,
	itemIndex: number | undefined,
): Promise<GatewayRequestError> {
	const { secrets } = credentialFacts(await gatewayCredentials(ctx));
	return buildError(
		ctx,
		facts,
		{ method: 'GET', path: '', action: facts.action, itemIndex },
		secrets,
	);
}

/**
 * A 2xx answer as the node reads it: parsed, unless more arrived than its kind's limit or it nests
 * past MAX_ANSWER_DEPTH; then the error that says so, naming what the node was doing (the task).
 */
function answerOf(
	ctx: GatewayContext,
	req: GatewayRequest,
	response: SentResponse,
	read: BoundedRead | undefined,
	facts: ErrorFacts,
	secrets: readonly string[],
): unknown {
	const status = response.statusCode;
	const limit = ANSWER_LIMITS[req.answer ?? 'task'];
	if (!read || read.over)
		throw buildError(
			ctx,
			{ ...facts, status, refusedAnswer: { limit, received: read?.received ?? limit + 1 } },
			req,
			secrets,
		);
	const body = parseAnswer(read.bytes, response.headers);
	if (body instanceof TooDeep)
		throw buildError(
			ctx,
			{ ...facts, status, refusedAnswer: { depth: MAX_ANSWER_DEPTH, received: read.received } },
			req,
			secrets,
		);
	return body;
}

function throwIfStopped(
	ctx: GatewayContext,
	signal: AbortSignal | undefined,
	error: unknown,
	itemIndex: number | undefined,
): void {
	const code = networkCodeOf(error);
	if (signal?.aborted || code === 'ERR_CANCELED')
		throw stopError(ctx.getNode(), 'A request to the gateway', { itemIndex });
}

function buildError(
	ctx: GatewayContext,
	facts: ErrorFacts,
	req: GatewayRequest,
	secrets: readonly string[],
): GatewayRequestError {
	const explained = explainGatewayError(facts);
	const created = explained.created;
	const note = created ? (req.answeredAtOnce ? AT_ONCE_NOTE : CREATED_NOTE)[created] : undefined;
	const message = redact(`${explained.message}${note?.suffix ?? ''}`, secrets);
	const description = redact(
		[explained.description, note?.advice].filter(Boolean).join('\n'),
		secrets,
	);
	const httpCode = facts.status !== undefined ? String(facts.status) : undefined;
	// Built from our own plain facts, never from the HTTP client's error: that one carries
	// the request config, Authorization header included.
	const error = new GatewayRequestError(
		ctx.getNode(),
		{ message, description, ...(httpCode ? { httpCode } : {}) } as JsonObject,
		{ message, description, httpCode, itemIndex: req.itemIndex },
	);
	// NodeApiError swaps any message that mentions a network code (ECONNREFUSED…) for a generic
	// English text; ours already says what happened and what to do.
	error.message = message;
	error.gatewayCode = explained.code;
	error.rule = explained.rule;
	const said = gatewayText(facts.body);
	if (said) error.gatewaySaid = redact(said, secrets);
	if (explained.code) error.context.gatewayCode = explained.code;
	// For billed requests: whether the job may exist (submitAnswer.ts createdOf reads it).
	if (created) error.context.created = created;
	return error;
}
