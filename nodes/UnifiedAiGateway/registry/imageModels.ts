import type { ModelSpec } from './types';

/** Image models of spec 2.1: one row each. */
export const IMAGE_MODELS: readonly ModelSpec[] = [
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
];
