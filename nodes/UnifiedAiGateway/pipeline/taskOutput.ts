import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IPollFunctions,
} from 'n8n-workflow';

import { deliverFile, type DeliveredFile } from '../engine/files/downloads';
import {
	DownloadError,
	type DownloadOptions,
	type PaidResult,
} from '../engine/files/downloadTypes';
import { shownUrl } from '../api/tasks/results';
import { queryTask } from '../api/tasks/query';
import { QUERY_ROUTES, type QueryRoute } from '../api/tasks/routes';
import { isStop, nodeErrorOf } from '../transport/nodeError';
import type { TaskSnapshot } from '../api/tasks/snapshot';
import { bodyCopy } from '../engine/running/bodyCopy';
import { readDownloadLimits } from '../params/downloadOptions';
import { FILE_KINDS, type FileKind } from '../registry/fileKinds';
import { errorItem } from '../engine/running/perItem';
import { executionLimit } from '../engine/waiting/timeLimit';
import { isToolRun } from '../engine/running/toolMode';
import type { Batch } from '../engine/running/batch';
import type { Submitted } from '../engine/running/types';
import { readBoolean } from '../params/inputs';

/**
 * An item whose file the gateway's content route delivered instead of the relay's own address
 * (a dead `http://localhost:3000/…` link): `url` is the address it was fetched from, the relay's
 * link kept as `relayUrl`, and `downloadedFrom` names the route as before.
 */
export function fetchedFrom(json: IDataObject, from: string): IDataObject {
	const advertised = typeof json.url === 'string' ? json.url : undefined;
	const shown = shownUrl(from);
	return {
		...json,
		url: shown,
		...(Array.isArray(json.urls)
			? { urls: json.urls.map((u) => (u === advertised ? shown : u)) }
			: {}),
		...(advertised !== undefined ? { relayUrl: advertised } : {}),
		downloadedFrom: from,
	};
}

/** A task as our outputs show it, whatever route and shape it came from. */
export function taskJson(snapshot: TaskSnapshot): IDataObject {
	return {
		taskId: snapshot.taskId,
		status: snapshot.status,
		state: snapshot.state,
		progress: snapshot.progress,
		url: snapshot.urls[0] === undefined ? undefined : shownUrl(snapshot.urls[0]),
		urls: snapshot.urls.map(shownUrl),
		...(snapshot.expiresAt ? { expiresAt: snapshot.expiresAt } : {}),
		...(snapshot.answeredBy ? { answeredBy: snapshot.answeredBy } : {}),
		...(snapshot.error ? { error: snapshot.error } : {}),
		...(snapshot.estimatedTimeS !== undefined
			? { estimatedTimeSeconds: snapshot.estimatedTimeS }
			: {}),
		// A music task's songs and a lyrics task's words (docs/gateway-contract.md §10.15).
		...(snapshot.songs?.length ? { songs: snapshot.songs as unknown as IDataObject[] } : {}),
		...(snapshot.lyrics ? { lyrics: snapshot.lyrics as unknown as IDataObject } : {}),
	};
}

/** The gateway's answer as items carry it: whole up to 64 KB (engine/running/bodyCopy.ts). */
export function rawJson(snapshot: TaskSnapshot): IDataObject {
	return bodyCopy(snapshot.raw);
}

export interface FileOutputOptions {
	itemIndex: number;
	binaryProperty: string;
	baseName: string;
	defaultMimeType: string;
	/** What is expected, for messages; the size limit follows what the bytes are. */
	kind?: FileKind;
	/** Epoch ms by which every download of the item is over (Max Wait, or the download's own bound). */
	deadlineAt?: number;
	deadlineName?: string;
	paid?: PaidResult;
	/** On: a failed file becomes its own error item beside the good ones. Off: the item fails. */
	continueOnFail: boolean;
	/**
	 * Inside a wait: the task's result URLs read again, once, when a signed link was refused as
	 * expired (a gateway signs a fresh one on every read).
	 */
	fresh?: () => Promise<string[]>;
}

/**
 * The one builder of an item's download settings (itemsPerUrl's last argument), for every
 * operation that stores result files: the binary field (Options → Put Output File in Field), the
 * file's name and type, the paid result it belongs to (its receipt in every error), the deadline
 * (Max Wait counted from the wait's start, else the download's own bound) and Continue On Fail.
 */
export function itemDownload(
	ctx: IExecuteFunctions,
	itemIndex: number,
	file: {
		kind: FileKind;
		baseName: string;
		/** The file's type until its bytes say otherwise; by default the kind's. */
		defaultMimeType?: string;
		paid: PaidResult;
		/** The wait the item's task was read in: when it started and its Max Wait. None: the download's own bound. */
		wait?: { startedAt: number; maxWaitMs?: number };
		continueOnFail: boolean;
		/** Where the task is read, inside a wait: an expired link is then read again once for a fresh one. */
		reread?: { route: QueryRoute; language?: string };
	},
): FileOutputOptions {
	const taskId = file.paid.taskId;
	const reread = file.reread;
	return {
		itemIndex,
		binaryProperty: ctx.getNodeParameter(
			'options.binaryPropertyOutput',
			itemIndex,
			'data',
		) as string,
		baseName: file.baseName,
		defaultMimeType: file.defaultMimeType ?? FILE_KINDS[file.kind].mimeType,
		kind: file.kind,
		...downloadDeadline(file.kind, file.wait?.startedAt, file.wait?.maxWaitMs),
		paid: file.paid,
		continueOnFail: file.continueOnFail,
		...(taskId && reread && file.wait
			? {
					fresh: async () => {
						const snapshot = await queryTask(ctx, reread.route, taskId, {
							language: reread.language,
							itemIndex,
						});
						return snapshot.state === 'succeeded' ? snapshot.urls : [];
					},
				}
			: {}),
	};
}

/**
 * How one item of a batch stores its result files (itemsPerUrl's last argument), or undefined with
 * Download Files off: within the batch's Max Wait, counted from the item's submit; a task's
 * expired link read again once on its query route.
 */
export function resultDownload(
	ctx: IExecuteFunctions,
	batch: Pick<Batch<unknown>, 'settings' | 'continueOnFail'>,
	answer: Submitted,
	itemIndex: number,
	file: { kind: FileKind; baseName: string; defaultMimeType?: string; paid: PaidResult },
	downloadByDefault = true,
): FileOutputOptions | undefined {
	if (!readBoolean(ctx, 'download', itemIndex, downloadByDefault, 'Download Files'))
		return undefined;
	const wait = batch.settings.wait;
	return itemDownload(ctx, itemIndex, {
		...file,
		// A wait without a deadline of its own (Task → Wait for Completion's 0) gives the route's window.
		wait: wait
			? {
					startedAt: answer.startedAt,
					maxWaitMs:
						wait.deadlineMs ?? (answer.route ? QUERY_ROUTES[answer.route].deadlineMs : undefined),
				}
			: undefined,
		continueOnFail: batch.continueOnFail,
		...(answer.route ? { reread: { route: answer.route, language: answer.language } } : {}),
	});
}

/** A task that finished at the very end of Max Wait still gets this long for its files. */
const LEAST_MS = 5_000;

/** When the downloads of an item must be over, and what that bound is called in messages. */
export function downloadDeadline(
	kind: FileKind,
	waitStartedAt?: number,
	maxWaitMs?: number,
): { deadlineAt: number; deadlineName: string } {
	if (waitStartedAt !== undefined && maxWaitMs !== undefined && maxWaitMs > 0) {
		return {
			deadlineAt: Math.max(waitStartedAt + maxWaitMs, Date.now() + LEAST_MS),
			deadlineName: 'Max Wait',
		};
	}
	// Without Wait for Result (or for Task → Download Result), a download has a bound of its own.
	const minutes = FILE_KINDS[kind].downloadMinutes;
	return {
		deadlineAt: Date.now() + minutes * 60_000,
		deadlineName: `the download limit of ${minutes} min`,
	};
}

/**
 * One attempt on the `index`th result file of a task or answer (the node's items and the trigger's
 * item alike): the file (and the route that delivered it, when not its URL), or the DownloadError
 * that keeps its full URL and receipt beside the others. A Stop, or anything but a failed
 * download, is thrown.
 */
export async function resultFile(
	ctx: IExecuteFunctions | IPollFunctions,
	urls: readonly string[],
	index: number,
	options: DownloadOptions,
): Promise<DeliveredFile | DownloadError> {
	try {
		return await deliverFile(ctx, urls[index], {
			...options,
			baseName: urls.length > 1 ? `${options.baseName}-${index + 1}` : options.baseName,
		});
	} catch (error) {
		if (!(error instanceof DownloadError) || isStop(error))
			throw nodeErrorOf(ctx.getNode(), error, options.itemIndex);
		return error;
	}
}

/**
 * One output item per URL: its json plus, when asked, the file under the chosen binary field.
 * Each URL is its own attempt: a bad one never drops the good ones. With Continue On Fail a bad
 * one is an error item carrying its full URL (and task id); without, the item fails naming every
 * URL that failed.
 * Never a file for an AI Agent's tool call: n8n hands tools' JSON to the model and drops binaries,
 * so a download there would only cost time and a file nobody gets; the URL is the result.
 */
export async function itemsPerUrl(
	ctx: IExecuteFunctions,
	urls: string[],
	json: (url: string, index: number) => IDataObject,
	download: FileOutputOptions | undefined,
): Promise<INodeExecutionData[]> {
	const items: INodeExecutionData[] = [];
	const failed: DownloadError[] = [];
	const limits = download ? readDownloadLimits(ctx, download.itemIndex) : {};
	const chosen = limits.timeoutMs
		? {
				deadlineAt: Date.now() + limits.timeoutMs,
				deadlineName: `Options → Download Timeout (${limits.timeoutMs / 1000} s)`,
			}
		: { deadlineAt: download?.deadlineAt, deadlineName: download?.deadlineName };
	// A download never outlives the execution either: n8n's time limit would cancel it and lose the item.
	const limit = download ? executionLimit(ctx) : undefined;
	const bound =
		limit && (chosen.deadlineAt === undefined || limit.waitEndsAt < chosen.deadlineAt)
			? {
					deadlineAt: limit.waitEndsAt,
					deadlineName: "the workflow's time limit (Timeout Workflow)",
				}
			: chosen;
	for (const [index, url] of urls.entries()) {
		const base = json(url, index);
		const itemJson = {
			...base,
			// The item's own URL when it names one (a content-route download keeps the task's result URL).
			url: shownUrl(typeof base.url === 'string' ? base.url : url),
			...(download?.paid?.expiresAt ? { expiresAt: download.paid.expiresAt } : {}),
		};
		// An inline (data:) result has no URL to give instead: it is stored even for a tool, costs no request,
		// and stays in the execution (the model gets the JSON).
		if (!download || (isToolRun(ctx) && !/^data:/i.test(url))) {
			items.push({ json: itemJson });
			continue;
		}
		const attempt: DownloadOptions = {
			itemIndex: download.itemIndex,
			baseName: download.baseName,
			defaultMimeType: download.defaultMimeType,
			kind: download.kind,
			maxBytes: limits.maxBytes,
			...bound,
			paid: download.paid,
		};
		let file = await resultFile(ctx, urls, index, attempt);
		// A signed link refused as expired: the task read again once for a fresh one (inside a wait).
		if (file instanceof DownloadError && file.context.linkExpired && download.fresh) {
			const fresh = await freshUrls(ctx, download);
			if (fresh[index] && fresh[index] !== url) {
				const again = await resultFile(ctx, fresh, index, attempt);
				if (!(again instanceof DownloadError)) itemJson.url = shownUrl(fresh[index]);
				file = again;
			}
		}
		if (!(file instanceof DownloadError)) {
			// The gateway's content route delivered instead of a result URL on the relay's own address
			// (engine/files/downloads.ts).
			items.push({
				json: file.from ? fetchedFrom(itemJson, file.from) : itemJson,
				binary: { [download.binaryProperty]: file.binary },
			});
			continue;
		}
		if (!download.continueOnFail) {
			failed.push(file);
			continue;
		}
		const errorJson: IDataObject = {
			...itemJson,
			error: file.message,
			...(file.description ? { description: file.description } : {}),
			downloadFailed: true,
			created: 'yes',
		};
		items.push(errorItem(ctx, errorJson, file, download.itemIndex));
	}
	if (failed.length > 0) throw allFailures(failed, urls.length);
	return items;
}

/** The task's result URLs read again, once per item (each expired link of it uses the same reading). */
const freshOfItem = new WeakMap<FileOutputOptions, Promise<string[]>>();

async function freshUrls(ctx: IExecuteFunctions, download: FileOutputOptions): Promise<string[]> {
	let read = freshOfItem.get(download);
	if (!read) {
		read = download.fresh!().catch((error: unknown) => {
			if (isStop(error)) throw nodeErrorOf(ctx.getNode(), error, download.itemIndex);
			// A failed re-read leaves the expired link's error as it was.
			return [];
		});
		freshOfItem.set(download, read);
	}
	return await read;
}

/** The first failure, naming every URL that failed (each is a receipt) and what was fetched. */
function allFailures(failed: DownloadError[], total: number): DownloadError {
	const [first] = failed;
	if (failed.length === 1 && total === 1) return first;
	const others = failed.slice(1).map((error) => `- ${error.url}: ${error.message}`);
	first.description = [
		first.description,
		`${failed.length} of ${total} result files could not be downloaded` +
			(others.length > 0 ? '; the others that failed:' : '.'),
		...others,
		total > failed.length
			? `The other ${total - failed.length} files were downloaded, but the item ` +
				`failed: turn on Continue On Fail to get them as items beside the errors.`
			: '',
	]
		.filter(Boolean)
		.join('\n');
	first.context.urls = failed.map((error) => error.url);
	return first;
}
