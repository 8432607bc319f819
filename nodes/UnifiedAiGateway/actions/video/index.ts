import { resourceModule } from '../resourceModule';
import * as analyze from './analyze.operation';
import * as generate from './generate.operation';

export const { operations, description } = resourceModule('video', [
	[
		{
			name: 'Generate',
			value: 'generate',
			action: 'Generate a video',
			description:
				'Render a video from a prompt and optional reference images, wait for it ' +
				'and download it. Billed: pre-charged by duration. Read or download ' +
				'existing video tasks with the Task resource.',
		},
		generate,
	],
	[
		{
			name: 'Analyze',
			value: 'analyze',
			action: 'Analyze a video',
			description:
				'Ask a text model that reads video about a clip (a binary file or a URL): what happens, ' +
				'a summary, captions. Returns the answer as text with its charge; one chat call per ' +
				"item, its cost the model's token price on the gateway.",
		},
		analyze,
	],
]);
