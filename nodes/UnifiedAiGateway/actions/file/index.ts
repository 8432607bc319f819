import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as uploadImage from './uploadImage.operation';

export const operations: Record<string, OperationModule> = { uploadImage };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['file'] } },
		default: 'uploadImage',
		options: [
			{
				name: 'Upload Image',
				value: 'uploadImage',
				action: 'Upload an image',
				description:
					'Upload a JPEG, PNG, WebP or GIF image (at most 20 MB) from binary data and get a public URL valid for 72 hours, to use as a reference image for image edits or videos (POST /v1/uploads/images). Returns the URL, file name, content type, size in bytes, upload time and expiry time (expiresAt). Not a generation call, so not billed.',
			},
		],
	},
	...uploadImage.description,
];
