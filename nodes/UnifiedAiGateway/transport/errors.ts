import type { IDataObject } from 'n8n-workflow';

import type { Created } from './created';
import { isTimeoutCode } from './responses';

/** What we know about a failed call; the message is built from these facts only. */
export interface ErrorFacts {
	/** What the node was doing, as a user would say it: "checking the balance". */
	action: string;
	status?: number;
	body?: unknown;
	networkCode?: string;
	model?: string;
	/** The request creates billed work: a lost answer may still mean a created job. */
	billed?: boolean;
	/** What a low balance cannot pay for, when it is not the request itself: "the video pre-charge". */
	charge?: string;
	timeoutMs?: number;
	/** For billed requests: whether the job may exist (decides the "may have been billed" words). */
	created?: Created;
	/** A redirect we did not follow (a POST sent to another place): its target. */
	unfollowedRedirect?: string;
	/** The origin a followed redirect ended on, when it is not the one we asked. */
	redirectedTo?: string;
	/** A 2xx answer whose body refuses the request (success: false, code >= 400, an error object). */
	refusedWith200?: boolean;
}

export interface ExplainedError {
	message: string;
	description: string;
	code?: string;
}

/** Field names the gateway mentions in its 400 texts, most specific first. */
const KNOWN_FIELDS = [
	'output_compression', 'response_format', 'input_reference', 'aspect_ratio', 'image_size',
	'image_urls', 'mask_url', 'background', 'output_format', 'resolution', 'duration', 'seconds',
	'quality', 'messages', 'metadata', 'images', 'image', 'prompt', 'model', 'size', 'file', 'n',
];

function asObject(value: unknown): IDataObject | undefined {
	return value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : undefined;
}

function looksLikeHtml(text: string): boolean {
	return /^\s*<(!doctype|html|head|body)/i.test(text);
}

/** The gateway's own words, from whichever envelope it used. */
export function gatewayText(body: unknown): string {
	if (typeof body === 'string') {
		if (looksLikeHtml(body)) return '';
		return body.trim().slice(0, 500);
	}
	const root = asObject(body);
	if (!root) return '';
	const error = asObject(root.error);
	const data = asObject(root.data);
	const candidates = [
		error?.message,
		typeof root.error === 'string' ? root.error : undefined,
		root.message,
		root.msg !== 'success' ? root.msg : undefined,
		root.fail_reason,
		data?.fail_reason,
		asObject(data?.error)?.message,
	];
	const found = candidates.find((c) => typeof c === 'string' && c.trim() !== '');
	return found ? String(found).trim() : '';
}

export function gatewayCode(body: unknown): string | undefined {
	const root = asObject(body);
	if (!root) return undefined;
	const error = asObject(root.error);
	const code = error?.code ?? (typeof root.code === 'string' ? root.code : undefined) ?? error?.type;
	return typeof code === 'string' && code !== '' && code !== 'success' ? code : undefined;
}

function fieldNamed(body: unknown, text: string): string | undefined {
	const param = asObject(asObject(body)?.error)?.param;
	if (typeof param === 'string' && param.trim() !== '') return param.trim();
	return KNOWN_FIELDS.find((field) => new RegExp(`(^|[^a-z_])${field}([^a-z_]|$)`, 'i').test(text));
}

function retryAfterNamed(text: string): string | undefined {
	const match = /(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|秒|分钟)\b/i.exec(text);
	if (match) return `${match[1]} ${match[2]}`;
	const iso = /\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?\S*/.exec(text);
	return iso ? iso[0] : undefined;
}

function httpKind(status: number, body: unknown, raw: string): string {
	if (typeof body === 'string' && body.trim() === '') return 'an empty body';
	if (typeof body === 'string' && looksLikeHtml(body)) return 'an HTML page instead of JSON';
	if (typeof body === 'string' && raw === '') return 'a body that is not JSON';
	return `HTTP ${status}`;
}

export function explainGatewayError(facts: ErrorFacts): ExplainedError {
	const { status, body, action } = facts;
	const text = gatewayText(body);
	const code = gatewayCode(body);
	const said = text ? `Gateway said: ${text}` : '';
	const all = `${code ?? ''} ${text}`;
	const describe = (advice: string) =>
		[said, status ? `HTTP status: ${status}${code ? `, code: ${code}` : ''}` : '', advice]
			.filter(Boolean)
			.join('\n');

	if (status === undefined) return explainNetwork(facts);
	if (facts.unfollowedRedirect) {
		return {
			code: `redirect_${status}`,
			message: `The gateway redirected the request to ${originOrUrl(facts.unfollowedRedirect)} (HTTP ${status}) while ${action}; it was not followed`,
			description: describe(
				'A request that creates work is never re-sent to another address by the node. If the gateway moved, put its new address in the credential\'s Base URL.',
			),
		};
	}
	if (facts.redirectedTo && (status === 401 || status === 403)) {
		return {
			code,
			message: `The gateway redirected to ${facts.redirectedTo}, which refused the request (${status}) while ${action}`,
			description: describe(
				'The API key is only sent to the origins of Base URL and Alt Base URL, never to an address a redirect points to. If the gateway now lives there, put that address in the credential.',
			),
		};
	}

	if (/channel_circuit_open/i.test(all)) {
		const when = retryAfterNamed(text);
		return {
			code: 'channel_circuit_open',
			message: `The gateway paused this model's upstream channel after repeated failures while ${action}${when ? `: retry after ${when}` : ': retry after the recovery time the gateway names'}`,
			description: describe('Nothing was created. Run the item again once the recovery time has passed.'),
		};
	}
	const decode = /decode_input_reference_failed_at_index_(\d+)/i.exec(all);
	if (decode || /uploaded file must be an image/i.test(all)) {
		const index = decode ? Number(decode[1]) : undefined;
		return {
			code: decode ? decode[0] : 'invalid_reference_image',
			message:
				index === undefined
					? `The gateway could not read a reference image while ${action}: it must be a JPEG, PNG or WebP image`
					: `The gateway could not read reference image ${index + 1} (index ${index}) while ${action}: it must be a JPEG, PNG or WebP image`,
			description: describe('Replace that image with a real JPEG, PNG or WebP file (at most 20 MB) and run the item again.'),
		};
	}
	if (/insufficient_user_quota|pre_consume_token_quota_failed|quota is not enough|余额不足/i.test(all)) {
		return {
			code: code ?? 'insufficient_user_quota',
			message: facts.charge
				? `Gateway balance too low for ${facts.charge} (${code ?? 'insufficient_user_quota'}) while ${action}`
				: `Your gateway balance is too low for this request (${code ?? 'insufficient_user_quota'}) while ${action}`,
			description: describe('Top up the account or the key\'s quota, or pick a cheaper model. Nothing was retried.'),
		};
	}
	if (/no available channel|model_not_found/i.test(all)) {
		const model = facts.model ? `Model '${facts.model}'` : 'This model';
		return {
			code: code ?? 'model_not_found',
			message: `${model} is not available to this API key's group (No available channel)`,
			description: describe('Pick a model listed by Account → List Models, or ask the gateway admin to add the model to the key\'s group.'),
		};
	}
	if (/do[ _]request[ _]failed/i.test(all)) {
		return {
			code: 'do_request_failed',
			message: `The gateway could not reach its upstream provider while ${action} (do request failed)`,
			description: describe('This is a network failure between the gateway and the provider, not a problem with your input. Try again later.'),
		};
	}
	if (/task_not_exist|task not exist|task not found/i.test(all)) {
		return {
			code: 'task_not_exist',
			message: `The gateway does not know this task while ${action} (task_not_exist)`,
			description: describe('Check the task ID, the query route (a task is only known on the route and host that created it) and that the same API key created it.'),
		};
	}
	if (facts.refusedWith200) {
		return {
			code,
			message: `The gateway refused the request while ${action}${text ? `: ${text}` : ''}`,
			description: describe('The gateway answered HTTP 200 but its body is a refusal: nothing was created. Correct what it names and run the item again.'),
		};
	}
	if (status === 401) {
		return {
			code,
			message: `The gateway rejected the API key (401) while ${action}`,
			description: describe('Check the API Key in the Unified AI Gateway API credential: copy it again from the gateway\'s key page.'),
		};
	}
	if (status === 403) {
		return {
			code,
			message: `The gateway refused the request (403) while ${action}`,
			description: describe('The key may lack permission for this model or route, or the balance may be too low.'),
		};
	}
	if (status === 400 || status === 422) {
		const field = fieldNamed(body, text);
		return {
			code,
			message: field
				? `The gateway rejected the field '${field}' while ${action}${text ? `: ${text}` : ''}`
				: `The gateway rejected the request as invalid while ${action}${text ? `: ${text}` : ''}`,
			description: describe('Correct the parameter it names and run the item again.'),
		};
	}
	if (status === 404) {
		return {
			code,
			message: `The gateway answered 404 Not Found while ${action}`,
			description: describe('Check the Base URL in the credential (for example https://gateway.example.com/v1) and the task ID or route.'),
		};
	}
	if (status === 413) {
		return {
			code,
			message: `The file is too large for the gateway (413) while ${action}`,
			description: describe('Uploads and reference images may be at most 20 MB.'),
		};
	}
	if (status === 429) {
		return {
			code,
			message: `The gateway is rate limiting requests (429) while ${action}`,
			description: describe('Wait a little and run again, or lower the Concurrency option so fewer requests run at once.'),
		};
	}
	if (status === 504) {
		return {
			code,
			message: `The gateway timed out (504) while ${action}`,
			description: describe(
				facts.billed
					? 'Use an async model (for example gpt-image-2-async) or a longer timeout. The job may still have been created: check the account before running the item again.'
					: 'Use an async model or a longer timeout.',
			),
		};
	}
	const kind = httpKind(status, body, text);
	if (kind !== `HTTP ${status}`) {
		return {
			code,
			message: `The gateway answered HTTP ${status} with ${kind} while ${action}`,
			description: describe(
				kind.startsWith('an HTML')
					? 'An HTML page usually means the Base URL points at a website or proxy, not at the gateway API. Check the Base URL (for example https://gateway.example.com/v1).'
					: 'The gateway gave no explanation. Try again later; if it persists, contact the gateway admin.',
			),
		};
	}
	return {
		code,
		message: `The gateway failed (HTTP ${status}) while ${action}${text ? `: ${text}` : ''}`,
		description: describe(
			facts.billed
				? 'The job may or may not have been created: check the account before running the item again.'
				: 'Try again later; if it persists, contact the gateway admin.',
		),
	};
}

function explainNetwork(facts: ErrorFacts): ExplainedError {
	const { action, networkCode, billed, timeoutMs } = facts;
	const timedOut = isTimeoutCode(networkCode);
	const what = timedOut
		? `No answer from the gateway within ${Math.round((timeoutMs ?? 0) / 1000)} s while ${action}`
		: `Could not reach the gateway while ${action} (${networkCode ?? 'connection failed'})`;
	const lost = billed && facts.created !== 'no';
	return {
		code: networkCode,
		message: lost ? `${what}: the job may have been created and billed` : what,
		description: lost
			? 'The request was sent but its answer was lost. The gateway may still run (and bill) the job: check the account\'s task list before running this item again. Our node never resends it by itself.'
			: 'Check the Base URL and that the gateway is reachable from n8n.',
	};
}

function originOrUrl(url: string): string {
	try {
		return new URL(url).origin;
	} catch {
		return url;
	}
}
