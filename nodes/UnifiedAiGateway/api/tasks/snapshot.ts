import type { IDataObject } from 'n8n-workflow';

import { asObject } from '../../transport/responses';
import { extractResultUrls } from './results';
import { songsOf, type Lyrics, type Song } from './songs';
import { phaseOf, readProgress, type TaskPhase } from './status';

/** One reading of a task, the same for every route and shape. */
export interface TaskSnapshot {
	taskId: string;
	/** The status word exactly as the gateway sent it. */
	status: string;
	phase: TaskPhase | 'unknown';
	/** docs/gateway-contract.md §3 rule 2 applied: success needs `completed` AND a result URL. */
	state: 'pending' | 'succeeded' | 'failed';
	progress?: number;
	urls: string[];
	/** The file is served by the gateway's content route (docs/gateway-contract.md §2.7, §4.9): the task gave no URL. */
	contentRoute?: boolean;
	error?: string;
	estimatedTimeS?: number;
	/** How long the task took, once finished (`actual_time`, docs/gateway-contract.md §2.3): the wait learns from it. */
	actualTimeS?: number;
	/** Where the result URLs expire, when the gateway says (`expires_at`, epoch seconds or a date). */
	expiresAt?: string;
	/** The route that answered when the task's own route is missing on this gateway (`GET /v1/video/generations/{id}`). */
	answeredBy?: string;
	/** The finished task's charge in the relay's raw quota, where the answer carries it (settledQuotaOf). */
	settledQuota?: number;
	/**
	 * Failed only because it says finished and names no file yet: a gateway may flag a task
	 * completed one read before it writes its URL, so a wait reads it again before believing it.
	 */
	urlMissing?: boolean;
	/** A Suno task's songs (their MP3s are `urls`), read on a route with `songs` (api/tasks/songs.ts). */
	songs?: Song[];
	/** A Suno lyrics task's result: words, no file. */
	lyrics?: Lyrics;
	raw: IDataObject;
}

/** The object a field holds, or the first of a list of them (answers put `data` either way). */
function objectIn(value: unknown): IDataObject | undefined {
	if (Array.isArray(value)) return objectIn(value[0]);
	return asObject(value);
}

function firstString(...values: unknown[]): string | undefined {
	const found = values.find((v) => typeof v === 'string' && v.trim() !== '');
	return found === undefined ? undefined : String(found);
}

function firstNumber(...values: unknown[]): number | undefined {
	const found = values.find((v) => typeof v === 'number' && Number.isFinite(v));
	return found as number | undefined;
}

/**
 * The task ids a query answer names as its own (`task_id`, `data.task_id`, `data.id`, `id`;
 * `request_id` is left out: some answers carry the id of the HTTP request there).
 */
function taskIdsNamed(body: unknown): string[] {
	const root = objectIn(body);
	const data = objectIn(root?.data);
	return [root?.task_id, data?.task_id, data?.id, root?.id]
		.filter((v): v is string => typeof v === 'string' && v.trim() !== '')
		.map((v) => v.trim());
}

/**
 * Another task's id, when a query answer names task ids and none of them is the one asked for
 * (docs/gateway-contract.md §10.12): that answer is not this task's state, whatever it says.
 */
export function otherTaskIdOf(body: unknown, asked: string): string | undefined {
	const named = taskIdsNamed(body);
	return named.length > 0 && !named.includes(asked.trim()) ? named[0] : undefined;
}

/** The task id a submit or query answer carries, in any of its shapes. */
export function taskIdOf(body: unknown): string | undefined {
	const root = objectIn(body);
	const data = objectIn(root?.data);
	return firstString(root?.task_id, data?.task_id, data?.id, root?.id, root?.request_id);
}

/**
 * The gateway's estimate in seconds (`estimated_time`, docs/gateway-contract.md §2.3): the contract
 * shows it in the task query's answer only, but a submit answer that carries it is read the same way.
 */
export function estimatedTimeOf(body: unknown): number | undefined {
	const root = objectIn(body);
	const seconds = firstNumber(root?.estimated_time, objectIn(root?.data)?.estimated_time);
	return seconds !== undefined && seconds > 0 ? seconds : undefined;
}

/**
 * The first `items[]` entry wherever the answer puts it (docs/gateway-contract.md §2.3 `result.items`, §4.5 top
 * level).
 */
function firstItemOf(root: IDataObject, data: IDataObject | undefined): IDataObject | undefined {
	for (const holder of [root, objectIn(root.result), data, objectIn(data?.result)]) {
		if (holder && Array.isArray(holder.items)) return objectIn(holder.items);
	}
	return undefined;
}

export interface ReadOptions {
	/**
	 * Where the finished file is when the answer names no URL (docs/gateway-contract.md §2.7 + §4.9: the `/v1/videos`
	 * routes serve it at `/v1/videos/{id}/content`). Without it, completed-without-URL is a
	 * failure (docs/gateway-contract.md §3 rule 2).
	 */
	contentUrl?: string;
	/** The gateway's origin, for relative result URLs. */
	origin?: string;
	/** Which route answered, when it is not the one asked first (a gateway without `/v1/tasks`). */
	answeredBy?: string;
	/**
	 * The relay's Suno task record (docs/gateway-contract.md §10.15): the results are the songs'
	 * `audio_url` once it succeeded, or a lyrics task's words (no file).
	 */
	songs?: boolean;
}

/**
 * The status word: the task's own, else its first item's (docs/gateway-contract.md §4.5 polls `items[0].status`); a
 * finished item also outranks a task word that still says waiting or running.
 */
function statusOf(root: IDataObject, data: IDataObject | undefined): string {
	const own = firstString(root.status, root.state, data?.status, data?.state);
	const item = firstString(firstItemOf(root, data)?.status);
	if (!own) return item ?? 'unknown';
	const ownPhase = phaseOf(own);
	const itemPhase = phaseOf(item);
	const ownOpen = ownPhase === 'waiting' || ownPhase === 'running';
	if (item && ownOpen && (itemPhase === 'succeeded' || itemPhase === 'failed')) return item;
	return own;
}

/** A task query's answer as a TaskSnapshot: parses a body, sends nothing (the query is query.ts queryTask). */
export function snapshotOf(body: unknown, taskId: string, options: ReadOptions = {}): TaskSnapshot {
	const root = objectIn(body) ?? {};
	const data = objectIn(root.data);
	const status = statusOf(root, data);
	const phase = phaseOf(status) ?? 'unknown';
	const made = options.songs ? songsOf(data, options.origin) : undefined;
	let urls = made
		? phase === 'succeeded'
			? made.songs.flatMap((song) => (song.audioUrl ? [song.audioUrl] : []))
			: []
		: extractResultUrls(root, { origin: options.origin });
	const errorObject = objectIn(root.error) ?? objectIn(data?.error);
	// docs/gateway-contract.md §10.9: `completed` with an `error` object and no file is a finished, billed
	// failure (a Grok video blocked by moderation), not a file waiting at `/content`.
	const finishedWithError =
		phase === 'succeeded' &&
		urls.length === 0 &&
		errorObject !== undefined &&
		Boolean(firstString(errorObject.code, errorObject.message));
	const contentRoute =
		phase === 'succeeded' && urls.length === 0 && !finishedWithError && Boolean(options.contentUrl);
	if (contentRoute) urls = [options.contentUrl!];
	const progress = readProgress(root.progress ?? data?.progress);
	// The relay puts a failed task's reason in `result_url` too: text there is not a URL.
	const textInResultUrl = [root.result_url, data?.result_url].find(
		(v) => typeof v === 'string' && v.trim() !== '' && !/^(https?:|data:|\/)/i.test(v.trim()),
	);
	// A task read as items[] (docs/gateway-contract.md §4.5) carries its reason on its first item.
	const item = firstItemOf(root, data);
	let error = firstString(
		errorObject?.message,
		typeof root.error === 'string' ? root.error : undefined,
		root.fail_reason,
		data?.fail_reason,
		objectIn(item?.error)?.message,
		typeof item?.error === 'string' ? item.error : undefined,
		item?.fail_reason,
		textInResultUrl,
	);
	let state: TaskSnapshot['state'] = 'pending';
	let urlMissing = false;
	if (phase === 'failed') {
		state = 'failed';
		error = error ?? `The gateway reported the task as ${status} without a reason`;
	} else if (phase === 'succeeded') {
		// A lyrics task's result is its words: there is no file to wait for.
		if (urls.length > 0 || made?.lyrics) state = 'succeeded';
		else if (finishedWithError) {
			state = 'failed';
			const code = firstString(errorObject?.code);
			const said = [code, firstString(errorObject?.message)].filter(Boolean).join(': ');
			error =
				`The gateway finished the task as ${status} with error ${said} and no ` +
				`file. A finished task is billed: this one was charged, so do not submit ` +
				`it again unchanged`;
		} else {
			state = 'failed';
			error = `The task is ${status} but the gateway gave no result URL, so there is nothing to download`;
			urlMissing = true;
		}
	}
	return {
		// The user's id is the id: an answer never renames the task (query.ts refuses one naming another).
		taskId,
		status,
		phase,
		state,
		progress: phase === 'succeeded' && state === 'succeeded' ? (progress ?? 100) : progress,
		urls,
		...(contentRoute ? { contentRoute } : {}),
		error: state === 'failed' ? error : undefined,
		estimatedTimeS: estimatedTimeOf(root),
		actualTimeS: firstNumber(root.actual_time, data?.actual_time),
		...expiryOf(root, data),
		...(options.answeredBy ? { answeredBy: options.answeredBy } : {}),
		...settledQuotaOf(data ?? root, phase),
		...(urlMissing ? { urlMissing } : {}),
		...(made ? { songs: made.songs } : {}),
		...(made?.lyrics ? { lyrics: made.lyrics } : {}),
		raw: root,
	};
}

/**
 * A finished task's charge as the relay settled it, in raw quota (docs/gateway-contract.md §10.11):
 * the task record of `GET /v1/video/generations/{id}` carries `quota`, final once the task is
 * finished (0 after a failed task's refund). Not read while the task runs.
 */
function settledQuotaOf(
	task: IDataObject,
	phase: TaskPhase | 'unknown',
): { settledQuota?: number } {
	if (phase !== 'succeeded' && phase !== 'failed') return {};
	const quota = task.quota;
	return typeof quota === 'number' && Number.isFinite(quota) && quota >= 0
		? { settledQuota: quota }
		: {};
}

/** `expires_at` wherever the answer gives it (top level, `data`, the first result image). */
function expiryOf(root: IDataObject, data: IDataObject | undefined): { expiresAt?: string } {
	const images =
		objectIn(objectIn(root.result)?.images) ?? objectIn(objectIn(data?.result)?.images);
	const value = [root.expires_at, data?.expires_at, images?.expires_at].find(
		(v) => typeof v === 'number' || (typeof v === 'string' && v !== ''),
	);
	if (value === undefined) return {};
	const date =
		typeof value === 'number'
			? new Date(value < 1e12 ? value * 1000 : value)
			: new Date(String(value));
	return Number.isNaN(date.getTime()) ? {} : { expiresAt: date.toISOString() };
}
