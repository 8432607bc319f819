import type { ModelSpec } from './types';

/** Text models: any catalogue id works; this is the spec's example. */
export const TEXT_MODELS: readonly ModelSpec[] = [
	{ id: 'gpt-5.6-sol', group: 'text', host: 'main', mode: 'sync' },
];
