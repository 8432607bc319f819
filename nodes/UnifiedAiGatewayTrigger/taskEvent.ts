import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { QueryRoute } from '../UnifiedAiGateway/api/tasks/routes';
import { POLL_POLICY } from '../UnifiedAiGateway/engine/waiting/pollPolicy';
import { taskIdProblem } from '../UnifiedAiGateway/api/tasks/taskIds';
import { passFault, readTaskOnce, readTasksOnce } from '../UnifiedAiGateway/engine/waiting/taskReads';
import { readTriggerNumber } from '../UnifiedAiGateway/params/inputs';
import { MIN_DOWNLOAD_MS, MIN_QUERY_MS, pollBudget, type PollBudget } from './pollBudget';
import { startPollTurn, type PollTurn } from './pollClaims';
import { readTaskState, writeTaskState, type WatchedTask } from './state';
import {
	finishedItem,
	queryFailedJson,
	snapshotJson,
	timeoutJson,
	type DownloadSettings,
} from './taskItems';

/** Task queries in flight at once (each GET retries 429/5xx/drops inside the transport). */
const QUERY_CONCURRENCY = 5;
/**
 * Answers in a row that give no reading of a task (404, task_not_exist, 401, 403, a garbled 200)
 * before it is reported: the engine's one policy, the same as inside the node's waits.
 */
export const PERMANENT_ERRORS_TO_FAIL = POLL_POLICY.doubtfulAnswersToReport;

/** Ids from a list: one per line, comma-, semicolon- or space-separated, or an array from an expression. */
export function parseTaskIds(value: unknown): string[] {
	const parts = Array.isArray(value) ? value.flat(Infinity) : [value];
	const ids = parts
		.filter((part) => part !== null && part !== undefined)
		.flatMap((part) => String(part).split(/[\s,;]+/))
		.map((id) => id.trim())
		.filter((id) => id !== '');
	return [...new Set(ids)];
}

interface Settings {
	route: QueryRoute;
	/** docs/gateway-contract.md §4.10 `language`, generic query only. */
	language?: string;
	ids: string[];
	includeFailures: boolean;
	windowMinutes: number;
	download?: DownloadSettings;
}

function readSettings(ctx: IPollFunctions): Settings {
	const route = ctx.getNodeParameter('queryRoute', 'generic') as QueryRoute;
	const ids = parseTaskIds(ctx.getNodeParameter('taskIds', ''));
	// The node's one rule (api/tasks/taskIds.ts): an id that could address anything but its task is refused.
	for (const id of ids) {
		const problem = taskIdProblem(id);
		if (problem) {
			throw new NodeOperationError(ctx.getNode(), `Task IDs: ${JSON.stringify(id.slice(0, 80))} ${problem}`, {
				description: 'Remove it from Task IDs. Nothing was requested.',
			});
		}
	}
	const download = ctx.getNodeParameter('download', false) as boolean;
	return {
		route,
		language: route === 'generic' ? String(ctx.getNodeParameter('language', 'en')) : undefined,
		ids,
		includeFailures: ctx.getNodeParameter('includeFailures', false) as boolean,
		windowMinutes: readTriggerNumber(ctx, 'triggerTimeoutMinutes', 'timeoutMinutes', 30),
		download: download
			? { route, binaryProperty: String(ctx.getNodeParameter('options.binaryPropertyOutput', 'data') || 'data') }
			: undefined,
	};
}

/** "Fetch Test Event": the first task as it stands now, finished or not; static data untouched. */
export async function manualTaskFinished(ctx: IPollFunctions): Promise<INodeExecutionData[][]> {
	const settings = readSettings(ctx);
	const taskId = settings.ids[0];
	if (!taskId) {
		throw new NodeOperationError(ctx.getNode(), 'Task IDs is empty', {
			description: 'Give at least one task ID (one per line or comma-separated) to fetch a test event.',
		});
	}
	const read = await readTaskOnce(ctx, { taskId, route: settings.route, language: settings.language }, 0);
	if (read.kind === 'fault') throw read.error;
	const { snapshot } = read;
	return [[await finishedItem(ctx, snapshotJson(snapshot, settings.route), snapshot, settings.download)]];
}

/**
 * One poll: query the watched tasks that have not been reported yet (least recently checked
 * first, as many as the poll's budget allows; the rest wait for the next poll), emit those that
 * reached a terminal state (failures only with Include Failures), and time out those watched too
 * long. Tasks another running poll of this node is handling are left to it (pollClaims.ts).
 */
export async function pollTaskFinished(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const budget = pollBudget(ctx);
	const turn = startPollTurn(ctx, budget.startedAt);
	try {
		return await pollWithinBudget(ctx, budget, turn);
	} finally {
		turn.end();
	}
}

async function pollWithinBudget(ctx: IPollFunctions, budget: PollBudget, turn: PollTurn): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(ctx);
	const state = readTaskState(ctx, settings.route);
	const now = Date.now();
	const tasks: Record<string, WatchedTask> = {};
	for (const id of settings.ids) tasks[id] = state.tasks[id] ?? { firstSeenAt: now };
	state.tasks = tasks; // ids no longer in the list are forgotten here
	turn.merge(tasks);
	const byLastCheck = (a: string, b: string) => (tasks[a].checkedAt ?? 0) - (tasks[b].checkedAt ?? 0);
	const open = turn.claim(settings.ids.filter((id) => !tasks[id].done).sort(byLastCheck));
	// One bounded pass of the engine's reading (engine/query.ts): a task not reached in the
	// budget is asked next poll; an answer the budget cut short is the budget's, not the gateway's.
	const reads = await readTasksOnce(
		ctx,
		open.map((id) => ({ taskId: id, route: settings.route, language: settings.language, doubtful: tasks[id].errors ?? 0 })),
		{ deadlineAt: budget.deadlineAt, minReadMs: MIN_QUERY_MS, concurrency: QUERY_CONCURRENCY },
	);
	for (const [index, read] of reads.entries()) {
		if (read.kind === 'skipped') continue;
		const watched = tasks[open[index]];
		watched.checkedAt = read.checkedAt;
		// The policy's count of doubtful answers in a row, kept between polls (a transient fault leaves it).
		if (read.kind === 'read' || (read.kind === 'fault' && read.fault === 'doubtful')) watched.errors = read.doubtful;
	}

	// Settings (no Alt Base URL) and gateway-wide failures (5xx for every task, or a 401/403 for every
	// task as often as the engine's poll policy allows: a revoked key) are the user's to see as an
	// error; count and remember first so no window restarts and no count is lost.
	const fatal = passFault(reads);
	if (fatal !== undefined) {
		writeTaskState(ctx, state);
		throw fatal;
	}

	const emitted: INodeExecutionData[] = [];
	const emittedIds: string[] = [];
	const timedOut = (watched: WatchedTask) => Date.now() - watched.firstSeenAt >= settings.windowMinutes * 60_000;
	const finish = (id: string, done: NonNullable<WatchedTask['done']>) => {
		tasks[id].done = done;
		tasks[id].doneAt = Date.now();
		emittedIds.push(id);
	};
	for (const [index, read] of reads.entries()) {
		const id = open[index];
		const watched = tasks[id];
		if (read.kind === 'skipped' || read.kind === 'stop') continue; // not asked this poll (a stop has thrown above)
		if (read.kind === 'read') {
			const { snapshot } = read;
			delete watched.lastError;
			watched.lastStatus = snapshot.status;
			watched.lastProgress = snapshot.progress;
			if (snapshot.state !== 'pending') {
				const wanted = snapshot.state === 'succeeded' || settings.includeFailures;
				const fetches = wanted && settings.download && snapshot.state === 'succeeded' && snapshot.urls.length > 0;
				if (fetches && budget.remaining() < MIN_DOWNLOAD_MS) continue; // its files next poll
				finish(id, snapshot.state);
				if (wanted) {
					const json = snapshotJson(snapshot, settings.route, watched);
					emitted.push(await finishedItem(ctx, json, snapshot, settings.download, budget.deadlineAt));
				}
				continue;
			}
		} else {
			watched.lastError = read.error.message;
			if (read.fault === 'doubtful' && read.report && settings.includeFailures) {
				finish(id, 'failed');
				emitted.push({ json: queryFailedJson(id, settings.route, watched) });
				continue;
			}
		}
		if (timedOut(watched)) {
			finish(id, 'timeout');
			emitted.push({ json: timeoutJson(id, settings.route, watched, settings.windowMinutes) });
		}
	}
	turn.merge(tasks); // what overlapping polls delivered meanwhile
	// A poll past its budget may have been abandoned by n8n, its items dropped: then its tasks
	// are not taken as delivered, and the next poll reports them.
	if (budget.remaining() > 0) turn.delivered(tasks, emittedIds);
	writeTaskState(ctx, state);
	return emitted.length > 0 ? [emitted] : null;
}
