import { resourceModule } from '../resourceModule';
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
]);
