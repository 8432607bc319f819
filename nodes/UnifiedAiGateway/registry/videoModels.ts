import type { FieldRule, ModelLimits, ModelSpec } from './types';

/*
 * Video models of spec 2.1, with the per-model rules of spec 4.8 / 4.9 / 8. The Video resource's
 * fields, its checks before sending and its request bodies are all built from these rows.
 * Spec 2.8 gives no video price (video is pre-charged by the site price and duration): no `price`.
 */

const LANDSCAPE_OR_PORTRAIT = ['1280x720', '720x1280'];

/** Grok (spec 4.9, 8): the multipart route's rules, also applied on the JSON routes. */
const GROK_FIELDS: Record<string, FieldRule> = {
	seconds: { label: 'Seconds', values: ['6', '10', '12', '16', '20'], default: '6', description: 'Video length in seconds' },
	size: { label: 'Size', values: LANDSCAPE_OR_PORTRAIT, default: '1280x720', description: 'Landscape or portrait' },
	quality: { label: 'Quality', values: ['high'], default: 'high', routes: ['multipart'], description: 'The multipart route requires it' },
};
const GROK_LIMITS: ModelLimits = {
	referenceField: 'images',
	fileReferenceField: 'input_reference',
	referenceMimeTypes: ['image/jpeg', 'image/png', 'image/webp'],
	maxFileBytes: 20 * 1024 * 1024,
};

/** sora-2: seconds only "8" or "12" (a string), 1280x720 or 720x1280 at 720p (spec 4.8). */
const SORA_FIELDS: Record<string, FieldRule> = {
	seconds: { label: 'Seconds', values: ['8', '12'], default: '8', description: 'Video length: sora-2 takes only 8 or 12 seconds' },
	size: { label: 'Size', values: LANDSCAPE_OR_PORTRAIT, default: '1280x720', description: 'Landscape or portrait (720p only)' },
};

/** Veo 3.1: picture and duration go in `metadata` under Google's names (spec 4.8). */
const VEO_FIELDS: Record<string, FieldRule> = {
	'metadata.durationSeconds': { label: 'Duration (Seconds)', integer: true, min: 1, default: 8, description: 'Video length; Veo defaults to 8 seconds' },
	'metadata.aspectRatio': { label: 'Aspect Ratio', values: ['16:9', '9:16'], default: '16:9' },
	'metadata.resolution': { label: 'Resolution', values: ['720p', '1080p'], default: '720p' },
	'metadata.negativePrompt': { label: 'Negative Prompt', default: '', description: 'What the video should not show' },
	'metadata.personGeneration': {
		label: 'Person Generation',
		values: ['allow_all', 'allow_adult', 'dont_allow'],
		omit: '',
		default: '',
		description: 'Whether people may be generated; the channel decides when not set',
	},
	'metadata.seed': { label: 'Seed', integer: true, min: -1, max: 4294967295, omit: -1, default: -1, description: 'Fixed seed for repeatable results; -1 lets the model pick' },
	'metadata.generateAudio': { label: 'Generate Audio', default: true, description: 'Whether to generate a sound track' },
};

/** Seedance: integer `duration` (preferred over seconds), aspect_ratio, resolution, metadata switches. */
function seedanceFields(duration: FieldRule): Record<string, FieldRule> {
	return {
		duration,
		aspect_ratio: { label: 'Aspect Ratio', values: ['16:9', '9:16', '1:1', '4:3', '3:4', '21:9', 'adaptive'], default: '16:9' },
		resolution: { label: 'Resolution', values: ['480p', '720p', '1080p'], default: '720p', description: 'Support depends on the model and channel' },
		'metadata.generate_audio': { label: 'Generate Audio', default: true, description: 'Whether to generate a sound track (models that support it)' },
		'metadata.return_last_frame': { label: 'Return Last Frame', default: false, description: 'Whether to also return the last frame as an image' },
		'metadata.camera_fixed': { label: 'Camera Fixed', default: false, description: 'Whether to keep the camera still' },
		'metadata.seed': { label: 'Seed', integer: true, min: -1, max: 4294967295, omit: -1, default: -1, description: 'Fixed seed for repeatable results; -1 lets the model pick' },
		'metadata.watermark': { label: 'Watermark', default: false, description: 'Whether the provider adds its watermark' },
	};
}
const SEEDANCE_1_FIELDS = seedanceFields({
	label: 'Duration (Seconds)', integer: true, min: 1, max: 15, default: 5,
	description: 'Video length; a 10-second request can select the 10-second model variant (Seedance 1.0), 10 or 12 the matching one (1.5 Pro)',
});
const SEEDANCE_2_FIELDS = seedanceFields({
	label: 'Duration (Seconds)', integer: true, min: 4, max: 15, default: 5,
	description: 'Video length; channels accept 4 to 15 seconds, default 5',
});
const SEEDANCE_LIMITS: ModelLimits = { referenceField: 'images' };

type VideoRow = Omit<ModelSpec, 'group' | 'host' | 'mode' | 'queryRoute' | 'fields'> & { fields: Record<string, FieldRule> };

/** Every video model is a task on the main host, read by default through the generic task query. */
function video(row: VideoRow): ModelSpec {
	const { fields, ...rest } = row;
	return { group: 'video', host: 'main', mode: 'task', queryRoute: 'generic', ...rest, fields: { video: fields } };
}

export const VIDEO_MODELS: readonly ModelSpec[] = [
	video({ id: 'grok-imagine-video-1.5', family: 'grok', fields: GROK_FIELDS, limits: GROK_LIMITS }),
	video({ id: 'grok-imagine-1.5-video', family: 'grok', fields: GROK_FIELDS, limits: GROK_LIMITS, recommendedId: 'grok-imagine-video-1.5' }),
	video({ id: 'veo-3.1-flash', family: 'veo', fields: VEO_FIELDS, limits: { referenceField: 'images', maxReferences: 1 } }),
	video({ id: 'veo-3.1-pro', family: 'veo', fields: VEO_FIELDS, limits: { referenceField: 'images', maxReferences: 1 } }),
	video({ id: 'sora-2', family: 'sora', fields: SORA_FIELDS, limits: { referenceField: 'image', maxReferences: 1 } }),
	video({ id: 'seedance-1.0-fast', family: 'seedance', fields: SEEDANCE_1_FIELDS, limits: SEEDANCE_LIMITS }),
	video({ id: 'seedance-1.0-mini', family: 'seedance', fields: SEEDANCE_1_FIELDS, limits: SEEDANCE_LIMITS }),
	video({ id: 'seedance-1.0-pro', family: 'seedance', fields: SEEDANCE_1_FIELDS, limits: SEEDANCE_LIMITS }),
	video({ id: 'seedance-1.5-pro', family: 'seedance', fields: SEEDANCE_1_FIELDS, limits: SEEDANCE_LIMITS }),
	video({ id: 'seedance-2.0', family: 'seedance', fields: SEEDANCE_2_FIELDS, limits: SEEDANCE_LIMITS }),
	video({ id: 'seedance-2.0-fast', family: 'seedance', fields: SEEDANCE_2_FIELDS, limits: SEEDANCE_LIMITS }),
];
