import { relayWords } from '../../transport/relayWords';
import {
	NodeOperationError,
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import {
	checkPlanJson,
	checkPlanOf,
	seedCheckPlan,
	type CheckPlan,
} from '../../engine/waiting/checkPlan';
import { mapLimited, settleLimited } from '../../engine/concurrency';
import { addHint } from '../../engine/hints';
import { leadersDoneCount, readThisRound } from '../../engine/waiting/pollSchedule';
import { withoutUrlVerdict } from '../../engine/waiting/pollPolicy';
import { rereadWithoutUrl } from '../../engine/waiting/taskReads';
import { queryTask } from '../../api/tasks/query';
import { fileKindOf, QUERY_ROUTES, type QueryRoute } from '../../api/tasks/routes';
import type { TaskSnapshot } from '../../api/tasks/snapshot';
import { isToolRun, toolPendingJson } from '../../engine/running/toolMode';
import { downloadLimitOptions } from '../../params/downloadOptions';
import { readBoolean, readNumber } from '../../params/inputs';
import { binaryOutputOption, downloadField, optionsField } from '../../params/fields';
import { errorItem, forEachItem, type RunOptions } from '../../engine/running/perItem';
import { itemDownload, itemsPerUrl, taskJson } from '../../pipeline/taskOutput';
import { reportedChargeJson } from '../../api/charges';
import {
	BY_ROUTE,
	languageField,
	queryRouteField,
	requireTaskId,
	routeOf,
	taskIdField,
} from './taskFields';

const show = { resource: ['task'], operation: ['checkOnce'] };
const displayOptions = { show };

const properties: INodeProperties[] = [
	taskIdField('checkOnce', '={{ $json.taskId }}'),
	queryRouteField(['checkOnce'], true),
	languageField(['checkOnce']),
	downloadField(show, true, 'result files'),
	optionsField(show, [
		binaryOutputOption(),
		...downloadLimitOptions('any'),
		{
			displayName: 'Give Up After (Minutes)',
			name: 'giveUpMinutes',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 2 },
			default: BY_ROUTE,
			description:
				'How long an item may keep coming back pending, counted from its first ' +
				'check (firstCheckedAt), before it fails with its task ID (the task ' +
				'itself keeps running). 0 (or left out) follows the route: 30 min for ' +
				'video tasks and the generic query, 10 min for image and alt-host tasks.',
		},
	]),
];

export const description = updateDisplayOptions(displayOptions, properties);

/** Fields of an earlier round (Submit's pending item, or this operation's) that no longer hold. */
const STALE = [
	'message',
	'submitResponse',
	'waitedMs',
	'error',
	'description',
	'spendSummary',
	'raw',
	'expiresAt',
	'answeredBy',
	'estimatedTimeSeconds',
	'downloadFailed',
	'created',
	'checkPlan',
];

function carried(json: IDataObject): IDataObject {
	const kept = { ...json };
	for (const key of STALE) delete kept[key];
	return kept;
}

/** When the loop first checked this item: kept on the item, so every round counts from the same moment. */
function firstCheckOf(json: IDataObject, now: number): number {
	const seen = typeof json.firstCheckedAt === 'string' ? Date.parse(json.firstCheckedAt) : NaN;
	return Number.isFinite(seen) && seen <= now ? seen : now;
}

/** Give Up After, checked as it may arrive from an expression; 0 (or empty) is the route's window. */
function giveUpMinutes(ctx: IExecuteFunctions, i: number, route: QueryRoute): number {
	const given = ctx.getNodeParameter('options.giveUpMinutes', i, BY_ROUTE) as unknown;
	const value =
		given === '' || given === null || given === undefined
			? BY_ROUTE
			: readNumber(ctx, 'giveUpMinutes', i, { value: given });
	return value || QUERY_ROUTES[route].deadlineMs / 60_000;
}

function stateText(snapshot: TaskSnapshot): string {
	return `status '${snapshot.status}'${snapshot.progress !== undefined ? ` at ${snapshot.progress}%` : ''}`;
}

/** Reads in flight at once. */
const READS_AT_ONCE = 5;

/** One input item as the round sees it, before its output is built. */
interface Entry {
	index: number;
	taskId: string;
	route: QueryRoute;
	language?: string;
	input: IDataObject;
	firstCheckedAt: number;
	checks: number;
	minutes: number;
	/** The plan it came with (engine/waiting/checkPlan.ts), or the one this round gives it (first read). */
	plan?: CheckPlan;
	/** Its batch's key in this round: route and batch. */
	batch: string;
	read?: { snapshot: TaskSnapshot } | { error: unknown };
	/** Reads in a row that said finished without a file (rereadWithoutUrl), when the last one did. */
	withoutUrl?: number;
}

/**
 * One round of a loop Submit → Wait → Check Once → If pending → back to Wait, where n8n's Wait
 * node (70 s or more; below 65 s it sleeps in the process) parks the execution in the database, frees the worker and
 * resumes after a restart. Each task is read at most once, no waiting (but for one finished without its file, below):
 * finished, the result (files by default); still running, the item again with pending: true; failed or given up, an
 * error naming the task, which On Error → Continue (using error output) sends to a second output. The reads follow
 * the wait's schedule in rounds (engine/waiting/pollSchedule.ts readThisRound, the plan on each pending item:
 * engine/waiting/checkPlan.ts): the leaders of each batch first, then the other tasks their news makes likely done; a
 * task left unread goes round again with its plan, without a request. A task read as finished without its file is
 * read again a few times before it is reported (rereadWithoutUrl).
 */
export async function execute(
	this: IExecuteFunctions,
	run: RunOptions,
): Promise<INodeExecutionData[]> {
	const now = Date.now();
	const tool = isToolRun(this);
	const entries = run.items.map((item, i): Entry | { error: unknown } => {
		try {
			const taskId = requireTaskId(this, i);
			const route = routeOf(this, run, i);
			const input = item.json;
			const plan = checkPlanOf(input);
			return {
				index: i,
				taskId,
				route,
				language:
					route === 'generic' ? (this.getNodeParameter('language', i, 'en') as string) : undefined,
				input,
				firstCheckedAt: firstCheckOf(input, now),
				checks:
					(typeof input.checks === 'number' && Number.isFinite(input.checks) ? input.checks : 0) +
					1,
				minutes: giveUpMinutes(this, i, route),
				plan,
				batch: `${route} ${plan ? plan.batch : 'new'}`,
			};
		} catch (error) {
			return { error };
		}
	});
	const readable = (entry: Entry | { error: unknown }): entry is Entry => !('error' in entry);
	const readAll = async (list: Entry[]) => {
		await settleLimited(list, READS_AT_ONCE, async (entry) => {
			try {
				entry.read = {
					snapshot: await queryTask(this, entry.route, entry.taskId, {
						language: entry.language,
						itemIndex: entry.index,
					}),
				};
			} catch (error) {
				entry.read = { error };
			}
		});
	};
	// First the items that are read whatever the others say: no plan yet (the first round of tasks
	// from elsewhere), leaders, and tasks due to give up (read once more before they fail).
	const open = entries.filter(readable);
	const first = open.filter(
		(e) => !e.plan || e.plan.leader || now - e.firstCheckedAt >= e.minutes * 60_000,
	);
	await readAll(first);
	// Tasks read here for the first time without a plan begin a batch of this round.
	const fresh = new Map<QueryRoute, Entry[]>();
	for (const entry of first)
		if (!entry.plan) fresh.set(entry.route, [...(fresh.get(entry.route) ?? []), entry]);
	for (const list of fresh.values())
		list.forEach((entry, k) => (entry.plan = seedCheckPlan(now, k, list.length)));
	// How many of each batch's leaders have finished now (a leader not among the items left the loop: done).
	const stillOpen = (entry: Entry) =>
		!entry.read || 'error' in entry.read || entry.read.snapshot.state === 'pending';
	const openLeaders = new Map<string, number>();
	for (const entry of open)
		if (entry.plan!.leader && stillOpen(entry))
			openLeaders.set(entry.batch, (openLeaders.get(entry.batch) ?? 0) + 1);
	const doneNow = (entry: Entry) =>
		leadersDoneCount(entry.plan!.leaders, openLeaders.get(entry.batch) ?? 0);
	await readAll(
		open.filter(
			(entry) => !entry.read && readThisRound(entry.plan!, entry.plan!.leaders, doneNow(entry)),
		),
	);

	// Finished without its file: a gateway may flag a task completed one read before it writes the
	// URL, so it is read again (a few seconds apart) before the item says so. Only a Stop is thrown here.
	await mapLimited(
		open.filter(
			(entry) => entry.read && 'snapshot' in entry.read && entry.read.snapshot.urlMissing,
		),
		READS_AT_ONCE,
		async (entry) => {
			const { snapshot } = entry.read as { snapshot: TaskSnapshot };
			const again = await rereadWithoutUrl(this, entry, snapshot, entry.index);
			entry.read = { snapshot: again.snapshot };
			entry.withoutUrl = again.withoutUrl;
		},
	);

	let unread = 0;
	const output = await forEachItem(this, run, async (i) => {
		const entry = entries[i];
		if (!readable(entry)) throw entry.error;
		const { taskId, route, firstCheckedAt, checks, minutes } = entry;
		const plan = entry.plan!;
		const checkedAt = new Date(firstCheckedAt).toISOString();
		if (!entry.read) {
			unread++;
			const json: IDataObject = {
				...carried(entry.input),
				state: 'pending',
				queryRoute: route,
				pending: true,
				firstCheckedAt: checkedAt,
				checks,
				checkPlan: checkPlanJson({ ...plan, skipped: plan.skipped + 1 }),
				message:
					`Task ${taskId} was not read in this round: the tasks submitted with it ` +
					`show it is most likely still running. Send this item back to the Wait ` +
					`node.`,
			};
			return [{ json: tool ? toolPendingJson(json, 'reads') : json }];
		}
		if ('error' in entry.read) throw entry.read.error;
		const { snapshot } = entry.read;
		const json: IDataObject = {
			...carried(entry.input),
			...taskJson(snapshot),
			...(await reportedChargeJson(this, snapshot, i)),
			queryRoute: route,
			pending: snapshot.state === 'pending',
			firstCheckedAt: checkedAt,
			checks,
		};
		if (entry.withoutUrl) {
			// Finished (and perhaps billed), no file named: not a failure of the task, so not "failed".
			const { message, advice } = withoutUrlVerdict(
				taskId,
				snapshot.status,
				`read ${entry.withoutUrl} times in this check`,
			);
			const error = new NodeOperationError(this.getNode(), message, {
				itemIndex: i,
				description: advice,
			});
			error.context.taskId = taskId;
			if (!run.continueOnFail) throw error;
			const failed: IDataObject = { ...json, error: message, description: advice };
			delete failed.state;
			return [errorItem(this, failed, error, i)];
		}
		if (snapshot.state === 'failed') {
			const error = new NodeOperationError(
				this.getNode(),
				`Task ${taskId} failed: ${snapshot.error ? relayWords(snapshot.error) : stateText(snapshot)}`,
				{
					itemIndex: i,
					description: `Status '${snapshot.status}'. Nothing is submitted again here; the task ID stays in this error.`,
				},
			);
			error.context.taskId = taskId;
			throw error;
		}
		if (snapshot.state === 'pending') {
			if (now - firstCheckedAt >= minutes * 60_000) {
				const error = new NodeOperationError(
					this.getNode(),
					`Task ${taskId} is still running after ${minutes} min of checks (${stateText(snapshot)})`,
					{
						itemIndex: i,
						description:
							'It may still finish: check it later with Task → Get or Task → Wait for Completion; do not submit it again.',
					},
				);
				error.context.taskId = taskId;
				throw error;
			}
			json.checkPlan = checkPlanJson({ ...plan, leadersDone: doneNow(entry), skipped: 0 });
			json.message =
				`Task ${taskId} is still running (${stateText(snapshot)}): send this item ` +
				`back to the Wait node and check again.`;
			return [{ json: tool ? toolPendingJson(json, 'reads') : json }];
		}
		if (!readBoolean(this, 'download', i, true, 'Download Files')) return [{ json }];
		const download = itemDownload(this, i, {
			kind: fileKindOf(route),
			baseName: taskId,
			paid: { taskId, expiresAt: snapshot.expiresAt },
			continueOnFail: run.continueOnFail,
		});
		return await itemsPerUrl(this, snapshot.urls, (url) => ({ ...json, url }), download);
	});
	const pending = output.filter((item) => item.json.pending === true).length;
	if (pending > 0 && !tool) {
		addHint(
			this,
			`${pending} of ${run.items.length} task${run.items.length === 1 ? ' is' : 's are'} ` +
				`still running (pending: true): send them back to the Wait node with an ` +
				`If on {{ $json.pending }}`,
			'info',
		);
		if (unread > 0)
			addHint(
				this,
				`${unread} of them ${unread === 1 ? 'was' : 'were'} not read this round: ` +
					`the first tasks of their batch show them still running`,
				'info',
			);
	}
	return output;
}
