import {
	NodeOperationError,
	updateDisplayOptions,
	type IBinaryKeyData,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { additionalBodyField } from '../../params/additionalBody';
import { modelLocator, TOP_P_OPTION } from '../../params/fields';
import { concurrencyOption } from '../../params/runFields';
import { readConcurrency } from '../../params/runSettings';
import {
	checkSpend,
	estimateOf,
	outputItems,
	readItems,
	submitItems,
	waitForResults,
	type BatchSettings,
} from '../../engine/running/batch';
import type { RunOptions } from '../../engine/running/perItem';
import type { Submitted } from '../../engine/running/types';
import type { ItemEstimate } from '../../engine/spend/types';
import { readSpendSettings, spendGuardOptions } from '../../params/spendGuardOptions';
import { chatCostJson, chatEstimate } from '../../pipeline/cost';
import { cancelSignalOf, type GatewayContext } from '../../transport/context';
import { nodeErrorOf, stopError } from '../../transport/nodeError';
import { gatewayText } from '../../transport/errors';
import { AT_ONCE_NOTE } from '../../transport/created';
import type { ByteStream } from '../../transport/request';
import {
	ANSWER_LIMITS,
	asObject,
	MAX_ANSWER_DEPTH,
	parseAnswer,
	readBounded,
	TooDeep,
} from '../../transport/responses';
import { readChatRequest, type ChatRequest } from './chatRequest';
import { postChatCompletion } from '../../api/chat';
import { usageLogCharge } from '../../api/charges';
import { relayRequestId } from '../../api/usageLog';
import { takePictures } from './chatPictures';
import { ChatStreamError, readChatStream } from '../../api/chatStream';

const show = { resource: ['text'], operation: ['message'] };
const displayOptions = { show };

const properties: INodeProperties[] = [
	modelLocator('text', show, 'gpt-5.6-sol'),
	{
		displayName: 'Messages',
		name: 'messages',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Message',
		default: { values: [{ role: 'user', content: '' }] },
		description:
			'The conversation sent to the model, oldest first. The model answers the last message.',
		options: [
			{
				displayName: 'Message',
				name: 'values',
				values: [
					{
						displayName: 'Role',
						name: 'role',
						type: 'options',
						default: 'user',
						options: [
							{ name: 'User', value: 'user', description: 'A question or instruction to answer' },
							{
								name: 'Assistant',
								value: 'assistant',
								description: 'An earlier answer of the model',
							},
							{ name: 'System', value: 'system', description: 'How the model should behave' },
						],
						description: 'Who says this message',
					},
					{
						displayName: 'Content',
						name: 'content',
						type: 'string',
						typeOptions: { rows: 3 },
						default: '',
						required: true,
						placeholder: 'Write three taglines for a coffee shop',
						description: 'The text of the message',
					},
					{
						displayName: 'Attach Binary Files',
						name: 'attachBinary',
						type: 'string',
						default: '',
						placeholder: 'data, brief',
						description:
							'Binary properties of the input item to send with this message, comma-separated: images, ' +
							'audio (MP3, WAV), video, PDF or text files, judged by their content. User messages only.',
					},
					{
						displayName: 'Attach URLs',
						name: 'attachUrls',
						type: 'string',
						default: '',
						placeholder: 'https://shop.example.com/product.jpg',
						description:
							'Image or video URLs the gateway passes to the model, one per line or comma-separated ' +
							'(.mp4, .webm and .mov are sent as video). A streamed chat makes the gateway fetch each image itself.',
					},
				],
			},
		],
	},
	{
		displayName: 'Simplify Output',
		name: 'simplifyOutput',
		type: 'boolean',
		default: true,
		description:
			'Whether to return only { text, model, finishReason, usage } and the cost fields instead of the full ' +
			'chat completion from the gateway',
	},
	spendGuardOptions(show, 'text'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			additionalBodyField(
				'additionalBodyFields',
				'Any other request fields the model takes, as a JSON object, e.g. ' +
					'{"seed": 42, "max_completion_tokens": 2000}. They override the options ' +
					'above.',
			),
			concurrencyOption(undefined, { files: false }),
			{
				displayName: 'JSON Output',
				name: 'jsonOutput',
				type: 'boolean',
				default: false,
				description:
					'Whether the model must answer with a JSON object (response_format ' +
					'json_object). Mention JSON in a message too; some models require it.',
			},
			{
				displayName: 'Maximum Number of Tokens',
				name: 'maxTokens',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 1024,
				description:
					'The most tokens the answer may use (max_tokens). A longer answer stops with finish reason "length".',
			},
			{
				displayName: 'Stream',
				name: 'stream',
				type: 'boolean',
				default: false,
				description:
					'Whether to receive the answer as a stream of events (SSE). The output is ' +
					'the same; a stream cut off halfway is reported as an error instead of a ' +
					'partial answer. Useful when a proxy drops long silent connections.',
			},
			{
				displayName: 'System Message',
				name: 'systemMessage',
				type: 'string',
				typeOptions: { rows: 2 },
				default: '',
				description:
					'Instructions sent as the first message with role System, before the messages above',
			},
			{
				displayName: 'Temperature',
				name: 'temperature',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 2, numberPrecision: 2 },
				default: 1,
				description:
					'Randomness of the answer: lower is more focused and repeatable, higher is more varied',
			},
			{
				displayName: 'Timeout (Seconds)',
				name: 'timeoutSeconds',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 300,
				description: 'How long to wait for the gateway without receiving anything',
			},
			TOP_P_OPTION,
		],
	},
];

export const description = updateDisplayOptions(displayOptions, properties);

/** A chat call's answer: the completion read and its pictures stored, the moment it arrived. */
interface ChatAnswer extends Submitted {
	completion: IDataObject;
	binary: IBinaryKeyData;
	pictures: IDataObject[];
	requestId?: string;
}

/** Every item read and checked, the run's cost checked, each chat sent once, its answer output. */
export async function execute(
	this: IExecuteFunctions,
	run: RunOptions,
): Promise<INodeExecutionData[]> {
	const settings: BatchSettings = {
		noun: 'chat call',
		concurrency: readConcurrency(this),
		wait: false,
		work: 'billed',
	};
	const batch = await readItems(this, run, settings, async (i) => await readChatRequest(this, i));
	await checkSpend(
		batch,
		() => readSpendSettings(this),
		(request, _spend, prices) => chatEstimate(request.model, request.body, prices),
	);
	const submits = submitItems(batch, async (request, i) => await sendChatCall(this, request, i));
	const results = await waitForResults(batch, submits, async (request, answer) => [
		chatItem(request, answer, estimateOf(batch, request)),
	]);
	return await outputItems(results);
}

/** The one billed call (never repeated): the completion, a picture in it stored as a binary. */
async function sendChatCall(
	ctx: IExecuteFunctions,
	request: ChatRequest,
	i: number,
): Promise<ChatAnswer> {
	const startedAt = Date.now();
	const answer = await sendChat(ctx, request, i);
	// A picture in the answer (an image model through chat) becomes a binary, its text a mark.
	const { completion, binary, pictures } = await takePictures(ctx, answer.completion, i);
	return {
		startedAt,
		raw: {},
		completion,
		binary,
		pictures,
		...(answer.requestId ? { requestId: answer.requestId } : {}),
	};
}

/** The item: the answer (simplified or whole), its pictures, the estimate and the charge. */
function chatItem(
	request: ChatRequest,
	answer: ChatAnswer,
	estimate: ItemEstimate | undefined,
): INodeExecutionData {
	const simplified = request.simplify
		? simplify(answer.completion, request.model)
		: answer.completion;
	const json: IDataObject = {
		...simplified,
		...(answer.pictures.length > 0 ? { images: answer.pictures } : {}),
		...(estimate ? { estimatedCost: chatCostJson(estimate) } : {}),
		...(answer.requestId ? { charge: usageLogCharge(answer.requestId, 'its tokens') } : {}),
	};
	return Object.keys(answer.binary).length > 0 ? { json, binary: answer.binary } : { json };
}

/** POST /v1/chat/completions, plain or streamed; both give the same completion object. */
async function sendChat(
	ctx: IExecuteFunctions,
	request: ChatRequest,
	i: number,
): Promise<{ completion: IDataObject; requestId?: string }> {
	const { body, headers } = await postChatCompletion(ctx, {
		body: request.body,
		model: request.model,
		stream: request.stream,
		timeoutMs: request.timeoutMs,
		itemIndex: i,
	});
	const requestId = relayRequestId(headers);
	const read = (completion: IDataObject) => ({ completion, ...(requestId ? { requestId } : {}) });
	if (!request.stream) return read(checkCompletion(ctx, body, request.model, i));
	const stream = body as unknown as ByteStream;
	// A relay that ignores `stream: true` answers one JSON completion: read it as such.
	if (/json/i.test(String(headers['content-type'] ?? ''))) {
		return read(checkCompletion(ctx, await readJson(ctx, stream, i), request.model, i));
	}
	try {
		return read(await readChatStream(stream, request.model));
	} catch (error) {
		if (cancelSignalOf(ctx)?.aborted)
			throw stopError(ctx.getNode(), 'The streamed answer', { itemIndex: i });
		if (error instanceof ChatStreamError) {
			throw new NodeOperationError(ctx.getNode(), error.message, {
				itemIndex: i,
				description: error.description,
			});
		}
		throw nodeErrorOf(ctx.getNode(), error, i);
	}
}

/** The one JSON completion a relay answered a streamed request with, read within the chat answer's limit. */
async function readJson(ctx: IExecuteFunctions, stream: ByteStream, i: number): Promise<unknown> {
	const read = await readBounded(stream, ANSWER_LIMITS.chat);
	const body = read.over ? undefined : parseAnswer(read.bytes);
	if (body === undefined || body instanceof TooDeep)
		throw new NodeOperationError(
			ctx.getNode(),
			`The gateway's answer ${
				read.over
					? `was larger than ${ANSWER_LIMITS.chat / 1024 / 1024} MB (counted after decompression)`
					: `nests lists and objects more than ${MAX_ANSWER_DEPTH} levels deep`
			}: refused unread (created: yes)`,
			{
				itemIndex: i,
				description:
					'The gateway accepted the request and answered with something no chat ' +
					'completion comes near (a compressed or nested bomb). Do not run the item ' +
					'again unchanged: it was billed.',
			},
		);
	return body;
}

/**
 * A 200 answer that is not a chat completion (an error envelope, an HTML page) fails clearly; the
 * Chat Model sub-node reads its answers with it too.
 */
export function checkCompletion(
	ctx: GatewayContext,
	body: unknown,
	model: string,
	i: number,
): IDataObject {
	const object = asObject(body);
	const choices = object?.choices;
	if (object && Array.isArray(choices) && choices.length > 0) return object;
	const said = gatewayText(body);
	// A 200 the gateway may have billed tokens for, though it holds no answer we can read.
	const error = new NodeOperationError(
		ctx.getNode(),
		`The gateway's answer from model '${model}' holds no chat completion` +
			(said ? `: ${said}` : '') +
			AT_ONCE_NOTE.unknown.suffix,
		{
			itemIndex: i,
			description: [
				said
					? 'Check the model and the request fields.'
					: 'The answer had no choices. If it was an HTML page, the Base URL in the ' +
						'credential points at a website instead of the gateway API (for example ' +
						'https://gateway.example.com/v1).',
				AT_ONCE_NOTE.unknown.advice,
			].join('\n'),
		},
	);
	error.context.created = 'unknown';
	throw error;
}

/** A message's text: a string, or the text parts of a list (what a Chat Model answer holds too). */
export function contentText(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) {
		return content
			.map((part) =>
				part && typeof part === 'object' && typeof (part as IDataObject).text === 'string'
					? (part as IDataObject).text
					: '',
			)
			.join('');
	}
	return '';
}

function simplify(completion: IDataObject, model: string): IDataObject {
	const first = ((completion.choices as IDataObject[])[0] ?? {}) as IDataObject;
	const message = (first.message ?? {}) as IDataObject;
	return {
		text: contentText(message.content),
		model: completion.model ?? model,
		finishReason: first.finish_reason ?? null,
		usage: completion.usage ?? null,
	};
}
