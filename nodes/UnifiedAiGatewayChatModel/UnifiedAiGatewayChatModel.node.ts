import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type INodeType,
	type INodeTypeDescription,
	type ISupplyDataFunctions,
	type SupplyData,
} from 'n8n-workflow';

import { listSearch } from '../UnifiedAiGateway/methods/modelSearch';
import { modelLocator, optionsField, TOP_P_OPTION } from '../UnifiedAiGateway/params/fields';
import { checkNumber } from '../UnifiedAiGateway/params/inputs';
import { NUMBER_LIMITS, type NumberField } from '../UnifiedAiGateway/registry/limits';
import { checkCredential } from '../UnifiedAiGateway/transport/request';
import { loadAiNodeSdk } from './aiNodeSdk';
import { gatewayChatModel } from './gatewayChatModel';

/** The text model the picker starts on: the one the Text operation starts on. */
const DEFAULT_MODEL = 'gpt-5.6-sol';
/** Sampling Temperature left out: what n8n's own chat models start on, so a swapped model answers alike. */
const DEFAULT_TEMPERATURE = 0.7;
/** Timeout (Seconds) left out: the Text operation's. */
const DEFAULT_TIMEOUT_SECONDS = 300;

/** The number options and the NUMBER_LIMITS row each is checked against. */
const NUMBER_OPTIONS = {
	frequencyPenalty: 'frequencyPenalty',
	maxTokens: 'maxTokens',
	presencePenalty: 'presencePenalty',
	temperature: 'temperature',
	timeoutSeconds: 'chatTimeoutSeconds',
	topP: 'topP',
} as const satisfies Record<string, NumberField>;

type NumberOption = keyof typeof NUMBER_OPTIONS;

/** Each sampling option's name in the /v1/chat/completions body, sent as the user set it. */
const BODY_NAMES = {
	frequencyPenalty: 'frequency_penalty',
	maxTokens: 'max_tokens',
	presencePenalty: 'presence_penalty',
	temperature: 'temperature',
	topP: 'top_p',
} as const satisfies Record<Exclude<NumberOption, 'timeoutSeconds'>, string>;

export class UnifiedAiGatewayChatModel implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Unified AI Gateway Chat Model',
		name: 'unifiedAiGatewayChatModel',
		icon: {
			light: 'file:../../icons/unifiedAiGateway.svg',
			dark: 'file:../../icons/unifiedAiGateway.dark.svg',
		},
		group: ['transform'],
		version: 1,
		// The model id, whether the locator holds it as an object (From List, ID) or as text.
		subtitle:
			'={{ typeof $parameter["modelId"] === "object" ? $parameter["modelId"].value : $parameter["modelId"] }}',
		description: "The gateway's text models for the AI Agent and chains (n8n 2.x)",
		defaults: { name: 'Unified AI Gateway Chat Model' },
		inputs: [],
		outputs: [NodeConnectionTypes.AiLanguageModel],
		outputNames: ['Model'],
		credentials: [{ name: 'unifiedAiGatewayApi', required: true }],
		properties: [
			{
				displayName:
					"Needs n8n 2.x (its AI Node SDK). On n8n 1.x use n8n's OpenAI Chat Model with the gateway's /v1 as Base URL.",
				name: 'notice',
				type: 'notice',
				default: '',
			},
			modelLocator('text', undefined, DEFAULT_MODEL),
			optionsField(undefined, [
				{
					displayName: 'Frequency Penalty',
					name: 'frequencyPenalty',
					type: 'number',
					typeOptions: { minValue: -2, maxValue: 2, numberPrecision: 1 },
					default: 0,
					description:
						'Positive values make the model less likely to repeat the same words (frequency_penalty)',
				},
				{
					displayName: 'Maximum Number of Tokens',
					name: 'maxTokens',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: 1024,
					description: 'The most tokens one answer may use (max_tokens)',
				},
				{
					displayName: 'Presence Penalty',
					name: 'presencePenalty',
					type: 'number',
					typeOptions: { minValue: -2, maxValue: 2, numberPrecision: 1 },
					default: 0,
					description:
						'Positive values make the model more likely to talk about new topics (presence_penalty)',
				},
				{
					displayName: 'Response Format',
					name: 'responseFormat',
					type: 'options',
					default: 'text',
					options: [
						{ name: 'Text', value: 'text', description: 'Plain text answers' },
						{
							name: 'JSON',
							value: 'json_object',
							description:
								'Answers are one JSON object (response_format json_object); say JSON in the prompt too',
						},
					],
				},
				{
					displayName: 'Sampling Temperature',
					name: 'temperature',
					type: 'number',
					typeOptions: { minValue: 0, maxValue: 2, numberPrecision: 1 },
					default: DEFAULT_TEMPERATURE,
					description: 'Randomness of the answers: lower is more focused and repeatable',
				},
				{
					displayName: 'Timeout (Seconds)',
					name: 'timeoutSeconds',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: DEFAULT_TIMEOUT_SECONDS,
					description: 'How long one chat call may take before it is given up',
				},
				TOP_P_OPTION,
			]),
		],
	};

	methods = { listSearch };

	async supplyData(this: ISupplyDataFunctions, itemIndex: number): Promise<SupplyData> {
		const sdk = await loadAiNodeSdk(this, itemIndex);
		const model = String(this.getNodeParameter('modelId', itemIndex, '', { extractValue: true }));
		if (!model.trim())
			throw new NodeOperationError(this.getNode(), 'Model is empty', {
				itemIndex,
				description: 'Pick a text model from the list, or type its ID.',
			});
		const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
		const { timeoutSeconds, ...numbers } = readNumbers(this, options, itemIndex);
		// Only what the user set goes (the temperature always: n8n's chat models start on 0.7), by
		// the names the gateway reads: no client rewrites a gpt-5 or o-series request.
		const sampling: IDataObject = { temperature: DEFAULT_TEMPERATURE };
		for (const [name, value] of Object.entries(numbers) as Array<[keyof typeof BODY_NAMES, number]>)
			sampling[BODY_NAMES[name]] = value;
		if (options.responseFormat === 'json_object')
			sampling.response_format = { type: 'json_object' };
		await checkCredential(this, {
			path: '/v1/chat/completions',
			action: `asking model '${model}'`,
			model,
			itemIndex,
			billed: true,
		});
		const chatModel = gatewayChatModel(sdk, this, {
			model,
			sampling,
			timeoutMs: (timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
			itemIndex,
		});
		return sdk.supplyModel(this, chatModel);
	}
}

/** The number options the user added, each checked against its NUMBER_LIMITS row. */
function readNumbers(
	ctx: ISupplyDataFunctions,
	options: IDataObject,
	itemIndex: number,
): Partial<Record<NumberOption, number>> {
	const read: Partial<Record<NumberOption, number>> = {};
	for (const [name, field] of Object.entries(NUMBER_OPTIONS) as Array<
		[NumberOption, NumberField]
	>) {
		if (!(name in options)) continue;
		const checked = checkNumber(options[name], NUMBER_LIMITS[field]);
		if ('problem' in checked)
			throw new NodeOperationError(ctx.getNode(), checked.problem, {
				itemIndex,
				description:
					'Nothing was sent. If the value comes from an expression, check what it gives.',
			});
		read[name] = checked.value;
	}
	return read;
}
