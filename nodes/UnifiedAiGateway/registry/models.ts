import type { QueryRoute } from '../engine/routes';
import type { GatewayHost } from '../transport/urls';

export type ModelGroup = 'text' | 'image' | 'video';
/** sync: URLs in the answer; task: a task id to poll; either: the answer decides. */
export type ModelMode = 'sync' | 'task' | 'either';

/** One model of the gateway: the single source of truth for fields, checks, bodies and prices. */
export interface ModelSpec {
	id: string;
	group: ModelGroup;
	host: GatewayHost;
	mode: ModelMode;
	/** Where its tasks are read. */
	queryRoute?: QueryRoute;
	/** The id the gateway recommends instead (legacy aliases). */
	recommendedId?: string;
	/** Short family name used for field visibility: 'gpt-image-2', 'nano-banana', 'alt', 'sora'… */
	family: string;
}

export const MODELS: readonly ModelSpec[] = [
	{ id: 'gpt-5.6-sol', group: 'text', host: 'main', mode: 'sync', family: 'chat' },
	{ id: 'gpt-image-2', group: 'image', host: 'main', mode: 'sync', family: 'gpt-image-2' },
	{ id: 'gpt-image-2.5', group: 'image', host: 'main', mode: 'sync', family: 'gpt-image-2.5' },
	{ id: 'gpt-image-2-async', group: 'image', host: 'main', mode: 'task', queryRoute: 'image', family: 'gpt-image-async' },
	{ id: 'gpt-image-2.5-async', group: 'image', host: 'main', mode: 'task', queryRoute: 'image', family: 'gpt-image-async' },
	{ id: 'gpt-image-2.5-flare', group: 'image', host: 'main', mode: 'either', queryRoute: 'image', family: 'gpt-image-2.5' },
	{ id: 'gpt-image-2.5-sunburst', group: 'image', host: 'main', mode: 'either', queryRoute: 'image', family: 'gpt-image-2.5' },
	{ id: 'nano-banana', group: 'image', host: 'main', mode: 'task', queryRoute: 'image', family: 'nano-banana' },
	{ id: 'nano-banana-2', group: 'image', host: 'main', mode: 'task', queryRoute: 'image', family: 'nano-banana' },
	{ id: 'nano-banana-2-lite', group: 'image', host: 'main', mode: 'task', queryRoute: 'image', family: 'nano-banana' },
	{ id: 'nano-banana-pro', group: 'image', host: 'main', mode: 'task', queryRoute: 'image', family: 'nano-banana' },
	{ id: 'gemini-3-pro-image-preview', group: 'image', host: 'main', mode: 'task', queryRoute: 'image', family: 'nano-banana' },
	{ id: 'gemini-2.5-flash-image', group: 'image', host: 'alt', mode: 'task', queryRoute: 'alt', family: 'alt' },
	{ id: 'gemini-3.1-flash-image-preview', group: 'image', host: 'alt', mode: 'task', queryRoute: 'alt', family: 'alt' },
	{ id: 'grok-imagine-video-1.5', group: 'video', host: 'main', mode: 'task', queryRoute: 'generic', family: 'grok' },
	{ id: 'grok-imagine-1.5-video', group: 'video', host: 'main', mode: 'task', queryRoute: 'generic', family: 'grok', recommendedId: 'grok-imagine-video-1.5' },
	{ id: 'veo-3.1-flash', group: 'video', host: 'main', mode: 'task', queryRoute: 'generic', family: 'veo' },
	{ id: 'veo-3.1-pro', group: 'video', host: 'main', mode: 'task', queryRoute: 'generic', family: 'veo' },
	{ id: 'sora-2', group: 'video', host: 'main', mode: 'task', queryRoute: 'generic', family: 'sora' },
	{ id: 'seedance-1.0-fast', group: 'video', host: 'main', mode: 'task', queryRoute: 'generic', family: 'seedance' },
	{ id: 'seedance-1.0-mini', group: 'video', host: 'main', mode: 'task', queryRoute: 'generic', family: 'seedance' },
	{ id: 'seedance-1.0-pro', group: 'video', host: 'main', mode: 'task', queryRoute: 'generic', family: 'seedance' },
	{ id: 'seedance-1.5-pro', group: 'video', host: 'main', mode: 'task', queryRoute: 'generic', family: 'seedance' },
	{ id: 'seedance-2.0', group: 'video', host: 'main', mode: 'task', queryRoute: 'generic', family: 'seedance' },
	{ id: 'seedance-2.0-fast', group: 'video', host: 'main', mode: 'task', queryRoute: 'generic', family: 'seedance' },
];

export function findModel(id: string, host?: GatewayHost): ModelSpec | undefined {
	const trimmed = id.trim();
	return MODELS.find((m) => m.id === trimmed && (host === undefined || m.host === host));
}

const TAG_GROUPS: Array<[RegExp, ModelGroup]> = [
	[/video/i, 'video'],
	[/image/i, 'image'],
	[/openai|chat|anthropic|gemini|completion|text/i, 'text'],
];

const NAME_GROUPS: Array<[RegExp, ModelGroup]> = [
	[/video|veo|sora|seedance|kling|wan|hailuo|runway|luma|pika/i, 'video'],
	[/image|banana|dall-?e|flux|midjourney|imagen|seedream|sdxl|stable-diffusion/i, 'image'],
];

/** Spec table first, then the gateway's (incomplete) endpoint tags, then the name. */
export function classifyModel(id: string, endpointTypes: unknown): ModelGroup {
	const known = findModel(id);
	if (known) return known.group;
	const tags = Array.isArray(endpointTypes) ? endpointTypes.map(String) : [];
	for (const [pattern, group] of TAG_GROUPS) if (tags.some((tag) => pattern.test(tag))) return group;
	for (const [pattern, group] of NAME_GROUPS) if (pattern.test(id)) return group;
	return 'text';
}
