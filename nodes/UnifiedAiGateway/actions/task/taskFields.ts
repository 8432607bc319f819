import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { QUERY_ROUTE_OPTIONS, QUERY_ROUTES, type QueryRoute } from '../../api/tasks/routes';
import type { RunOptions } from '../../engine/running/perItem';
import { taskIdProblem } from '../../api/tasks/taskIds';
import { kindOf } from '../../params/inputs';

/**
 * 0 in Task → Wait for Completion's Max Wait and Check Once's Give Up After: each task gets its
 * query route's own window (docs/gateway-contract.md §8, QUERY_ROUTES deadlineMs), counted from
 * the wait's start or the item's first check.
 */
export const BY_ROUTE = 0;

export function taskIdField(operation: string, defaultValue: string): INodeProperties {
	return {
		displayName: 'Task ID',
		name: 'taskId',
		type: 'string',
		default: defaultValue,
		required: true,
		placeholder: 'task_0123456789abcdef0123456789abcdef',
		description: 'The task ID the gateway returned at submit',
		displayOptions: { show: { resource: ['task'], operation: [operation] } },
	};
}

export function queryRouteField(operations: string[], withAuto: boolean): INodeProperties {
	const defaultRoute = withAuto ? 'auto' : 'generic';
	return {
		displayName: 'Query Route',
		name: 'queryRoute',
		type: 'options',
		default: defaultRoute,
		options: [
			...(withAuto
				? [{ name: 'From Input Item (queryRoute Field), Else Generic', value: 'auto' }]
				: []),
			...QUERY_ROUTE_OPTIONS,
		],
		description: 'Where to read the task. A task is known on the route and host that created it.',
		displayOptions: { show: { resource: ['task'], operation: operations } },
	};
}

/** docs/gateway-contract.md §4.10: the generic task query's `language`; default English. */
export const TASK_LANGUAGE: Omit<INodeProperties, 'displayOptions'> = {
	displayName: 'Language',
	name: 'language',
	type: 'options',
	default: 'en',
	options: [
		{ name: 'English', value: 'en' },
		{ name: 'Chinese', value: 'zh' },
		{ name: 'Korean', value: 'ko' },
		{ name: 'Japanese', value: 'ja' },
	],
	description: "Language of the gateway's status and error texts (generic task query only)",
};

export function languageField(operations: string[]): INodeProperties {
	return {
		...TASK_LANGUAGE,
		displayOptions: {
			show: { resource: ['task'], operation: operations, queryRoute: ['generic', 'auto'] },
		},
	};
}

/**
 * Item `i`'s query route: the Query Route field's, or with "From Input Item" the item's own
 * `queryRoute` (what Generate's pending items carry) when it names one, else generic.
 */
export function routeOf(ctx: IExecuteFunctions, run: RunOptions, i: number): QueryRoute {
	const chosen = ctx.getNodeParameter('queryRoute', i) as string;
	if (chosen !== 'auto') return chosen as QueryRoute;
	const fromItem = run.items[i].json.queryRoute;
	return typeof fromItem === 'string' && Object.keys(QUERY_ROUTES).includes(fromItem)
		? (fromItem as QueryRoute)
		: 'generic';
}

/**
 * The language item `i` is read in: the generic query's own parameter (docs/gateway-contract.md §4.10), none
 * elsewhere.
 */
export function languageOf(
	ctx: IExecuteFunctions,
	i: number,
	route: QueryRoute,
): string | undefined {
	return route === 'generic' ? (ctx.getNodeParameter('language', i, 'en') as string) : undefined;
}

/** The item's Task ID, by the one rule of api/tasks/taskIds.ts: no id may address anything but its task. */
export function requireTaskId(ctx: IExecuteFunctions, i: number): string {
	const raw = ctx.getNodeParameter('taskId', i, '');
	const description =
		'Give the task ID the gateway returned at submit, for example {{ $json.taskId }}. ' +
		'Nothing was requested.';
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
