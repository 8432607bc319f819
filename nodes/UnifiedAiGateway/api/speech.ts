import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { FILE_KINDS } from '../registry/fileKinds';
import { gatewayRequest } from '../transport/request';
import { readBounded, type BoundedRead } from '../transport/responses';
import { namingModelsOffered } from './models';

/** The most of one speech answer read: the audio file kind's limit (registry/fileKinds.ts). */
export const SPEECH_MAX_BYTES = FILE_KINDS.audio.maxMb * 1024 * 1024;

/**
 * POST /v1/audio/speech (new-api relays OpenAI's route; docs/gateway-contract.md §10.14): one billed
 * call whose answer is the audio itself, sent chunked with the upstream's Content-Type. Read up to
 * SPEECH_MAX_BYTES as it arrives; what the bytes are is the caller's to judge.
 */
export async function postSpeech(
	ctx: IExecuteFunctions,
	call: { body: IDataObject; model: string; timeoutMs: number; itemIndex: number },
): Promise<BoundedRead & { contentType?: string }> {
	const { body, headers } = await namingModelsOffered(ctx, call.model, call.itemIndex, () =>
		gatewayRequest.call(ctx, {
			method: 'POST',
			path: '/v1/audio/speech',
			body: call.body,
			model: call.model,
			action: `asking model '${call.model}' for speech`,
			billed: true,
			stream: true,
			timeoutMs: call.timeoutMs,
			itemIndex: call.itemIndex,
		}),
	);
	const read = await readBounded(body, SPEECH_MAX_BYTES);
	const type = headers['content-type'];
	return { ...read, ...(typeof type === 'string' ? { contentType: type } : {}) };
}
