import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { RunOptions } from '../../helpers/perItem';
import { runImageOperation } from './job';
import { modelFieldProperties } from './modelFields';

export const description: INodeProperties[] = [
	{
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		placeholder: 'A watercolor fox in a snowy forest, soft morning light',
		description: 'What the image should show: subject, style, composition and any text to render',
		displayOptions: { show: { resource: ['image'], operation: ['generate'] } },
	},
	...modelFieldProperties('generate'),
];

export async function execute(this: IExecuteFunctions, run: RunOptions) {
	return await runImageOperation(this, run, 'generate');
}
