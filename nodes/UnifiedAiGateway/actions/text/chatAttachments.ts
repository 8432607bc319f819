import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { describeBytes, sniffMedia } from '../../engine/files/media';
import { kindOf } from '../../params/inputs';
import { findModel, type ChatInput } from '../../registry/models';

/*
 * Files attached to a chat message (docs/gateway-contract.md §10.14), sent as the OpenAI content parts every new-api
 * build reads and converts for its other channels (the real relay's recorded exchanges: each part
 * passed on unchanged): `image_url` (a URL or a `data:` URL), `input_audio` (base64 and its format),
 * `file` (a `data:` URL with its file name: PDFs and text) and new-api's own `video_url`. A binary's
 * kind is judged by its bytes and its size bounded before anything is sent (and billed).
 */

/** What a binary of each kind may weigh: OpenAI's limits for images and files, the relay's for the rest. */
const MAX_MB = { image: 20, audio: 25, video: 50, document: 32 } as const;

type PartKind = keyof typeof MAX_MB;

const VIDEO_URL = /\.(mp4|m4v|mov|webm)(?:[?#]|$)/i;

/** The kind of file each content part carries (the text part carries none). */
const PART_KIND: Readonly<Record<string, ChatInput>> = {
	image_url: 'image',
	video_url: 'video',
	input_audio: 'audio',
	file: 'document',
};

/**
 * A file the chosen model cannot read, refused before the call is billed: the model's registry row names what
 * it reads (docs/gateway-contract.md §10.9). A model without a row, or a row that names nothing, is sent
 * whatever it is given: the gateway may route the id to a model we do not know.
 */
export function checkModelReads(
	model: string,
	parts: readonly IDataObject[],
	fail: (message: string, description?: string) => Error,
): void {
	const row = findModel(model);
	const reads = row?.group === 'text' ? row.inputs : undefined;
	if (!reads) return;
	const plural = (kind: ChatInput) => (kind === 'audio' ? 'audio' : `${kind}s`);
	for (const part of parts) {
		const kind = PART_KIND[String(part.type)];
		if (!kind || reads.includes(kind)) continue;
		const what = reads.length ? `text and ${reads.map(plural).join(', ')}` : 'text only';
		throw fail(
			`${model} cannot read ${plural(kind)}: it reads ${what}`,
			`Pick a model that reads ${plural(kind)} (for example gemini-2.5-flash), or leave the file out.`,
		);
	}
}

/** Binary property names or URLs, from a field or an expression: "data, photo", one per line, or a list. */
export function namesIn(value: unknown, label: string, fail: (message: string) => Error): string[] {
	if (value === undefined || value === null || value === '') return [];
	const list = Array.isArray(value) ? value : [value];
	return list.flatMap((entry) => {
		if (typeof entry !== 'string')
			throw fail(`${label} is ${kindOf(entry)}: give names or URLs as text, e.g. data, photo`);
		return entry
			.split(/[\n,]/)
			.map((s) => s.trim())
			.filter(Boolean);
	});
}

/** Text, not a binary format: valid UTF-8 without control bytes (a CSV, Markdown, JSON, a transcript). */
function isText(bytes: Buffer): boolean {
	if (bytes.includes(0)) return false;
	return Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes);
}

/** The content part of one binary property of the input item: its kind by its bytes, its size bounded. */
export async function binaryPart(
	ctx: IExecuteFunctions,
	i: number,
	name: string,
	fail: (message: string, description?: string) => Error,
	label = 'Attach Binary Files',
): Promise<IDataObject> {
	const item = ctx.getInputData()[i];
	if (!item?.binary?.[name]) {
		const has = Object.keys(item?.binary ?? {});
		throw fail(
			`${label}: the input item has no binary property '${name}'`,
			has.length
				? `Binary properties on this item: ${has.join(', ')}.`
				: 'This item has no binary data.',
		);
	}
	const binary = ctx.helpers.assertBinaryData(i, name);
	const bytes = await ctx.helpers.getBinaryDataBuffer(i, name);
	const fileName = binary.fileName ?? name;
	const sniffed = sniffMedia(bytes.subarray(0, 16));
	const pdf = bytes.subarray(0, 5).toString('latin1') === '%PDF-';
	const kind: PartKind | undefined = sniffed?.startsWith('image/')
		? 'image'
		: sniffed?.startsWith('audio/')
			? 'audio'
			: sniffed?.startsWith('video/')
				? 'video'
				: pdf || (!sniffed && isText(bytes))
					? 'document'
					: undefined;
	if (!kind)
		throw fail(
			`${label}: '${fileName}' (${name}) is ${binary.mimeType || 'of no known kind'}; ` +
				'a message takes images, audio (MP3, WAV), video, PDF or text files',
		);
	const max = MAX_MB[kind] * 1024 * 1024;
	if (bytes.length > max)
		throw fail(
			`${label}: '${fileName}' is ${describeBytes(bytes.length)}; ` +
				`a message's ${kind} may be at most ${MAX_MB[kind]} MB`,
		);
	const base64 = bytes.toString('base64');
	if (kind === 'image')
		return { type: 'image_url', image_url: { url: `data:${sniffed};base64,${base64}` } };
	if (kind === 'video')
		return { type: 'video_url', video_url: { url: `data:${sniffed};base64,${base64}` } };
	if (kind === 'audio') {
		const format = sniffed === 'audio/mpeg' ? 'mp3' : sniffed === 'audio/wav' ? 'wav' : undefined;
		if (!format)
			throw fail(
				`${label}: '${fileName}' is ${sniffed}; audio in a message is MP3 or WAV ` +
					'(input_audio takes only these)',
			);
		return { type: 'input_audio', input_audio: { data: base64, format } };
	}
	const type = pdf ? 'application/pdf' : 'text/plain';
	return { type: 'file', file: { file_data: `data:${type};base64,${base64}`, filename: fileName } };
}

/** The content part of one URL: a video by its extension, else an image; a data: URL as its type says. */
export function urlPart(url: string, fail: (message: string) => Error): IDataObject {
	const data = /^data:([\w.+-]+\/[\w.+-]+);base64,/i.exec(url);
	if (data) {
		if (/^video\//i.test(data[1])) return { type: 'video_url', video_url: { url } };
		if (/^image\//i.test(data[1])) return { type: 'image_url', image_url: { url } };
		throw fail(`Attach URLs: a data: URL of ${data[1]}; attach other files from binary data`);
	}
	if (!/^https?:\/\/\S+$/i.test(url))
		throw fail(`Attach URLs: '${url.slice(0, 80)}' is not an http(s) URL of an image or a video`);
	return VIDEO_URL.test(url)
		? { type: 'video_url', video_url: { url } }
		: { type: 'image_url', image_url: { url } };
}

/**
 * One message's content: its text alone when nothing is attached, else the text part and a part per
 * attachment, in the order given (binary properties, then URLs). Only a user message takes files.
 */
export async function messageContent(
	ctx: IExecuteFunctions,
	i: number,
	row: { role: string; content: string; attachBinary?: unknown; attachUrls?: unknown },
	position: number,
	model: string,
): Promise<string | IDataObject[]> {
	const fail = (message: string, description?: string) =>
		new NodeOperationError(ctx.getNode(), `Message ${position}: ${message}`, {
			itemIndex: i,
			description: [description, 'Nothing was sent.'].filter(Boolean).join(' '),
		});
	const names = namesIn(row.attachBinary, 'Attach Binary Files', fail);
	const urls = namesIn(row.attachUrls, 'Attach URLs', fail);
	if (names.length === 0 && urls.length === 0) return row.content;
	if (row.role !== 'user')
		throw fail(
			`${row.role === 'assistant' ? 'an' : 'a'} ${row.role} message cannot carry files: attach them to a User message`,
		);
	const parts: IDataObject[] = row.content.trim() ? [{ type: 'text', text: row.content }] : [];
	for (const name of names) parts.push(await binaryPart(ctx, i, name, fail));
	for (const url of urls) parts.push(urlPart(url, fail));
	checkModelReads(model, parts, fail);
	return parts;
}
