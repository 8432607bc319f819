import type { ModelSpec } from './types';

/**
 * Text models: any catalogue id works. The spec's example, and the chat models gateways serve most whose
 * makers say what they read beside text (docs/gateway-contract.md §10.9): a file of another kind is refused
 * before it is billed. The example names nothing it reads: it is sent whatever it is given.
 */
const chat = (id: string, inputs: ModelSpec['inputs']): ModelSpec => ({
	id,
	group: 'text',
	host: 'main',
	mode: 'sync',
	inputs,
});

export const TEXT_MODELS: readonly ModelSpec[] = [
	{ id: 'gpt-5.6-sol', group: 'text', host: 'main', mode: 'sync' },
	chat('gpt-5', ['image', 'document']),
	chat('gpt-5-mini', ['image', 'document']),
	chat('gpt-4.1', ['image', 'document']),
	chat('gpt-4o', ['image', 'document']),
	chat('gpt-4o-mini', ['image', 'document']),
	chat('gpt-4o-audio-preview', ['audio']),
	chat('gemini-2.5-pro', ['image', 'video', 'audio', 'document']),
	chat('gemini-2.5-flash', ['image', 'video', 'audio', 'document']),
	chat('claude-sonnet-4-5', ['image', 'document']),
	chat('deepseek-chat', []),
	chat('deepseek-reasoner', []),
];
