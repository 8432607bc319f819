import type { IExecuteFunctions } from 'n8n-workflow';

import type { UploadedImage } from '../../api/uploads';
import { parsePropertyList, readInputImage } from '../../params/binaryInput';
import {
	checkReferenceUrls,
	isHttpUrl,
	parseReferenceUrls,
	UPLOAD_TYPES,
	uploadReferenceFiles,
} from '../../pipeline/references';
import { refuse } from '../../pipeline/refusals';
import { describeModel } from '../../pipeline/prepare';
import type { ModelSpec } from '../../registry/models';
import type { GatewayHost } from '../../transport/urls';

const LABEL = 'Reference Images';

/** An edit's reference images as checked in `prepare`: URLs as given, binaries still to upload. */
export interface ReferenceInput {
	urls: string[];
	binaryProperties: string[];
	mask?: string;
}

/** Reads and checks an item's references and mask against the model's limits; sends nothing. */
export async function readReferences(
	ctx: IExecuteFunctions,
	itemIndex: number,
	model: { id: string; host: GatewayHost; spec: Omit<ModelSpec, 'id'> },
): Promise<ReferenceInput> {
	const limits = model.spec.limits ?? {};
	const who = describeModel(model);
	const source = ctx.getNodeParameter('referenceSource', itemIndex, 'urls') as string;
	const urls =
		source === 'urls'
			? parseReferenceUrls(ctx.getNodeParameter('referenceUrls', itemIndex, ''))
			: [];
	const binaryProperties =
		source === 'binary'
			? parsePropertyList(ctx.getNodeParameter('referenceBinaryProperties', itemIndex, 'data'))
			: [];
	checkReferenceUrls(
		ctx,
		itemIndex,
		urls,
		LABEL,
		`${who} takes public image URLs only: the gateway fetches references itself, so base64 data and local paths do not work. For files, set Reference Images From to Binary Data: they are uploaded first.`,
	);
	for (const property of binaryProperties)
		await readInputImage(ctx, itemIndex, property, UPLOAD_TYPES, LABEL);

	const count = urls.length + binaryProperties.length;
	const mask = limits.maskField
		? String(ctx.getNodeParameter('maskUrl', itemIndex, '') ?? '').trim()
		: '';
	if (mask && count === 0) {
		throw refuse(
			ctx,
			itemIndex,
			`Mask URL '${mask.slice(0, 100)}' was given without reference images: ${who} applies the mask to the first reference image`,
			'Add the image to repaint as a reference image.',
		);
	}
	if (mask && !isHttpUrl(mask)) {
		throw refuse(
			ctx,
			itemIndex,
			`Mask URL '${mask.slice(0, 100)}' is not an http(s) URL; ${who} takes the mask as a public image URL`,
		);
	}
	const min = limits.minReferences ?? 1;
	const max = limits.maxReferences;
	if (count < min || (max !== undefined && count > max)) {
		const range =
			max === undefined ? `at least ${min}` : min === max ? `exactly ${min}` : `${min} to ${max}`;
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
 * Uploads an item's binary references, in order, just before its edit is submitted; the files
 * are read again here rather than held since `prepare`.
 */
export async function uploadReferences(
	ctx: IExecuteFunctions,
	itemIndex: number,
	properties: string[],
): Promise<UploadedImage[]> {
	const files = [];
	for (const property of properties)
		files.push(await readInputImage(ctx, itemIndex, property, UPLOAD_TYPES, LABEL));
	return await uploadReferenceFiles(ctx, itemIndex, files, 'edit');
}
