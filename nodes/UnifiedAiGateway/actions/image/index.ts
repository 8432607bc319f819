import type { INodeProperties } from 'n8n-workflow';

import { additionalBodyField } from '../../params/additionalBody';
import { downloadLimitOptions } from '../../params/downloadOptions';
import { binaryOutputOption, CONCURRENCY_OPTION, downloadField, modelLocator, optionsField, waitFields } from '../../params/commonFields';
import { spendGuardOptions } from '../../params/spendGuardOptions';
import type { OperationModule } from '../types';
import * as edit from './edit.operation';
import * as generate from './generate.operation';
import { DEFAULT_MAX_WAIT_MINUTES } from './imageAdapter';
import { hostField, SYNC_ONLY_IDS } from './imageFields';

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
	modelLocator('image', show, 'gpt-image-2'),
	hostField(),
	...generate.description,
	...edit.description,
	additionalBodyField(
		'additionalBodyFields',
		'Extra request body keys sent as they are, for options this node has no field for, e.g. {"seed": 7}. Not checked by the node; it cannot replace a field the node sets.',
		show,
	),
	// Sync-only models answer in the same call: no waiting fields for them.
	...waitFields(show, DEFAULT_MAX_WAIT_MINUTES).map((field) => ({
		...field,
		displayOptions: { ...field.displayOptions, hide: { '/modelId': SYNC_ONLY_IDS } },
	})),
	downloadField(show, true, 'images'),
	optionsField(show, [binaryOutputOption(), CONCURRENCY_OPTION, ...downloadLimitOptions('image')]),
	spendGuardOptions(show, 'image'),
];
