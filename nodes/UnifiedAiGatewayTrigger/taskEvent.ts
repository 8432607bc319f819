import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { settleLimited } from '../UnifiedAiGateway/engine/concurrency';
import { queryTask } from '../UnifiedAiGateway/engine/query';
import type { QueryRoute } from '../UnifiedAiGateway/engine/routes';
import { isAccountRefusal, POLL_POLICY, pollFaultOf } from '../UnifiedAiGateway/engine/pollPolicy';
import type { TaskSnapshot } from '../UnifiedAiGateway/engine/snapshot';
import { taskIdProblem } from '../UnifiedAiGateway/engine/taskIds';
import { readTriggerNumber } from '../UnifiedAiGateway/params/inputs';
import { GatewayRequestError } from '../UnifiedAiGateway/transport/request';
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
	// The node's one rule (engine/taskIds.ts): an id that could address anything but its task is refused.
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
	const snapshot = await queryTask(ctx, settings.route, taskId, { language: settings.language });
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
	const results = await settleLimited(open, QUERY_CONCURRENCY, async (id) => {
		if (budget.remaining() < MIN_QUERY_MS) return undefined; // out of time: the next poll asks
		tasks[id].checkedAt = Date.now();
		return await queryTask(ctx, settings.route, id, { deadlineAt: budget.deadlineAt, language: settings.language });
	});
	// With the budget spent, a timeout or drop may be the budget cutting a slow answer short: the
	// gateway is slow, not failing, and those tasks are asked again next poll.
	const spent = budget.remaining() < MIN_QUERY_MS;
	const cut = (r: (typeof results)[number]) => spent && !r.ok && r.error instanceof GatewayRequestError && r.error.transient;
	const asked = results.filter((r) => (!r.ok || r.value !== undefined) && !cut(r));

	// Settings (no Alt Base URL) and gateway-wide failures (5xx for every task, or a 401/403 for every
	// task as often as the engine's poll policy allows: a revoked key) are the user's to see as an
	// error; count and remember first so no window restarts and no count is lost.
	const wasAsked = new Set<unknown>(asked);
	for (const [index, result] of results.entries()) {
		if (!wasAsked.has(result)) continue;
		const watched = tasks[open[index]];
		if (result.ok) watched.errors = 0;
		else if (pollFaultOf(result.error) === 'doubtful') watched.errors = (watched.errors ?? 0) + 1;
	}
	const everyFailed = asked.length > 0 && asked.every((r) => !r.ok);
	const fatal =
		asked.find((r) => !r.ok && pollFaultOf(r.error) === 'stop') ??
		(everyFailed
			? results.find(
					(r, index) =>
						wasAsked.has(r) &&
						!r.ok &&
						(pollFaultOf(r.error) === 'transient' ||
							(isAccountRefusal(r.error) && (tasks[open[index]].errors ?? 0) >= PERMANENT_ERRORS_TO_FAIL)),
				)
			: undefined);
	if (fatal && !fatal.ok) {
		writeTaskState(ctx, state);
		throw fatal.error;
	}

	const emitted: INodeExecutionData[] = [];
	const emittedIds: string[] = [];
	const timedOut = (watched: WatchedTask) => Date.now() - watched.firstSeenAt >= settings.windowMinutes * 60_000;
	const finish = (id: string, done: NonNullable<WatchedTask['done']>) => {
		tasks[id].done = done;
		tasks[id].doneAt = Date.now();
		emittedIds.push(id);
	};
	for (const [index, result] of results.entries()) {
		const id = open[index];
		const watched = tasks[id];
		if (result.ok && result.value === undefined) continue; // not asked this poll
		if (result.ok) {
			const snapshot = result.value as TaskSnapshot;
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
			watched.lastError = (result.error as Error).message;
			if (pollFaultOf(result.error) === 'doubtful') {
				if (settings.includeFailures && (watched.errors ?? 0) >= PERMANENT_ERRORS_TO_FAIL) {
					finish(id, 'failed');
					emitted.push({ json: queryFailedJson(id, settings.route, watched) });
					continue;
				}
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
