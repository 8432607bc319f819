/*
 * What the node knows of each kind of result file it stores: its size limit, its type until its
 * bytes say otherwise, how long one item's downloads may take outside a wait, how messages name
 * it. A new kind of result (audio, say) is one row here; every download, its Options and its
 * messages read it from this table.
 */

export interface FileKindFacts {
	/** Largest file accepted by default, MB (where n8n streams files; lower where it holds them whole). */
	maxMb: number;
	/** The file's MIME type until its bytes say otherwise. */
	mimeType: string;
	/** The MIME types' common prefix: a file whose type starts with it is of this kind. */
	mimePrefix: string;
	/** How long all files of one item may take outside a wait (no Max Wait to keep within), minutes. */
	downloadMinutes: number;
	/** "an image", "images": for messages. */
	one: string;
	many: string;
}

export const FILE_KINDS = {
	image: {
		maxMb: 50,
		mimeType: 'image/png',
		mimePrefix: 'image/',
		downloadMinutes: 10,
		one: 'an image',
		many: 'images',
	},
	video: {
		maxMb: 2048,
		mimeType: 'video/mp4',
		mimePrefix: 'video/',
		downloadMinutes: 30,
		one: 'a video',
		many: 'videos',
	},
	// Speech of OpenAI's 4,096-character limit is minutes: a few MB as mp3, about 15 MB as wav.
	audio: {
		maxMb: 50,
		mimeType: 'audio/mpeg',
		mimePrefix: 'audio/',
		downloadMinutes: 10,
		one: 'an audio file',
		many: 'audio files',
	},
} as const satisfies Record<string, FileKindFacts>;

/** The one spelling of a kind of result file. */
export type FileKind = keyof typeof FILE_KINDS;

export const FILE_KIND_NAMES = Object.keys(FILE_KINDS) as FileKind[];

/** The kind a MIME type names ("video/mp4" → video), or undefined when it names none of them. */
export function fileKindOfMime(mimeType: string | undefined): FileKind | undefined {
	const type = (mimeType ?? '').toLowerCase();
	return FILE_KIND_NAMES.find((kind) => type.startsWith(FILE_KINDS[kind].mimePrefix));
}
