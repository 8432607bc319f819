'use strict';
// The gateway-error table (transport/errorRules.ts): each rule on its own — the facts it explains,
// its message, its advice and, for a billed request, created yes/no/unknown — and where two rules
// both match, that the earlier one wins (and that swapping them would change what the user sees).
// The node-level rows for the relay's own texts are in test/faults/relay.test.js.
const path = require('path');

const DIST = path.resolve(__dirname, '../dist/nodes/UnifiedAiGateway/transport');
const { explainGatewayError, readFacts, ruleFor } = require(path.join(DIST, 'errors.js'));
const { GATEWAY_ERROR_RULES } = require(path.join(DIST, 'errorRules.js'));

const action = 'submitting the video job';
const openai = (message, code = '') => ({ error: { message: `${message} (request id: r1)`, type: 'new_api_error', param: '', code } });
const flat = (code, message) => ({ code, message, data: null });

/**
 * One row per rule: [rule, facts (billed unless said), message, description, created]. Every
 * message here is what the node showed before the table (or what the findings changed).
 */
const ROWS = [
	['request-blocked', { blocked: { by: 'node', url: 'http://[::]:8080/x.png', host: '[::]:8080', kind: 'unspecified', address: '::', settings: true, redirectedFrom: 'https://gw.example.com/v1/videos/t1/content' } }, /^http:\/\/\[::\]:8080\/x\.png, where https:\/\/gw\.example\.com\/v1\/videos\/t1\/content redirected, points at \[::\]:8080, the unspecified address .*: the node does not send n8n there on a gateway's word \(while submitting the video job\)$/, /No n8n setting allows it: 0\.0\.0\.0 and :: are no host of their own, and a link there reaches n8n's own host\./, 'no'],
	['answer-refused', { status: 200, refusedAnswer: { limit: 1024 * 1024, received: 1024 * 1024 + 1 } }, /^The gateway's answer was larger than 1 MB \(more arrived, counted after decompression\) while submitting the video job: refused unread$/, /compressed or deeply nested bomb/, 'yes'],
	['another-task', { status: 200, billed: false, otherTask: { asked: 't_mine', named: 'task_SOMEONE_ELSE' } }, /^The gateway answered the read of task t_mine with another task, task_SOMEONE_ELSE: not taken as the state of t_mine$/, /Do not submit t_mine again/, undefined],
	['certificate-refused', { networkCode: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, /^The gateway's TLS certificate was refused while submitting the video job: it is self-signed \(DEPTH_ZERO_SELF_SIGNED_CERT\)$/, /NODE_EXTRA_CA_CERTS.*Ignore SSL Issues \(Insecure\)/s, 'no'],
	['no-answer-in-time', { networkCode: 'ECONNABORTED', timeoutMs: 30_000 }, /^No answer from the gateway within 30 s while submitting the video job: the job may have been created and billed$/, /answer was lost/, 'unknown'],
	['unreachable', { networkCode: 'ECONNREFUSED' }, /^Could not reach the gateway while submitting the video job \(ECONNREFUSED\)$/, /^Check the Base URL/, 'no'],
	['redirect-not-followed', { status: 302, unfollowedRedirect: 'https://other.example.com/x' }, /^The gateway redirected the request to https:\/\/other\.example\.com \(HTTP 302\) while submitting the video job; it was not followed$/, /never re-sent/, 'unknown'],
	['redirect-refused', { status: 401, redirectedTo: 'https://other.example.com', body: '' }, /^The gateway redirected to https:\/\/other\.example\.com, which refused the request \(401\)/, /only sent to the origins/, 'no'],
	['gateway-overloaded', { status: 503, body: { error: { message: 'system cpu overloaded (current: 95.0%, threshold: 90%)', type: 'new_api_error', param: '', code: 'system_cpu_overloaded' } } }, /^The gateway is overloaded \(its CPU use is above its limit\) and refused the request before billing it \(503\) while submitting the video job$/, /Nothing was charged: the relay's overload guard answers before it checks the key/, 'no'],
	['channel-circuit-open', { status: 503, body: openai('channel_circuit_open: recovers in 30 s', 'channel_circuit_open') }, /paused this model's upstream channel .*: retry after 30 s$/, /Nothing was created/, 'no'],
	['reference-image-unreadable', { status: 400, body: openai('decode_input_reference_failed_at_index_1', 'decode_input_reference_failed_at_index_1') }, /could not read reference image 2 \(index 1\)/, /JPEG, PNG or WebP/, 'no'],
	['key-quota-used-up', { status: 401, body: openai('该令牌额度已用尽 TokenStatusExhausted[sk-abc***xyz]') }, /^This API key's own quota at the gateway is used up \(401\) while submitting the video job$/, /raise the key's remaining quota/, 'no'],
	['key-expired', { status: 401, body: openai('该令牌已过期') }, /^This API key has expired at the gateway \(401\)/, /expiry/, 'no'],
	['key-disabled', { status: 401, body: openai('This token status is unavailable') }, /^This API key is disabled at the gateway \(401\)/, /Enable the key/, 'no'],
	['balance-too-low', { status: 403, charge: 'the video pre-charge', body: flat('insufficient_user_quota', '用户额度不足, 剩余额度: ＄0.000000') }, /^Gateway balance too low for the video pre-charge \(insufficient_user_quota\)/, /Top up/, 'no'],
	['model-not-offered', { status: 503, model: 'sora-2', body: openai('当前分组 default 下对于模型 sora-2 无可用渠道') }, /^Model 'sora-2' is not available to this API key's group \(No available channel\): the gateway does not offer it to this key \(retired upstream, or not in the key's group 'default'\)$/, /List Models/, 'no'],
	['model-price-unset', { status: 400, model: 'wan-2.7', body: flat('model_price_error', 'model wan-2.7 ratio or price not set, please set or start self-use mode') }, /^The gateway has no price set for model 'wan-2\.7'/, /price/, 'no'],
	['group-denied', { status: 403, body: openai('无权访问 vip 分组') }, /^The gateway refused this API key's group \(403\)/, /group/, 'no'],
	['upstream-failed-at-once', { status: 500, answeredAtOnce: true, body: openai('The server had an error while processing your request', 'server_error') }, /^The model's provider failed \(HTTP 500\) while submitting the video job: The server had an error while processing your request \(request id: r1\)$/, /answered with an error: nothing was charged/, 'no'],
	['upstream-unreachable', { status: 500, body: flat('do_request_failed', 'upstream error: do request failed') }, /could not reach its upstream provider .* \(do request failed\)$/, /not a problem with your input/, 'unknown'],
	['task-unknown', { status: 400, billed: false, body: flat('task_not_exist', 'task_not_exist') }, /does not know this task .* \(task_not_exist\)$/, /query route/, undefined],
	['read-refused-with-200', { action: 'checking task task_abc', status: 200, billed: false, refusedWith200: true, body: { code: 'fail', message: 'upstream busy', data: null } }, /^The gateway answered with code 'fail' instead of the task while checking task task_abc: upstream busy$/, /read again.*do not submit it again/, undefined],
	['refused-with-200', { status: 200, refusedWith200: true, body: { code: 500, msg: 'upstream busy, try later', data: null } }, /^The gateway refused the request while submitting the video job: upstream busy, try later$/, /HTTP 200 but its body is a refusal/, 'no'],
	['key-rejected', { status: 401, body: openai('Invalid token') }, /^The gateway rejected the API key \(401\)/, /copy it again/, 'no'],
	['forbidden', { status: 403, body: openai('您的 IP 不在令牌允许访问的列表中', 'access_denied') }, /^The gateway refused the request \(403\)/, /permission/, 'no'],
	['invalid-request', { status: 400, body: openai('invalid seconds "9"') }, /^The gateway rejected the field 'seconds'/, /Correct the parameter/, 'no'],
	['not-found', { status: 404, body: openai('Invalid URL (POST /v1/x)') }, /^The gateway answered 404 Not Found/, /Base URL/, 'unknown'],
	['too-large', { status: 413, body: openai('too large') }, /^The file is too large for the gateway \(413\)/, /20 MB/, 'unknown'],
	['rate-limited', { status: 429, body: flat('rate_limit', '当前分组上游负载已饱和，请稍后再试') }, /^The gateway is rate limiting requests \(429\)/, /Concurrency/, 'no'],
	['gateway-timeout', { status: 504, body: openai('image generation timeout') }, /^The gateway timed out \(504\)/, /may still have been created/, 'unknown'],
	['no-explanation', { status: 502, body: '<html><body>Bad gateway</body></html>' }, /^The gateway answered HTTP 502 with an HTML page instead of JSON/, /Base URL points at a website/, 'unknown'],
	['gateway-failed', { status: 502, body: openai('bad gateway', 'bad_gateway') }, /^The gateway failed \(HTTP 502\) while submitting the video job: bad gateway/, /may or may not have been created/, 'unknown'],
];

describe('each rule on its own', () => {
	test('every rule of the table has its row here, in the table\'s order', () => {
		expect(ROWS.map(([name]) => name)).toEqual(GATEWAY_ERROR_RULES.map((r) => r.name));
	});

	test.each(ROWS)('%s', (name, facts, message, description, created) => {
		const explained = explainGatewayError({ action, billed: true, ...facts });
		expect(explained.rule).toBe(name);
		expect(explained.message).toMatch(message);
		expect(explained.description).toMatch(description);
		expect(explained.created).toBe(created);
	});

	test('a request that is not billed says nothing about created', () => {
		expect(explainGatewayError({ action: 'checking the token balance', status: 503, body: openai('No available channel for model x under group default', 'model_not_found') }).created).toBeUndefined();
	});

	test('the last rule matches anything, so every failure is explained', () => {
		expect(GATEWAY_ERROR_RULES[GATEWAY_ERROR_RULES.length - 1].matches(readFacts({ action, status: 599 }))).toBe(true);
	});
});

describe('certificate codes are named as certificate errors, with both fixes', () => {
	test.each([
		['DEPTH_ZERO_SELF_SIGNED_CERT', 'it is self-signed'],
		['SELF_SIGNED_CERT_IN_CHAIN', 'it is signed by a self-signed authority'],
		['CERT_HAS_EXPIRED', 'it has expired'],
		['ERR_TLS_CERT_ALTNAME_INVALID', 'it is issued for another host name'],
		['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'it is issued by an authority n8n does not know'],
		['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'it is issued by an authority n8n does not know'],
	])('%s', (code, problem) => {
		const explained = explainGatewayError({ action: 'checking the token balance', networkCode: code });
		expect(explained.message).toBe(`The gateway's TLS certificate was refused while checking the token balance: ${problem} (${code})`);
		expect(explained.message).not.toMatch(/Could not reach/);
		expect(explained.description).toMatch(/NODE_EXTRA_CA_CERTS=/);
		expect(explained.description).toMatch(/Ignore SSL Issues \(Insecure\)/);
		if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') expect(explained.description).toMatch(/put that name in the credential's Base URL/);
	});
});

/** Facts two rules both match: the first of the pair comes first in the table and wins. */
const OVERLAPS = [
	['request-blocked', 'unreachable', { blocked: { by: 'n8n', url: 'http://10.0.0.5/x.png', host: '10.0.0.5', address: '10.0.0.5', settings: true } }],
	['another-task', 'gateway-failed', { status: 200, otherTask: { asked: 'a', named: 'b' } }],
	['answer-refused', 'gateway-failed', { status: 200, refusedAnswer: { depth: 64, received: 40_000 } }],
	['certificate-refused', 'unreachable', { networkCode: 'CERT_HAS_EXPIRED' }],
	['no-answer-in-time', 'unreachable', { networkCode: 'ETIMEDOUT' }],
	['redirect-refused', 'key-rejected', { status: 401, redirectedTo: 'https://other.example.com', body: '' }],
	['key-quota-used-up', 'key-rejected', { status: 401, body: openai('该令牌额度已用尽') }],
	['key-quota-used-up', 'balance-too-low', { status: 403, body: openai('该令牌额度已用尽', 'pre_consume_token_quota_failed') }],
	['balance-too-low', 'forbidden', { status: 403, body: openai('user quota is not enough', 'insufficient_user_quota') }],
	['model-not-offered', 'refused-with-200', { status: 200, refusedWith200: true, body: { success: false, message: 'No available channel for model sora-2 under group default' } }],
	['model-not-offered', 'gateway-failed', { status: 503, body: openai('分组 default 下模型 sora-2 无可用渠道（distributor）') }],
	['model-not-offered', 'forbidden', { status: 403, body: openai('该令牌无权访问模型 sora-2') }],
	['model-price-unset', 'invalid-request', { status: 400, body: flat('model_price_error', 'model x ratio or price not set') }],
	['task-unknown', 'invalid-request', { status: 400, body: flat('task_not_exist', 'task_not_exist') }],
	['upstream-unreachable', 'gateway-failed', { status: 500, body: flat('do_request_failed', 'upstream error: do request failed') }],
	['channel-circuit-open', 'model-not-offered', { status: 503, body: openai('channel_circuit_open for model_not_found', 'channel_circuit_open') }],
	['gateway-overloaded', 'gateway-failed', { status: 503, body: openai('system memory overloaded', 'system_memory_overloaded') }],
	['no-explanation', 'gateway-failed', { status: 503, body: '' }],
	// A chat's do_request_failed: the relay returns its pre-charge; a task submit's stays unknown.
	['upstream-failed-at-once', 'upstream-unreachable', { status: 500, answeredAtOnce: true, body: flat('do_request_failed', 'upstream error: do request failed') }],
	['upstream-failed-at-once', 'gateway-failed', { status: 502, answeredAtOnce: true, body: openai('bad gateway', 'bad_gateway') }],
];

describe('the order matters where two rules overlap', () => {
	const index = (name) => GATEWAY_ERROR_RULES.findIndex((r) => r.name === name);

	test.each(OVERLAPS)('%s before %s', (first, second, facts) => {
		const read = readFacts({ action, billed: true, ...facts });
		const [a, b] = [GATEWAY_ERROR_RULES[index(first)], GATEWAY_ERROR_RULES[index(second)]];
		expect(a.matches(read)).toBe(true);
		expect(b.matches(read)).toBe(true);
		expect(index(first)).toBeLessThan(index(second));
		expect(ruleFor(read).name).toBe(first);
		// Swapped, the later rule would explain it, and the user would read another message.
		const swapped = GATEWAY_ERROR_RULES.map((r) => (r === a ? b : r === b ? a : r));
		expect(ruleFor(read, swapped).name).toBe(second);
		expect(b.explain(read).message).not.toBe(a.explain(read).message);
	});
});
