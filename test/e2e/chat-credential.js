'use strict';
// The chat model of n8n's AI Agent pointed at the gateway: n8n's OpenAI Chat Model node takes an
// `openAiApi` credential, whose Base URL (`url`) is the gateway's /v1, because the gateway speaks
// the OpenAI chat completions API. Same data on n8n 1.x and 2.x (apiKey, url).
const CHAT_CRED_ID = 'e2eGatewayChat';
const CHAT_CRED_NAME = 'Gateway as OpenAI (e2e)';
const CHAT_CRED_TYPE = 'openAiApi';

/** { id, name, type: 'openAiApi', data: { apiKey, url } } for importCredential. */
function chatModelCredential({ baseUrl, apiKey, id = CHAT_CRED_ID, name = CHAT_CRED_NAME }) {
	return { id, name, type: CHAT_CRED_TYPE, data: { apiKey, url: baseUrl } };
}

module.exports = { chatModelCredential, CHAT_CRED_ID, CHAT_CRED_NAME, CHAT_CRED_TYPE };
