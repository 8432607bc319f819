import {
	NodeOperationError,
	type IDataObject,
	type ISupplyDataFunctions,
	type SupplyData,
} from 'n8n-workflow';

/*
 * The part of the AI Node SDK (@n8n/ai-node-sdk 0.31.1, inside n8n 2.41.1, its types from
 * @n8n/ai-utilities) this node uses. Declared here rather than imported: the SDK is an optional peer
 * that n8n 1.x lacks, so nothing of it may be needed to build or load.
 */

/** One part of a message, as the SDK's LangChain adapter hands it over (its `MessageContent`). */
export type SdkContent =
	| { type: 'text' | 'reasoning'; text: string }
	| {
			type: 'file';
			mediaType?: string;
			data: string | Uint8Array;
			providerMetadata?: IDataObject;
	  }
	| { type: 'tool-call'; toolCallId?: string; toolName: string; input: string }
	| { type: 'invalid-tool-call'; toolCallId?: string; name?: string; args?: string }
	| { type: 'tool-result'; toolCallId: string; result: unknown; isError?: boolean }
	| { type: 'citation' | 'provider' };

export interface SdkMessage {
	role: 'system' | 'user' | 'assistant' | 'tool';
	content: SdkContent[];
	name?: string;
	id?: string;
}

/** A tool the agent binds: a function (its schema JSON Schema or zod) or a provider's own tool. */
export type SdkTool =
	| { type: 'function'; name: string; description?: string; inputSchema: unknown; strict?: boolean }
	| { type: 'provider'; name: string };

export type SdkFinishReason =
	| 'stop'
	| 'length'
	| 'content-filter'
	| 'tool-calls'
	| 'error'
	| 'other';

export interface SdkTokenUsage {
	promptTokens: number;
	completionTokens: number;
	totalTokens: number;
	inputTokenDetails?: { cacheRead?: number };
	outputTokenDetails?: { reasoning?: number };
}

export interface SdkGenerateResult {
	id?: string;
	finishReason?: SdkFinishReason;
	usage?: SdkTokenUsage;
	message: SdkMessage;
}

export type SdkStreamChunk =
	| { type: 'text-delta'; delta: string }
	| { type: 'tool-call-delta'; id?: string; name?: string; argumentsDelta?: string }
	| { type: 'finish'; finishReason: SdkFinishReason; usage?: SdkTokenUsage };

/**
 * The call's options as the SDK's LangChain adapter passes them (LangChain's call options): only
 * `stop` is read, for a chain that sets stop sequences.
 */
export interface SdkCallConfig {
	stop?: unknown;
}

/** What a model built on the SDK's BaseChatModel is: the SDK's adapter calls these. */
export interface SdkChatModel {
	provider: string;
	modelId: string;
	generate(messages: SdkMessage[], config?: SdkCallConfig): Promise<SdkGenerateResult>;
	stream(messages: SdkMessage[], config?: SdkCallConfig): AsyncIterable<SdkStreamChunk>;
}

/** BaseChatModel: `withTools` copies the instance with the agent's tools in `tools`. */
export type SdkBaseChatModel = abstract new (
	provider: string,
	modelId: string,
) => SdkChatModel & {
	tools: SdkTool[];
};

export interface AiNodeSdk {
	BaseChatModel: SdkBaseChatModel;
	/** A function tool's parameters as JSON Schema (a zod schema converted). */
	getParametersJsonSchema: (tool: SdkTool) => unknown;
	supplyModel: (ctx: ISupplyDataFunctions, model: SdkChatModel) => SupplyData;
}

/** A name, not a literal: TypeScript would look for the types, and the build must not need them. */
const SDK_MODULE = '@n8n/ai-node-sdk';

/**
 * The AI Node SDK of the n8n this runs in, loaded only when an agent asks for the model: n8n 2.x
 * resolves it from its own modules; n8n 1.x has none, and then the sub-node says so in plain words
 * while the package's other nodes load and run as usual.
 */
export async function loadAiNodeSdk(
	ctx: ISupplyDataFunctions,
	itemIndex: number,
): Promise<AiNodeSdk> {
	const loaded = await import(SDK_MODULE).then(
		(sdk: Partial<AiNodeSdk>) => sdk,
		(error: unknown) => error as Error,
	);
	if (
		!(loaded instanceof Error) &&
		typeof loaded.supplyModel === 'function' &&
		typeof loaded.BaseChatModel === 'function' &&
		typeof loaded.getParametersJsonSchema === 'function'
	)
		return loaded as AiNodeSdk;
	const reason =
		loaded instanceof Error
			? `It could not be loaded: ${loaded.message.split('\n')[0]}`
			: 'The one found has no supplyModel, BaseChatModel or getParametersJsonSchema.';
	throw new NodeOperationError(
		ctx.getNode(),
		"The Unified AI Gateway Chat Model needs n8n 2.x (n8n's AI Node SDK, @n8n/ai-node-sdk, is not in this n8n)",
		{
			itemIndex,
			description: [
				reason,
				"Update n8n to 2.x. On this n8n, give the agent n8n's OpenAI Chat Model with an OpenAI credential " +
					"whose Base URL is the gateway's (ending in /v1); the Unified AI Gateway node itself works here.",
			].join('\n'),
		},
	);
}
