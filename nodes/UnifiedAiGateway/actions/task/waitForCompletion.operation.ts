import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import type { Submitted, WaitSettings } from '../../engine/running/jobPlan';
import { awaitExistingTasks } from '../../engine/running/jobRunner';
import { fileKindOf, QUERY_ROUTES, type QueryRoute } from '../../api/tasks/routes';
import {
	binaryOutputOption,
	concurrencyOption,
	downloadField,
	optionsField,
	readConcurrency,
	readWaitSettings,
	waitingField,
	waitingOptions,
} from '../../params/commonFields';
import type { RunOptions } from '../../engine/running/perItem';
import { downloadLimitOptions } from '../../params/downloadOptions';
import { itemDownload, itemsPerUrl, rawJson, taskJson } from '../../pipeline/taskOutput';
import { reportedChargeJson } from '../../api/charges';
import { requireTaskId } from './get.operation';
import {
	BY_ROUTE,
	languageField,
	languageOf,
	queryRouteField,
	routeOf,
	taskIdField,
} from './taskFields';
import { readBoolean } from '../../params/inputs';

const show = { resource: ['task'], operation: ['waitForCompletion'] };
const displayOptions = { show };

/** Max Wait of this operation: by default the route's window, so a video is not given up after 10 minutes. */
function byRouteDeadline(field: INodeProperties): INodeProperties {
	if (field.name !== 'maxWaitMinutes') return field;
	const minutes = (route: QueryRoute) => QUERY_ROUTES[route].deadlineMs / 60_000;
	return {
		...field,
		default: BY_ROUTE,
		typeOptions: { minValue: 0, numberPrecision: 2 },
		description:
			`How long to wait for each task before giving up on waiting (the task itself keeps running). 0 (or left out) follows the route's advised window: ` +
			`${minutes('video')} min for video tasks and the generic query (it also reads video tasks), ${minutes('image')} min for image tasks, ${minutes('alt')} min on the alt host. ` +
			"The wait also ends before the execution's time limit (Timeout Workflow), outputting unfinished tasks as pending items.",
	};
}

const properties: INodeProperties[] = [
	taskIdField('waitForCompletion', '={{ $json.taskId }}'),
	queryRouteField(['waitForCompletion'], true),
	languageField(['waitForCompletion']),
	// Here waiting is the operation itself: the Waiting collection always shows.
	waitingField(show, waitingOptions(BY_ROUTE).map(byRouteDeadline)),
	downloadField(show, false, 'result files'),
	optionsField(show, [binaryOutputOption(), concurrencyOption(), ...downloadLimitOptions('any')]),
];

export const description = updateDisplayOptions(displayOptions, properties);

/** Max Wait 0: no run-wide deadline, so the engine gives each task its route's window. */
function routeDeadline(settings: WaitSettings): WaitSettings {
	return settings.deadlineMs === BY_ROUTE ? { ...settings, deadlineMs: undefined } : settings;
}

/** Waits for tasks created earlier (pending items, stored ids) without submitting anything. */
export async function execute(this: IExecuteFunctions, run: RunOptions) {
	const startedAt = Date.now();
	const wait = routeDeadline(readWaitSettings(this, BY_ROUTE, undefined, 'taskMaxWaitMinutes'));
	return await awaitExistingTasks<Submitted>(this, run.items.length, {
		noun: 'task',
		startedAt,
		continueOnFail: run.continueOnFail,
		concurrency: readConcurrency(this),
		wait,
		prepare: (i) => {
			// Checked now, not when the task has finished: a bad switch stops the run before any wait.
			readBoolean(this, 'download', i, false, 'Download Files');
			const route = routeOf(this, run, i);
			return { taskId: requireTaskId(this, i), route, language: languageOf(this, i, route) };
		},
		succeed: async (_prepared, submitted, i, snapshot) => {
			const download = readBoolean(this, 'download', i, false, 'Download Files');
			const json = {
				...taskJson(snapshot!),
				...(await reportedChargeJson(this, snapshot!, i)),
				queryRoute: submitted.route,
				raw: rawJson(snapshot!),
			};
			if (!download) return [{ json }];
			return await itemsPerUrl(
				this,
				snapshot!.urls,
				(url) => ({ ...json, url }),
				itemDownload(this, i, {
					kind: fileKindOf(submitted.route!),
					baseName: snapshot!.taskId,
					paid: { taskId: snapshot!.taskId, expiresAt: snapshot!.expiresAt },
					wait: {
						startedAt: submitted.startedAt,
						maxWaitMs: wait.deadlineMs ?? QUERY_ROUTES[submitted.route!].deadlineMs,
					},
					continueOnFail: run.continueOnFail,
					reread: { route: submitted.route!, language: submitted.language },
				}),
			);
		},
	});
}
