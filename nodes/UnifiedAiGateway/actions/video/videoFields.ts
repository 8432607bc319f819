import type { RegistryFieldSet } from '../../params/registryRules';
import { UNKNOWN_VIDEO_MODEL, VIDEO_MODELS } from '../../registry/videoModels';

export const show = { resource: ['video'], operation: ['generate'] };

/**
 * The per-model fields of registry/videoModels.ts (`fields.video`); an id without a row gets the
 * unified request's own fields (UNKNOWN_VIDEO_MODEL).
 */
export const VIDEO_FIELD_SET: RegistryFieldSet = {
	operation: 'video',
	models: VIDEO_MODELS,
	show,
	prefix: 'video',
	routeParameter: 'videoRoute',
	allowUnusualParameter: 'videoAllowUnusualValues',
	unknownModel: UNKNOWN_VIDEO_MODEL,
	// Grok's seconds and size on the JSON routes were videoSeconds and videoSize until each rule of a
	// key got a name of its own; saved workflows still hold those names (docs/DEVELOPMENT.md, "Parameter names").
	formerNames: [
		{ name: 'videoSeconds', key: 'seconds', id: 'grok-imagine-video-1.5', route: 'unified' },
		{ name: 'videoSize', key: 'size', id: 'grok-imagine-video-1.5', route: 'unified' },
	],
};
