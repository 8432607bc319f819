import type { ModelSpec } from './types';

/** Video models of spec 2.1: one row each. */
export const VIDEO_MODELS: readonly ModelSpec[] = [
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
