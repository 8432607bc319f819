/** One server-sent event: its data lines joined by "\n", and its `event:` name when it had one. */
export interface SseEvent {
	data: string;
	event?: string;
}

const STRAY_TEXT_LIMIT = 500;

/** A line no event stream sends (an event's JSON is kilobytes): past it the stream is refused. */
export const MAX_SSE_LINE = 4 * 1024 * 1024;

/** A stream whose line passed MAX_SSE_LINE: not an event stream any relay sends. */
export class SseLineTooLong extends Error {}

/**
 * Splits a text/event-stream body into events (the SSE wire format, as OpenAI-style relays send it).
 * Comments (": keep-alive") and `id:` / `retry:` fields are skipped; anything that is not SSE at all
 * is kept in `strayText`, so a caller can show what the gateway sent instead of an event stream.
 */
export class SseReader {
	strayText = '';

	private data: string[] = [];

	private event: string | undefined;

	async *events(stream: AsyncIterable<Buffer | string>): AsyncGenerator<SseEvent> {
		// A multi-byte character can be split between two chunks: decode in streaming mode.
		const decoder = new TextDecoder('utf-8');
		let pending = '';
		for await (const chunk of stream) {
			pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
			// A chunk ending in "\r" may be the first half of "\r\n": keep it for the next chunk,
			// or it would count as an extra blank line and end an event too early.
			const held = pending.endsWith('\r') ? '\r' : '';
			const lines = (held ? pending.slice(0, -1) : pending).split(/\r\n|\n|\r/);
			pending = (lines.pop() ?? '') + held;
			if (pending.length > MAX_SSE_LINE)
				throw new SseLineTooLong(`a line of the event stream passed ${MAX_SSE_LINE} characters`);
			for (const line of lines) {
				const event = this.takeLine(line);
				if (event) yield event;
			}
		}
		pending += decoder.decode();
		// The last event may lack its closing blank line: the end of the body closes it.
		for (const line of [...pending.split(/\r\n|\n|\r/), '']) {
			const event = this.takeLine(line);
			if (event) yield event;
		}
	}

	private takeLine(line: string): SseEvent | undefined {
		if (line === '') {
			if (this.data.length === 0) {
				this.event = undefined;
				return undefined;
			}
			const event: SseEvent = {
				data: this.data.join('\n'),
				...(this.event ? { event: this.event } : {}),
			};
			this.data = [];
			this.event = undefined;
			return event;
		}
		if (line.startsWith(':')) return undefined;
		const colon = line.indexOf(':');
		const field = colon === -1 ? line : line.slice(0, colon);
		let value = colon === -1 ? '' : line.slice(colon + 1);
		if (value.startsWith(' ')) value = value.slice(1);
		if (field === 'data') this.data.push(value);
		else if (field === 'event') this.event = value;
		else if (field !== 'id' && field !== 'retry' && this.strayText.length < STRAY_TEXT_LIMIT) {
			this.strayText = `${this.strayText}${line}\n`.slice(0, STRAY_TEXT_LIMIT);
		}
		return undefined;
	}
}
