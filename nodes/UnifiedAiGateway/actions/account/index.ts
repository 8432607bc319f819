import { resourceModule } from '../resourceModule';
import * as getTokenBalance from './getTokenBalance.operation';
import * as getUserBalance from './getUserBalance.operation';
import * as listModels from './listModels.operation';

export const { operations, description } = resourceModule('account', [
	[
		{
			name: 'Get Token Balance',
			value: 'getTokenBalance',
			action: 'Get token balance',
			description:
				'Remaining and used quota of this API key (GET /v1/balance, or on plain ' +
				"new-api and one-api the key's own quota routes). Free.",
		},
		getTokenBalance,
	],
	[
		{
			name: 'Get User Balance',
			value: 'getUserBalance',
			action: 'Get user balance',
			description:
				'Remaining and used quota of the whole account behind the key (GET /v1/user/balance). Free.',
		},
		getUserBalance,
	],
	[
		{
			name: 'List Models',
			value: 'listModels',
			action: 'List models',
			description:
				'The models this key can use, each marked text, image or video (GET /v1/models). Free.',
		},
		listModels,
	],
]);
