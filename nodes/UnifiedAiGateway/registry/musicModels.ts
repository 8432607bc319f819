import type { ModelSpec } from './types';

/*
 * Suno's model versions, one row each: the `mv` of POST /suno/submit/music, which new-api passes to
 * its Suno channel unchanged (docs/gateway-contract.md §10.15). They are not the relay's model
 * names: the relay bills every music submit as `suno_music` and every lyrics submit as
 * `suno_lyrics` (its price list's names), whatever the version. A submit without `mv` is sent as
 * chirp-v3-0 by new-api. Limits are the versions' own: lyrics and style tags in characters.
 */

/** What the relay's price list calls a music and a lyrics submit (GET /api/pricing). */
export const SUNO_PRICE_NAMES = { music: 'suno_music', lyrics: 'suno_lyrics' } as const;

/** The version new-api sends when a submit names none (recorded: real-newapi/suno.json). */
export const SUNO_RELAY_DEFAULT_VERSION = 'chirp-v3-0';

/** A description prompt (description mode) is at most this long on every version. */
export const MAX_DESCRIPTION_CHARS = 500;

function version(id: string, description: string, lyrics: number, style: number): ModelSpec {
	return {
		id,
		group: 'music',
		host: 'main',
		mode: 'task',
		queryRoute: 'suno',
		description,
		limits: { maxLyricsChars: lyrics, maxStyleChars: style },
	};
}

export const MUSIC_MODELS: readonly ModelSpec[] = [
	version('chirp-v3-0', 'Suno v3.0 (what new-api sends when no version is named)', 3000, 200),
	version('chirp-v3-5', 'Suno v3.5: songs up to 2 minutes', 3000, 200),
	version('chirp-v4', 'Suno v4: songs up to 2.5 minutes', 3000, 200),
	version('chirp-auk', 'Suno v4.5: songs up to 4 minutes', 5000, 1000),
	version('chirp-bluejay', 'Suno v4.5+: songs up to 8 minutes', 5000, 1000),
	version('chirp-crow', 'Suno v5: songs up to 8 minutes', 5000, 1000),
];
