import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { parsePropertyList, readInputImage, type ImageType } from '../../params/binaryInput';
import { uploadImage, type UploadedImage } from '../../api/uploads';
import { refuse } from './imageBody';
import { describeModel, type ImageModel } from './imageModel';

/** What the upload route takes (docs/gateway-contract.md §4.11). */
const UPLOAD_TYPES: readonly ImageType[] = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];
const LABEL = 'Reference Images';

/** An edit's reference images as checked in `prepare`: URLs as given, binaries still to upload. */
export interface ReferenceInput {
	urls: string[];
	binaryProperties: string[];
	mask?: string;
}

/** Anchored: a URL with a space in it is two things pasted together, not one URL. */
const isHttpUrl = (value: string) => /^https?:\/\/[^\s/]+\S*$/i.test(value);

/**
 * URLs from a list field or an expression: an array (of strings or `{url}` objects), or text
 * with one URL per line or comma-separated. A comma splits only before another URL, since
 * query strings may hold commas.
 */
export function parseUrlList(value: unknown): string[] {
	if (Array.isArray(value)) {
		return value.flatMap((entry) =>
			entry && typeof entry === 'object' ? parseUrlList((entry as IDataObject).url) : parseUrlList(entry),
		);
	}
	if (value === undefined || value === null) return [];
	return String(value)
		.split(/\r?\n/)
		.flatMap((line) => line.split(/,\s*(?=[a-z][a-z0-9+.-]*:\/\/)/i))
		.map((s) => s.trim())
		.filter(Boolean);
}

/** Reads and checks an item's references and mask against the model's limits; sends nothing. */
export async function readReferences(ctx: IExecuteFunctions, itemIndex: number, model: ImageModel): Promise<ReferenceInput> {
	const limits = model.spec.limits ?? {};
	const who = describeModel(model);
	const source = ctx.getNodeParameter('referenceSource', itemIndex, 'urls') as string;
	const urls = source === 'urls' ? parseUrlList(ctx.getNodeParameter('referenceUrls', itemIndex, '')) : [];
	const binaryProperties =
		source === 'binary' ? parsePropertyList(ctx.getNodeParameter('referenceBinaryProperties', itemIndex, 'data')) : [];
	const badUrl = urls.find((url) => !isHttpUrl(url));
	if (badUrl !== undefined) {
		throw refuse(
			ctx,
			itemIndex,
			`${LABEL}: '${badUrl.slice(0, 100)}' is not an http(s) URL; ${who} takes public image URLs only`,
			'The gateway fetches references itself, so base64 data and local paths do not work. For files, set Reference Images From to Binary Data: they are uploaded first.',
		);
	}
	for (const property of binaryProperties) await readInputImage(ctx, itemIndex, property, UPLOAD_TYPES, LABEL);

	const count = urls.length + binaryProperties.length;
	const mask = limits.maskField ? String(ctx.getNodeParameter('maskUrl', itemIndex, '') ?? '').trim() : '';
	if (mask && count === 0) {
		throw refuse(
			ctx,
			itemIndex,
			`Mask URL '${mask.slice(0, 100)}' was given without reference images: ${who} applies the mask to the first reference image`,
			'Add the image to repaint as a reference image.',
		);
	}
	if (mask && !isHttpUrl(mask)) {
		throw refuse(ctx, itemIndex, `Mask URL '${mask.slice(0, 100)}' is not an http(s) URL; ${who} takes the mask as a public image URL`);
	}
	const min = limits.minReferences ?? 1;
	const max = limits.maxReferences;
	if (count < min || (max !== undefined && count > max)) {
		const range = max === undefined ? `at least ${min}` : min === max ? `exactly ${min}` : `${min} to ${max}`;
		throw refuse(
			ctx,
			itemIndex,
			`${LABEL}: ${count} given, but ${who} takes ${range} reference image${max === 1 ? '' : 's'}`,
			count === 0
				? source === 'binary'
					? 'Name the binary properties that hold the images, for example data.'
					: 'Give the image URLs, one per line or as an array expression.'
				: undefined,
		);
	}
	return { urls, binaryProperties, mask: mask || undefined };
}

/**
 * Uploads an item's binary references (POST /v1/uploads/images), in order, just before its
 * edit is submitted; the files are read again here rather than held since `prepare`.
 */
export async function uploadReferences(
	ctx: IExecuteFunctions,
	itemIndex: number,
	properties: string[],
): Promise<UploadedImage[]> {
	const uploaded: UploadedImage[] = [];
	for (const property of properties) {
		const image = await readInputImage(ctx, itemIndex, property, UPLOAD_TYPES, LABEL);
		let result: UploadedImage;
		try {
			result = await uploadImage(ctx, image, itemIndex);
		} catch (error) {
			const e = error as Error & { description?: string | null };
			// Reported as a plain failure: an upload creates no billed job, so no "may exist" warning.
			throw new NodeOperationError(ctx.getNode(), `Uploading reference image '${image.fileName}' failed: ${e.message}`, {
				itemIndex,
				description: [e.description, 'The edit was not submitted for this item.'].filter(Boolean).join('\n'),
			});
		}
		if (!result.url) {
			throw new NodeOperationError(ctx.getNode(), `Uploading reference image '${image.fileName}' gave no URL`, {
				itemIndex,
				description: 'The gateway answered the upload without a url field. The edit was not submitted for this item.',
			});
		}
		uploaded.push(result);
	}
	return uploaded;
}
