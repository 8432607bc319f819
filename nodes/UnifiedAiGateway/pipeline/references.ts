import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { uploadImage, type UploadedImage, type UploadFile } from '../api/uploads';
import { IMAGE_TYPES, type ImageType } from '../params/binaryInput';
import { refuse } from './refusals';

/*
 * Reference images of the generation pipeline, for image edits and videos alike: URLs as the
 * user gives them (one rule for splitting and checking them), files uploaded first
 * (docs/gateway-contract.md §4.11: the generation routes take references as URLs).
 */

/** What the upload route takes (docs/gateway-contract.md §4.11): every image type the node reads. */
export const UPLOAD_TYPES: readonly ImageType[] = IMAGE_TYPES;

/** Anchored: a URL with a space in it is two things pasted together, not one URL. */
export const isHttpUrl = (value: string): boolean => /^https?:\/\/[^\s/]+\S*$/i.test(value);

/**
 * Reference URLs from a list field or an expression: an array (of strings or `{url}` objects),
 * or text with one URL per line or comma-separated. A comma splits only right before another
 * URL (`a, https://b`): a signed URL keeps the commas of its query string (`?sig=a,b`), since
 * the gateway must be able to fetch every reference as sent (docs/gateway-contract.md §4.6, §4.8).
 */
export function parseReferenceUrls(value: unknown): string[] {
	if (Array.isArray(value)) {
		return value.flatMap((entry) =>
			entry && typeof entry === 'object'
				? parseReferenceUrls((entry as IDataObject).url)
				: parseReferenceUrls(entry),
		);
	}
	if (value === undefined || value === null) return [];
	return String(value)
		.split(/\r?\n/)
		.flatMap((line) => line.split(/,\s*(?=[a-z][a-z0-9+.-]*:\/\/)/i))
		.map((s) => s.trim())
		.filter(Boolean);
}

/** Refuses the first entry that is not a public http(s) URL: the gateway fetches references itself. */
export function checkReferenceUrls(
	ctx: IExecuteFunctions,
	itemIndex: number,
	urls: string[],
	label: string,
	hint?: string,
): void {
	const bad = urls.find((url) => !isHttpUrl(url));
	if (bad === undefined) return;
	const spaces = /\s/.test(bad)
		? ' (a URL has no spaces: give one URL per line, or a list from an expression)'
		: '';
	throw refuse(
		ctx,
		itemIndex,
		`${label}: '${bad.slice(0, 200)}' is not a public http(s) URL${spaces}`,
		hint,
	);
}

/**
 * Uploads an item's reference files in order (POST /v1/uploads/images) just before its billed
 * submit. A failed upload creates no job: it is reported as such, and the submit is not sent.
 */
export async function uploadReferenceFiles(
	ctx: IExecuteFunctions,
	itemIndex: number,
	files: UploadFile[],
	noun: string,
): Promise<UploadedImage[]> {
	const uploaded: UploadedImage[] = [];
	for (const file of files) {
		let result: UploadedImage;
		try {
			result = await uploadImage(ctx, file, itemIndex);
		} catch (error) {
			const cause = error as Error & { description?: string | null };
			throw new NodeOperationError(
				ctx.getNode(),
				`Uploading reference image '${file.fileName}' failed, so no ${noun} was submitted: ${cause.message}`,
				{
					itemIndex,
					description: cause.description ?? undefined,
				},
			);
		}
		if (!result.url) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Uploading reference image '${file.fileName}' gave no URL, so no ${noun} was submitted`,
				{
					itemIndex,
					description: 'The gateway answered the upload without a url field.',
				},
			);
		}
		uploaded.push(result);
	}
	return uploaded;
}
