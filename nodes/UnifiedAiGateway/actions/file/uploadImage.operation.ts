import {
	NodeOperationError,
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { readInputImage } from '../../params/binaryInput';
import { UPLOAD_TYPES } from '../../pipeline/references';
import { forEachItem, type RunOptions } from '../../engine/running/perItem';
import { uploadImage } from '../../api/uploads';

const show = { resource: ['file'], operation: ['uploadImage'] };
const displayOptions = { show };

const properties: INodeProperties[] = [
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the input binary field holding the image',
		description:
			'The binary field of the input item with the image to upload. JPEG, PNG, ' +
			"WebP or GIF, at most 20 MB, judged by the file's content; anything else " +
			'is refused before sending.',
	},
];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, run: RunOptions) {
	return await forEachItem(this, run, async (i) => {
		const property = this.getNodeParameter('binaryPropertyName', i) as string;
		// Checked before any request: a refused file costs nothing and sends nothing.
		const image = await readInputImage(this, i, property, UPLOAD_TYPES, 'Input Binary Field');
		const uploaded = await uploadImage(this, image, i);
		if (!uploaded.url) {
			throw new NodeOperationError(
				this.getNode(),
				`The gateway accepted '${image.fileName}' but returned no URL`,
				{
					itemIndex: i,
					description:
						'Without a URL the upload cannot be used. Run the item again; if it persists, contact the gateway admin.',
				},
			);
		}
		return {
			url: uploaded.url,
			filename: uploaded.filename ?? image.fileName,
			content_type: uploaded.content_type ?? image.mimeType,
			bytes: uploaded.bytes ?? image.bytes,
			created_at: uploaded.created_at ?? null,
			// The URL dies 72 hours after upload (docs/gateway-contract.md §2.5): workflows can check this before reuse.
			expiresAt: uploaded.expiresAt ?? null,
		};
	});
}
