import {
	NodeOperationError,
	type IDataObject,
	type ISupplyDataFunctions,
	type SupplyData,
} from 'n8n-workflow';

/**
 * The model the SDK builds for an OpenAI-style gateway: the part of `supplyModel`'s `openai` options
 * (@n8n/ai-node-sdk 0.31.1, inside n8n 2.41.1) this node sets. Declared here rather than imported:
 * the SDK is an optional peer that n8n 1.x lacks, so nothing of it may be needed to build or load.
 */
export interface OpenAiModel {
	type: 'openai';
	baseUrl: string;
	apiKey: string;
	model: string;
	temperature?: number;
	maxTokens?: number;
	topP?: number;
	frequencyPenalty?: number;
	presencePenalty?: number;
	/** Milliseconds, for the whole call and for the headers and body each. */
	timeout?: number;
	/** Sent with every chat call as they are (response_format). */
	additionalParams?: IDataObject;
	/** Called with the OpenAI client's error; what it throws is the error the agent reports. */
	onFailedAttempt?: (error: unknown) => void;
}

interface AiNodeSdk {
	supplyModel: (ctx: ISupplyDataFunctions, model: OpenAiModel) => SupplyData;
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
	if (!(loaded instanceof Error) && typeof loaded.supplyModel === 'function')
		return loaded as AiNodeSdk;
	const reason =
		loaded instanceof Error
			? `It could not be loaded: ${loaded.message.split('\n')[0]}`
			: 'The one found has no supplyModel.';
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
