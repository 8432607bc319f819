import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as message from './message.operation';

export const operations: Record<string, OperationModule> = { message };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['text'] } },
		default: 'message',
		options: [
			{
				name: 'Message a Model',
				value: 'message',
				action: 'Message a model',
				description:
					'Send messages to a chat model and get its answer (POST /v1/chat/completions). Returns the answer text, the model, the finish reason and token usage. Billed per token at the model\'s price on the gateway.',
			},
		],
	},
	...message.description,
];
