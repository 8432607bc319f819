import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as checkOnce from './checkOnce.operation';
import * as downloadResult from './downloadResult.operation';
import * as get from './get.operation';
import * as waitForCompletion from './waitForCompletion.operation';

export const operations: Record<string, OperationModule> = { get, waitForCompletion, checkOnce, downloadResult };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['task'] } },
		default: 'get',
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get a task',
				description: 'Read a task once: status, progress and result URLs. Free.',
			},
			{
				name: 'Wait for Completion',
				value: 'waitForCompletion',
				action: 'Wait for tasks to complete',
				description:
					'Wait for existing tasks (one per input item) until they finish, all at once; resumes pending items without paying again',
			},
			{
				name: 'Check Once',
				value: 'checkOnce',
				action: 'Check tasks once',
				description:
					'Read each task once, without waiting: finished ones give their result (files by default), running ones come back with pending: true for a Wait node loop, failed ones are errors. Free.',
			},
			{
				name: 'Download Result',
				value: 'downloadResult',
				action: 'Download the result of a task',
				description: 'Fetch the result file(s) of a finished task into binary data',
			},
		],
	},
	...get.description,
	...waitForCompletion.description,
	...checkOnce.description,
	...downloadResult.description,
];
