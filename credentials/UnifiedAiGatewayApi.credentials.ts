import type {
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { readPastedKey, type PastedKey } from '../nodes/UnifiedAiGateway/transport/secrets';
import {
	BASE_URL_FIELDS,
	checkBaseUrl,
	keyOrigins,
	normaliseOrigin,
	originOf,
	type BaseUrlCheck,
} from '../nodes/UnifiedAiGateway/transport/urls';

/**
 * What authenticate() reads from a credential's values: both Base URLs checked, the key's origins, the key as pasted.
 */
interface Checked {
	values: [unknown, unknown, unknown];
	main: BaseUrlCheck;
	alt: BaseUrlCheck;
	origins: Set<string>;
	key: PastedKey;
}

const checkedOf = new WeakMap<ICredentialDataDecryptedObject, Checked>();

/**
 * The checks of a credential's values, worked out again whenever they differ from the last time
 * this credential object was seen: a node run signs every request (thousands) with one object.
 */
function checked(credentials: ICredentialDataDecryptedObject): Checked {
	const values: Checked['values'] = [
		credentials.baseUrl,
		credentials.altBaseUrl,
		credentials.apiKey,
	];
	const known = checkedOf.get(credentials);
	if (known && known.values.every((value, i) => value === values[i])) return known;
	const fresh: Checked = {
		values,
		main: checkBaseUrl(credentials.baseUrl, BASE_URL_FIELDS.main, true),
		alt: checkBaseUrl(credentials.altBaseUrl, BASE_URL_FIELDS.alt, false),
		origins: keyOrigins(credentials),
		key: readPastedKey(credentials.apiKey),
	};
	checkedOf.set(credentials, fresh);
	return fresh;
}

export class UnifiedAiGatewayApi implements ICredentialType {
	name = 'unifiedAiGatewayApi';

	displayName = 'Unified AI Gateway API';

	icon: Icon = {
		light: 'file:../icons/unifiedAiGateway.svg',
		dark: 'file:../icons/unifiedAiGateway.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-unified-ai-gateway/n8n-nodes-unified-ai-gateway?tab=readme-ov-file#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://gateway.example.com/v1',
			description:
				'Address of the gateway (http:// or https://, no query string, no ' +
				'user:pass@). With or without the trailing /v1 and slash: both work. The ' +
				"API key is sent to this origin and the Alt Base URL's only.",
		},
		{
			displayName: 'Alt Base URL',
			name: 'altBaseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://alt.gateway.example.com',
			description:
				'Optional second host that serves the alt-host image models ' +
				'(gemini-2.5-flash-image, gemini-3-pro-image-preview, ' +
				'gemini-3.1-flash-image-preview). Leave empty if you do not use them. ' +
				'Same rules as Base URL.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"The key from the gateway's key management page, sent as a Bearer token. " +
				'Pasted with quotes, a leading "Bearer " or spaces around it: all ' +
				'removed; full-width characters from a Chinese input method are read as ' +
				'their ASCII letters and digits.',
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'ignoreSSLIssues',
			type: 'boolean',
			default: false,
			description:
				"Whether to connect even if the gateway's TLS certificate cannot be " +
				'verified (self-signed, expired, issued for another host). Applies to the ' +
				'Base URL and Alt Base URL only, never to the hosts result files come ' +
				"from. Safer: trust the gateway's CA on the n8n host with " +
				'NODE_EXTRA_CA_CERTS.',
		},
	];

	/**
	 * A function rather than a header template, because it is the one place every request with
	 * the key passes (the node's and the Test button's): the key is read as pasted (transport/secrets.ts),
	 * both Base URLs are checked, the key is never attached to a request for another origin, and
	 * Ignore SSL Issues applies to these requests only.
	 */
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		const { main, alt, origins, key: pasted } = checked(credentials);
		const problem = main.problem ?? alt.problem;
		if (problem) throw new Error(`${problem}. Nothing was sent.`);
		// n8n's HTTP Request node passes the legacy `uri`; everything else `url`.
		const url = String(requestOptions.url ?? (requestOptions as { uri?: unknown }).uri ?? '');
		// The Test button's request is the only one built from a baseURL and a relative path.
		const isTest = requestOptions.baseURL !== undefined && !/^https?:\/\//i.test(url);
		if (isTest && (main.insecure || alt.insecure)) {
			throw new Error(
				`${main.insecure ? BASE_URL_FIELDS.main : BASE_URL_FIELDS.alt} uses ` +
					`http:// on a host that is not this machine: the API key would travel ` +
					`unencrypted. Use https:// (the gateway asks for HTTPS in production). ` +
					`Workflows still run with this credential; this test did not send the ` +
					`key.`,
			);
		}
		// The Test's base is the Base URL as typed: the node's own rule (normaliseOrigin) makes it
		// the origin `/v1/...` paths go to, so the Test and the node always read the same address.
		const baseURL = isTest ? normaliseOrigin(requestOptions.baseURL) : requestOptions.baseURL;
		const target = originOf(baseURL !== undefined ? new URL(url, baseURL).href : url);
		if (!target || !origins.has(target)) {
			throw new Error(
				'The API key is only sent to the origins of Base URL and Alt Base URL; ' +
					'this request was for another origin and was not sent.',
			);
		}
		const { key, problem: keyProblem } = pasted;
		if (keyProblem) throw new Error(`${keyProblem}. Nothing was sent.`);
		return {
			...requestOptions,
			...(isTest ? { baseURL } : {}),
			// The switch reaches only requests to the gateway's own origins (checked above): files are
			// fetched without the credential, so never with certificate checks off.
			...(credentials.ignoreSSLIssues === true ? { skipSslCertificateValidation: true } : {}),
			headers: { ...(requestOptions.headers ?? {}), Authorization: `Bearer ${key}` },
		};
	};

	// The Base URL goes to authenticate() as typed; it applies the node's rule (normaliseOrigin),
	// so `/v1`, `/V1/` or none all test the address the node uses. The key's model list is the one
	// route every build answers only to a valid key: the commercial builds, plain new-api and one-api
	// alike (`/v1/balance` is a commercial extension, docs/gateway-contract.md §10.11).
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ $credentials.baseUrl }}',
			url: '/v1/models',
			method: 'GET',
			ignoreHttpStatusErrors: true,
			// A redirect is reported as a failed test, never followed with the key.
			disableFollowRedirect: true,
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error.code',
					value: 'invalid_api_key',
					message:
						"The gateway says the API key is invalid (401). Copy the key again from the gateway's key page.",
				},
			},
			// The relay's key check answers in its own error type (new-api, one-api).
			...['new_api_error', 'one_api_error'].map((type) => ({
				type: 'responseSuccessBody' as const,
				properties: {
					key: 'error.type',
					value: type,
					message:
						'The gateway refused this API key: it may be wrong, disabled, expired or ' +
						"used up, or not allowed from this IP. Check the API Key on the gateway's " +
						'key page.',
				},
			})),
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'success',
					value: false,
					message:
						'The gateway refused this API key (it answered success: false). Check the ' +
						'API Key, and that the key is not deleted or disabled.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'data',
					value: undefined,
					message:
						'The gateway did not confirm this key: its answer held no model list. ' +
						"Check the API Key, and that the Base URL is the gateway's address (for " +
						'example https://gateway.example.com/v1).',
				},
			},
		],
	};
}
