import type { ErrorFacts } from '../UnifiedAiGateway/transport/errors';

/** The OpenAI client's error (openai 6 behind @langchain/openai), as far as the SDK lets it be seen. */
interface ClientError {
	status?: unknown;
	error?: unknown;
	message?: unknown;
	name?: unknown;
	code?: unknown;
	cause?: unknown;
}

/** What @langchain/openai appends to the message of a 401, 404 or 429. */
const TROUBLESHOOTING = /\n+Troubleshooting URL:[\s\S]*$/;

/** A network code (ECONNREFUSED…) on the error or its causes: undici's fetch nests it twice. */
function networkCodeIn(error: unknown, depth = 0): string | undefined {
	if (!error || typeof error !== 'object' || depth > 3) return undefined;
	const { code, cause } = error as ClientError;
	if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
	return networkCodeIn(cause, depth + 1);
}

/**
 * The facts of a failed chat call for the error table (transport/errorRules.ts). The client keeps
 * only the `error` member of a JSON answer and the text of any other answer (after the status, in
 * its message): a JSON answer without `error` (`{ "success": false, "message": … }`) is lost to it,
 * and the table then has the status alone.
 */
export function factsOfClientError(error: unknown, timeoutMs: number): Omit<ErrorFacts, 'action'> {
	const e = (error && typeof error === 'object' ? error : {}) as ClientError;
	const status = typeof e.status === 'number' ? e.status : undefined;
	if (e.name === 'TimeoutError') return { networkCode: 'ETIMEDOUT', timeoutMs };
	if (status === undefined) return { networkCode: networkCodeIn(e), timeoutMs };
	if (e.error && typeof e.error === 'object') return { status, body: { error: e.error } };
	const text = String(e.message ?? '')
		.replace(TROUBLESHOOTING, '')
		.replace(new RegExp(`^${status} `), '')
		.replace(/^status code \(no body\)$/, '');
	return { status, body: typeof e.error === 'string' ? e.error : text };
}

/** Stop pressed (or the execution cancelled): not the gateway's failure, left to n8n. */
export function isAbort(error: unknown): boolean {
	const e = (error && typeof error === 'object' ? error : {}) as ClientError;
	const message = typeof e.message === 'string' ? e.message : '';
	return (
		e.name === 'AbortError' || message.startsWith('Cancel') || message.startsWith('AbortError')
	);
}
