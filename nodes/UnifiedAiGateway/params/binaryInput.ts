import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { sniffMedia } from '../engine/files/media';

export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif';

/**
 * The image types the node reads from binary input (each one the upload route takes, docs/gateway-contract.md §4.11).
 */
export const IMAGE_TYPES: readonly ImageType[] = [
	'image/jpeg',
	'image/png',
	'image/webp',
	'image/gif',
];

/**
 * The real type of an image, from its first bytes (a file name or MIME label can lie): engine/files/media.ts's one
 * reading of magic numbers.
 */
function sniffImageType(head: Buffer): ImageType | undefined {
	const type = sniffMedia(head);
	return IMAGE_TYPES.find((image) => image === type);
}

export interface InputImage {
	buffer: Buffer;
	fileName: string;
	mimeType: ImageType;
	bytes: number;
}

function formatBytes(bytes: number): string {
	return bytes >= 1024 * 1024
		? `${(bytes / 1024 / 1024).toFixed(1)} MB`
		: `${Math.ceil(bytes / 1024)} KB`;
}

/**
 * Reads an image from a binary property of the input item (any n8n storage mode) and checks
 * it before anything is sent: allowed types by content, at most 20 MB.
 */
export async function readInputImage(
	ctx: IExecuteFunctions,
	itemIndex: number,
	property: string,
	allowed: readonly ImageType[],
	fieldLabel: string,
): Promise<InputImage> {
	const name = property.trim();
	const item = ctx.getInputData()[itemIndex];
	if (!item?.binary?.[name]) {
		const available = Object.keys(item?.binary ?? {});
		throw new NodeOperationError(
			ctx.getNode(),
			`${fieldLabel}: the input item has no binary property '${name}'`,
			{
				itemIndex,
				description: available.length
					? `Binary properties on this item: ${available.join(', ')}.`
					: 'This item has no binary data. Add a node that reads or downloads the file first.',
			},
		);
	}
	const binary = ctx.helpers.assertBinaryData(itemIndex, name);
	const buffer = await ctx.helpers.getBinaryDataBuffer(itemIndex, name);
	const fileName = binary.fileName ?? `${name}`;
	const sniffed = sniffImageType(buffer.subarray(0, 16));
	const allowedText = allowed.map((t) => t.replace('image/', '').toUpperCase()).join(', ');
	if (!sniffed || !allowed.includes(sniffed)) {
		const real =
			sniffed ??
			(binary.mimeType && !binary.mimeType.startsWith('image/')
				? binary.mimeType
				: 'not a recognised image');
		throw new NodeOperationError(
			ctx.getNode(),
			`${fieldLabel}: '${fileName}' is ${real} (${formatBytes(buffer.length)}); the gateway accepts ${allowedText}`,
			{
				itemIndex,
				description: 'Nothing was sent. Convert the file to an accepted image type and run again.',
			},
		);
	}
	if (buffer.length > MAX_IMAGE_BYTES) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${fieldLabel}: '${fileName}' is ${formatBytes(buffer.length)}; the gateway accepts at most 20 MB`,
			{ itemIndex, description: 'Nothing was sent. Resize or compress the image and run again.' },
		);
	}
	const extension = sniffed === 'image/jpeg' ? 'jpg' : sniffed.split('/')[1];
	const finalName = /\.[a-z0-9]+$/i.test(fileName) ? fileName : `${fileName}.${extension}`;
	return { buffer, fileName: finalName, mimeType: sniffed, bytes: buffer.length };
}

/** A list of binary property names typed as "data, image_2" or one per line. */
export function parsePropertyList(value: unknown): string[] {
	return String(value ?? '')
		.split(/[\n,]/)
		.map((s) => s.trim())
		.filter(Boolean);
}
