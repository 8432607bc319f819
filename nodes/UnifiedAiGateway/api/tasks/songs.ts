import type { IDataObject } from 'n8n-workflow';

import { asObject } from '../../transport/responses';

/*
 * What a Suno task of the relay made (docs/gateway-contract.md §10.15): the task record's `data` is
 * the list of songs (two per submit) for a music task, one object with the lyrics for a lyrics
 * task. Parses, sends nothing.
 */

/** One song of a music task, as the item shows it. */
export interface Song {
	clipId?: string;
	title?: string;
	audioUrl?: string;
	videoUrl?: string;
	imageUrl?: string;
	imageLargeUrl?: string;
	/** Seconds, once the song is complete. */
	duration?: number;
	lyrics?: string;
	tags?: string;
	modelName?: string;
	status?: string;
}

/** The lyrics a lyrics task wrote. */
export interface Lyrics {
	title?: string;
	text: string;
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** A link as given (http(s)), or relative to the gateway's origin; anything else is no link. */
function link(value: unknown, origin?: string): string | undefined {
	const given = text(value)?.trim();
	if (!given) return undefined;
	if (/^https?:\/\//i.test(given)) return given;
	return origin && /^\/(?!\/)\S+$/.test(given) ? `${origin}${given}` : undefined;
}

function songOf(entry: IDataObject, origin?: string): Song {
	const metadata = asObject(entry.metadata) ?? {};
	const duration = [metadata.duration, entry.duration].find(
		(v) => typeof v === 'number' && Number.isFinite(v) && v >= 0,
	) as number | undefined;
	const song: Song = {
		clipId: text(entry.id) ?? text(entry.clip_id),
		title: text(entry.title),
		audioUrl: link(entry.audio_url, origin),
		videoUrl: link(entry.video_url, origin),
		imageUrl: link(entry.image_url, origin),
		imageLargeUrl: link(entry.image_large_url, origin),
		duration,
		lyrics: text(entry.text) ?? text(metadata.prompt) ?? text(entry.lyric),
		tags: text(metadata.tags) ?? text(entry.tags),
		modelName: text(entry.model_name),
		status: text(entry.status),
	};
	return Object.fromEntries(Object.entries(song).filter(([, v]) => v !== undefined)) as Song;
}

/** The songs or the lyrics of a task record (`task.data`), whichever it holds. */
export function songsOf(
	task: IDataObject | undefined,
	origin?: string,
): { songs: Song[]; lyrics?: Lyrics } {
	const made = task?.data;
	if (Array.isArray(made)) {
		const entries = made.map((entry) => asObject(entry)).filter((e) => e !== undefined);
		return { songs: entries.map((entry) => songOf(entry, origin)) };
	}
	const one = asObject(made);
	if (!one) return { songs: [] };
	const words = text(one.text) ?? text(one.lyrics);
	if (words && !one.audio_url)
		return { songs: [], lyrics: { title: text(one.title), text: words } };
	return { songs: [songOf(one, origin)] };
}
