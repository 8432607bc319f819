import { asObject } from '../../transport/responses';

export interface ResultUrlOptions {
	/** The gateway's origin: a relative result URL (`/files/x.png`) is resolved against it. */
	origin?: string;
	/** The MIME type inline base64 (`b64_json`) is labelled with until its bytes say otherwise. */
	inlineMimeType?: string;
}

/** Containers a result may sit in (docs/gateway-contract.md §2.3, §4.5, §10.2), searched in this order. */
const CONTAINERS = ['result', 'data', 'output', 'images', 'videos', 'items', 'metadata'];

/** `*_url` fields that name what was sent or where to call back, not what the model made. */
const NOT_RESULTS =
	/^(mask|input_reference|reference|image_reference|callback|webhook|notify|thumbnail|cover|poster|preview)_urls?$/i;

const MAX_DEPTH = 5;

/** A result URL as given: absolute http(s), `data:`, or relative to the gateway. */
function asUrl(value: unknown, options: ResultUrlOptions): string | undefined {
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (/^https?:\/\//i.test(text) || /^data:[\w.+-]+\/[\w.+-]+;base64,/i.test(text)) return text;
	if (options.origin && /^\/(?!\/)\S+$/.test(text)) return `${options.origin}${text}`;
	return undefined;
}

function urlsIn(value: unknown, options: ResultUrlOptions): string[] {
	if (Array.isArray(value)) return value.flatMap((v) => urlsIn(v, options));
	const url = asUrl(value, options);
	return url ? [url] : [];
}

/** Inline base64 as a `data:` URL: it becomes a binary like any downloaded file. */
function inline(value: unknown, options: ResultUrlOptions): string[] {
	if (typeof value !== 'string' || value.trim() === '') return [];
	const text = value.trim();
	if (/^data:/i.test(text)) return [text];
	return [`data:${options.inlineMimeType ?? 'image/png'};base64,${text.replace(/\s+/g, '')}`];
}

/**
 * One rule for every shape: in the answer itself and in `result`, `data`, `output`, `images[]`,
 * `videos[]`, `items[]` and `metadata` (at any depth up to five), a result is `url` / `urls` (a
 * string or a list), any `*_url` field (a string or a list), `b64_json`, or a bare string in
 * `images[]` / `videos[]`. `result_url` comes first, then the order of the answer; no repeats.
 */
export function extractResultUrls(body: unknown, options: ResultUrlOptions = {}): string[] {
	const found: string[] = [];
	const visit = (value: unknown, depth: number, inList: boolean) => {
		if (depth > MAX_DEPTH) return;
		if (Array.isArray(value)) {
			for (const entry of value) {
				if (typeof entry === 'string') {
					if (inList) found.push(...urlsIn(entry, options));
				} else visit(entry, depth + 1, inList);
			}
			return;
		}
		// An object that is not a list (a list is walked entry by entry instead).
		const node = asObject(value);
		if (!node) return;
		found.push(...urlsIn(node.result_url, options));
		for (const [key, field] of Object.entries(node)) {
			if (key === 'result_url') continue;
			if (key === 'url' || key === 'urls' || (/_urls?$/i.test(key) && !NOT_RESULTS.test(key)))
				found.push(...urlsIn(field, options));
			else if (key === 'b64_json') found.push(...inline(field, options));
		}
		for (const key of CONTAINERS) {
			if (node[key] !== undefined)
				visit(node[key], depth + 1, key === 'images' || key === 'videos' || key === 'data');
		}
	};
	visit(body, 0, false);
	return [...new Set(found)];
}

/** How a URL is shown in an item: inline data is named, not copied out whole. */
export function shownUrl(url: string): string {
	const match = /^data:([^;,]+)[^,]*,/i.exec(url);
	if (!match || url.includes(',… (inline ')) return url;
	const bytes = Math.floor(((url.length - match[0].length) * 3) / 4);
	return (
		`data:${match[1]};base64,… (inline ${match[1]} of about ${bytes} bytes in ` +
		`the gateway's answer; the file is in the binary field)`
	);
}
