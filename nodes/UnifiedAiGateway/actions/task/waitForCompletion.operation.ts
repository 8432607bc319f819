import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { reportedChargeJson } from '../../api/charges';
import { fileKindOf, QUERY_ROUTES, type QueryRoute } from '../../api/tasks/routes';
import type { TaskSnapshot } from '../../api/tasks/snapshot';
import { DEFAULT_CONCURRENCY } from '../../engine/concurrency';
import {
	outputItems,
	readItems,
	submitItems,
	waitForResults,
	type Batch,
	type BatchSettings,
} from '../../engine/running/batch';
import type { RunOptions } from '../../engine/running/perItem';
import type { Submitted } from '../../engine/running/types';
import { downloadLimitOptions } from '../../params/downloadOptions';
import { binaryOutputOption, downloadField, optionsField } from '../../params/fields';
import { readBoolean } from '../../params/inputs';
import type { RunDefaults } from '../../params/runDefaults';
import { concurrencyOption, waitingField, waitingOptions } from '../../params/runFields';
import { readConcurrency, readWaitSettings } from '../../params/runSettings';
import { itemsPerUrl, rawJson, resultDownload, taskJson } from '../../pipeline/taskOutput';
import {
	BY_ROUTE,
	languageField,
	languageOf,
	queryRouteField,
	requireTaskId,
	routeOf,
	taskIdField,
} from './taskFields';

/**
 * How Wait for Completion runs with Waiting and Options left out, and what its fields say of it:
 * Max Wait 0 gives each task its query route's window (a video is not given up after 10
 * minutes), read at each route's advised interval.
 */
export const DEFAULTS: RunDefaults = {
	maxWaitMinutes: BY_ROUTE,
	routes: Object.keys(QUERY_ROUTES) as QueryRoute[],
	concurrency: DEFAULT_CONCURRENCY,
};

const show = { resource: ['task'], operation: ['waitForCompletion'] };
const displayOptions = { show };

/** Max Wait of this operation: by default the route's window. */
function byRouteDeadline(field: INodeProperties): INodeProperties {
	if (field.name !== 'maxWaitMinutes') return field;
	const minutes = (route: QueryRoute) => QUERY_ROUTES[route].deadlineMs / 60_000;
	return {
		...field,
		default: DEFAULTS.maxWaitMinutes,
		typeOptions: { minValue: 0, numberPrecision: 2 },
		description:
			'How long to wait for each task before giving up on waiting (the task itself keeps running). ' +
			"0 (or left out) follows the route's advised window: " +
			`${minutes('video')} min for video tasks and the generic query (it also reads video tasks), ` +
			`${minutes('image')} min for image tasks, ${minutes('alt')} min on the alt host. ` +
			"The wait also ends before the execution's time limit (Timeout Workflow), outputting " +
			'unfinished tasks as pending items.',
	};
}

const properties: INodeProperties[] = [
	taskIdField('waitForCompletion', '={{ $json.taskId }}'),
	queryRouteField(['waitForCompletion'], true),
	languageField(['waitForCompletion']),
	// Here waiting is the operation itself: the Waiting collection always shows.
	waitingField(show, waitingOptions(DEFAULTS).map(byRouteDeadline)),
	downloadField(show, false, 'result files'),
	optionsField(show, [
		binaryOutputOption(),
		concurrencyOption(DEFAULTS),
		...downloadLimitOptions('any'),
	]),
];

export const description = updateDisplayOptions(displayOptions, properties);

/** A task created earlier (a pending item, a stored id): where it is read. */
type ExistingTask = Pick<Submitted, 'taskId' | 'route' | 'language'>;

/** Waits for tasks created earlier (pending items, stored ids) without submitting anything. */
export async function execute(
	this: IExecuteFunctions,
	run: RunOptions,
): Promise<INodeExecutionData[]> {
	const startedAt = Date.now();
	const wait = readWaitSettings(this, DEFAULTS, 'taskMaxWaitMinutes');
	const settings: BatchSettings = {
		noun: 'task',
		concurrency: readConcurrency(this, DEFAULTS),
		// Max Wait 0: no run-wide deadline, so the engine gives each task its route's window.
		wait: wait.deadlineMs === BY_ROUTE ? { ...wait, deadlineMs: undefined } : wait,
		work: 'reads',
	};
	const batch = await readItems(this, run, settings, (i) => readTask(this, run, i));
	// Nothing is sent: the task exists already, so its "submit" only hands it to the wait.
	const submits = submitItems(batch, async (task) => ({ ...task, startedAt, raw: {} }));
	const results = await waitForResults(batch, submits, async (_task, answer, i, snapshot) =>
		taskItems(this, batch, answer, i, snapshot!),
	);
	return await outputItems(results);
}

/** The item's task: its id, query route and language; a bad Download Files stops the run before any wait. */
function readTask(ctx: IExecuteFunctions, run: RunOptions, i: number): ExistingTask {
	readBoolean(ctx, 'download', i, false, 'Download Files');
	const route = routeOf(ctx, run, i);
	return { taskId: requireTaskId(ctx, i), route, language: languageOf(ctx, i, route) };
}

/** The finished task as one item, or (Download Files) one item per result file. */
async function taskItems(
	ctx: IExecuteFunctions,
	batch: Batch<ExistingTask>,
	answer: Submitted,
	i: number,
	snapshot: TaskSnapshot,
): Promise<INodeExecutionData[]> {
	const json: IDataObject = {
		...taskJson(snapshot),
		...(await reportedChargeJson(ctx, snapshot, i)),
		queryRoute: answer.route,
		raw: rawJson(snapshot),
	};
	const download = resultDownload(
		ctx,
		batch,
		answer,
		i,
		{
			kind: fileKindOf(answer.route!),
			baseName: snapshot.taskId,
			paid: { taskId: snapshot.taskId, expiresAt: snapshot.expiresAt },
		},
		false,
	);
	if (!download) return [{ json }];
	return await itemsPerUrl(ctx, snapshot.urls, (url) => ({ ...json, url }), download);
}
