import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as getTokenBalance from './getTokenBalance.operation';
import * as getUserBalance from './getUserBalance.operation';
import * as listModels from './listModels.operation';

export const operations: Record<string, OperationModule> = { getTokenBalance, getUserBalance, listModels };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['account'] } },
		default: 'getTokenBalance',
		options: [
			{
				name: 'Get Token Balance',
				value: 'getTokenBalance',
				action: 'Get token balance',
				description: 'Remaining and used quota of this API key (GET /v1/balance). Free.',
			},
			{
				name: 'Get User Balance',
				value: 'getUserBalance',
				action: 'Get user balance',
				description: 'Remaining and used quota of the whole account behind the key (GET /v1/user/balance). Free.',
			},
			{
				name: 'List Models',
				value: 'listModels',
				action: 'List models',
				description: 'The models this key can use, each marked text, image or video (GET /v1/models). Free.',
			},
		],
	},
	...getTokenBalance.description,
	...getUserBalance.description,
	...listModels.description,
];
