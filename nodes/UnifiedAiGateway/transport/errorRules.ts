import { relayWords } from './relayWords';
import {
	ADDRESS_KINDS,
	addressKind,
	allowedRangeFor,
	NEVER_ALLOWED,
	type Blocked,
} from './addresses';
import { OVERLOADED_CODE, refusedBeforeBilling, type Created } from './created';
import { asObject, certificateProblem, isTimeoutCode } from './responses';

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
	/** A billed call answered at once (chat, a synchronous image, speech): no task, no task list. */
	answeredAtOnce?: boolean;
	/** A POST refused unprocessed (429, overload) and sent again until the node gave up. */
	limitedTries?: { sends: number; waitedMs: number };
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
	/**
	 * A 2xx answer refused unread: more than `limit` bytes arrived (counted after decompression),
	 * or it nests lists and objects deeper than `depth` (transport/responses.ts ANSWER_LIMITS).
	 */
	refusedAnswer?: { limit?: number; depth?: number; received: number };
	/** Not sent: the node refused the address, or n8n's SSRF protection blocked it (transport/addresses.ts). */
	blocked?: Blocked;
	/** A task read answered with another task's id (api/tasks/query.ts): not this task's state. */
	otherTask?: { asked: string; named: string };
}

/** The facts as the rules read them: the gateway's own words and code already taken from its envelope. */
export interface ReadFacts extends ErrorFacts {
	/** The gateway's message, from whichever envelope it used (errors.ts gatewayText). */
	text: string;
	/** The gateway's code (errors.ts gatewayCode). */
	code?: string;
	/** Code, message and the whole body as text: what codes and fixed words are searched in. */
	all: string;
}

export interface RuleOutput {
	code?: string;
	message: string;
	/** What to do; the description starts with the gateway's words and the status. */
	advice: string;
	/** Replaces the usual description (the gateway's words, status, advice) when the rule has its own. */
	description?: string;
}

/**
 * One row of the gateway-error table: the first rule whose `matches` holds explains the failure.
 * `created` is what the rule knows about a billed request (docs/gateway-contract.md §7); without
 * it the answer's status decides (created.ts createdAfter).
 */
export interface ErrorRule {
	name: string;
	matches: (facts: ReadFacts) => boolean;
	created?: Created;
	explain: (facts: ReadFacts) => RuleOutput;
}

/** The rule a submit refused for its model ends in: api/models.ts adds the models the key can use. */
export const MODEL_NOT_OFFERED = 'model-not-offered';

/** Field names the gateway mentions in its 400 texts, most specific first. */
const KNOWN_FIELDS = [
	'output_compression',
	'response_format',
	'input_reference',
	'aspect_ratio',
	'image_size',
	'image_urls',
	'mask_url',
	'background',
	'output_format',
	'resolution',
	'duration',
	'seconds',
	'quality',
	'messages',
	'metadata',
	'images',
	'image',
	'prompt',
	'model',
	'size',
	'file',
	'n',
];

/**
 * The relay's words (docs/gateway-contract.md §10.10, its sources named there), English and Chinese:
 * matched by code or fixed words, never by the language of the whole message.
 */
const WORDS = {
	tokenQuotaUsedUp: new RegExp(
		[
			'该令牌额度已用尽',
			'令牌可用额度已用尽',
			'TokenStatusExhausted',
			'token quota is exhausted',
			"token's quota has been exhausted",
			'token_quota_exhausted',
		].join('|'),
		'i',
	),
	tokenExpired: /该令牌已过期|该 token 已过期|this token has expired|token has expired/i,
	tokenDisabled: /该令牌状态不可用|this token status is unavailable|token status is not enabled/i,
	quota:
		/insufficient_user_quota|pre_consume_token_quota_failed|quota is not enough|余额不足|额度不足|预扣费额度失败|insufficient quota/i,
	noChannel:
		/no available channel|model_not_found|无可用渠道|model\b.{0,80}\bdoes not exist|has no access to model|无权访问模型/i,
	priceUnset: /model_price_error|ratio or price not set|倍率或价格未配置/i,
	groupDenied: /无权访问\s*\S*\s*分组|分组\s*\S+\s*已被弃用|no permission to access this group/i,
	circuitOpen: /channel_circuit_open/i,
	decodeFailed: /decode_input_reference_failed_at_index_(\d+)/i,
	notAnImage: /uploaded file must be an image/i,
	upstreamFailed: /do[ _]request[ _]failed/i,
	taskUnknown: /task_not_exist|task not exist|task not found/i,
};

export function looksLikeHtml(text: string): boolean {
	return /^\s*<(!doctype|html|head|body)/i.test(text);
}

function fieldNamed(body: unknown, text: string): string | undefined {
	const param = asObject(asObject(body)?.error)?.param;
	if (typeof param === 'string' && param.trim() !== '') return param.trim();
	return KNOWN_FIELDS.find((field) => new RegExp(`(^|[^a-z_])${field}([^a-z_]|$)`, 'i').test(text));
}

function retryAfterNamed(text: string): string | undefined {
	// The unit ends where no letter or digit follows (not `\b`: after 秒 or 分钟, both non-word
	// characters, a `\b` needs a letter next, so "30秒后" was never read).
	const match =
		/(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|秒|分钟)(?!\w)/i.exec(
			text,
		);
	// In English whatever the relay's language: "30 秒" is 30 s, "2 分钟" 2 min.
	if (match)
		return `${match[1]} ${({ 秒: 's', 分钟: 'min' } as Record<string, string>)[match[2]] ?? match[2]}`;
	// The date and time, with its seconds and zone where named, not the comma or full stop after them.
	const iso =
		/\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|\s?[+-]\d{2}:?\d{2})?/i.exec(text);
	return iso ? iso[0] : undefined;
}

function httpKind(status: number, body: unknown, raw: string): string {
	if (typeof body === 'string' && body.trim() === '') return 'an empty body';
	if (typeof body === 'string' && looksLikeHtml(body)) return 'an HTML page instead of JSON';
	if (typeof body === 'string' && raw === '') return 'a body that is not JSON';
	return `HTTP ${status}`;
}

/** The model and key group a "no channel" text names (English or Chinese), when it names them. */
function unavailableModel(f: ReadFacts): { model?: string; group?: string } {
	const text = f.text;
	const english = /model\s+[`'"]?([^\s`'"]+?)[`'"]?\s+under group\s+([^\s(]+)/i.exec(text);
	const chinese = /分组\s*(\S+?)\s*下(?:对于)?模型\s*(\S+?)\s*(?:的可用渠道|无可用渠道)/.exec(text);
	const other = /(?:model|模型)\s+[`'"]?([^\s`'"]+?)[`'"]?(?:\s+does not exist|\s*$)/i.exec(text);
	return {
		model: f.model ?? english?.[1] ?? chinese?.[2] ?? other?.[1],
		group: english?.[2] ?? chinese?.[1],
	};
}

function lostJob(f: ReadFacts): boolean {
	return Boolean(f.billed && f.created !== 'no');
}

function originOrUrl(url: string): string {
	try {
		return new URL(url).origin;
	} catch {
		return url;
	}
}

/** A row for an HTTP status alone: what the node says (the action appended) and what to do. */
function statusRule(name: string, status: number, says: string, advice: string): ErrorRule {
	return {
		name,
		matches: (f) => f.status === status,
		explain: (f) => ({ code: f.code, message: `${says} while ${f.action}`, advice }),
	};
}

/** A row for fixed words of the gateway (any status, named when there is one). */
function wordsRule(
	name: string,
	words: RegExp,
	says: string,
	advice: string,
	known: { created?: Created; code?: string } = {},
): ErrorRule {
	return {
		name,
		matches: (f) => words.test(f.all),
		created: known.created,
		explain: (f) => ({
			code: f.code ?? known.code,
			message: `${says}${f.status ? ` (${f.status})` : ''} while ${f.action}`,
			advice,
		}),
	};
}

/** A byte count as a limit is named: "1 MB", "64 KB". */
function sizeWords(bytes: number): string {
	return bytes >= 1024 * 1024
		? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`
		: `${Math.round(bytes / 1024)} KB`;
}

/** A URL's host without its port and IPv6 brackets: `[::1]:80` → `::1`. */
function hostName(host: string): string {
	return host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
}

/**
 * What lifts a block: n8n's SSRF settings (n8n 2.x follows them for this node whether or not its
 * protection is on; 1.x has none). Shared by the gateway's requests and result downloads
 * (engine/files/downloadWords.ts).
 */
export function allowWords(blocked: Blocked): string {
	if (blocked.by === 'node' && blocked.kind && NEVER_ALLOWED.has(blocked.kind))
		return (
			'No n8n setting allows it: 0.0.0.0 and :: are no host of their own, and a link there ' +
			"reaches n8n's own host. The gateway's admin can set its server address so that its " +
			'links name the real host.'
		);
	const range = allowedRangeFor(blocked);
	const name = hostName(blocked.host);
	// Neither read off the block (no address known, and a host that is digits but no address):
	// the two settings named without a value rather than an empty "with  and".
	const settings =
		[
			range ? `N8N_SSRF_ALLOWED_IP_RANGES=${range}` : '',
			addressKind(name) || /^[\d.]+$|:/.test(name) ? '' : `N8N_SSRF_ALLOWED_HOSTNAMES=${name}`,
		]
			.filter(Boolean)
			.join(' or ') ||
		'N8N_SSRF_ALLOWED_IP_RANGES (its address range) or N8N_SSRF_ALLOWED_HOSTNAMES (its host name)';
	if (blocked.by === 'n8n')
		return (
			`If that host is yours (a gateway or file store on your network), allow ` +
			`it in n8n's environment with ${settings} and restart n8n.`
		);
	return blocked.settings
		? `If that address is really yours, allow it in n8n's environment with ${settings} ` +
				`and restart n8n: this node follows n8n's SSRF settings whether or not ` +
				`N8N_SSRF_PROTECTION_ENABLED is on.`
		: 'n8n 1.x has no SSRF settings to allow it: only a gateway whose Base URL ' +
				'is on the same kind of address may send n8n there (on n8n 2.x, ' +
				'N8N_SSRF_ALLOWED_IP_RANGES / N8N_SSRF_ALLOWED_HOSTNAMES allow it).';
}

/** Why a request was not sent, in words: "http://[::]:80/x is the unspecified address (…)". */
export function blockedWords(blocked: Blocked): string {
	const where = blocked.redirectedFrom ? `, where ${blocked.redirectedFrom} redirected,` : '';
	if (blocked.by === 'n8n') {
		const why = blocked.address
			? `${blocked.host} resolves to the restricted address ${blocked.address}`
			: `${blocked.host} is a restricted host`;
		return `n8n's SSRF protection blocked ${blocked.url}${where} before it was sent: ${why}`;
	}
	const address =
		blocked.address && blocked.address !== hostName(blocked.host) ? ` (${blocked.address})` : '';
	return (
		`${blocked.url}${where} points at ${blocked.host}${address}, ${ADDRESS_KINDS[blocked.kind ?? 'loopback']}: ` +
		`the node does not send n8n there on a gateway's word`
	);
}

const CERTIFICATE_FIXES =
	"Either trust the certificate's authority on the n8n host (put its CA " +
	"file in NODE_EXTRA_CA_CERTS=/path/to/ca.pem in n8n's environment and " +
	'restart n8n), or turn on Ignore SSL Issues (Insecure) in the Unified AI ' +
	'Gateway API credential (it applies to Base URL and Alt Base URL only; ' +
	'the key then goes to a server whose identity is not checked).';

/**
 * The gateway-error table, in order: the first rule that matches explains the failure. Adding a
 * gateway code is adding one row here (and its test row in test/gateway-errors.test.js).
 */
export const GATEWAY_ERROR_RULES: readonly ErrorRule[] = [
	{
		name: 'request-blocked',
		matches: (f) => f.blocked !== undefined,
		created: 'no',
		explain: (f) => {
			const blocked = f.blocked!;
			return {
				code: blocked.by === 'n8n' ? 'ssrf_blocked' : 'address_refused',
				message: `${blockedWords(blocked)} (while ${f.action})`,
				advice: '',
				description: [
					'Nothing was sent, so nothing was asked again: the same request is refused the same way.',
					allowWords(blocked),
					blocked.by === 'node'
						? "Otherwise ask the gateway's operator why its answer points there."
						: 'Or, if the gateway itself is on that host, keep its Base URL and allow it as above.',
				].join(' '),
			};
		},
	},
	{
		name: 'answer-refused',
		matches: (f) => f.refusedAnswer !== undefined,
		explain: (f) => {
			const refused = f.refusedAnswer!;
			const what =
				refused.depth !== undefined
					? `nests lists and objects more than ${refused.depth} levels deep`
					: `was larger than ${sizeWords(refused.limit ?? 0)} (more arrived, counted after decompression)`;
			return {
				code: refused.depth !== undefined ? 'answer_too_deep' : 'answer_too_large',
				message: `The gateway's answer ${what} while ${f.action}: refused unread`,
				advice: '',
				description:
					`HTTP status: ${f.status}. No answer of this kind comes near that: the ` +
					`gateway, or a proxy in front of it, sent something else (a compressed or ` +
					`deeply nested bomb, another route's answer). None of it was kept.`,
			};
		},
	},
	{
		name: 'another-task',
		matches: (f) => f.otherTask !== undefined,
		explain: (f) => ({
			code: 'another_task',
			message:
				`The gateway answered the read of task ${f.otherTask!.asked} with another ` +
				`task, ${f.otherTask!.named}: not taken as the state of ${f.otherTask!.asked}`,
			advice: '',
			description:
				`Task ${f.otherTask!.asked} is yours; the answer named ${f.otherTask!.named} ` +
				`and no id of yours, so neither its status nor its files count for ${f.otherTask!.asked}. ` +
				`The task is read again; if the gateway keeps answering so, ask its ` +
				`operator (a cache or a proxy in front of it may mix answers up). Do not ` +
				`submit ${f.otherTask!.asked} again: it may still be running or finished.`,
		}),
	},
	{
		name: 'certificate-refused',
		matches: (f) => f.status === undefined && certificateProblem(f.networkCode) !== undefined,
		created: 'no',
		explain: (f) => {
			const hostName =
				f.networkCode === 'ERR_TLS_CERT_ALTNAME_INVALID' || f.networkCode === 'HOSTNAME_MISMATCH';
			return {
				code: f.networkCode,
				message:
					`The gateway's TLS certificate was refused while ${f.action}: ${certificateProblem(f.networkCode)} ` +
					`(${f.networkCode})`,
				advice: '',
				description: [
					'n8n reached the gateway but did not trust its certificate, so nothing was sent.',
					hostName
						? "If the certificate names another host name, put that name in the credential's Base URL."
						: '',
					CERTIFICATE_FIXES,
				]
					.filter(Boolean)
					.join(' '),
			};
		},
	},
	{
		name: 'no-answer-in-time',
		matches: (f) => f.status === undefined && isTimeoutCode(f.networkCode),
		explain: (f) => {
			const what = `No answer from the gateway within ${Math.round((f.timeoutMs ?? 0) / 1000)} s while ${f.action}`;
			return networkOutput(f, what);
		},
	},
	{
		name: 'unreachable',
		matches: (f) => f.status === undefined,
		explain: (f) =>
			networkOutput(
				f,
				`Could not reach the gateway while ${f.action} (${f.networkCode ?? 'connection failed'})`,
			),
	},
	{
		name: 'redirect-not-followed',
		matches: (f) => Boolean(f.unfollowedRedirect),
		explain: (f) => ({
			code: `redirect_${f.status}`,
			message:
				`The gateway redirected the request to ${originOrUrl(f.unfollowedRedirect ?? '')} ` +
				`(HTTP ${f.status}) while ${f.action}; it was not followed`,
			advice:
				'A request that creates work is never re-sent to another address by the ' +
				"node. If the gateway moved, put its new address in the credential's Base " +
				'URL.',
		}),
	},
	{
		name: 'redirect-refused',
		matches: (f) => Boolean(f.redirectedTo) && (f.status === 401 || f.status === 403),
		explain: (f) => ({
			code: f.code,
			message: `The gateway redirected to ${f.redirectedTo}, which refused the request (${f.status}) while ${f.action}`,
			advice:
				'The API key is only sent to the origins of Base URL and Alt Base URL, ' +
				'never to an address a redirect points to. If the gateway now lives ' +
				'there, put that address in the credential.',
		}),
	},
	{
		// Ahead of every 5xx rule: this 503 is the one whose source shows nothing was billed.
		name: 'gateway-overloaded',
		matches: (f) => refusedBeforeBilling(f.status, f.body),
		created: 'no',
		explain: (f) => {
			// The code the guard names (errors.ts gatewayCode reads it where the predicate did).
			const named = OVERLOADED_CODE.exec(f.code ?? '')?.[1] ?? 'load';
			const resource = named === 'cpu' ? 'CPU' : named;
			return {
				code: f.code,
				message:
					`The gateway is overloaded (its ${resource} use is above its limit) and refused the ` +
					`request before billing it (503) while ${f.action}${triedWords(f)}`,
				advice:
					"Nothing was charged: the relay's overload guard answers before it checks the key " +
					'or asks any provider. The node already waited and sent it again while the ' +
					"run's time allowed. Run the item again later, or lower the Concurrency option " +
					'so fewer requests run at once.',
			};
		},
	},
	{
		name: 'channel-circuit-open',
		matches: (f) => WORDS.circuitOpen.test(f.all),
		created: 'no',
		explain: (f) => {
			const when = retryAfterNamed(f.text);
			return {
				code: 'channel_circuit_open',
				message:
					`The gateway paused this model's upstream channel after repeated failures ` +
					`while ${f.action}${when ? `: retry after ${when}` : ': retry after the recovery time the gateway names'}`,
				advice: 'Nothing was created. Run the item again once the recovery time has passed.',
			};
		},
	},
	{
		name: 'reference-image-unreadable',
		matches: (f) => WORDS.decodeFailed.test(f.all) || WORDS.notAnImage.test(f.all),
		explain: (f) => {
			const decode = WORDS.decodeFailed.exec(f.all);
			const index = decode ? Number(decode[1]) : undefined;
			return {
				code: decode ? decode[0] : 'invalid_reference_image',
				message:
					index === undefined
						? `The gateway could not read a reference image while ${f.action}: it must be a JPEG, PNG or WebP image`
						: `The gateway could not read reference image ${index + 1} (index ${index}) ` +
							`while ${f.action}: it must be a JPEG, PNG or WebP image`,
				advice:
					'Replace that image with a real JPEG, PNG or WebP file (at most 20 MB) and run the item again.',
			};
		},
	},
	wordsRule(
		'key-quota-used-up',
		WORDS.tokenQuotaUsedUp,
		"This API key's own quota at the gateway is used up",
		'The key is valid, but the spending limit set on this key is reached (the ' +
			"account may still have balance). On the gateway's key page raise the " +
			"key's remaining quota or make it unlimited, or use another key.",
		{ created: 'no', code: 'token_quota_exhausted' },
	),

	wordsRule(
		'key-expired',
		WORDS.tokenExpired,
		'This API key has expired at the gateway',
		"On the gateway's key page extend the key's expiry (or set it to never " +
			'expire), or create a new key and put it in the Unified AI Gateway API ' +
			'credential.',
	),

	wordsRule(
		'key-disabled',
		WORDS.tokenDisabled,
		'This API key is disabled at the gateway',
		"Enable the key on the gateway's key page, or put another key in the Unified AI Gateway API credential.",
	),

	{
		name: 'balance-too-low',
		matches: (f) => WORDS.quota.test(f.all),
		created: 'no',
		explain: (f) => ({
			code: f.code ?? 'insufficient_user_quota',
			message: f.charge
				? `Gateway balance too low for ${f.charge} (${f.code ?? 'insufficient_user_quota'}) while ${f.action}`
				: `Your gateway balance is too low for this request (${f.code ?? 'insufficient_user_quota'}) while ${f.action}`,
			advice:
				"Top up the account or the key's quota, or pick a cheaper model. Nothing was retried.",
		}),
	},
	{
		name: MODEL_NOT_OFFERED,
		matches: (f) => WORDS.noChannel.test(f.all),
		created: 'no',
		explain: (f) => {
			const { model, group } = unavailableModel(f);
			const reason = /does not exist/i.test(f.text)
				? 'model does not exist'
				: /no access to model|无权访问模型/i.test(f.text)
					? 'the key may not use it'
					: 'No available channel';
			return {
				code: f.code ?? 'model_not_found',
				message:
					`${model ? `Model '${model}'` : 'This model'} is not available to this ` +
					`API key's group (${reason}): the gateway does not offer it to this key ` +
					`(retired upstream, or not in the key's group${group ? ` '${group}'` : ''})`,
				advice:
					'Models are retired upstream while gateways still list their ids (OpenAI ' +
					'switched Sora 2 off on 2026-09-24). Pick a model listed by Account → ' +
					"List Models, or ask the gateway admin to add the model to the key's " +
					'group.',
			};
		},
	},
	{
		name: 'model-price-unset',
		matches: (f) => WORDS.priceUnset.test(f.all),
		created: 'no',
		explain: (f) => ({
			code: f.code ?? 'model_price_error',
			message:
				`The gateway has no price set for ${f.model ? `model '${f.model}'` : 'this model'}, ` +
				`so it refused the request while ${f.action}`,
			advice:
				"Nothing was charged. The gateway admin has to set the model's price " +
				'(ratio) before it can be used; or pick another model.',
		}),
	},
	wordsRule(
		'group-denied',
		WORDS.groupDenied,
		"The gateway refused this API key's group",
		'The key is set to a group its account may not use, or the group was ' +
			"retired. Pick another group for the key on the gateway's key page, or " +
			'ask the gateway admin.',
	),

	{
		// The relay bills a call answered at once only when it succeeds (it returns its pre-charge
		// on an error), and passes an upstream's failure on with its words (docs/gateway-contract.md §7).
		name: 'upstream-failed-at-once',
		matches: (f) =>
			Boolean(f.billed && f.answeredAtOnce) &&
			f.status !== undefined &&
			f.status >= 500 &&
			f.status !== 504 &&
			f.text !== '' &&
			asObject(f.body) !== undefined,
		created: 'no',
		explain: (f) => ({
			code: f.code,
			message: `The model's provider failed (HTTP ${f.status}) while ${f.action}: ${relayWords(f.text)}`,
			advice:
				'The relay charges a call answered at once only when it succeeds, and it answered with an ' +
				'error: nothing was charged. Run the item again later or choose another model; if it ' +
				"keeps failing, tell the gateway's admin.",
		}),
	},
	{
		name: 'upstream-unreachable',
		matches: (f) => WORDS.upstreamFailed.test(f.all),
		explain: (f) => ({
			code: 'do_request_failed',
			message: `The gateway could not reach its upstream provider while ${f.action} (do request failed)`,
			advice:
				'This is a network failure between the gateway and the provider, not a problem with your input. Try again later.',
		}),
	},
	{
		name: 'task-unknown',
		matches: (f) => WORDS.taskUnknown.test(f.all),
		explain: (f) => ({
			code: 'task_not_exist',
			message: `The gateway does not know this task while ${f.action} (task_not_exist)`,
			advice:
				'Check the task ID, the query route (a task is only known on the route ' +
				'and host that created it) and that the same API key created it.',
		}),
	},
	{
		// docs/gateway-contract.md §10.15: a Suno read whose envelope `code` is not success.
		name: 'read-refused-with-200',
		matches: (f) => Boolean(f.refusedWith200) && !f.billed && f.action.startsWith('checking task'),
		explain: (f) => ({
			code: f.code,
			message:
				`The gateway answered with code '${f.code ?? 'none'}' instead of the task while ` +
				`${f.action}${f.text ? `: ${relayWords(f.text)}` : ''}`,
			advice:
				'The answer is not a reading of the task: it is read again. The task may still be ' +
				'running or finished: do not submit it again.',
		}),
	},
	{
		name: 'refused-with-200',
		matches: (f) => Boolean(f.refusedWith200),
		explain: (f) => ({
			code: f.code,
			message: `The gateway refused the request while ${f.action}${f.text ? `: ${relayWords(f.text)}` : ''}`,
			advice:
				'The gateway answered HTTP 200 but its body is a refusal: nothing was ' +
				'created. Correct what it names and run the item again.',
		}),
	},
	statusRule(
		'key-rejected',
		401,
		'The gateway rejected the API key (401)',
		"Check the API Key in the Unified AI Gateway API credential: copy it again from the gateway's key page.",
	),
	statusRule(
		'forbidden',
		403,
		'The gateway refused the request (403)',
		'The key may lack permission for this model or route, or the balance may be too low.',
	),
	{
		name: 'invalid-request',
		matches: (f) => f.status === 400 || f.status === 422,
		explain: (f) => {
			const field = fieldNamed(f.body, f.text);
			return {
				code: f.code,
				message: field
					? `The gateway rejected the field '${field}' while ${f.action}${f.text ? `: ${relayWords(f.text)}` : ''}`
					: `The gateway rejected the request as invalid while ${f.action}${f.text ? `: ${relayWords(f.text)}` : ''}`,
				advice: 'Correct the parameter it names and run the item again.',
			};
		},
	},
	statusRule(
		'not-found',
		404,
		'The gateway answered 404 Not Found',
		'Check the Base URL in the credential (for example https://gateway.example.com/v1) and the task ID or route.',
	),
	statusRule(
		'too-large',
		413,
		'The file is too large for the gateway (413)',
		'Uploads and reference images may be at most 20 MB.',
	),
	{
		name: 'rate-limited',
		matches: (f) => f.status === 429,
		explain: (f) => ({
			code: f.code,
			message: `The gateway is rate limiting requests (429) while ${f.action}${triedWords(f)}`,
			advice:
				'Wait a little and run again, or lower the Concurrency option so fewer requests run at once.',
		}),
	},
	{
		name: 'gateway-timeout',
		matches: (f) => f.status === 504,
		explain: (f) => ({
			code: f.code,
			message: `The gateway timed out (504) while ${f.action}`,
			advice: f.answeredAtOnce
				? 'Use an async model (for example gpt-image-2-async) or a longer timeout.'
				: f.billed
					? 'Use an async model (for example gpt-image-2-async) or a longer timeout. ' +
						'The job may still have been created: check the account before running ' +
						'the item again.'
					: 'Use an async model or a longer timeout.',
		}),
	},
	{
		name: 'no-explanation',
		matches: (f) =>
			f.status !== undefined && httpKind(f.status, f.body, f.text) !== `HTTP ${f.status}`,
		explain: (f) => {
			const kind = httpKind(f.status ?? 0, f.body, f.text);
			return {
				code: f.code,
				message: `The gateway answered HTTP ${f.status} with ${kind} while ${f.action}`,
				advice: kind.startsWith('an HTML')
					? 'An HTML page usually means the Base URL points at a website or proxy, ' +
						'not at the gateway API. Check the Base URL (for example ' +
						'https://gateway.example.com/v1).'
					: 'The gateway gave no explanation. Try again later; if it persists, contact the gateway admin.',
			};
		},
	},
	{
		name: 'gateway-failed',
		matches: () => true,
		explain: (f) => ({
			code: f.code,
			message: `The gateway failed (HTTP ${f.status}) while ${f.action}${f.text ? `: ${relayWords(f.text)}` : ''}`,
			advice: f.answeredAtOnce
				? ''
				: f.billed
					? 'The job may or may not have been created: check the account before running the item again.'
					: 'Try again later; if it persists, contact the gateway admin.',
		}),
	},
];

/** How often a refused POST was sent and for how long, when it was sent more than once. */
function triedWords(f: ReadFacts): string {
	const tried = f.limitedTries;
	if (!tried) return '';
	return `; the node sent it ${tried.sends} times over ${Math.round(tried.waitedMs / 1000)} s before giving up`;
}

/** A failure without an answer: a lost billed request may still have created (and billed) a job. */
function networkOutput(f: ReadFacts, what: string): RuleOutput {
	const lost = lostJob(f);
	return {
		code: f.networkCode,
		message: lost ? `${what}: the job may have been created and billed` : what,
		advice: '',
		description: !lost
			? 'Check the Base URL and that the gateway is reachable from n8n.'
			: f.answeredAtOnce
				? 'The request was sent but its answer was lost. The gateway may still have made ' +
					"(and billed) it: look at the key's usage log before running this item again. " +
					'Our node never resends it by itself.'
				: 'The request was sent but its answer was lost. The gateway may still run ' +
					"(and bill) the job: check the account's task list before running this " +
					'item again. Our node never resends it by itself.',
	};
}
