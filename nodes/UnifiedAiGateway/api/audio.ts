import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { FILE_KINDS } from '../registry/fileKinds';
import { gatewayRequest } from '../transport/request';
import { readBounded, type BoundedRead } from '../transport/responses';
import { namingModelsOffered } from './models';
import { relayRequestId } from './usageLog';

/*
 * The audio routes new-api relays in OpenAI's wire format (docs/gateway-contract.md §10.14): each one
 * billed call whose answer is a file or a text rather than JSON, read as it arrives within a limit.
 */

/** The most of one speech answer read: the audio file kind's limit (registry/fileKinds.ts). */
export const SPEECH_MAX_BYTES = FILE_KINDS.audio.maxMb * 1024 * 1024;

/** The most of one transcript read: hours of subtitles are a few MB; more is not a transcript. */
export const TRANSCRIPT_MAX_BYTES = 10 * 1024 * 1024;

/** The two speech-to-text routes: the words as spoken, or in English. */
export type TranscriptionRoute = 'transcriptions' | 'translations';

/** An audio route's answer: its first bytes up to the limit, its type, the relay's name for the call. */
export type AudioAnswer = BoundedRead & { contentType?: string; requestId?: string };

interface AudioCall {
	model: string;
	timeoutMs: number;
	itemIndex: number;
}

/**
 * One billed POST (never repeated) read up to `limit` bytes. The relay's request id names the call
 * in its usage log, where its charge is read after the run (engine/spend/usageCharges.ts).
 */
async function postForBytes(
	ctx: IExecuteFunctions,
	call: AudioCall & { path: string; body: IDataObject | FormData; action: string },
	limit: number,
): Promise<AudioAnswer> {
	const { body, headers } = await namingModelsOffered(ctx, call.model, call.itemIndex, () =>
		gatewayRequest.call(ctx, {
			method: 'POST',
			path: call.path,
			body: call.body,
			model: call.model,
			action: call.action,
			billed: true,
			answeredAtOnce: true,
			stream: true,
			timeoutMs: call.timeoutMs,
			itemIndex: call.itemIndex,
		}),
	);
	const read = await readBounded(body, limit);
	const type = headers['content-type'];
	const requestId = relayRequestId(headers);
	return {
		...read,
		...(typeof type === 'string' ? { contentType: type } : {}),
		...(requestId ? { requestId } : {}),
	};
}

/**
 * POST /v1/audio/speech: a JSON body, answered with the audio itself, chunked, with the upstream's
 * Content-Type. What the bytes are is the caller's to judge.
 */
export async function postSpeech(
	ctx: IExecuteFunctions,
	call: AudioCall & { body: IDataObject },
): Promise<AudioAnswer> {
	const action = `asking model '${call.model}' for speech`;
	return await postForBytes(ctx, { ...call, path: '/v1/audio/speech', action }, SPEECH_MAX_BYTES);
}

/**
 * POST /v1/audio/transcriptions or /translations: a multipart form (the relay rebuilds it for the
 * upstream), answered with the transcript in the format asked, JSON or plain text (text, srt and
 * vtt come as text/plain). What it says is the caller's to judge.
 */
export async function postRecording(
	ctx: IExecuteFunctions,
	call: AudioCall & { route: TranscriptionRoute; form: FormData },
): Promise<AudioAnswer> {
	const what = call.route === 'translations' ? 'a translation' : 'a transcript';
	return await postForBytes(
		ctx,
		{
			...call,
			path: `/v1/audio/${call.route}`,
			body: call.form,
			action: `asking model '${call.model}' for ${what}`,
		},
		TRANSCRIPT_MAX_BYTES,
	);
}
