import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { gatewayRequest } from '../transport/request';
import type { InputImage } from '../params/binaryInput';

const URL_LIFETIME_MS = 72 * 60 * 60 * 1000;

export interface UploadedImage extends IDataObject {
	url: string;
	filename?: string;
	content_type?: string;
	bytes?: number;
	created_at?: number;
	expiresAt?: string;
}

/** POST /v1/uploads/images (docs/gateway-contract.md §4.11): the gateway takes reference images as URLs, not data. */
export async function uploadImage(ctx: IExecuteFunctions, image: InputImage, itemIndex: number): Promise<UploadedImage> {
	const form = new FormData();
	form.append('file', new Blob([image.buffer as unknown as BlobPart], { type: image.mimeType }), image.fileName);
	const { body } = await gatewayRequest.call(ctx, {
		method: 'POST',
		path: '/v1/uploads/images',
		body: form,
		action: `uploading '${image.fileName}'`,
		timeoutMs: 120_000,
		itemIndex,
	});
	const createdAt = typeof body.created_at === 'number' ? body.created_at : undefined;
	return {
		...(body as IDataObject),
		url: String(body.url ?? ''),
		expiresAt: createdAt ? new Date(createdAt * 1000 + URL_LIFETIME_MS).toISOString() : undefined,
	};
}
