import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { addHint } from '../../engine/hints';
import { queryTask } from '../../api/tasks/query';
import { fileKindOf, QUERY_ROUTES, type QueryRoute } from '../../api/tasks/routes';
import type { TaskSnapshot } from '../../api/tasks/snapshot';
import { isToolRun, toolPendingJson } from '../../engine/running/toolMode';
import { downloadLimitOptions } from '../../params/downloadOptions';
import { readNumber } from '../../params/inputs';
import { binaryOutputOption, downloadField, optionsField } from '../../params/commonFields';
import { forEachItem, type RunOptions } from '../../engine/running/perItem';
import { itemDownload, itemsPerUrl, taskJson } from '../../pipeline/taskOutput';
import { requireTaskId } from './get.operation';
import { BY_ROUTE, languageField, queryRouteField, routeOf, taskIdField } from './taskFields';

const show = { resource: ['task'], operation: ['checkOnce'] };

export const description: INodeProperties[] = [
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
				'How long an item may keep coming back pending, counted from its first check (firstCheckedAt), before it fails with its task ID (the task itself keeps running). 0 (or left out) follows the route: 30 min for video tasks and the generic query, 10 min for image and alt-host tasks.',
		},
	]),
];

/** Fields of an earlier round (Submit's pending item, or this operation's) that no longer hold. */
const STALE = [
	'message', 'submitResponse', 'waitedMs', 'error', 'description', 'spendSummary', 'raw',
	'expiresAt', 'answeredBy', 'estimatedTimeSeconds', 'downloadFailed', 'created',
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
	const value = given === '' || given === null || given === undefined ? BY_ROUTE : readNumber(ctx, 'giveUpMinutes', i, { value: given });
	return value || QUERY_ROUTES[route].deadlineMs / 60_000;
}

function stateText(snapshot: TaskSnapshot): string {
	return `status '${snapshot.status}'${snapshot.progress !== undefined ? ` at ${snapshot.progress}%` : ''}`;
}

/**
 * One reading of each task, no waiting: the step of a loop Submit → Wait → Check Once → If pending
 * → back to Wait, where n8n's Wait node (65 s or more) parks the execution in the database, frees
 * the worker and resumes after a restart. Finished: the result (files by default); still running:
 * the item again with pending: true; failed or given up: an error naming the task, which On Error
 * → Continue (using error output) sends to a second output.
 */
export async function execute(this: IExecuteFunctions, run: RunOptions): Promise<INodeExecutionData[]> {
	const now = Date.now();
	const tool = isToolRun(this);
	const output = await forEachItem(this, run, async (i) => {
		const taskId = requireTaskId(this, i);
		const route = routeOf(this, run, i);
		const language = route === 'generic' ? (this.getNodeParameter('language', i, 'en') as string) : undefined;
		const input = run.items[i].json;
		const firstCheckedAt = firstCheckOf(input, now);
		const checks = (typeof input.checks === 'number' && Number.isFinite(input.checks) ? input.checks : 0) + 1;
		const minutes = giveUpMinutes(this, i, route);
		const snapshot = await queryTask(this, route, taskId, { language, itemIndex: i });
		const json: IDataObject = {
			...carried(input),
			...taskJson(snapshot),
			queryRoute: route,
			pending: snapshot.state === 'pending',
			firstCheckedAt: new Date(firstCheckedAt).toISOString(),
			checks,
		};
		if (snapshot.state === 'failed') {
			const error = new NodeOperationError(this.getNode(), `Task ${taskId} failed: ${snapshot.error ?? stateText(snapshot)}`, {
				itemIndex: i,
				description: `Status '${snapshot.status}'. Nothing is submitted again here; the task ID stays in this error.`,
			});
			error.context.taskId = taskId;
			throw error;
		}
		if (snapshot.state === 'pending') {
			if (now - firstCheckedAt >= minutes * 60_000) {
				const error = new NodeOperationError(
					this.getNode(),
					`Task ${taskId} is still running after ${minutes} min of checks (${stateText(snapshot)})`,
					{ itemIndex: i, description: 'It may still finish: check it later with Task → Get or Task → Wait for Completion; do not submit it again.' },
				);
				error.context.taskId = taskId;
				throw error;
			}
			json.message = `Task ${taskId} is still running (${stateText(snapshot)}): send this item back to the Wait node and check again.`;
			return [{ json: tool ? toolPendingJson(json, 'reads') : json }];
		}
		if (!(this.getNodeParameter('download', i, true) as boolean)) return [{ json }];
		const download = itemDownload(this, i, { kind: fileKindOf(route), baseName: taskId, paid: { taskId, expiresAt: snapshot.expiresAt }, continueOnFail: run.continueOnFail });
		return await itemsPerUrl(this, snapshot.urls, (url) => ({ ...json, url }), download);
	});
	const pending = output.filter((item) => item.json.pending === true).length;
	if (pending > 0 && !tool) {
		addHint(
			this,
			`${pending} of ${run.items.length} task${run.items.length === 1 ? ' is' : 's are'} still running (pending: true): send them back to the Wait node with an If on {{ $json.pending }}`,
			'info',
		);
	}
	return output;
}
