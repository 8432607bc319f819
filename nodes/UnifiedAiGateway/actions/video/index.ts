import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as generate from './generate.operation';

export const operations: Record<string, OperationModule> = { generate };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['video'] } },
		default: 'generate',
		options: [
			{
				name: 'Generate',
				value: 'generate',
				action: 'Generate a video',
				description:
					'Render a video from a prompt and optional reference images, wait for it and download it. Billed: pre-charged by duration. Read or download existing video tasks with the Task resource.',
			},
		],
	},
	...generate.description,
];
