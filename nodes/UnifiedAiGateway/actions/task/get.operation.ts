import {
	NodeOperationError,
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { queryTask } from '../../api/tasks/query';
import { taskIdProblem } from '../../api/tasks/taskIds';
import type { QueryRoute } from '../../api/tasks/routes';
import { kindOf } from '../../params/inputs';
import { forEachItem, type RunOptions } from '../../engine/running/perItem';
import { rawJson, taskJson } from '../../pipeline/taskOutput';
import { reportedChargeJson } from '../../api/charges';
import { languageField, languageOf, queryRouteField, taskIdField } from './taskFields';

const displayOptions = { show: { resource: ['task'], operation: ['get'] } };

const properties: INodeProperties[] = [
	taskIdField('get', ''),
	queryRouteField(['get'], false),
	languageField(['get']),
];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, run: RunOptions) {
	return await forEachItem(this, run, async (i) => {
		const taskId = requireTaskId(this, i);
		const routeName = this.getNodeParameter('queryRoute', i) as QueryRoute;
		const snapshot = await queryTask(this, routeName, taskId, {
			language: languageOf(this, i, routeName),
			itemIndex: i,
		});
		return {
			...taskJson(snapshot),
			...(await reportedChargeJson(this, snapshot, i)),
			queryRoute: routeName,
			raw: rawJson(snapshot),
		};
	});
}

/** The item's Task ID, by the one rule of api/tasks/taskIds.ts: no id may address anything but its task. */
export function requireTaskId(ctx: IExecuteFunctions, i: number): string {
	const raw = ctx.getNodeParameter('taskId', i, '');
	const description =
		'Give the task ID the gateway returned at submit, for example {{ $json.taskId }}. Nothing was requested.';
	if (raw !== undefined && raw !== null && typeof raw !== 'string' && typeof raw !== 'number') {
		throw new NodeOperationError(ctx.getNode(), `Task ID is ${kindOf(raw)}, not one id`, {
			itemIndex: i,
			description,
		});
	}
	const value = String(raw ?? '').trim();
	if (!value)
		throw new NodeOperationError(ctx.getNode(), 'Task ID is empty', { itemIndex: i, description });
	const problem = taskIdProblem(value);
	if (problem)
		throw new NodeOperationError(
			ctx.getNode(),
			`Task ID ${JSON.stringify(value.slice(0, 80))} ${problem}`,
			{ itemIndex: i, description },
		);
	return value;
}
