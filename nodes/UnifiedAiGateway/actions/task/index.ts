import { resourceModule } from '../resourceModule';
import * as checkOnce from './checkOnce.operation';
import * as downloadResult from './downloadResult.operation';
import * as get from './get.operation';
import * as waitForCompletion from './waitForCompletion.operation';

export const { operations, description } = resourceModule('task', [
	[
		{
			name: 'Get',
			value: 'get',
			action: 'Get a task',
			description: 'Read a task once: status, progress and result URLs. Free.',
		},
		get,
	],
	[
		{
			name: 'Wait for Completion',
			value: 'waitForCompletion',
			action: 'Wait for tasks to complete',
			description:
				'Wait for existing tasks (one per input item) until they finish, all at ' +
				'once; resumes pending items without paying again',
		},
		waitForCompletion,
	],
	[
		{
			name: 'Check Once',
			value: 'checkOnce',
			action: 'Check tasks once',
			description:
				'Read each task once, without waiting: finished ones give their result ' +
				'(files by default), running ones come back with pending: true for a Wait ' +
				'node loop, failed ones are errors. One that says completed but names no ' +
				'result URL is read again a few seconds later (twice at most) before it ' +
				'is reported. Free.',
		},
		checkOnce,
	],
	[
		{
			name: 'Download Result',
			value: 'downloadResult',
			action: 'Download the result of a task',
			description: 'Fetch the result file(s) of a finished task into binary data',
		},
		downloadResult,
	],
]);
