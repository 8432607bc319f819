import type { GatewayHost } from '../transport/urls';
import { AUDIO_MODELS } from './audioModels';
import { IMAGE_MODELS } from './imageModels';
import { MUSIC_MODELS } from './musicModels';
import { TEXT_MODELS } from './textModels';
import type { ModelGroup, ModelSpec } from './types';
import { VIDEO_MODELS } from './videoModels';

export type * from './types';

export { GROUP_IDS, MODEL_GROUPS, searchMethodOf } from './groups';

/** The one model registry: rows live in one file per group, all lookups go through here. */
export const MODELS: readonly ModelSpec[] = [
	...TEXT_MODELS,
	...IMAGE_MODELS,
	...VIDEO_MODELS,
	...AUDIO_MODELS,
	...MUSIC_MODELS,
];

/** Ids with a row on more than one host (gemini-3-pro-image-preview): the user picks the host. */
export function multiHostIds(models: readonly ModelSpec[]): string[] {
	const ids = [...new Set(models.map((m) => m.id))];
	return ids.filter((id) => new Set(models.filter((m) => m.id === id).map((m) => m.host)).size > 1);
}

export function findModel(id: string, host?: GatewayHost): ModelSpec | undefined {
	const trimmed = id.trim();
	return MODELS.find((m) => m.id === trimmed && (host === undefined || m.host === host));
}

/**
 * Endpoint tags that say what a model makes (docs/gateway-contract.md §10.4): the relay sets
 * `image-generation` by the model itself and `openai-video` on video channels. Where a gateway
 * sends one, it outranks the name; most models carry none (`gpt-image-2` and `nano-banana` have
 * only `openai`), and then the name decides.
 */
const KIND_TAGS: Array<[RegExp, ModelGroup]> = [
	[/video/i, 'video'],
	[/image|dall-?e|midjourney/i, 'image'],
];

/**
 * Tags of wire formats only text models speak (a Claude channel, rerankers, embeddings, chat
 * completions): after the name. `openai`, `openai-response` (grok's video channel has it) and
 * `gemini` (Veo has it) follow the channel and say nothing of the kind.
 */
const TEXT_TAGS = /^(anthropic|.*rerank.*|embeddings?|chat|.*completions?)$/i;

/**
 * Name rules, in order (docs/gateway-contract.md §10.4): the kind words first (`t2v`, `i2v`, `video` before `t2i`,
 * `i2i`, `image`: wan2.6-t2i is an image model though Wan is a video family), then the families.
 * A separator or the id's edge on each side keeps `wan` out of `swan` and `veo` out of `kaveon`.
 */
const EDGE = '(?:^|[^a-z0-9])';
const END = '(?=$|[^a-z])';
const NAME_GROUPS: Array<[RegExp, ModelGroup]> = [
	[new RegExp(`${EDGE}(?:[tir]2v|s2v|flf2v|video)${END}|video`, 'i'), 'video'],
	[
		new RegExp(
			`${EDGE}(?:t2i|i2i)${END}|` +
				'image|banana|dall-?e|flux|midjourney|imagen|seedream|sdxl|stable-diffusion|recraft|ideogram',
			'i',
		),
		'image',
	],
	[
		new RegExp(
			`${EDGE}(?:` +
				'veo\\d?|sora|seedance|kling|hailuo|vidu\\w*|wan[x\\d]|wan-|omni-flash|runway|luma|pika|pixverse|hunyuan-video)',
			'i',
		),
		'video',
	],
	// Suno's versions (chirp-v4) and the relay's own names of its actions (suno_music, suno_lyrics).
	[new RegExp(`${EDGE}(?:suno|chirp)${END}`, 'i'), 'music'],
	// Speech and transcription before the chat families: gpt-4o-mini-tts is not a chat model.
	[new RegExp(`${EDGE}(?:tts|whisper|speech|transcribe)${END}`, 'i'), 'audio'],
	[
		new RegExp(
			`${EDGE}(?:` +
				'gpt|o\\d|claude|deepseek|qwen|llama|glm|kimi|moonshot|mistral|gemini|grok-\\d|' +
				'doubao-(?:pro|lite|seed-\\d)|ernie|yi-|command|embedding|text-)',
			'i',
		),
		'text',
	],
];

/** How a model's kind was found: the contract's table, its name, the gateway's tags, or nothing (then text). */
export type KindSource = 'table' | 'name' | 'tags' | 'none';

/**
 * The contract's table first; then a tag that says the kind (`image-generation`, `openai-video`);
 * then the name; then a text-only wire format's tag; else text, marked as a guess
 * (docs/gateway-contract.md §10.4).
 */
export function modelKind(
	id: string,
	endpointTypes: unknown,
): { group: ModelGroup; by: KindSource } {
	const known = findModel(id);
	if (known) return { group: known.group, by: 'table' };
	const tags = Array.isArray(endpointTypes)
		? endpointTypes.filter((tag): tag is string => typeof tag === 'string')
		: [];
	for (const [pattern, group] of KIND_TAGS)
		if (tags.some((tag) => pattern.test(tag))) return { group, by: 'tags' };
	for (const [pattern, group] of NAME_GROUPS) if (pattern.test(id)) return { group, by: 'name' };
	if (tags.some((tag) => TEXT_TAGS.test(tag))) return { group: 'text', by: 'tags' };
	return { group: 'text', by: 'none' };
}
