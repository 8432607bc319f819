// The types a download carries, shared by the fetching (downloads.ts), the reading (receive.ts)
// and the words of its failures (downloadWords.ts).
import { NodeOperationError } from 'n8n-workflow';

import type { FileKind } from '../../registry/fileKinds';

/**
 * The paid result a file belongs to, carried by every download error (its receipt with the URL): the task, and when
 * its URLs expire.
 */
export interface PaidResult {
	/** The task the file belongs to; none for a synchronous answer (gpt-image-2 / gpt-image-2.5). */
	taskId?: string;
	/** When the gateway says the URL expires. */
	expiresAt?: string;
}

export interface DownloadOptions {
	itemIndex: number;
	/** File name to use when neither the response nor the URL gives one (without extension). */
	baseName: string;
	defaultMimeType: string;
	/** What is expected, for messages ("instead of a video"); from defaultMimeType when not given. */
	kind?: FileKind;
	/**
	 * Size limit in bytes (default: the maxMb of the kind (registry/fileKinds.ts) the bytes turn out to be, lowered
	 * where n8n holds files whole: engine/files/binaryStore.ts).
	 */
	maxBytes?: number;
	timeoutMs?: number;
	/** Epoch ms by which the whole download is over, retries included (Max Wait, a trigger poll's budget). */
	deadlineAt?: number;
	/** How the deadline is called in messages: "Max Wait", "the trigger's poll budget". */
	deadlineName?: string;
	idleMs?: number;
	paid?: PaidResult;
}

/** One URL's attempts; `relayUrl`: the task's result URL this one (the gateway's content route) stands in for. */
export interface Attempting extends DownloadOptions {
	relayUrl?: string;
	/** Why the result URL itself failed, when it was tried first. */
	relayFailure?: string;
}

/** A download that failed: the URL (full, redacted) and the receipt travel with it. */
export class DownloadError extends NodeOperationError {
	url = '';
}

/** Who sent an answer: the gateway (one of the credential's origins) or a file host. */
export interface Attempt {
	host: string;
	fromGateway: boolean;
	/** "the gateway (gw.example.com)" or "the file host cdn.example.com". */
	who: string;
}
