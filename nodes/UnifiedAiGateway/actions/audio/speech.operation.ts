import {
	NodeOperationError,
	updateDisplayOptions,
	type IBinaryData,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

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
import { storeBinary } from '../../engine/files/binaryStore';
import { describeBytes, EXTENSIONS, sniffMedia } from '../../engine/files/media';
import { additionalBodyField, mergeBody } from '../../params/additionalBody';
import { binaryOutputOption, modelLocator, optionsField } from '../../params/fields';
import { checkPrompt } from '../../params/inputs';
import { registryProperties } from '../../params/registryProperties';
import { readRegistryValues } from '../../params/registryValues';
import type { RegistryFieldSet } from '../../params/registryRules';
import { concurrencyOption } from '../../params/runFields';
import type { RunDefaults } from '../../params/runDefaults';
import { readConcurrency, readOptions } from '../../params/runSettings';
import { readSpendSettings, spendGuardOptions } from '../../params/spendGuardOptions';
import { speechCostJson, speechEstimate as estimateSpeech } from '../../pipeline/cost';
import { readExtraBody, resolveModel } from '../../pipeline/prepare';
import { refuse, registryRefusal } from '../../pipeline/refusals';
import { AUDIO_MODELS, UNKNOWN_AUDIO_MODEL } from '../../registry/audioModels';
import type { ModelSpec } from '../../registry/models';
import { usageLogCharge } from '../../api/charges';
import type { PriceList } from '../../api/pricing';
import { postSpeech, SPEECH_MAX_BYTES } from '../../api/audio';
import { gatewayText } from '../../transport/errors';
import { parseAnswer, TooDeep } from '../../transport/responses';

/*
 * Audio → Generate Speech: text read aloud by a speech model (POST /v1/audio/speech), the audio
 * in a binary of the item. One billed call per item, answered at once: no task, nothing to wait for.
 */

/** How Generate Speech runs with its Options left out (params/runDefaults.ts): no wait, 5 at once. */
export const DEFAULTS: Pick<RunDefaults, 'concurrency'> = { concurrency: 5 };

/** OpenAI's limit on the text of one call; the relay passes it on, and a longer text is refused upstream. */
const MAX_CHARACTERS = 4096;
/** A speech call holds the connection while the audio is made: minutes for a long text. */
const TIMEOUT_MS = 300_000;

const show = { resource: ['audio'], operation: ['speech'] };
const displayOptions = { show };

/** The registry rows as fields: each model's voices, formats and options (registry/audioModels.ts). */
const FIELD_SET: RegistryFieldSet = {
	operation: 'speech',
	models: AUDIO_MODELS,
	show,
	modelCondition: '/modelId',
	optionsCollection: {
		name: 'speechOptions',
		description:
			'Optional body fields of this model; a field not added here is not sent and the gateway uses its own default',
	},
	unknownModel: UNKNOWN_AUDIO_MODEL,
};

const properties: INodeProperties[] = [
	modelLocator('audio', show, 'tts-1'),
	{
		displayName: 'Text',
		name: 'input',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		placeholder: 'Welcome to our spring collection: fresh colours, light fabrics, made to last.',
		description: `The text to read aloud, at most ${MAX_CHARACTERS} characters`,
	},
	...registryProperties(FIELD_SET),
	spendGuardOptions(show, 'audio'),
	optionsField(show, [
		additionalBodyField(
			'additionalBodyFields',
			'Any other request fields the model takes, as a JSON object, e.g. ' +
				'{"stream_format": "audio"}. A key one of the fields above sets is refused.',
		),
		binaryOutputOption('The name of the output binary field to put the audio in'),
		concurrencyOption(DEFAULTS, { files: false }),
	]),
];

export const description = updateDisplayOptions(displayOptions, properties);

/** One item's speech call as read: nothing is sent yet. */
interface SpeechJob {
	model: string;
	spec: Omit<ModelSpec, 'id'>;
	body: IDataObject;
	characters: number;
	binaryField: string;
}

/** The audio the call answered, stored in n8n's binary store the moment it arrived. */
interface SpeechAnswer extends Submitted {
	binary: IBinaryData;
	bytes: number;
	requestId?: string;
}

/** Every item read and checked, the run's cost checked, each text sent, its audio output. */
export async function execute(
	this: IExecuteFunctions,
	run: RunOptions,
): Promise<INodeExecutionData[]> {
	const settings: BatchSettings = {
		noun: 'speech call',
		concurrency: readConcurrency(this, DEFAULTS),
		wait: false,
		work: 'billed',
	};
	const batch = await readItems(this, run, settings, (i) => readJob(this, i));
	await checkSpend(
		batch,
		() => readSpendSettings(this),
		(job, _spend, prices) => speechEstimate(job, prices),
	);
	const submits = submitItems(batch, async (job, i) => await sendSpeech(this, job, i));
	const results = await waitForResults(batch, submits, async (job, answer) => [
		speechItem(job, answer, estimateOf(batch, job)),
	]);
	return await outputItems(results);
}

/** One item's request: the model, the text, the model's fields; checked, nothing sent. */
function readJob(ctx: IExecuteFunctions, i: number): SpeechJob {
	const chosen = resolveModel(ctx, i, 'audio');
	const spec = chosen.row ?? UNKNOWN_AUDIO_MODEL;
	const checked = checkPrompt(ctx.getNodeParameter('input', i, ''), 'Text');
	if ('problem' in checked)
		throw refuse(
			ctx,
			i,
			/ is empty$/.test(checked.problem)
				? `${checked.problem}: write the text to read aloud`
				: checked.problem,
		);
	const input = checked.value;
	// Characters as the API counts them (code points), not UTF-16 units.
	const characters = [...input].length;
	if (characters > MAX_CHARACTERS)
		throw refuse(
			ctx,
			i,
			`Text has ${characters} characters; a speech call takes at most ${MAX_CHARACTERS}`,
			'Split the text over several items (one call each).',
		);
	const fields = readRegistryValues(ctx, i, FIELD_SET, chosen.id, spec, (r) =>
		registryRefusal(ctx, i, `model '${chosen.id}'`, r),
	);
	const extra = readExtraBody(ctx, i, {
		value: readOptions(ctx, i).additionalBodyFields ?? '',
		example: '{"stream_format": "audio"}',
		template: { model: chosen.id, input: '', ...fields },
		rules: spec.fields?.speech ?? {},
		labels: { input: 'Text' },
	});
	const field = readOptions(ctx, i).binaryPropertyOutput ?? 'data';
	if (typeof field !== 'string' || !field.trim())
		throw refuse(ctx, i, 'Put Output File in Field is empty: name the binary field for the audio');
	return {
		model: chosen.id,
		spec,
		body: mergeBody({ model: chosen.id, input, ...fields }, extra),
		characters,
		binaryField: field.trim(),
	};
}

/** A speech call's part of the run's estimate: per call, or per character (pipeline/cost.ts). */
function speechEstimate(job: SpeechJob, prices: PriceList): ItemEstimate {
	const format = String(job.body.response_format ?? 'mp3');
	return estimateSpeech(
		job.model,
		job.characters,
		`${job.characters} characters, ${format}`,
		prices,
	);
}

/**
 * The one billed call (never repeated) and its answer: bytes that are audio, within the audio
 * limit, stored at once. Anything else after a 200 (an error envelope, a web page, nothing) may
 * have been billed: said so, and not sent again.
 */
async function sendSpeech(
	ctx: IExecuteFunctions,
	job: SpeechJob,
	i: number,
): Promise<SpeechAnswer> {
	const startedAt = Date.now();
	const read = await postSpeech(ctx, {
		body: job.body,
		model: job.model,
		timeoutMs: TIMEOUT_MS,
		itemIndex: i,
	});
	const format = String(job.body.response_format ?? 'mp3');
	const mimeType = read.over ? undefined : audioType(read.bytes, format, read.contentType);
	if (!mimeType) {
		const answer = read.over
			? undefined
			: parseAnswer(read.bytes, { 'content-type': read.contentType });
		const said = answer instanceof TooDeep ? '' : gatewayText(answer);
		const what = read.over
			? `more than ${describeBytes(SPEECH_MAX_BYTES)} (the audio limit)`
			: read.bytes.length === 0
				? 'nothing'
				: `no audio (${describeBytes(read.bytes.length)}${said ? `: ${said}` : ''})`;
		const error = new NodeOperationError(
			ctx.getNode(),
			`The gateway answered the speech call of model '${job.model}' with ${what} (created: unknown)`,
			{
				itemIndex: i,
				description:
					'The gateway took the call, so it may have billed it (speech is billed by the ' +
					"text's length or per call). Look at the key's usage log before running this " +
					'item again; the node does not send it again by itself.',
			},
		);
		error.context.created = 'unknown';
		throw error;
	}
	const extension = EXTENSIONS[mimeType] ?? format;
	const binary = await storeBinary(ctx, read.bytes, `speech.${extension}`, mimeType);
	return {
		startedAt,
		raw: {},
		binary,
		bytes: read.bytes.length,
		...(read.requestId ? { requestId: read.requestId } : {}),
	};
}

/**
 * What the bytes are: audio by their marks (engine/files/media.ts), or raw PCM when PCM was asked
 * for, which has none: then only an answer that is not text (JSON, a web page) is taken.
 */
function audioType(
	bytes: Buffer,
	format: string,
	contentType: string | undefined,
): string | undefined {
	const sniffed = sniffMedia(bytes);
	if (sniffed?.startsWith('audio/')) return sniffed;
	if (sniffed || bytes.length === 0 || format !== 'pcm') return undefined;
	const text = /^\s*[[{<]/.test(bytes.subarray(0, 64).toString('latin1'));
	return text || /json|html|text\//i.test(contentType ?? '') ? undefined : 'audio/pcm';
}

/** The item: what was asked, what came back; the audio in its binary field. */
function speechItem(
	job: SpeechJob,
	answer: SpeechAnswer,
	estimate: ItemEstimate | undefined,
): INodeExecutionData {
	const json: IDataObject = {
		model: job.model,
		voice: job.body.voice ?? null,
		format: job.body.response_format ?? null,
		characters: job.characters,
		mimeType: answer.binary.mimeType,
		fileName: answer.binary.fileName ?? null,
		bytes: answer.bytes,
		estimatedCost: estimate ? speechCostJson(estimate) : null,
		...(answer.requestId
			? { charge: usageLogCharge(answer.requestId, "the text's length or per call") }
			: {}),
	};
	return { json, binary: { [job.binaryField]: answer.binary } };
}
