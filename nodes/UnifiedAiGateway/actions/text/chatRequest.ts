import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ADDITIONAL_BODY_LABEL, parseAdditionalBody } from '../../params/additionalBody';
import { readBoolean, readNumber } from '../../params/inputs';
import type { NumberField } from '../../registry/limits';
import { messageContent } from './chatAttachments';

export interface ChatRequest {
	model: string;
	body: IDataObject;
	stream: boolean;
	simplify: boolean;
	timeoutMs: number;
}

interface MessageRow {
	role?: string;
	content?: unknown;
	attachBinary?: unknown;
	attachUrls?: unknown;
}

/** Body keys that have their own field: set twice, one of them would be silently lost. */
const OWN_FIELDS: Record<string, string> = {
	model: 'the Model field',
	messages: 'the Messages field',
	stream: 'the Stream option',
};

/**
 * Reads the item's parameters into a POST /v1/chat/completions body (docs/gateway-contract.md
 * §4.3); sends nothing.
 */
export async function readChatRequest(ctx: IExecuteFunctions, i: number): Promise<ChatRequest> {
	const fail = (message: string, description: string) =>
		new NodeOperationError(ctx.getNode(), message, { itemIndex: i, description });

	const model = String(ctx.getNodeParameter('modelId', i, '', { extractValue: true }) ?? '').trim();
	if (!model)
		throw fail(
			'Model is empty',
			'Pick a text model from the list or type its ID, for example gpt-5.6-sol.',
		);

	const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
	const rows = ctx.getNodeParameter('messages.values', i, []) as MessageRow[];
	const messages: IDataObject[] = [];
	const system = typeof options.systemMessage === 'string' ? options.systemMessage.trim() : '';
	if (system) messages.push({ role: 'system', content: system });
	for (const [index, row] of rows.entries()) {
		const text =
			typeof row.content === 'string'
				? row.content
				: row.content == null
					? ''
					: JSON.stringify(row.content);
		const role = row.role || 'user';
		// Files attached to it make the content a list of parts (chatAttachments.ts).
		const content = await messageContent(ctx, i, { ...row, role, content: text }, index + 1, model);
		messages.push({ role, content });
	}
	const said = (m: IDataObject) =>
		Array.isArray(m.content) ? m.content.length > 0 : String(m.content).trim() !== '';
	if (!messages.some((m) => m.role !== 'system' && said(m))) {
		throw fail(
			'Messages has no user or assistant message with text',
			'Add a message with role User and the text the model should answer, for example {{ $json.question }}.',
		);
	}

	const stream = options.stream === true;
	const body: IDataObject = { model, messages };
	// An option the user added is sent, checked: from an expression it may be text, empty or NaN.
	const option = (
		name: 'temperature' | 'maxTokens' | 'topP' | 'timeoutSeconds',
		field: NumberField,
	) => (name in options ? readNumber(ctx, field, i, { value: options[name] }) : undefined);
	const temperature = option('temperature', 'temperature');
	const maxTokens = option('maxTokens', 'maxTokens');
	const topP = option('topP', 'topP');
	if (temperature !== undefined) body.temperature = temperature;
	if (maxTokens !== undefined) body.max_tokens = maxTokens;
	if (topP !== undefined) body.top_p = topP;
	if (options.jsonOutput === true) body.response_format = { type: 'json_object' };
	if (stream) {
		body.stream = true;
		// Without it OpenAI-style servers leave usage out of a stream, and the streamed output
		// would differ from the plain one.
		body.stream_options = { include_usage: true };
	}
	Object.assign(body, readExtraFields(options.additionalBodyFields, fail));

	const timeoutSeconds = option('timeoutSeconds', 'chatTimeoutSeconds') ?? 300;
	return {
		model,
		body,
		stream,
		simplify: readBoolean(ctx, 'simplifyOutput', i, true, 'Simplify Output'),
		timeoutMs: timeoutSeconds * 1000,
	};
}

/** Additional Body Fields (JSON), refusing a key that has its own field here. */
function readExtraFields(
	value: unknown,
	fail: (message: string, description: string) => NodeOperationError,
): IDataObject {
	const extra = parseAdditionalBody(value, '{"seed": 42, "presence_penalty": 0.5}', fail);
	const clash = Object.keys(extra).find((key) => key in OWN_FIELDS);
	if (clash) {
		throw fail(
			`${ADDITIONAL_BODY_LABEL} sets '${clash}', which comes from ${OWN_FIELDS[clash]}`,
			`Remove '${clash}' from ${ADDITIONAL_BODY_LABEL} and use ${OWN_FIELDS[clash]} instead.`,
		);
	}
	return extra;
}
