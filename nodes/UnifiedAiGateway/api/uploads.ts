import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { gatewayRequest } from '../transport/request';

const URL_LIFETIME_MS = 72 * 60 * 60 * 1000;

/** A file checked by its reader (params/binaryInput.ts readInputImage) and ready to send. */
export interface UploadFile {
	buffer: Buffer;
	fileName: string;
	mimeType: string;
}

export interface UploadedImage extends IDataObject {
	url: string;
	filename?: string;
	content_type?: string;
	bytes?: number;
	created_at?: number;
	expiresAt?: string;
}

/** POST /v1/uploads/images (docs/gateway-contract.md §4.11): the gateway takes reference images as URLs, not data. */
export async function uploadImage(
	ctx: IExecuteFunctions,
	image: UploadFile,
	itemIndex: number,
): Promise<UploadedImage> {
	const form = new FormData();
	form.append(
		'file',
		new Blob([image.buffer as unknown as BlobPart], { type: image.mimeType }),
		image.fileName,
	);
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
