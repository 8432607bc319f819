import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { postChatCompletion } from '../api/chat';
import {
	checkSpend,
	estimateOf,
	outputItems,
	readItems,
	submitItems,
	waitForResults,
	type BatchSettings,
} from '../engine/running/batch';
import type { RunOptions } from '../engine/running/perItem';
import type { Submitted } from '../engine/running/types';
import { readSpendSettings, spendGuardOptions } from '../params/spendGuardOptions';
import { chatCostJson, chatEstimate } from '../pipeline/cost';
import { usageLogCharge } from '../api/charges';
import { relayRequestId } from '../api/usageLog';
import { modelLocator } from '../params/fields';
import { concurrencyOption } from '../params/runFields';
import { readConcurrency } from '../params/runSettings';
import { checkPrompt, readNumber } from '../params/inputs';
import { gatewayText } from '../transport/errors';
import { asObject } from '../transport/responses';
import { binaryPart, checkModelReads, namesIn, urlPart } from './text/chatAttachments';

/** "an image", "a video", "a document": for messages. */
const A_KIND = { image: 'an image', video: 'a video', document: 'a document' } as const;
const RESOURCE = { image: 'Image', video: 'Video', document: 'File' } as const;

/*
 * Image → Analyze, Video → Analyze and File → Analyze Document (docs/gateway-contract.md §10.14): one chat call
 * that shows a text model the files and asks the question, as n8n's OpenAI node does, through the
 * gateway. The files are the content parts of chat attachments (text/chatAttachments.ts), of the
 * operation's kind only.
 */

/** What one Analyze operation reads: its kind of file, its part type, its words. */
export interface AnalysisKind {
	/** What the files must be. A document comes from binary data only (its bytes go in the part). */
	kind: 'image' | 'video' | 'document';
	/** The content part type the files become. */
	part: 'image_url' | 'video_url' | 'file';
	question: string;
	show: Record<string, string[]>;
}

/**
 * The form of an Analyze operation: the text model, its question (the operation's own Text Input
 * field, with its default), the files, a length.
 */
export function analysisProperties(op: AnalysisKind, question: INodeProperties): INodeProperties[] {
	const { show } = op;
	const byUrl = op.kind !== 'document';
	return [
		modelLocator('text', show, 'gpt-5.6-sol'),
		question,
		...(byUrl
			? [
					{
						displayName: 'Input Type',
						name: 'inputType',
						type: 'options',
						default: 'binary',
						options: [
							{ name: 'Binary File(s)', value: 'binary' },
							{ name: 'URL(s)', value: 'url' },
						],
					},
				]
			: []),
		{
			displayName: 'Input Data Field Name(s)',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			placeholder: 'data, data2',
			hint: `The binary fields of the input item with the ${op.kind}s, comma-separated`,
			...(byUrl ? { displayOptions: { show: { inputType: ['binary'] } } } : {}),
		},
		...(byUrl
			? [
					{
						displayName: 'URL(s)',
						name: 'urls',
						type: 'string',
						default: '',
						placeholder: `https://example.com/${op.kind === 'video' ? 'clip.mp4' : 'photo.jpg'}`,
						description: `${op.kind === 'video' ? 'Video' : 'Image'} URLs the gateway passes to the model, comma-separated`,
						displayOptions: { show: { inputType: ['url'] } },
					},
				]
			: []),
		spendGuardOptions(show, 'text'),
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Length of Description (Max Tokens)',
					name: 'maxTokens',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: 300,
					description: 'The most tokens the answer may have. Left out: the model decides.',
				},
				concurrencyOption(undefined, { files: false }),
			],
		},
	].map((p) => ({
		...p,
		displayOptions: { show: { ...show, ...(p.displayOptions?.show ?? {}) } },
	})) as INodeProperties[];
}

/** One item's analysis as read: the question and its files in a chat body; nothing is sent yet. */
interface AnalysisJob {
	model: string;
	body: IDataObject;
}

/** The answer of an analysis call, read the moment it arrived. */
interface AnalysisAnswer extends Submitted {
	json: IDataObject;
}

/**
 * An Analyze operation's run: every item read and checked, the run's cost checked (the Spend
 * Guard), then one billed chat call per item under Concurrency, never asked again (Retry On Fail
 * takes up what an earlier try answered), each call's charge from the relay's usage log.
 */
export async function runAnalysis(
	ctx: IExecuteFunctions,
	run: RunOptions,
	op: AnalysisKind,
): Promise<INodeExecutionData[]> {
	const settings: BatchSettings = {
		noun: `${op.kind} analysis`,
		concurrency: readConcurrency(ctx),
		wait: false,
		work: 'billed',
	};
	const batch = await readItems(ctx, run, settings, async (i) => await readAnalysis(ctx, i, op));
	await checkSpend(
		batch,
		() => readSpendSettings(ctx),
		(job, _spend, prices) => chatEstimate(job.model, job.body, prices),
	);
	const submits = submitItems(batch, async (job, i) => await sendAnalysis(ctx, job, i));
	const results = await waitForResults(batch, submits, async (job, answer) => {
		const estimate = estimateOf(batch, job);
		return [
			{ json: { ...answer.json, ...(estimate ? { estimatedCost: chatCostJson(estimate) } : {}) } },
		];
	});
	return await outputItems(results);
}

/** One item's request: the question and its files, checked; nothing is sent. */
async function readAnalysis(
	ctx: IExecuteFunctions,
	i: number,
	op: AnalysisKind,
): Promise<AnalysisJob> {
	const fail = (message: string, description?: string) =>
		new NodeOperationError(ctx.getNode(), message, {
			itemIndex: i,
			description: [description, 'Nothing was sent.'].filter(Boolean).join(' '),
		});
	const model = String(ctx.getNodeParameter('modelId', i, '', { extractValue: true }) ?? '').trim();
	if (!model)
		throw fail('Model is empty', 'Pick a text model that reads images, e.g. gpt-5.6-sol.');
	const question = checkPrompt(ctx.getNodeParameter('text', i, op.question), 'Text Input');
	if ('problem' in question) throw fail(question.problem);
	const binary =
		op.kind === 'document' || ctx.getNodeParameter('inputType', i, 'binary') === 'binary';
	const field = binary ? 'Input Data Field Name(s)' : 'URL(s)';
	const names = namesIn(
		ctx.getNodeParameter(binary ? 'binaryPropertyName' : 'urls', i, ''),
		field,
		fail,
	);
	if (names.length === 0) throw fail(`${field} is empty: name at least one ${op.kind}`);
	const parts: IDataObject[] = [];
	for (const name of names) {
		const part = binary ? await binaryPart(ctx, i, name, fail, field) : urlPart(name, fail);
		// A URL names no kind: Video → Analyze sends its URLs as video.
		const given =
			!binary && op.part === 'video_url' && part.type === 'image_url'
				? { type: 'video_url', video_url: { url: name } }
				: part;
		if (given.type !== op.part)
			throw fail(
				`${field}: '${name}' is not ${A_KIND[op.kind]}`,
				`${RESOURCE[op.kind]} → Analyze takes ${op.kind}s (a document: PDF or text); a chat ` +
					'message takes other files (Text → Message a Model).',
			);
		parts.push(given);
	}
	checkModelReads(model, parts, fail);
	const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
	const body: IDataObject = {
		model,
		messages: [{ role: 'user', content: [{ type: 'text', text: question.value }, ...parts] }],
	};
	if ('maxTokens' in options)
		body.max_tokens = readNumber(ctx, 'maxTokens', i, { value: options.maxTokens });
	return { model, body };
}

/** The one billed chat call of an item (never repeated) and its answer read: the text. */
async function sendAnalysis(
	ctx: IExecuteFunctions,
	{ model, body }: AnalysisJob,
	i: number,
): Promise<AnalysisAnswer> {
	const startedAt = Date.now();
	const { body: answer, headers } = await postChatCompletion(ctx, {
		body,
		model,
		stream: false,
		timeoutMs: 300_000,
		itemIndex: i,
	});
	const choice = asObject((answer.choices as unknown[] | undefined)?.[0]);
	const content = asObject(choice?.message)?.content;
	if (typeof content !== 'string') {
		const said = gatewayText(answer);
		const error = new NodeOperationError(
			ctx.getNode(),
			`The gateway's answer from model '${model}' holds no text${said ? `: ${said}` : ''} ` +
				'(created: unknown)',
			{
				itemIndex: i,
				description:
					"It may have been billed: look at the key's usage log before running the item again.",
			},
		);
		error.context.created = 'unknown';
		throw error;
	}
	const requestId = relayRequestId(headers);
	return {
		startedAt,
		raw: {},
		json: {
			text: content,
			model: answer.model ?? model,
			finishReason: choice?.finish_reason ?? null,
			usage: answer.usage ?? null,
			...(requestId ? { charge: usageLogCharge(requestId, 'its tokens') } : {}),
		},
	};
}
