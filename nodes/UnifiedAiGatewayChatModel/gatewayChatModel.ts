import { NodeOperationError, type IDataObject, type ISupplyDataFunctions } from 'n8n-workflow';

import { checkCompletion, contentText } from '../UnifiedAiGateway/actions/text/message.operation';
import { postChatCompletion } from '../UnifiedAiGateway/api/chat';
import { AT_ONCE_NOTE } from '../UnifiedAiGateway/transport/created';
import { asObject, isPlainObject } from '../UnifiedAiGateway/transport/responses';
import type {
	AiNodeSdk,
	SdkCallConfig,
	SdkChatModel,
	SdkContent,
	SdkFinishReason,
	SdkGenerateResult,
	SdkMessage,
	SdkStreamChunk,
	SdkTokenUsage,
	SdkTool,
} from './aiNodeSdk';

/** What every chat call of one sub-node run sends besides the messages and tools. */
export interface GatewayChatSettings {
	model: string;
	/** The options the user set, by their /v1/chat/completions names (temperature, max_tokens…). */
	sampling: IDataObject;
	timeoutMs: number;
	itemIndex: number;
}

/** The model's provider name in n8n's logs of the call (response_metadata.provider). */
const PROVIDER = 'unified-ai-gateway';

/** A chat completion's finish_reason as the SDK names it. */
const FINISH_REASONS: Record<string, SdkFinishReason> = {
	stop: 'stop',
	length: 'length',
	tool_calls: 'tool-calls',
	function_call: 'tool-calls',
	content_filter: 'content-filter',
};

/**
 * The chat model the sub-node supplies: a subclass of the SDK's BaseChatModel whose calls go
 * through the package's transport (api/chat.ts postChatCompletion), so the credential's rules,
 * Ignore SSL Issues, the pacer, the error table and the key's redaction hold for the agent as for
 * the node. Defined here, inside a function of the loaded SDK, because BaseChatModel exists only
 * at run time on n8n 2.x: the module itself must load on n8n 1.x.
 */
export function gatewayChatModel(
	sdk: AiNodeSdk,
	ctx: ISupplyDataFunctions,
	settings: GatewayChatSettings,
): SdkChatModel {
	class GatewayChatModel extends sdk.BaseChatModel {
		async generate(messages: SdkMessage[], config?: SdkCallConfig): Promise<SdkGenerateResult> {
			return await chatOnce(ctx, sdk, settings, { messages, tools: this.tools, config });
		}

		// One call, its answer told as chunks: the gateway's stream would need its own reader here,
		// and an agent's turn waits for the whole answer (its tool calls) anyway.
		async *stream(messages: SdkMessage[], config?: SdkCallConfig): AsyncIterable<SdkStreamChunk> {
			yield* chunksOf(await this.generate(messages, config));
		}
	}
	return new GatewayChatModel(PROVIDER, settings.model);
}

/** One billed call: never sent again by this code (the transport resends only what was refused unprocessed). */
async function chatOnce(
	ctx: ISupplyDataFunctions,
	sdk: AiNodeSdk,
	settings: GatewayChatSettings,
	call: { messages: SdkMessage[]; tools: SdkTool[]; config?: SdkCallConfig },
): Promise<SdkGenerateResult> {
	const { model, itemIndex } = settings;
	const refuse = (message: string) =>
		new NodeOperationError(ctx.getNode(), `${message} (nothing sent)`, {
			itemIndex,
			description: 'The agent handed over something the gateway cannot take; nothing was billed.',
		});
	const body: IDataObject = {
		model,
		messages: call.messages.flatMap((message) => openAiMessages(message, refuse)),
		...(call.tools.length > 0 ? { tools: call.tools.map((t) => openAiTool(sdk, t, refuse)) } : {}),
		...settings.sampling,
		...stopOf(call.config),
	};
	const { body: answer } = await postChatCompletion(ctx, {
		body,
		model,
		stream: false,
		timeoutMs: settings.timeoutMs,
		itemIndex,
	});
	return resultOf(ctx, checkCompletion(ctx, answer, model, itemIndex), settings);
}

type Refuse = (message: string) => Error;

/** An SDK message as /v1/chat/completions messages: a tool message gives one per result. */
function openAiMessages(message: SdkMessage, refuse: Refuse): IDataObject[] {
	const { role, content } = message;
	if (role === 'tool') {
		const results = content.filter((part) => part.type === 'tool-result');
		if (results.length === 0) throw refuse('A tool message holds no tool result');
		return results.map((part) => ({
			role: 'tool',
			tool_call_id: part.toolCallId,
			content: resultText(part.result),
		}));
	}
	if (role === 'assistant') {
		const text = textOf(content);
		const calls = content.flatMap((part) => {
			if (part.type === 'tool-call') return [toolCall(part.toolCallId, part.toolName, part.input)];
			if (part.type === 'invalid-tool-call')
				return [toolCall(part.toolCallId, part.name ?? '', part.args ?? '')];
			return [];
		});
		return [
			calls.length > 0
				? { role, content: text || null, tool_calls: calls }
				: { role, content: text },
		];
	}
	if (role === 'system') return [{ role, content: textOf(content) }];
	const files = content.filter((part) => part.type === 'file');
	const texts = content.filter((part) => part.type === 'text');
	if (files.length === 0 && texts.length <= 1) return [{ role: 'user', content: textOf(content) }];
	return [
		{
			role: 'user',
			content: content.flatMap((part) => {
				if (part.type === 'text') return [{ type: 'text', text: part.text }];
				if (part.type === 'file') return [imagePart(part, refuse)];
				return [];
			}),
		},
	];
}

/** An assistant's tool call as OpenAI sends it back: its arguments a JSON string. */
function toolCall(id: string | undefined, name: string, input: string): IDataObject {
	return {
		...(id ? { id } : {}),
		type: 'function',
		function: { name, arguments: input },
	};
}

function textOf(content: SdkContent[]): string {
	return content
		.map((part) => (part.type === 'text' ? part.text : ''))
		.filter(Boolean)
		.join('\n');
}

/** A tool's result as the text the model reads: a text already, the text parts of a list, else JSON. */
function resultText(result: unknown): string {
	if (typeof result === 'string') return result;
	if (Array.isArray(result) && result.every((part) => asObject(part)?.type === 'text'))
		return contentText(result);
	return JSON.stringify(result) ?? '';
}

/** A picture the agent passes on (its URL, or its bytes as a data URL); no other file goes by chat. */
function imagePart(part: Extract<SdkContent, { type: 'file' }>, refuse: Refuse): IDataObject {
	const mediaType = part.mediaType ?? '';
	if (!mediaType.startsWith('image/'))
		throw refuse(
			`A file of type '${mediaType || 'unknown'}' cannot go in a chat message; pictures can`,
		);
	const url = part.providerMetadata?.url;
	if (typeof url === 'string' && url) return { type: 'image_url', image_url: { url } };
	const data =
		typeof part.data === 'string' ? part.data : Buffer.from(part.data).toString('base64');
	return {
		type: 'image_url',
		image_url: { url: data.startsWith('data:') ? data : `data:${mediaType};base64,${data}` },
	};
}

function openAiTool(sdk: AiNodeSdk, tool: SdkTool, refuse: Refuse): IDataObject {
	if (tool.type !== 'function')
		throw refuse(
			`The tool '${tool.name}' is a provider's own tool; the gateway's chat takes function tools`,
		);
	return {
		type: 'function',
		function: {
			name: tool.name,
			...(tool.description !== undefined ? { description: tool.description } : {}),
			parameters: sdk.getParametersJsonSchema(tool),
			...(tool.strict !== undefined ? { strict: tool.strict } : {}),
		},
	};
}

/** Stop sequences a chain sets on its call (LangChain's `stop`): the only call option read. */
function stopOf(config: SdkCallConfig | undefined): IDataObject {
	const stop = config?.stop;
	return Array.isArray(stop) && stop.length > 0 && stop.every((s) => typeof s === 'string')
		? { stop }
		: {};
}

/** The completion (checked to hold choices) as the SDK's result: text, tool calls, finish reason, usage. */
function resultOf(
	ctx: ISupplyDataFunctions,
	completion: IDataObject,
	{ model, itemIndex }: GatewayChatSettings,
): SdkGenerateResult {
	const choice = asObject((completion.choices as unknown[])[0]) ?? {};
	const message = asObject(choice.message) ?? {};
	const content: SdkContent[] = [];
	const text = contentText(message.content);
	if (text) content.push({ type: 'text', text });
	const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
	calls.forEach((call: unknown, index) => {
		const fn = asObject(asObject(call)?.function);
		const name = typeof fn?.name === 'string' ? fn.name : '';
		const raw =
			typeof fn?.arguments === 'string' ? fn.arguments : JSON.stringify(fn?.arguments ?? {});
		const input = raw.trim() === '' ? '{}' : raw;
		if (!name || !isJsonObject(input)) {
			const error = new NodeOperationError(
				ctx.getNode(),
				`Model '${model}' answered with a tool call ` +
					(name ? `to '${name}' whose arguments are not a JSON object` : 'that names no tool') +
					AT_ONCE_NOTE.yes.suffix,
				{
					itemIndex,
					description: [
						`Its arguments: ${input.slice(0, 200)}`,
						'The agent cannot run it. Try again, or a model that calls tools reliably.',
						AT_ONCE_NOTE.yes.advice,
					].join('\n'),
				},
			);
			error.context.created = 'yes';
			throw error;
		}
		const id = asObject(call)?.id;
		// Each call keeps an id: the agent answers it by that id, and the SDK's chunks merge by it.
		const toolCallId = typeof id === 'string' && id ? id : `call_${index}`;
		content.push({ type: 'tool-call', toolCallId, toolName: name, input });
	});
	const reason = typeof choice.finish_reason === 'string' ? choice.finish_reason : undefined;
	const usage = usageOf(asObject(completion.usage));
	return {
		...(typeof completion.id === 'string' ? { id: completion.id } : {}),
		...(reason ? { finishReason: FINISH_REASONS[reason] ?? 'other' } : {}),
		...(usage ? { usage } : {}),
		message: {
			role: 'assistant',
			content,
			...(typeof completion.id === 'string' ? { id: completion.id } : {}),
		},
	};
}

function isJsonObject(text: string): boolean {
	try {
		return isPlainObject(JSON.parse(text));
	} catch {
		return false;
	}
}

/** The answer's token counts, which n8n shows on the sub-node's run (its Token usage). */
function usageOf(usage: IDataObject | undefined): SdkTokenUsage | undefined {
	if (!usage) return undefined;
	const count = (value: unknown) => (typeof value === 'number' && value >= 0 ? value : undefined);
	const promptTokens = count(usage.prompt_tokens) ?? 0;
	const completionTokens = count(usage.completion_tokens) ?? 0;
	const cacheRead = count(asObject(usage.prompt_tokens_details)?.cached_tokens);
	const reasoning = count(asObject(usage.completion_tokens_details)?.reasoning_tokens);
	return {
		promptTokens,
		completionTokens,
		totalTokens: count(usage.total_tokens) ?? promptTokens + completionTokens,
		...(cacheRead !== undefined ? { inputTokenDetails: { cacheRead } } : {}),
		...(reasoning !== undefined ? { outputTokenDetails: { reasoning } } : {}),
	};
}

/** One answer as the stream the SDK reads: its text, each tool call whole (apart by id), the end. */
function* chunksOf(result: SdkGenerateResult): Generator<SdkStreamChunk> {
	for (const part of result.message.content) {
		if (part.type === 'text') yield { type: 'text-delta', delta: part.text };
		if (part.type === 'tool-call')
			yield {
				type: 'tool-call-delta',
				id: part.toolCallId,
				name: part.toolName,
				argumentsDelta: part.input,
			};
	}
	yield { type: 'finish', finishReason: result.finishReason ?? 'stop', usage: result.usage };
}
