import type { IBinaryData, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { storeBinary } from '../../engine/files/binaryStore';
import { deliverFile } from '../../engine/files/downloads';
import { describeBytes, EXTENSIONS, sniffMedia } from '../../engine/files/media';
import { FILE_KINDS } from '../../registry/fileKinds';
import { isStop, nodeErrorOf } from '../../transport/nodeError';

/*
 * Pictures a chat model answers with (docs/gateway-contract.md §10.14). Image models served through chat
 * completions put them inside the message: a Markdown image with a `data:` URL in `content` (new-api's
 * Gemini conversion, streamed too, as the real relay was recorded doing), an `images[]` list on the
 * message (OpenRouter's shape, which relays pass on), or image parts when `content` is a list. Each
 * picture becomes a binary of the item (`data`, `data_2`, …), judged by its bytes and bounded like
 * every image; the text keeps a short mark where it was, so it stays readable. A picture the answer
 * links to (an http(s) image part) is downloaded as every result is (engine/files/downloads.ts: the
 * address rules, its bytes judged, bounded), the key never sent with it.
 */

/** `![alt](data:image/…;base64,…)`: the base64 may hold line breaks. */
const MARKDOWN_DATA_IMAGE =
	/!\[([^\]\n]*)\]\(\s*data:(image\/[\w.+-]+);base64,([A-Za-z0-9+/=\s]+?)\s*\)/g;
const DATA_URL = /^data:(image\/[\w.+-]+);base64,([A-Za-z0-9+/=\s]+)$/;
const MAX_BYTES = FILE_KINDS.image.maxMb * 1024 * 1024;

/** One picture the answer held: where it went, or why it was not kept. */
export interface ChatPicture extends IDataObject {
	binaryField?: string;
	mimeType?: string;
	bytes?: number;
	fileName?: string;
	/** An http(s) picture the answer links to, fetched from there. */
	url?: string;
	notKept?: string;
}

/** The pictures taken out of a completion: its message rewritten, the binaries, what each was. */
export interface TakenPictures {
	completion: IDataObject;
	binary: Record<string, IBinaryData>;
	pictures: ChatPicture[];
}

/** The binary field of the n-th picture (1-based): data, data_2, data_3, … */
const fieldOf = (n: number) => (n === 1 ? 'data' : `data_${n}`);

/**
 * Every picture of the first choice's message as a binary; the message's data URLs replaced by a
 * mark naming the field. A completion without pictures is returned as it came.
 */
export async function takePictures(
	ctx: IExecuteFunctions,
	completion: IDataObject,
	itemIndex: number,
): Promise<TakenPictures> {
	const choices = completion.choices as IDataObject[] | undefined;
	const message = choices?.[0]?.message as IDataObject | undefined;
	const none = { completion, binary: {}, pictures: [] };
	if (!message) return none;
	const binary: Record<string, IBinaryData> = {};
	const pictures: ChatPicture[] = [];
	const keep = async (mimeType: string, base64: string): Promise<string> => {
		const n = pictures.length + 1;
		const picture = await pictureOf(ctx, mimeType, base64, n);
		pictures.push(picture.json);
		if (picture.binary) binary[fieldOf(n)] = picture.binary;
		return mark(n, picture.json);
	};
	const fetch = async (url: string): Promise<string> => {
		const n = pictures.length + 1;
		const picture = await linkedPicture(ctx, url, n, itemIndex);
		pictures.push(picture.json);
		if (picture.binary) binary[fieldOf(n)] = picture.binary;
		return mark(n, picture.json);
	};
	const rewritten: IDataObject = { ...message };
	if (typeof message.content === 'string')
		rewritten.content = await replaceAsync(message.content, MARKDOWN_DATA_IMAGE, (m) =>
			keep(m[2], m[3]),
		);
	else if (Array.isArray(message.content))
		rewritten.content = await Promise.all(
			(message.content as IDataObject[]).map(async (part) => {
				const url = imageUrlOf(part);
				const data = url ? DATA_URL.exec(url) : null;
				if (data) return { type: 'text', text: await keep(data[1], data[2]) };
				if (url && /^https?:\/\//i.test(url)) return { type: 'text', text: await fetch(url) };
				return part;
			}),
		);
	if (Array.isArray(message.images)) {
		const left: unknown[] = [];
		for (const entry of message.images as IDataObject[]) {
			const url = imageUrlOf(entry);
			const data = url ? DATA_URL.exec(url) : null;
			if (data) await keep(data[1], data[2]);
			else if (url && /^https?:\/\//i.test(url)) await fetch(url);
			else left.push(entry);
		}
		rewritten.images = left;
	}
	if (pictures.length === 0) return none;
	const rest = choices!.slice(1);
	return {
		completion: { ...completion, choices: [{ ...choices![0], message: rewritten }, ...rest] },
		binary,
		pictures,
	};
}

/** The text's mark of the n-th picture: where it went, or why it is not there. */
function mark(n: number, picture: ChatPicture): string {
	return picture.notKept
		? `[image ${n}: not kept, ${picture.notKept}]`
		: `[image ${n}: binary field ${fieldOf(n)}]`;
}

/** A linked picture fetched as a result image is; a failure is the picture's note, not the item's. */
async function linkedPicture(
	ctx: IExecuteFunctions,
	url: string,
	n: number,
	itemIndex: number,
): Promise<{ json: ChatPicture; binary?: IBinaryData }> {
	try {
		const { binary } = await deliverFile(ctx, url, {
			itemIndex,
			baseName: n === 1 ? 'image' : `image-${n}`,
			defaultMimeType: FILE_KINDS.image.mimeType,
			kind: 'image',
		});
		return {
			json: { binaryField: fieldOf(n), mimeType: binary.mimeType, fileName: binary.fileName, url },
			binary,
		};
	} catch (error) {
		// Stop ends the run; any other failure is this picture's, said beside the answer.
		if (isStop(error)) throw nodeErrorOf(ctx.getNode(), error, itemIndex);
		return { json: { url, notKept: (error as Error).message } };
	}
}

/** An image part's URL: `{type: 'image_url', image_url: {url}}` or `{image_url: '…'}`. */
function imageUrlOf(part: IDataObject | undefined): string | undefined {
	if (!part || typeof part !== 'object') return undefined;
	const inner = part.image_url;
	const url = typeof inner === 'string' ? inner : (inner as IDataObject | undefined)?.url;
	return typeof url === 'string' ? url.trim() : undefined;
}

/** One data URL's bytes, stored when they are an image within the limit. */
async function pictureOf(
	ctx: IExecuteFunctions,
	labelled: string,
	base64: string,
	n: number,
): Promise<{ json: ChatPicture; binary?: IBinaryData }> {
	const compact = base64.replace(/\s+/g, '');
	// Measured before decoding: a 2 GB string is refused without becoming 1.5 GB of bytes.
	if (Math.floor((compact.length * 3) / 4) > MAX_BYTES)
		return { json: { notKept: `larger than ${describeBytes(MAX_BYTES)}` } };
	const bytes = Buffer.from(compact, 'base64');
	const mimeType = sniffMedia(bytes);
	if (!mimeType?.startsWith('image/'))
		return { json: { notKept: `labelled ${labelled} but its bytes are no image` } };
	const fileName = `image${n === 1 ? '' : `-${n}`}.${EXTENSIONS[mimeType] ?? 'png'}`;
	const binary = await storeBinary(ctx, bytes, fileName, mimeType);
	return {
		json: { binaryField: fieldOf(n), mimeType, bytes: bytes.length, fileName },
		binary,
	};
}

/** String.replace with an async replacer, in order. */
async function replaceAsync(
	text: string,
	pattern: RegExp,
	replace: (match: RegExpExecArray) => Promise<string>,
): Promise<string> {
	let out = '';
	let last = 0;
	for (const match of text.matchAll(pattern)) {
		out += text.slice(last, match.index) + (await replace(match as RegExpExecArray));
		last = (match.index ?? 0) + match[0].length;
	}
	return out + text.slice(last);
}
