import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
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

/** The input item's binary property, or an error naming the ones it has. */
function inputBinary(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	fieldLabel: string,
): IBinaryData {
	const item = ctx.getInputData()[itemIndex];
	if (!name || !item?.binary?.[name]) {
		const available = Object.keys(item?.binary ?? {});
		throw new NodeOperationError(
			ctx.getNode(),
			name
				? `${fieldLabel}: the input item has no binary property '${name}'`
				: `${fieldLabel} is empty: name the binary property that holds the file`,
			{
				itemIndex,
				description: available.length
					? `Binary properties on this item: ${available.join(', ')}. Nothing was sent.`
					: 'This item has no binary data. Add a node that reads or downloads the file first. ' +
						'Nothing was sent.',
			},
		);
	}
	return ctx.helpers.assertBinaryData(itemIndex, name);
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
	const binary = inputBinary(ctx, itemIndex, name, fieldLabel);
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

/** A recording for speech to text: what the audio routes take, judged by the bytes. */
export interface InputAudio {
	fileName: string;
	mimeType: string;
	bytes: number;
}

/**
 * The containers OpenAI's speech-to-text routes take (mp3, mp4/m4a, ogg, wav, flac, webm), by the
 * type engine/files/media.ts reads from the bytes, each with the file-name extensions that name it:
 * the upstream reads the format from the name, so a name that says otherwise is given the right one.
 */
const AUDIO_INPUT: Record<string, readonly string[]> = {
	'audio/mpeg': ['mp3', 'mpga', 'mpeg'],
	'video/mp4': ['mp4', 'm4a'],
	'audio/ogg': ['ogg', 'oga', 'opus'],
	'audio/wav': ['wav'],
	'audio/flac': ['flac'],
	'video/webm': ['webm'],
	'audio/aac': ['aac'],
};

/**
 * Reads a recording from a binary property of the input item (any n8n storage mode) and checks it
 * before anything is sent: audio by its bytes, at most `maxBytes`. The bytes are not kept: read
 * again when the item is sent, so a batch never holds every recording at once.
 */
export async function readInputAudio(
	ctx: IExecuteFunctions,
	itemIndex: number,
	property: unknown,
	maxBytes: number,
	fieldLabel: string,
): Promise<InputAudio & { buffer: Buffer }> {
	const name = typeof property === 'string' ? property.trim() : '';
	const binary = inputBinary(ctx, itemIndex, name, fieldLabel);
	const buffer = await ctx.helpers.getBinaryDataBuffer(itemIndex, name);
	const fileName = binary.fileName ?? 'audio';
	const sniffed = sniffMedia(buffer.subarray(0, 16));
	const extensions = sniffed ? AUDIO_INPUT[sniffed] : undefined;
	if (!sniffed || !extensions) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${fieldLabel}: '${fileName}' is ${sniffed ?? 'not a recognised audio file'} ` +
				`(${formatBytes(buffer.length)}); the gateway takes MP3, MP4 or M4A, Ogg, WAV, FLAC, WebM`,
			{
				itemIndex,
				description: 'Nothing was sent. Convert the recording to MP3 or WAV and run again.',
			},
		);
	}
	if (buffer.length > maxBytes) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${fieldLabel}: '${fileName}' is ${formatBytes(buffer.length)}; the model takes at most ` +
				formatBytes(maxBytes),
			{
				itemIndex,
				description:
					'Nothing was sent. Split the recording or compress it (a lower bitrate MP3), then run again.',
			},
		);
	}
	const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
	const named = extension && extensions.includes(extension);
	const base = extension ? fileName.slice(0, -extension.length - 1) : fileName;
	return {
		buffer,
		fileName: named ? fileName : `${base || 'audio'}.${extensions[0]}`,
		mimeType: sniffed,
		bytes: buffer.length,
	};
}
