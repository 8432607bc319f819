import {
	NodeOperationError,
	type IBinaryData,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { usageLogCharge } from '../../api/charges';
import type { PriceList } from '../../api/pricing';
import { postRecording, TRANSCRIPT_MAX_BYTES, type TranscriptionRoute } from '../../api/audio';
import type { BatchSettings } from '../../engine/running/batch';
import type { Submitted } from '../../engine/running/types';
import type { ItemEstimate } from '../../engine/spend/types';
import { storeBinary } from '../../engine/files/binaryStore';
import { describeBytes } from '../../engine/files/media';
import { additionalBodyField, mergeBody } from '../../params/additionalBody';
import { readInputAudio, type InputAudio } from '../../params/binaryInput';
import { binaryOutputOption, modelLocator, optionsField } from '../../params/fields';
import { registryProperties } from '../../params/registryProperties';
import { readRegistryValues } from '../../params/registryValues';
import type { RegistryFieldSet } from '../../params/registryRules';
import { concurrencyOption } from '../../params/runFields';
import type { RunDefaults } from '../../params/runDefaults';
import { readConcurrency, readOptions } from '../../params/runSettings';
import { spendGuardOptions } from '../../params/spendGuardOptions';
import { perCallCostJson, perCallEstimate } from '../../pipeline/cost';
import { readExtraBody, resolveModel } from '../../pipeline/prepare';
import { refuse, registryRefusal } from '../../pipeline/refusals';
import { FILE_KINDS } from '../../registry/fileKinds';
import { AUDIO_MODELS, UNKNOWN_AUDIO_MODEL } from '../../registry/audioModels';
import { gatewayText } from '../../transport/errors';
import { parseAnswer, TooDeep } from '../../transport/responses';

/*
 * A recording sent to a speech-to-text route (Audio → Transcribe and Translate): the steps both
 * operations run, as Image's imageJob.ts is for Generate and Edit. One billed call per item,
 * answered at once: no task, nothing to wait for.
 */

/** A transcript is made while the connection waits: minutes for an hour of audio. */
const TIMEOUT_MS = 600_000;

/** Subtitle formats: given as a file too, ready for a video editor or a Write File node. */
const SUBTITLES: Record<string, { mimeType: string; extension: string }> = {
	srt: { mimeType: 'application/x-subrip', extension: 'srt' },
	vtt: { mimeType: 'text/vtt', extension: 'vtt' },
};

/** One item's call as read and checked: nothing is sent yet, and the recording is not held. */
export interface RecordingJob {
	route: TranscriptionRoute;
	model: string;
	/** The text fields of the multipart, as the model's rows and Additional Body Fields give them. */
	fields: IDataObject;
	format: string;
	recording: InputAudio & { property: string };
	binaryField: string;
}

/** The transcript the call answered: JSON (json, verbose_json) or text (text, srt, vtt). */
export interface TranscriptAnswer extends Submitted {
	json?: IDataObject;
	text: string;
	subtitles?: IBinaryData;
	requestId?: string;
}

/**
 * An operation's model fields from the audio rows (registry/audioModels.ts): the rows' `operation`
 * key, shown for that operation, named with it as prefix so the two operations share no parameter.
 */
export function recordingFieldSet(operation: 'transcribe' | 'translate'): RegistryFieldSet {
	return {
		operation,
		models: AUDIO_MODELS,
		show: { resource: ['audio'], operation: [operation] },
		prefix: operation,
		modelCondition: '/modelId',
		optionsCollection: {
			name: `${operation}Options`,
			description:
				'Optional fields of this model; a field not added here is not sent and the model decides',
		},
		unknownModel: UNKNOWN_AUDIO_MODEL,
	};
}

/** What the operation file says of itself: its route, its model fields, its run's defaults. */
export interface RecordingOperation {
	route: TranscriptionRoute;
	set: RegistryFieldSet;
	/** An Additional Body Fields example for this route. */
	example: string;
	/** What one item's call is called in messages: 'transcription call'. */
	noun: string;
	defaults: Pick<RunDefaults, 'concurrency'>;
}

/**
 * The form both operations show: the model, the recording's binary field, the model's fields from
 * its row, the Spend Guard, the Options. The operation's `show` (in its field set) places them.
 */
export function recordingProperties(op: RecordingOperation): INodeProperties[] {
	const { show } = op.set;
	return [
		modelLocator('audio', show, 'whisper-1'),
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			hint: 'The name of the input binary field holding the recording',
			description:
				'The binary field of the input item with the recording: MP3, MP4 or M4A, Ogg, WAV, ' +
				"FLAC or WebM, at most 25 MB for OpenAI's models, judged by the file's content",
		},
		...registryProperties(op.set),
		spendGuardOptions(show, 'audio'),
		optionsField(show, [
			additionalBodyField(
				'additionalBodyFields',
				`Any other form fields the model takes, as a JSON object, e.g. ${op.example}. ` +
					'A key the fields above set is refused.',
			),
			binaryOutputOption('The name of the output binary field for SRT or VTT subtitles'),
			concurrencyOption(op.defaults, { files: false }),
		]),
	];
}

/** How the batch runs: the operation's Concurrency, one billed call per item, nothing to wait for. */
export function recordingSettings(ctx: IExecuteFunctions, op: RecordingOperation): BatchSettings {
	return {
		noun: op.noun,
		concurrency: readConcurrency(ctx, op.defaults),
		wait: false,
		work: 'billed',
	};
}

/** Step 1 of the batch: the model, the recording checked by its bytes, the model's fields. */
export async function readRecordingJob(
	ctx: IExecuteFunctions,
	i: number,
	op: RecordingOperation,
): Promise<RecordingJob> {
	const chosen = resolveModel(ctx, i, 'audio');
	const spec = chosen.row ?? UNKNOWN_AUDIO_MODEL;
	const property = ctx.getNodeParameter('binaryPropertyName', i, 'data');
	const maxBytes = spec.limits?.maxFileBytes ?? FILE_KINDS.audio.maxMb * 1024 * 1024;
	// Checked by its bytes now, read again when sent: a batch never holds every recording at once.
	const { fileName, mimeType, bytes } = await readInputAudio(
		ctx,
		i,
		property,
		maxBytes,
		'Input Binary Field',
	);
	const fields = readRegistryValues(ctx, i, op.set, chosen.id, spec, (r) =>
		registryRefusal(ctx, i, `model '${chosen.id}'`, r),
	);
	const options = readOptions(ctx, i);
	const extra = readExtraBody(ctx, i, {
		value: options.additionalBodyFields ?? '',
		example: op.example,
		template: { model: chosen.id, file: '', ...fields },
		rules: spec.fields?.[op.set.operation] ?? {},
		labels: { file: 'Input Binary Field' },
	});
	const field = options.binaryPropertyOutput ?? 'data';
	if (typeof field !== 'string' || !field.trim())
		throw refuse(ctx, i, 'Put Output File in Field is empty: name the binary field for subtitles');
	return {
		route: op.route,
		model: chosen.id,
		fields: mergeBody(fields, extra),
		format: String(fields.response_format ?? 'json'),
		recording: { fileName, mimeType, bytes, property: String(property).trim() },
		binaryField: field.trim(),
	};
}

/** Step 2: the gateway's price per call where it has one; a model priced by its ratio is unpriced. */
export function recordingEstimate(job: RecordingJob, prices: PriceList): ItemEstimate {
	return perCallEstimate(job.model, `${describeBytes(job.recording.bytes)} of audio`, prices);
}

/** A multipart field's text: numbers and words as typed, a list repeated as `key[]`, objects as JSON. */
function appendField(form: FormData, key: string, value: unknown): void {
	if (value === undefined || value === null) return;
	if (Array.isArray(value)) {
		for (const entry of value) appendField(form, key.endsWith('[]') ? key : `${key}[]`, entry);
		return;
	}
	form.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
}

/**
 * Step 3: the one billed call (never repeated) and its transcript, read within its limit. An
 * answer that holds no transcript after a 200 (an error envelope, nothing) may have been billed:
 * said so with the gateway's words, and not sent again.
 */
export async function sendRecording(
	ctx: IExecuteFunctions,
	job: RecordingJob,
	i: number,
): Promise<TranscriptAnswer> {
	const startedAt = Date.now();
	const buffer = await ctx.helpers.getBinaryDataBuffer(i, job.recording.property);
	const form = new FormData();
	form.append('model', job.model);
	for (const [key, value] of Object.entries(job.fields)) appendField(form, key, value);
	form.append(
		'file',
		new Blob([buffer as unknown as BlobPart], { type: job.recording.mimeType }),
		job.recording.fileName,
	);
	const read = await postRecording(ctx, {
		route: job.route,
		form,
		model: job.model,
		timeoutMs: TIMEOUT_MS,
		itemIndex: i,
	});
	const answer = read.over
		? undefined
		: parseAnswer(read.bytes, { 'content-type': read.contentType });
	// A text transcript is itself, even one that opens like JSON nested deep ("[[Music]] …").
	const asText = job.format === 'text' || job.format in SUBTITLES;
	const json = answer instanceof TooDeep ? (asText ? answer.text : undefined) : answer;
	const isObject = typeof json === 'object' && json !== null && !Array.isArray(json);
	// A JSON format answers an object: a body that is not one (cut off, a page) is no transcript.
	const transcript = isObject ? (json as IDataObject).text : asText ? json : undefined;
	const said = isObject && typeof transcript !== 'string' ? gatewayText(json) : '';
	const text =
		typeof transcript !== 'string'
			? undefined
			: job.format === 'text' && !isObject
				? transcript.trimEnd()
				: transcript;
	if (read.over || text === undefined) {
		const what = read.over
			? `more than ${describeBytes(TRANSCRIPT_MAX_BYTES)} (the transcript limit)`
			: read.bytes.length === 0
				? 'nothing'
				: `no transcript (${describeBytes(read.bytes.length)}${said ? `: ${said}` : ''})`;
		const error = new NodeOperationError(
			ctx.getNode(),
			`The gateway answered the ${job.route === 'translations' ? 'translation' : 'transcription'} ` +
				`call of model '${job.model}' with ${what} (created: unknown)`,
			{
				itemIndex: i,
				description:
					'The gateway took the call, so it may have billed it (speech to text is billed by ' +
					"the recording's length or per call). Look at the key's usage log before running " +
					'this item again; the node does not send it again by itself.',
			},
		);
		error.context.created = 'unknown';
		throw error;
	}
	const subtitle = SUBTITLES[job.format];
	const subtitles = subtitle
		? await storeBinary(
				ctx,
				Buffer.from(text, 'utf8'),
				`${job.recording.fileName.replace(/\.[^.]+$/, '')}.${subtitle.extension}`,
				subtitle.mimeType,
			)
		: undefined;
	return {
		startedAt,
		raw: {},
		...(isObject ? { json: json as IDataObject } : {}),
		text,
		...(subtitles ? { subtitles } : {}),
		...(read.requestId ? { requestId: read.requestId } : {}),
	};
}

/**
 * Step 4: the item. The transcript's own fields first (text; verbose_json's language, duration,
 * segments and words; a model's usage), then what was asked; subtitles also as a binary.
 */
export function transcriptItem(
	job: RecordingJob,
	answer: TranscriptAnswer,
	estimate: ItemEstimate | undefined,
): INodeExecutionData {
	const json: IDataObject = {
		...(answer.json ?? {}),
		text: answer.text,
		model: job.model,
		format: job.format,
		fileName: job.recording.fileName,
		bytes: job.recording.bytes,
		estimatedCost: estimate ? perCallCostJson(estimate) : null,
		...(answer.requestId
			? { charge: usageLogCharge(answer.requestId, "the recording's length") }
			: {}),
	};
	return {
		json,
		...(answer.subtitles ? { binary: { [job.binaryField]: answer.subtitles } } : {}),
	};
}
