import type { INodeProperties } from 'n8n-workflow';

import { QUERY_ROUTE_OPTIONS } from '../../api/tasks/routes';

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
	description: 'Language of the gateway\'s status and error texts (generic task query only)',
};

export function languageField(operations: string[]): INodeProperties {
	return { ...TASK_LANGUAGE, displayOptions: { show: { resource: ['task'], operation: operations, queryRoute: ['generic', 'auto'] } } };
}
