import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

export class UnifiedAiGatewayApi implements ICredentialType {
	name = 'unifiedAiGatewayApi';

	displayName = 'Unified AI Gateway API';

	icon: Icon = {
		light: 'file:../icons/unifiedAiGateway.svg',
		dark: 'file:../icons/unifiedAiGateway.dark.svg',
	};

	// eslint-disable-next-line n8n-nodes-base/cred-class-field-documentation-url-miscased -- community packages link a full URL
	documentationUrl =
		'https://github.com/n8n-nodes-unified-ai-gateway/n8n-nodes-unified-ai-gateway#credential';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://gateway.example.com/v1',
			description:
				'Address of the gateway. With or without the trailing /v1 and slash: both work.',
		},
		{
			displayName: 'Alt Base URL',
			name: 'altBaseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://alt.gateway.example.com',
			description:
				'Optional second host that serves the alt-host image models (gemini-2.5-flash-image, gemini-3-pro-image-preview, gemini-3.1-flash-image-preview). Leave empty if you do not use them.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The key from the gateway\'s key management page. It is sent as a Bearer token.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	// n8n's declarative test cannot reuse the node's transport, so the URL normalisation
	// (strip trailing slashes and /v1) is repeated here as an expression.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ String($credentials.baseUrl).trim().replace(/\\/+$/, "").replace(/\\/v1$/, "") }}',
			url: '/v1/balance',
			method: 'GET',
			ignoreHttpStatusErrors: true,
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'success',
					value: false,
					message:
						'The gateway refused this API key (its balance check answered success: false). Check the API Key, and that the key is not deleted or disabled.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error.code',
					value: 'invalid_api_key',
					message: 'The gateway says the API key is invalid (401). Copy the key again from the gateway\'s key page.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'success',
					value: undefined,
					message:
						'The gateway did not confirm this key: the answer held no balance. Check the API Key, and that the Base URL is the gateway address (for example https://gateway.example.com/v1).',
				},
			},
		],
	};
}
