/**
 * The one retry policy. Idempotent reads (queries, balance, models, downloads) are retried;
 * a POST only after an answer that says it was not processed (a 429, the relay's overload guard:
 * see RATE_LIMIT), never after anything else that may have run.
 */
export const RETRY = {
	maxAttempts: 5,
	baseDelayMs: 500,
	maxDelayMs: 8_000,
	/** Total time one request may spend waiting between attempts. */
	budgetMs: 60_000,
	/** A Retry-After longer than this is not waited for: the error is reported instead. */
	maxRetryAfterMs: 60_000,
};

/**
 * A POST answered 429, or refused by the relay's overload guard (created.ts refusedBeforeBilling),
 * was not processed, so it is the one POST sent again: paced by
 * Retry-After (or backoff with jitter) and the node run's pacer, within this total time per request.
 */
export const RATE_LIMIT = {
	maxAttempts: 40,
	budgetMs: 120_000,
};

const RETRYABLE_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);

const RETRYABLE_NETWORK = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'EPIPE',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EAI_AGAIN',
	'ERR_BAD_RESPONSE',
	'ERR_NETWORK',
	'UND_ERR_SOCKET',
]);

export function isRetryableStatus(status: number): boolean {
	return RETRYABLE_STATUS.has(status);
}

export function isRetryableNetworkCode(code: string | undefined): boolean {
	return code !== undefined && RETRYABLE_NETWORK.has(code);
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: unknown, now = Date.now()): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const text = String(Array.isArray(value) ? value[0] : value).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

/** Exponential backoff with full jitter, so many items retrying do not hit the gateway in step. */
export function backoffDelay(attempt: number, random = Math.random): number {
	const ceiling = Math.min(RETRY.maxDelayMs, RETRY.baseDelayMs * 2 ** attempt);
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
