import type { IDataObject } from 'n8n-workflow';

import { gatewayText } from '../transport/errors';
import type { ByteStream } from '../transport/request';
import { ANSWER_LIMITS, asObject } from '../transport/responses';
import { MAX_SSE_LINE, SseLineTooLong, SseReader } from './sse';

/** A stream that did not deliver a whole answer; the operation turns it into a node error. */
export class ChatStreamError extends Error {
	constructor(
		message: string,
		readonly description: string,
	) {
		super(message);
	}
}

interface ChoiceState {
	index: number;
	role: string;
	content: string;
	reasoning?: string;
	finishReason: string | null;
}

const NOT_RETURNED =
	'No partial answer is returned: a cut-off text must not pass for a ' +
	'complete one. The gateway may have billed the tokens already generated. ' +
	'Run the item again, or turn Stream off.';

/**
 * Reads a chat-completions SSE stream (OpenAI `chat.completion.chunk` events) to its end and
 * builds the same completion object a non-streamed call returns. A stream counts as complete
 * when it sent `[DONE]` or a finish_reason for every choice; anything less is a ChatStreamError.
 */
export async function readChatStream(stream: ByteStream, model: string): Promise<IDataObject> {
	const reader = new SseReader();
	let received = 0;
	let tooLarge = false;
	// Counted as it arrives (after decompression): an event that never ends would grow without bound.
	const counted = async function* () {
		for await (const chunk of stream) {
			received += chunk.length;
			if (received > ANSWER_LIMITS.chatStream) {
				tooLarge = true;
				throw new Error('the stream passed its limit');
			}
			yield chunk;
		}
	};
	const choices = new Map<number, ChoiceState>();
	const top: IDataObject = {};
	let usage: IDataObject | undefined;
	let done = false;
	let events = 0;
	let broken: unknown;
	let failure: ChatStreamError | undefined;
	const characters = () => [...choices.values()].reduce((n, c) => n + [...c.content].length, 0);
	const cutOff = (how: string, detail = '') =>
		new ChatStreamError(
			`The answer from model '${model}' was cut off after ${characters()} characters: ${how}`,
			`${detail}${NOT_RETURNED}`,
		);

	try {
		for await (const event of reader.events(counted())) {
			if (event.data.trim() === '[DONE]') {
				done = true;
				break;
			}
			events++;
			let chunk: IDataObject | undefined;
			try {
				chunk = asObject(JSON.parse(event.data));
			} catch {
				chunk = undefined;
			}
			if (!chunk) {
				failure = new ChatStreamError(
					`The gateway sent a stream event that is not a JSON object after ${characters()} ` +
						`characters of the answer from model '${model}'`,
					`Event data: ${event.data.slice(0, 300)}\nNo partial answer is returned. Run the item again, or turn Stream off.`,
				);
				break;
			}
			if (chunk.error !== undefined || event.event === 'error') {
				failure = new ChatStreamError(
					`The gateway reported an error in the middle of the answer from model '${model}' ` +
						`(after ${characters()} characters): ${gatewayText(chunk) || 'no reason given'}`,
					NOT_RETURNED,
				);
				break;
			}
			for (const key of ['id', 'created', 'model', 'system_fingerprint']) {
				if (top[key] === undefined && chunk[key] !== undefined && chunk[key] !== null)
					top[key] = chunk[key];
			}
			if (asObject(chunk.usage)) usage = chunk.usage as IDataObject;
			for (const raw of Array.isArray(chunk.choices) ? chunk.choices : [])
				addDelta(choices, asObject(raw));
		}
	} catch (error) {
		// The socket closed or reset mid-answer; judged below, since a finished answer may
		// lose only its trailing [DONE].
		broken = error;
	} finally {
		stream.destroy();
	}
	if (failure) throw failure;
	if (broken instanceof SseLineTooLong)
		throw cutOff(
			`one line of the event stream passed ${MAX_SSE_LINE / 1024 / 1024} ` +
				`million characters, far past any event, so the reading stopped`,
		);
	if (tooLarge)
		throw cutOff(
			`more than ${ANSWER_LIMITS.chatStream / 1024 / 1024} MB arrived (counted ` +
				`after decompression), far past any answer, so the reading stopped`,
		);

	const allFinished =
		choices.size > 0 && [...choices.values()].every((c) => c.finishReason !== null);
	if (!done && !allFinished) {
		if (events === 0 && reader.strayText.trim() !== '') {
			throw new ChatStreamError(
				`The gateway answered the streamed request from model '${model}' with something that is not an event stream`,
				`It sent: ${reader.strayText.trim().slice(0, 300)}\nCheck the Base URL in the credential, or turn Stream off.`,
			);
		}
		if (broken === undefined) throw cutOff('the stream ended without [DONE] or a finish reason');
		// The network code goes in the description: n8n replaces a message that names one
		// (ECONNRESET...) with its own generic text, which would hide the cut-off.
		const code = (broken as { code?: unknown }).code;
		throw cutOff(
			'the connection closed before the end',
			typeof code === 'string' ? `Connection error: ${code}.\n` : '',
		);
	}
	return {
		id: top.id ?? null,
		object: 'chat.completion',
		created: top.created ?? null,
		model: top.model ?? model,
		...(top.system_fingerprint !== undefined ? { system_fingerprint: top.system_fingerprint } : {}),
		choices: [...choices.values()]
			.sort((a, b) => a.index - b.index)
			.map((c) => ({
				index: c.index,
				message: {
					role: c.role,
					content: c.content,
					...(c.reasoning !== undefined ? { reasoning_content: c.reasoning } : {}),
				},
				finish_reason: c.finishReason,
			})),
		...(usage ? { usage } : {}),
	};
}

function addDelta(choices: Map<number, ChoiceState>, choice: IDataObject | undefined): void {
	if (!choice) return;
	const index = typeof choice.index === 'number' ? choice.index : 0;
	let state = choices.get(index);
	if (!state) {
		state = { index, role: 'assistant', content: '', finishReason: null };
		choices.set(index, state);
	}
	const delta = asObject(choice.delta) ?? asObject(choice.message) ?? {};
	if (typeof delta.role === 'string' && delta.role) state.role = delta.role;
	if (typeof delta.content === 'string') state.content += delta.content;
	// Reasoning models (DeepSeek and the like) stream their thinking beside the answer.
	if (typeof delta.reasoning_content === 'string')
		state.reasoning = (state.reasoning ?? '') + delta.reasoning_content;
	if (typeof choice.finish_reason === 'string' && choice.finish_reason)
		state.finishReason = choice.finish_reason;
}
