import type { IExecuteFunctions } from 'n8n-workflow';

import { parsePropertyList, readInputImage, type InputImage } from '../../params/binaryInput';
import {
	checkReferenceUrls,
	parseReferenceUrls,
	UPLOAD_TYPES,
	uploadReferenceFiles,
} from '../../pipeline/references';
import { refuse } from '../../pipeline/refusals';
import type { ModelSpec } from '../../registry/models';

/** Reference images of one item, checked: URLs as typed, files read and verified. */
export interface VideoReferences {
	urls: string[];
	files: InputImage[];
}

const URLS_LABEL = 'Reference Image URLs';
const FILES_LABEL = 'Reference Image Binary Properties';

/** Reads and checks the item's reference images before anything is sent (no request here). */
export async function readVideoReferences(
	ctx: IExecuteFunctions,
	itemIndex: number,
	modelId: string,
	model: ModelSpec | undefined,
	multipart: boolean,
): Promise<VideoReferences> {
	const urls = parseReferenceUrls(ctx.getNodeParameter('videoReferenceUrls', itemIndex, ''));
	const properties = parsePropertyList(
		ctx.getNodeParameter('videoReferenceBinaryProperties', itemIndex, ''),
	);
	checkReferenceUrls(ctx, itemIndex, urls, URLS_LABEL);
	if (multipart && urls.length > 0) {
		throw refuse(
			ctx,
			itemIndex,
			`${URLS_LABEL}: the Grok Multipart route takes reference images as files ` +
				`only; give them in ${FILES_LABEL}, or use the Unified route for URLs`,
		);
	}
	const max = model?.limits?.maxReferences;
	if (max !== undefined && urls.length + properties.length > max) {
		throw refuse(
			ctx,
			itemIndex,
			`Reference images: ${modelId} takes at most ${max} reference image${max === 1 ? '' : 's'}, ` +
				`got ${urls.length + properties.length}`,
		);
	}
	const allowed = model?.limits?.referenceMimeTypes ?? UPLOAD_TYPES;
	const files: InputImage[] = [];
	const maxBytes = model?.limits?.maxFileBytes;
	for (const property of properties) {
		const file = await readInputImage(ctx, itemIndex, property, allowed, FILES_LABEL);
		// readInputImage holds every file to the upload limit (20 MB); a row may set a lower one.
		if (maxBytes !== undefined && file.bytes > maxBytes) {
			throw refuse(
				ctx,
				itemIndex,
				`${FILES_LABEL}: '${file.fileName}' is ${file.bytes} bytes; ${modelId} takes at most ${maxBytes} bytes per image`,
			);
		}
		files.push(file);
	}
	return { urls, files };
}

/**
 * The item's reference images as URLs: files are uploaded first (docs/gateway-contract.md §4.11: generation routes
 * take URLs).
 */
export async function referenceUrls(
	ctx: IExecuteFunctions,
	refs: VideoReferences,
	itemIndex: number,
): Promise<string[]> {
	const uploaded = await uploadReferenceFiles(ctx, itemIndex, refs.files, 'video job');
	return [...refs.urls, ...uploaded.map((u) => u.url)];
}
