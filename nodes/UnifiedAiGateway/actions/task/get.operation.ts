import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { queryTask } from '../../engine/query';
import type { QueryRoute } from '../../engine/routes';
import { forEachItem, type RunOptions } from '../../helpers/perItem';
import { rawJson, taskJson } from '../../helpers/taskOutput';
import { languageField, queryRouteField, taskIdField } from './fields';

export const description: INodeProperties[] = [
	taskIdField('get', ''),
	queryRouteField(['get'], false),
	languageField(['get']),
];

export async function execute(this: IExecuteFunctions, run: RunOptions) {
	return await forEachItem(this, run, async (i) => {
		const taskId = requireTaskId(this, i);
		const routeName = this.getNodeParameter('queryRoute', i) as QueryRoute;
		const language = routeName === 'generic' ? (this.getNodeParameter('language', i, 'en') as string) : undefined;
		const snapshot = await queryTask(this, routeName, taskId, { language, itemIndex: i });
		return { ...taskJson(snapshot), queryRoute: routeName, raw: rawJson(snapshot) };
	});
}

export function requireTaskId(ctx: IExecuteFunctions, i: number): string {
	const value = String(ctx.getNodeParameter('taskId', i, '') ?? '').trim();
	if (!value) {
		throw new NodeOperationError(ctx.getNode(), 'Task ID is empty', {
			itemIndex: i,
			description: 'Give the task ID the gateway returned at submit, for example {{ $json.taskId }}.',
		});
	}
	return value;
}
