// What a failed download says: who failed (the gateway or a file host), what it sent, the receipt,
// and advice that never sends the user back to the same URL (docs/gateway-contract.md §10.2).
import type {
	IDataObject,
	IExecuteFunctions,
	IPollFunctions,
	NodeOperationError,
} from 'n8n-workflow';

import type { Blocked } from '../../transport/addresses';
import { allowWords, blockedWords } from '../../transport/errorRules';
import { redact } from '../../transport/secrets';
import { originOf } from '../../transport/urls';
import {
	describeStorage,
	describeStorageFailure,
	binaryFolder,
	DATABASE_MODE_MAX_MB,
	modeLimitMb,
	storageFolderOf,
	type BinaryMode,
} from './binaryStore';
import { describeBytes } from './media';
import { DownloadError, type Attempting, type DownloadOptions } from './downloadTypes';
import { FILE_KINDS, type FileKind } from '../../registry/fileKinds';
import { shownUrl } from '../../api/tasks/results';
import { stopError } from '../../transport/nodeError';

export function downloadError(
	ctx: IExecuteFunctions | IPollFunctions,
	url: string,
	options: Attempting,
	secrets: string[],
	message: string,
	description: string,
	facts: IDataObject,
): DownloadError {
	const error = new DownloadError(ctx.getNode(), redact(message, secrets), {
		itemIndex: options.itemIndex,
		description: redact(withRelayNote(description, options, secrets), secrets),
	});
	// n8n swaps a message that names a network code (ECONNRESET…) for a generic text; ours says who failed.
	error.message = redact(message, secrets);
	// The receipt is the task's result URL, also when its file was asked of the Base URL's content route.
	error.url = shownUrl(redact(options.relayUrl ?? url, secrets));
	Object.assign(error.context, facts, { url: error.url, downloadFailed: true });
	if (options.relayUrl) error.context.contentRoute = shownUrl(redact(url, secrets));
	if (options.paid?.taskId) error.context.taskId = options.paid.taskId;
	return error;
}

/** A download that stood in for the relay's result URL says so first: both routes were tried. */
function withRelayNote(description: string, options: Attempting, secrets: string[]): string {
	if (!options.relayUrl) return description;
	const relay = redact(options.relayUrl, secrets);
	const note = options.relayFailure
		? `The task's result URL ${relay} failed first (${redact(options.relayFailure, secrets)}); ` +
			`the file was then asked of the gateway's content route under your Base ` +
			`URL, which failed as above.`
		: `The task's result URL ${relay} names the relay's own server address, not ` +
			`your Base URL (the key is never sent to another address), so the file ` +
			`was asked of the gateway's content route under your Base URL instead, ` +
			`which failed as above.`;
	return `${note}\n${description}`;
}

/**
 * n8n could not keep a file it was given: its host's disk is full or not writable, n8n's database
 * mode refused the size, or memory ran out. The task is finished and paid for; the file host did
 * nothing wrong, and fetching it again would fail the same way.
 */
export function storageError(
	ctx: IExecuteFunctions | IPollFunctions,
	url: string,
	options: Attempting,
	secrets: string[],
	cause: unknown,
	mode: BinaryMode | undefined,
): DownloadError {
	const failure = describeStorageFailure(cause);
	const storedIn = mode ?? (failure.code === 'N8N_DATABASE_LIMIT' ? 'database' : undefined);
	const where = describeStorage(
		storedIn,
		storedIn === undefined || storedIn === 'filesystem'
			? (storageFolderOf(failure.path) ?? binaryFolder(ctx))
			: undefined,
	);
	const paidFor = options.paid?.taskId
		? `Task ${options.paid.taskId} completed at the gateway and was paid for; only storing its file failed`
		: 'The result was created and paid for; only storing its file failed';
	const fix =
		failure.code === 'N8N_DATABASE_LIMIT'
			? "Raise N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE in n8n's environment (at " +
				'most 1024 MB), or set N8N_DEFAULT_BINARY_DATA_MODE=filesystem (files ' +
				'then stream to disk), and restart n8n.'
			: failure.code === 'ENOMEM' || failure.code === 'ERR_STRING_TOO_LONG'
				? "Set N8N_DEFAULT_BINARY_DATA_MODE=filesystem in n8n's environment and " +
					'restart n8n (files then stream to disk), or lower Options → Max File ' +
					'Size (MB).'
				: /^(ENOSPC|EDQUOT|EFBIG|SQLITE_FULL)$/.test(failure.code)
					? 'Free space there, or point N8N_BINARY_DATA_STORAGE_PATH at a larger disk and restart n8n.'
					: /^(EACCES|EPERM|EROFS)$/.test(failure.code)
						? 'Let the user n8n runs as write there, or point ' +
							'N8N_BINARY_DATA_STORAGE_PATH at a writable folder and restart n8n.'
						: "Check the n8n host's storage and n8n's log.";
	const error = downloadError(
		ctx,
		url,
		options,
		secrets,
		`The result ${redact(options.relayUrl ?? url, secrets)} could not be stored: ${failure.what}. ${paidFor}`,
		[
			`Where n8n stores binaries: ${where}${failure.path ? ` (the error names ${failure.path})` : ''}.`,
			'This is the n8n host, not the gateway or its file host: the file was not ' +
				'fetched again, as the same storage would refuse it again.',
			fix,
			advice(options, url, secrets),
		].join('\n'),
		{ local: true, storageFailed: true, storageCode: failure.code },
	);
	return error;
}

/** The Stop error of a download, carrying its receipt (the URL) as a failed download's error does. */
export function stopped(
	ctx: IExecuteFunctions | IPollFunctions,
	url: string,
	options: Attempting,
	secrets: string[],
): NodeOperationError {
	const error = stopError(
		ctx.getNode(),
		redact(`The download of ${options.relayUrl ?? url}`, secrets),
		{
			itemIndex: options.itemIndex,
			more: redact(advice(options, url, secrets), secrets),
		},
	);
	// An inline (data:) result is named, not copied: its base64 would fill errors, logs and items.
	Object.assign(error.context, {
		url: shownUrl(redact(options.relayUrl ?? url, secrets)),
		downloadFailed: true,
	});
	return error;
}

/**
 * A result not fetched because its address is refused (the node's rule, or n8n's SSRF protection):
 * why, what lifts it, and that the paid result waits for that, never "download again soon".
 */
export function blockedDownload(
	url: string,
	blocked: Blocked,
	options: Attempting,
	secrets: string[],
): [string, string] {
	const paid = options.paid?.taskId
		? `Task ${options.paid.taskId} finished and was paid for: do not submit it ` +
			`again. Once n8n allows that address, Task → Download Result fetches its ` +
			`file (result URLs are temporary` +
			(options.paid.expiresAt ? `; the gateway says it expires at ${options.paid.expiresAt}` : '') +
			`).`
		: /^https?:/i.test(url)
			? `This result was created and paid for and has no task ID: once n8n allows ` +
				`that address, fetch ${redact(url, secrets)} (e.g. with an HTTP Request ` +
				`node) before it expires. Do not run the item again (that is a new ` +
				`charge).`
			: 'This result was created and paid for; do not run the item again (that is a new charge).';
	return [
		`The result was not fetched: ${redact(blockedWords(blocked), secrets)}`,
		[
			'Nothing was requested, and it was not asked again: the same address is refused the same way every time.',
			allowWords(blocked),
			paid,
		].join('\n'),
	];
}

/**
 * What to do next: a sync result is fetched again by its URL; a task's with Task → Download Result.
 * Never back to a route that just failed for a reason fetching again cannot change: when both the
 * relay's result URL and the Base URL's content route failed, the relay's setting is named instead.
 */
export function advice(options: Attempting, url: string, secrets: string[]): string {
	const expiry = options.paid?.expiresAt
		? ` (the gateway says it expires at ${options.paid.expiresAt})`
		: ' (result URLs are temporary)';
	if (options.paid?.taskId && options.relayUrl) {
		return (
			`Task ${options.paid.taskId} finished and was paid for; do not submit it ` +
			`again. Its result URL names the relay's own server address` +
			(options.relayFailure ? '' : ` (${originOf(options.relayUrl) ?? options.relayUrl})`) +
			(`, and the gateway's content route under your Base URL (${redact(url, secrets)}) ` +
				`failed too, so fetching again the same way fails the same way: ask the ` +
				`gateway's operator to set the relay's server address to the address you ` +
				`use, or to check its content route, then download it with Task → ` +
				`Download Result.`)
		);
	}
	if (options.paid?.taskId) {
		return (
			`Task ${options.paid.taskId} finished and was paid for: download its ` +
			`result again with Task → Download Result soon${expiry}. Do not submit it ` +
			`again.`
		);
	}
	if (/^https?:/i.test(url)) {
		return (
			`This result was created and paid for and has no task ID: fetch this URL ` +
			`again before it expires${expiry}, e.g. with an HTTP Request node: ${redact(url, secrets)}\nDo ` +
			`not run the item again (that is a new charge).`
		);
	}
	return 'This result was created and paid for; do not run the item again (that is a new charge).';
}

/**
 * What lets n8n accept the certificate. Ignore SSL Issues reaches only requests with the key
 * (the gateway's own origins, docs/gateway-contract.md §5 rule 7): a file host keeps its checks.
 */
export function certificateFix(fromGateway: boolean): string {
	const trust =
		"trust the certificate's authority on the n8n host (its CA file in " +
		"NODE_EXTRA_CA_CERTS=/path/to/ca.pem in n8n's environment, then restart " +
		'n8n)';
	return fromGateway
		? `n8n reached the gateway but did not trust its certificate. Either ${trust}, ` +
				`or turn on Ignore SSL Issues (Insecure) in the Unified AI Gateway API ` +
				`credential.`
		: `n8n reached the file host but did not trust its certificate. The ` +
				`credential's Ignore SSL Issues applies to Base URL and Alt Base URL ` +
				`only, never to a file host: ${trust}, or ask the gateway's operator for ` +
				`result URLs on a host with a valid certificate.`;
}

export function deadlineWords(
	url: string,
	options: DownloadOptions,
	received: number,
	secrets: string[],
): [string, string] {
	const name = options.deadlineName ?? 'Max Wait';
	return [
		`The download of ${redact(url, secrets)} did not finish within ${name} (${describeBytes(received)} received)`,
		`The file host sends too slowly to finish in time. Raise ${name}, or ` +
			`fetch the file later.\n${advice(options, url, secrets)}`,
	];
}

/**
 * Past the limit. The default limit follows where n8n keeps binaries (engine/files/binaryStore.ts): the
 * words say which, and how to lift it, when that is what refused the file.
 */
export function tooLarge(
	url: string,
	kind: FileKind,
	maxBytes: number,
	secrets: string[],
	what: string,
	options: DownloadOptions,
	mode: BinaryMode | undefined,
): [string, string] {
	const byMode =
		options.maxBytes === undefined &&
		modeLimitMb(FILE_KINDS[kind].maxMb, mode) < FILE_KINDS[kind].maxMb
			? mode
			: undefined;
	const where =
		byMode === 'memory'
			? ' while n8n keeps binary data in memory'
			: byMode === 'database'
				? " (n8n's own default limit per file in its database binary mode)"
				: '';
	const why =
		byMode === 'memory'
			? `n8n keeps binary data in memory here (n8n 1.x's default, or ` +
				`N8N_DEFAULT_BINARY_DATA_MODE=default): a file this size could run n8n ` +
				`out of memory and end every execution running on it. Set ` +
				`N8N_DEFAULT_BINARY_DATA_MODE=filesystem in n8n's environment and restart ` +
				`n8n (files then stream to disk), or raise Options → Max File Size (MB) ` +
				`if n8n has the memory to spare.`
			: byMode === 'database'
				? `n8n keeps binary data in its database here and refuses files over ` +
					`N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE (${DATABASE_MODE_MAX_MB} MB ` +
					`unless set, at most 1024): if yours is set higher, raise Options → Max ` +
					`File Size (MB) to match; or set N8N_DEFAULT_BINARY_DATA_MODE=filesystem.`
				: 'If the file is expected to be that large, raise Options → Max File Size (MB).';
	return [
		`The result ${redact(url, secrets)} is larger than the limit of ${describeBytes(maxBytes)} ` +
			`for ${FILE_KINDS[kind].many}${where} (${what})`,
		`Nothing was stored. ${why}\n${advice(options, url, secrets)}`,
	];
}
