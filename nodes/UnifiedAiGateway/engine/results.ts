import type { IDataObject } from 'n8n-workflow';

function obj(value: unknown): IDataObject | undefined {
	return value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : undefined;
}

function list(value: unknown): unknown[] {
	return Array.isArray(value) ? value : [];
}

function urlsIn(value: unknown): string[] {
	if (typeof value === 'string') return /^https?:\/\//i.test(value.trim()) ? [value.trim()] : [];
	if (Array.isArray(value)) return value.flatMap(urlsIn);
	return [];
}

/** URLs of `{url}` objects in a list; `url` may itself be a list of strings (shape B). */
function urlsOfItems(items: unknown): string[] {
	return list(items).flatMap((item) => (typeof item === 'string' ? urlsIn(item) : urlsIn(obj(item)?.url)));
}

/**
 * Every result URL of every task and image shape the gateway sends, `result_url` first,
 * in order and without repeats, so several results all reach the user.
 */
export function extractResultUrls(body: unknown): string[] {
	const found: string[] = [];
	for (const root of [obj(body), obj(obj(body)?.data)]) {
		if (!root) continue;
		const result = obj(root.result);
		const nested = obj(root.data);
		const metadata = obj(root.metadata);
		found.push(
			...urlsIn(root.result_url),
			// Spec 4.5: async GPT image answers may carry `items[]` at the top level, not in `result`.
			...list(result?.items).flatMap((item) => urlsOfItems(obj(item)?.data)),
			...list(root.items).flatMap((item) => urlsOfItems(obj(item)?.data)),
			...urlsOfItems(result?.images),
			...urlsOfItems(nested?.images),
			...urlsOfItems(root.data),
			...urlsOfItems(root.images),
			...urlsIn(root.video_url),
			...urlsIn(root.url),
			...urlsIn(metadata?.url),
		);
	}
	return [...new Set(found)];
}
