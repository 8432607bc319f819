import type { INodeProperties } from 'n8n-workflow';

import * as account from './account';
import * as audio from './audio';
import * as file from './file';
import * as image from './image';
import * as music from './music';
import * as task from './task';
import * as text from './text';
import type { OperationModule } from './types';
import * as video from './video';

/** Every resource of the node: its operation modules and its fields, in menu order. */
export const RESOURCES: Array<{
	name: string;
	value: string;
	description: string;
	module: { operations: Record<string, OperationModule>; description: INodeProperties[] };
}> = [
	{
		name: 'Image',
		value: 'image',
		description: 'Generate and edit images (GPT Image, Nano Banana, Gemini)',
		module: image,
	},
	{
		name: 'Video',
		value: 'video',
		description: 'Generate videos (Grok, Veo, Sora, Seedance)',
		module: video,
	},
	{
		name: 'Music',
		value: 'music',
		description: 'Generate songs and write lyrics (Suno)',
		module: music,
	},
	{ name: 'Text', value: 'text', description: 'Chat with a text model', module: text },
	{
		name: 'Audio',
		value: 'audio',
		description: 'Turn text into speech, transcribe and translate recordings',
		module: audio,
	},
	{
		name: 'File',
		value: 'file',
		description: 'Upload images for use as reference URLs, analyze documents',
		module: file,
	},
	{ name: 'Task', value: 'task', description: 'Read, wait for and download tasks', module: task },
	{ name: 'Account', value: 'account', description: 'Balance and model list', module: account },
];
