import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as edit from './edit.operation';
import * as generate from './generate.operation';
import { IMAGE_FIELDS_AFTER, IMAGE_FIELDS_BEFORE } from './imageFields';

export const operations: Record<string, OperationModule> = { generate, edit };

const show = { resource: ['image'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show },
		default: 'generate',
		options: [
			{
				name: 'Generate',
				value: 'generate',
				action: 'Generate images from a prompt',
				description:
					'Create new images from a text prompt. Returns one item per image with its URL, the parameters sent and an estimated cost (list price 0.015-0.03 USD per call whatever the number of images, alt host 0.02 USD per image; GPT 2K/4K 1.5×), plus the image file as binary data. Billed per call.',
			},
			{
				name: 'Edit',
				value: 'edit',
				action: 'Edit images with a prompt',
				description:
					'Change, repaint or combine existing images (URLs or binary input files) following a prompt. Returns one item per result image with its URL, the parameters sent and an estimated cost, plus the image file as binary data. Billed per call.',
			},
		],
	},
	...IMAGE_FIELDS_BEFORE,
	...generate.description,
	...edit.description,
	...IMAGE_FIELDS_AFTER,
];
