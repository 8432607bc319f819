import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { promptField } from '../../params/commonFields';
import type { RunOptions } from '../../engine/running/perItem';
import { runImageOperation } from './imageAdapter';
import { modelFieldProperties } from './imageFields';

export const description: INodeProperties[] = [
	promptField(
		{ resource: ['image'], operation: ['generate'] },
		'A watercolor fox in a snowy forest, soft morning light',
		'What the image should show: subject, style, composition and any text to render',
	),
	...modelFieldProperties('generate'),
];

export async function execute(this: IExecuteFunctions, run: RunOptions) {
	return await runImageOperation(this, run, 'generate');
}
