import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { QueryRoute } from '../UnifiedAiGateway/api/tasks/routes';
import type { TaskSnapshot } from '../UnifiedAiGateway/api/tasks/snapshot';
import { POLL_POLICY } from '../UnifiedAiGateway/engine/waiting/pollPolicy';
import { taskIdProblem } from '../UnifiedAiGateway/api/tasks/taskIds';
import { mapLimited } from '../UnifiedAiGateway/engine/concurrency';
import {
	leaderCount,
	leadersDoneCount,
	readThisRound,
} from '../UnifiedAiGateway/engine/waiting/pollSchedule';
import {
	passFault,
	readTaskOnce,
	readTasksOnce,
	rereadWithoutUrl,
	type PassRead,
} from '../UnifiedAiGateway/engine/waiting/taskReads';
import { readTriggerBoolean, readTriggerNumber } from '../UnifiedAiGateway/params/inputs';
import { MIN_DOWNLOAD_MS, MIN_QUERY_MS, pollBudget, type PollBudget } from './pollBudget';
import { startPollTurn, type PollTurn } from './pollClaims';
import { readTaskState, writeTaskState, type WatchedTask } from './state';
import {
	finishedItem,
	queryFailedJson,
	snapshotJson,
	timeoutJson,
	withoutUrlJson,
	type DownloadSettings,
} from './taskItems';

/** Task queries in flight at once (each GET retries 429/5xx/drops inside the transport). */
const QUERY_CONCURRENCY = 5;
/** Finished tasks whose files are fetched at once. */
const DOWNLOADS_AT_ONCE = 5;
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
			throw new NodeOperationError(
				ctx.getNode(),
				`Task IDs: ${JSON.stringify(id.slice(0, 80))} ${problem}`,
				{
					description: 'Remove it from Task IDs. Nothing was requested.',
				},
			);
		}
	}
	const download = readTriggerBoolean(ctx, 'download', false, 'Download Files');
	return {
		route,
		language: route === 'generic' ? String(ctx.getNodeParameter('language', 'en')) : undefined,
		ids,
		includeFailures: readTriggerBoolean(ctx, 'includeFailures', false, 'Include Failures'),
		windowMinutes: readTriggerNumber(ctx, 'triggerTimeoutMinutes', 'timeoutMinutes', 30),
		download: download
			? {
					route,
					binaryProperty: String(
						ctx.getNodeParameter('options.binaryPropertyOutput', 'data') || 'data',
					),
				}
			: undefined,
	};
}

/** "Fetch Test Event": the first task as it stands now, finished or not; static data untouched. */
export async function manualTaskFinished(ctx: IPollFunctions): Promise<INodeExecutionData[][]> {
	const settings = readSettings(ctx);
	const taskId = settings.ids[0];
	if (!taskId) {
		throw new NodeOperationError(ctx.getNode(), 'Task IDs is empty', {
			description:
				'Give at least one task ID (one per line or comma-separated) to fetch a test event.',
		});
	}
	const task = { taskId, route: settings.route, language: settings.language };
	const read = await readTaskOnce(ctx, task, 0);
	if (read.kind === 'fault') throw read.error;
	// Finished without its file: read again a few seconds apart, as a poll would over its next
	// polls, before the test event says so (not "failed": the task is finished and may be billed).
	const { snapshot, withoutUrl } = await rereadWithoutUrl(ctx, task, read.snapshot);
	const json = await snapshotJson(ctx, snapshot, settings.route);
	if (withoutUrl) return [[{ json: withoutUrlJson(json, `read ${withoutUrl} times`) }]];
	return [[await finishedItem(ctx, json, snapshot, settings.download)]];
}

/**
 * One poll: read the watched tasks that have not been reported yet, emit those that reached a
 * terminal state (failures only with Include Failures), and time out those watched too long.
 * The reads follow the wait's schedule in rounds (engine/waiting/pollSchedule.ts readThisRound):
 * the ids first seen in one poll are a batch whose first √n lead; each poll reads the leaders first, then
 * the other tasks any leader's news since their last reading makes possibly done, the likeliest
 * (and among equals the least recently checked) first, as many as the poll's budget allows; the
 * rest are read first next poll. A task is never left unread more than ROUNDS.maxSkipped polls in
 * a row. Tasks another running poll of this node is handling are left to it (pollClaims.ts).
 */
export async function pollTaskFinished(
	ctx: IPollFunctions,
): Promise<INodeExecutionData[][] | null> {
	const budget = pollBudget(ctx);
	const turn = startPollTurn(ctx, budget.startedAt);
	try {
		return await pollWithinBudget(ctx, budget, turn);
	} finally {
		turn.end();
	}
}

/**
 * How likely a task is read at all: Check Once waits for half a chance (a task found a round later
 * only matters if it is the batch's last); the trigger reads a task once any leader of its batch
 * has finished since its last reading, so each task fires within about one poll of its end.
 */
const TRIGGER_FIND_CHANCE = 0;

async function pollWithinBudget(
	ctx: IPollFunctions,
	budget: PollBudget,
	turn: PollTurn,
): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(ctx);
	const state = readTaskState(ctx, settings.route);
	const now = Date.now();
	const tasks: Record<string, WatchedTask> = {};
	const fresh: string[] = [];
	for (const id of settings.ids) {
		tasks[id] = state.tasks[id] ?? { firstSeenAt: now };
		if (!state.tasks[id]) fresh.push(id);
	}
	// The ids first seen now are one batch: the first √n of them, in the list's order, lead.
	for (const id of fresh.slice(0, leaderCount(fresh.length))) tasks[id].leader = true;
	state.tasks = tasks; // ids no longer in the list are forgotten here
	turn.merge(tasks);
	const timedOut = (watched: WatchedTask) =>
		Date.now() - watched.firstSeenAt >= settings.windowMinutes * 60_000;
	const byLastCheck = (a: string, b: string) =>
		(tasks[a].checkedAt ?? 0) - (tasks[b].checkedAt ?? 0);
	const open = turn.claim(settings.ids.filter((id) => !tasks[id].done));
	// Each batch's leaders (a batch of an older state has none: its tasks are all read).
	const leadersOf = new Map<number, string[]>();
	for (const id of settings.ids)
		if (tasks[id].leader)
			leadersOf.set(tasks[id].firstSeenAt, [...(leadersOf.get(tasks[id].firstSeenAt) ?? []), id]);
	const reads: PassRead[] = [];
	const asked: string[] = [];
	const readNow = async (ids: string[]) => {
		// One bounded pass of the engine's reading (engine/waiting/taskReads.ts readTasksOnce): a
		// task not reached in the budget is asked first next poll; an answer the budget cut short is
		// the budget's, not the gateway's.
		const pass = await readTasksOnce(
			ctx,
			ids.map((id) => ({
				taskId: id,
				route: settings.route,
				language: settings.language,
				doubtful: tasks[id].errors ?? 0,
			})),
			{ deadlineAt: budget.deadlineAt, minReadMs: MIN_QUERY_MS, concurrency: QUERY_CONCURRENCY },
		);
		for (const [index, read] of pass.entries()) {
			asked.push(ids[index]);
			reads.push(read);
			if (read.kind === 'skipped') continue;
			const watched = tasks[ids[index]];
			watched.checkedAt = read.checkedAt;
			// The policy's count of doubtful answers in a row, kept between polls (a transient fault leaves it).
			if (read.kind === 'read' || (read.kind === 'fault' && read.fault === 'doubtful'))
				watched.errors = read.doubtful;
		}
	};
	const finishedNow = (id: string) => {
		const index = asked.indexOf(id);
		const read = index < 0 ? undefined : reads[index];
		return (
			tasks[id].done !== undefined || (read?.kind === 'read' && read.snapshot.state !== 'pending')
		);
	};
	// First the leaders, the tasks of batches without any, tasks about to time out (read once more),
	// and tasks last read finished without their URL (read again until it comes, or reported).
	const first = open
		.filter(
			(id) =>
				tasks[id].leader ||
				!leadersOf.has(tasks[id].firstSeenAt) ||
				timedOut(tasks[id]) ||
				(tasks[id].withoutUrl ?? 0) > 0,
		)
		.sort(byLastCheck);
	await readNow(first);
	const doneNow = new Map<number, number>();
	for (const [batch, leaders] of leadersOf)
		doneNow.set(
			batch,
			leadersDoneCount(leaders.length, leaders.filter((id) => !finishedNow(id)).length),
		);
	const leadersOfTask = (id: string) => leadersOf.get(tasks[id].firstSeenAt)?.length ?? 0;
	const doneOf = (id: string) => doneNow.get(tasks[id].firstSeenAt) ?? 0;
	// The chance it finished since its last reading: the leaders that finished since, of those open then.
	const chance = (id: string) => {
		const then = Math.min(tasks[id].leadersDone ?? 0, leadersOfTask(id));
		return then >= leadersOfTask(id) ? 1 : (doneOf(id) - then) / (leadersOfTask(id) - then);
	};
	const roundOf = (id: string) => ({
		leader: false,
		leadersDone: tasks[id].leadersDone,
		skipped: tasks[id].skipped ?? 0,
	});
	const firstSet = new Set(first);
	const second = open.filter((id) => !firstSet.has(id));
	const due = second.filter((id) =>
		readThisRound(roundOf(id), leadersOfTask(id), doneOf(id), TRIGGER_FIND_CHANCE),
	);
	const dueSet = new Set(due);
	await readNow(due.sort((a, b) => chance(b) - chance(a) || byLastCheck(a, b)));
	// Left unread by the rule (not by the budget): counted, so none waits more than ROUNDS.maxSkipped polls.
	for (const id of second) if (!dueSet.has(id)) tasks[id].skipped = (tasks[id].skipped ?? 0) + 1;
	// A task read as running is read again once its leaders say more (a failed read taught nothing).
	for (const [index, read] of reads.entries()) {
		if (read.kind !== 'read') continue;
		const watched = tasks[asked[index]];
		watched.leadersDone = doneOf(asked[index]);
		delete watched.skipped;
	}

	// Settings (no Alt Base URL) and gateway-wide failures (5xx for every task, or a 401/403 for every
	// task as often as the engine's poll policy allows: a revoked key) are the user's to see as an
	// error; count and remember first so no window restarts and no count is lost.
	const fatal = passFault(reads);
	if (fatal !== undefined) {
		writeTaskState(ctx, state);
		throw fatal;
	}

	const emitted: Array<INodeExecutionData | undefined> = [];
	const emittedIds: string[] = [];
	const finish = (id: string, done: NonNullable<WatchedTask['done']>) => {
		tasks[id].done = done;
		tasks[id].doneAt = Date.now();
		emittedIds.push(id);
	};
	const downloads: Array<{ id: string; slot: number; snapshot: TaskSnapshot; json: IDataObject }> =
		[];
	// The quota unit a charge needs (GET /api/status, once per poll) is read with time to spare: a
	// poll that ran past its budget is not taken as delivered, and would report its tasks again.
	// Cut short, the charge stays in the gateway's raw units and says why.
	const chargeDeadlineAt = budget.deadlineAt - MIN_QUERY_MS;
	for (const [index, read] of reads.entries()) {
		const id = asked[index];
		const watched = tasks[id];
		if (read.kind === 'skipped' || read.kind === 'stop') continue; // not asked this poll (a stop has thrown above)
		if (read.kind === 'read') {
			const { snapshot } = read;
			delete watched.lastError;
			watched.lastStatus = snapshot.status;
			watched.lastProgress = snapshot.progress;
			if (snapshot.urlMissing) {
				// Finished without its file: a gateway may flag a task completed one read before it
				// writes the URL, so it stays watched and is read again at the next polls; after the
				// policy's count (or at the window's end) it is emitted, whatever Include Failures says:
				// the task is finished and may be billed, and its result may still come.
				watched.withoutUrl = (watched.withoutUrl ?? 0) + 1;
				if (watched.withoutUrl < POLL_POLICY.readsWithoutUrl && !timedOut(watched)) continue;
				const json = await snapshotJson(ctx, snapshot, settings.route, watched, chargeDeadlineAt);
				finish(id, 'failed');
				emitted.push({
					json: withoutUrlJson(
						json,
						`${watched.withoutUrl} poll${watched.withoutUrl === 1 ? '' : 's'} in a row`,
						'This trigger stops watching it.',
					),
				});
				continue;
			}
			delete watched.withoutUrl;
			if (snapshot.state !== 'pending') {
				if (snapshot.state !== 'succeeded' && !settings.includeFailures) {
					finish(id, snapshot.state);
					continue;
				}
				const json = await snapshotJson(ctx, snapshot, settings.route, watched, chargeDeadlineAt);
				if (settings.download && snapshot.state === 'succeeded' && snapshot.urls.length > 0) {
					downloads.push({ id, slot: emitted.push(undefined) - 1, snapshot, json });
					continue;
				}
				finish(id, snapshot.state);
				emitted.push({ json });
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
	// The finished tasks' files, a few at once; one started with too little of the budget left
	// waits for the next poll with its task (read again then, emitted once).
	await mapLimited(downloads, DOWNLOADS_AT_ONCE, async ({ id, slot, snapshot, json }) => {
		if (budget.remaining() < MIN_DOWNLOAD_MS) return;
		emitted[slot] = await finishedItem(ctx, json, snapshot, settings.download, budget.deadlineAt);
		finish(id, 'succeeded');
	});
	turn.merge(tasks); // what overlapping polls delivered meanwhile
	// A poll past its budget may have been abandoned by n8n, its items dropped: then its tasks
	// are not taken as delivered, and the next poll reports them.
	if (budget.remaining() > 0) turn.delivered(tasks, emittedIds);
	writeTaskState(ctx, state);
	const items = emitted.filter((item): item is INodeExecutionData => item !== undefined);
	return items.length > 0 ? [items] : null;
}
