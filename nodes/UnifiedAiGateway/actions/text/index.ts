import { resourceModule } from '../resourceModule';
import * as message from './message.operation';

export const { operations, description } = resourceModule('text', [
	[
		{
			name: 'Message a Model',
			value: 'message',
			action: 'Message a model',
			description:
				'Send messages to a chat model and get its answer (POST ' +
				'/v1/chat/completions). Returns the answer text, the model, the finish ' +
				"reason and token usage. Billed per token at the model's price on the " +
				'gateway.',
		},
		message,
	],
]);
