import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { queryTask } from '../../api/tasks/query';
import type { QueryRoute } from '../../api/tasks/routes';
import { forEachItem, type RunOptions } from '../../engine/running/perItem';
import { rawJson, taskJson } from '../../pipeline/taskOutput';
import { reportedChargeJson } from '../../api/charges';
import {
	languageField,
	languageOf,
	queryRouteField,
	requireTaskId,
	taskIdField,
} from './taskFields';

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
