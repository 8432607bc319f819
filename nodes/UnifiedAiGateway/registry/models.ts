import type { GatewayHost } from '../transport/urls';
import { IMAGE_MODELS } from './imageModels';
import { TEXT_MODELS } from './textModels';
import type { ModelGroup, ModelSpec } from './types';
import { VIDEO_MODELS } from './videoModels';

export type * from './types';

/** The one model registry: rows live in one file per group, all lookups go through here. */
export const MODELS: readonly ModelSpec[] = [...TEXT_MODELS, ...IMAGE_MODELS, ...VIDEO_MODELS];


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
 * Endpoint tags that name a group. `openai` is left out on purpose: gateways tag image and video
 * models with it too (docs/gateway-contract.md §10.4: gpt-image-2 and nano-banana carry no image tag), so it says
 * only "OpenAI wire format"; a model with nothing else to go by is listed as text.
 */
const TAG_GROUPS: Array<[RegExp, ModelGroup]> = [
	[/video/i, 'video'],
	[/image|dall-?e|midjourney/i, 'image'],
	[/chat|anthropic|completion|text|embedding|responses/i, 'text'],
];

const NAME_GROUPS: Array<[RegExp, ModelGroup]> = [
	[/video|veo|sora|seedance|kling|wan|hailuo|runway|luma|pika/i, 'video'],
	[/image|banana|dall-?e|flux|midjourney|imagen|seedream|sdxl|stable-diffusion/i, 'image'],
];

/** Spec table first, then the name, then the gateway's (incomplete) endpoint tags; else text. */
export function classifyModel(id: string, endpointTypes: unknown): ModelGroup {
	const known = findModel(id);
	if (known) return known.group;
	for (const [pattern, group] of NAME_GROUPS) if (pattern.test(id)) return group;
	const tags = Array.isArray(endpointTypes) ? endpointTypes.map(String) : [];
	for (const [pattern, group] of TAG_GROUPS) if (tags.some((tag) => pattern.test(tag))) return group;
	return 'text';
}
