import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { parsePropertyList, readInputImage, type ImageType, type InputImage } from '../../params/binaryInput';
import { uploadImage } from '../../api/uploads';
import type { ModelSpec } from '../../registry/models';

/** Reference images of one item, checked: URLs as typed, files read and verified. */
export interface VideoReferences {
	urls: string[];
	files: InputImage[];
}

/** What POST /v1/uploads/images takes (docs/gateway-contract.md §4.11), for models without a stricter list. */
const UPLOADABLE: readonly ImageType[] = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];

const URLS_LABEL = 'Reference Image URLs';
const FILES_LABEL = 'Reference Image Binary Properties';

function refuse(ctx: IExecuteFunctions, itemIndex: number, message: string): never {
	throw new NodeOperationError(ctx.getNode(), message, {
		itemIndex,
		description: 'Nothing was sent. Correct the reference images and run again.',
	});
}

/**
 * Reference URLs: one per line, or a list from an expression. Never split on commas: signed
 * URLs carry them in their query strings.
 */
export function parseReferenceUrls(value: unknown): string[] {
	if (Array.isArray(value)) return value.flatMap(parseReferenceUrls);
	if (value && typeof value === 'object' && typeof (value as { url?: unknown }).url === 'string') {
		return parseReferenceUrls((value as { url: string }).url);
	}
	if (value === undefined || value === null) return [];
	return String(value)
		.split(/\r?\n/)
		.map((line) => line.trim())
		.filter(Boolean);
}

/** Reads and checks the item's reference images before anything is sent (no request here). */
export async function readVideoReferences(
	ctx: IExecuteFunctions,
	itemIndex: number,
	modelId: string,
	model: ModelSpec | undefined,
	multipart: boolean,
): Promise<VideoReferences> {
	const urls = parseReferenceUrls(ctx.getNodeParameter('videoReferenceUrls', itemIndex, ''));
	const properties = parsePropertyList(ctx.getNodeParameter('videoReferenceBinaryProperties', itemIndex, ''));
	const bad = urls.find((url) => !/^https?:\/\/[^\s/]+\S*$/i.test(url));
	if (bad) {
		const hint = /\s/.test(bad) ? ' (a URL has no spaces: give one URL per line, or a list from an expression)' : '';
		refuse(ctx, itemIndex, `${URLS_LABEL}: '${bad.slice(0, 200)}' is not a public http(s) URL${hint}`);
	}
	if (multipart && urls.length > 0) {
		refuse(ctx, itemIndex, `${URLS_LABEL}: the Grok Multipart route takes reference images as files only; give them in ${FILES_LABEL}, or use the Unified route for URLs`);
	}
	const max = model?.limits?.maxReferences;
	if (max !== undefined && urls.length + properties.length > max) {
		refuse(ctx, itemIndex, `Reference images: ${modelId} takes at most ${max} reference image${max === 1 ? '' : 's'}, got ${urls.length + properties.length}`);
	}
	const allowed = model?.limits?.referenceMimeTypes ?? UPLOADABLE;
	const files: InputImage[] = [];
	const maxBytes = model?.limits?.maxFileBytes;
	for (const property of properties) {
		const file = await readInputImage(ctx, itemIndex, property, allowed, FILES_LABEL);
		// readInputImage holds every file to the upload limit (20 MB); a row may set a lower one.
		if (maxBytes !== undefined && file.bytes > maxBytes) {
			refuse(ctx, itemIndex, `${FILES_LABEL}: '${file.fileName}' is ${file.bytes} bytes; ${modelId} takes at most ${maxBytes} bytes per image`);
		}
		files.push(file);
	}
	return { urls, files };
}

/**
 * The item's reference images as URLs: files are uploaded first (docs/gateway-contract.md §4.11: generation routes
 * take URLs). An upload failure is reported as such: no video job was submitted.
 */
export async function referenceUrls(ctx: IExecuteFunctions, refs: VideoReferences, itemIndex: number): Promise<string[]> {
	const uploaded: string[] = [];
	for (const file of refs.files) {
		try {
			uploaded.push((await uploadImage(ctx, file, itemIndex)).url);
		} catch (error) {
			const cause = error as Error & { description?: string | null };
			throw new NodeOperationError(ctx.getNode(), `Uploading reference image '${file.fileName}' failed, so no video job was submitted: ${cause.message}`, {
				itemIndex,
				description: cause.description ?? undefined,
			});
		}
	}
	return [...refs.urls, ...uploaded];
}
