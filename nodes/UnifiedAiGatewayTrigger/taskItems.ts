import type { IBinaryData, IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { reportedChargeJson } from '../UnifiedAiGateway/api/charges';
import { DownloadError } from '../UnifiedAiGateway/engine/files/downloadTypes';
import { readDownloadLimits } from '../UnifiedAiGateway/params/downloadOptions';
import { fileKindOf, type QueryRoute } from '../UnifiedAiGateway/api/tasks/routes';
import type { TaskSnapshot } from '../UnifiedAiGateway/api/tasks/snapshot';
import { withoutUrlVerdict } from '../UnifiedAiGateway/engine/waiting/pollPolicy';
import {
	fetchedFrom,
	rawJson,
	resultFile,
	taskJson,
} from '../UnifiedAiGateway/pipeline/taskOutput';
import { FILE_KINDS } from '../UnifiedAiGateway/registry/fileKinds';
import type { WatchedTask } from './state';

/**
 * A task as the gateway reported it: succeeded, failed, cancelled, or (manual mode) still running;
 * with its charge where the answer carries one, as the node's Task items (the quota unit read once
 * per poll, by `deadlineAt`).
 */
export async function snapshotJson(
	ctx: IPollFunctions,
	snapshot: TaskSnapshot,
	route: QueryRoute,
	watched?: WatchedTask,
	deadlineAt?: number,
): Promise<IDataObject> {
	return {
		...taskJson(snapshot),
		...(await reportedChargeJson(ctx, snapshot, undefined, deadlineAt)),
		queryRoute: route,
		...(watched ? { firstSeenAt: new Date(watched.firstSeenAt).toISOString() } : {}),
		raw: rawJson(snapshot),
	};
}

/** A task the gateway kept refusing to read (task_not_exist and the like). */
export function queryFailedJson(
	taskId: string,
	route: QueryRoute,
	watched: WatchedTask,
): IDataObject {
	return {
		taskId,
		status: watched.lastStatus ?? 'unknown',
		state: 'failed',
		error:
			`The gateway could not read task ${taskId} ${watched.errors ?? 0} polls ` +
			`in a row: ${watched.lastError ?? 'no reason given'}`,
		queryErrors: watched.errors ?? 0,
		queryRoute: route,
		firstSeenAt: new Date(watched.firstSeenAt).toISOString(),
	};
}

/**
 * A task read finished without a result URL read after read (`reads` says how they were counted):
 * reported, not called failed by its words; `tail` ends the text (what the trigger does next).
 */
export function withoutUrlJson(json: IDataObject, reads: string, tail?: string): IDataObject {
	const { message, advice } = withoutUrlVerdict(String(json.taskId), String(json.status), reads);
	return { ...json, error: [`${message}.`, advice, tail].filter(Boolean).join(' ') };
}

export function timeoutJson(
	taskId: string,
	route: QueryRoute,
	watched: WatchedTask,
	windowMinutes: number,
): IDataObject {
	const last = watched.lastStatus
		? `last status '${watched.lastStatus}'${watched.lastProgress !== undefined ? ` at ${watched.lastProgress}%` : ''}`
		: 'no status read yet';
	return {
		taskId,
		status: watched.lastStatus ?? 'unknown',
		state: 'timeout',
		progress: watched.lastProgress,
		message:
			`Task ${taskId} did not finish within ${windowMinutes} min of this trigger first seeing it (${last}` +
			`${watched.lastError ? `; last error: ${watched.lastError}` : ''}). It may still finish: check it with ` +
			'Task → Get or Task → Wait for Completion, and do not submit it again. This trigger stops watching it.',
		queryRoute: route,
		firstSeenAt: new Date(watched.firstSeenAt).toISOString(),
	};
}

export interface DownloadSettings {
	binaryProperty: string;
	route: QueryRoute;
}

/**
 * One item for a finished task; with downloads on, every result file goes into it (first under
 * the chosen field, then `<field>_2`, `<field>_3`, ...). Each file is the same attempt on a result
 * as the node's (pipeline/taskOutput.ts resultFile), inside the poll's budget. A failed download
 * never loses the event: the item carries `downloadError` (and `failedUrls`, the full URLs) beside
 * the task id, its receipt, and every file that did arrive.
 */
export async function finishedItem(
	ctx: IPollFunctions,
	json: IDataObject,
	snapshot: TaskSnapshot,
	download: DownloadSettings | undefined,
	deadlineAt?: number,
): Promise<INodeExecutionData> {
	if (!download || snapshot.state !== 'succeeded') return { json };
	const binary: Record<string, IBinaryData> = {};
	const failed: DownloadError[] = [];
	const deliveredFrom: string[] = [];
	const { maxBytes } = readDownloadLimits(ctx, 0);
	for (const index of snapshot.urls.keys()) {
		const file = await resultFile(ctx, snapshot.urls, index, {
			itemIndex: 0,
			baseName: snapshot.taskId,
			defaultMimeType: FILE_KINDS[fileKindOf(download.route)].mimeType,
			maxBytes,
			paid: { taskId: snapshot.taskId, expiresAt: snapshot.expiresAt },
			...(deadlineAt === undefined
				? {}
				: {
						deadlineAt,
						deadlineName: "the trigger's poll budget",
						timeoutMs: Math.max(1_000, deadlineAt - Date.now()),
					}),
		});
		if (file instanceof DownloadError) failed.push(file);
		else {
			binary[index === 0 ? download.binaryProperty : `${download.binaryProperty}_${index + 1}`] =
				file.binary;
			if (file.from) deliveredFrom.push(file.from);
		}
	}
	const kept = Object.keys(binary).length > 0 ? { binary } : {};
	// The gateway's content route delivered instead of a result URL on the relay's own address
	// (engine/files/downloads.ts). (A video task has one file; its route is the task's.)
	const from = deliveredFrom.length > 0 ? fetchedFrom(json, deliveredFrom[0]) : json;
	if (failed.length === 0) return { json: from, ...kept };
	const downloadError = [failed[0].message, failed[0].description].filter(Boolean).join('\n');
	return {
		json: { ...from, downloadError, failedUrls: failed.map((error) => error.url) },
		...kept,
	};
}
