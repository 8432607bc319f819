import type { FieldRule, ModelLimits, ModelSpec, RelayBilling } from './types';

/*
 * Video models of docs/gateway-contract.md §2.1, with the per-model rules of §4.8, §4.9 and §8. The Video
 * resource's fields, its checks before sending and its request bodies are all built from these rows.
 * docs/gateway-contract.md §2.8 gives no video price (video is pre-charged by the site price and duration):
 * no `price`.
 */

const LANDSCAPE_OR_PORTRAIT = ['1280x720', '720x1280'];
const GROK_SECONDS = ['6', '10', '12', '16', '20'];
const JSON_ROUTES = ['unified', 'compatibility'];
const RATIO = '^\\d{1,2}:\\d{1,2}$';
const WIDTH_X_HEIGHT = '^\\d{2,5}x\\d{2,5}$';
/**
 * Far beyond any model's range (docs/gateway-contract.md §4.8, §4.9: grok 20 s, Seedance 15 s, sora 12 s, Veo 8 s) is
 * a typo, and video is pre-charged by duration; past this only with Allow Unusual Values.
 */
export const PLAUSIBLE_MAX_SECONDS = 60;

/** A switch whose absence means "the channel's default": Channel Default (not sent) / Yes / No. */
function channelSwitch(label: string, description: string): FieldRule {
	return {
		label,
		values: [true, false],
		omit: '',
		default: '',
		description: `${description}; Channel Default sends nothing`,
	};
}

/** Aspect Ratio and Resolution as most channels take them: suggested values, others typed. */
function aspectRatio(values: string[]): FieldRule {
	return suggestion(
		'Aspect Ratio',
		values,
		RATIO,
		'Picture shape; support depends on the model and channel',
	);
}
function resolution(values: string[]): FieldRule {
	return suggestion(
		'Resolution',
		values,
		'^\\w{2,8}$',
		'Output resolution; support depends on the model and channel',
	);
}

/** `metadata.seed` wherever a channel takes one: -1 (the model picks) is not sent. */
const SEED: FieldRule = {
	label: 'Seed',
	integer: true,
	min: -1,
	max: 4294967295,
	omit: -1,
	default: -1,
	description: 'Fixed seed for repeatable results; -1 lets the model pick',
};
const WATERMARK = channelSwitch('Watermark', 'Whether the provider adds its watermark');

/** A choice the spec shows by example or says depends on model and channel: not sent unless picked. */
function suggestion(
	label: string,
	values: string[],
	pattern: string,
	description: string,
): FieldRule {
	return { label, values, suggest: true, pattern, omit: '', default: '', description };
}

/*
 * Grok (docs/gateway-contract.md §4.8, §4.9, §8). The multipart route requires seconds, size and quality, each
 * from its list; on the unified and compatibility JSON routes duration is "set by channel", the picture is
 * "size or aspect_ratio", and nothing is sent unless chosen.
 */
const GROK_FIELDS: Record<string, FieldRule> = {
	seconds: {
		label: 'Seconds',
		routeVariants: [
			{
				routes: ['multipart'],
				values: GROK_SECONDS,
				default: '6',
				description: 'Video length; the Grok Multipart route requires one of these',
			},
			{
				...suggestion(
					'Seconds',
					GROK_SECONDS,
					'^\\d{1,6}$',
					'Video length; on this route the channel sets the duration, so the ' +
						'accepted values depend on it. Left out, the channel makes (and bills) 8 ' +
						'seconds',
				),
				routes: JSON_ROUTES,
				plausibleMax: PLAUSIBLE_MAX_SECONDS,
				// docs/gateway-contract.md §10.9: a left-out `seconds` is made and billed at 8 s.
				whenAbsent: 8,
			},
		],
	},
	size: {
		label: 'Size',
		routeVariants: [
			{
				routes: ['multipart'],
				values: LANDSCAPE_OR_PORTRAIT,
				default: '1280x720',
				description: 'Landscape or portrait; the Grok Multipart route requires one of these',
			},
			{
				...suggestion(
					'Size',
					LANDSCAPE_OR_PORTRAIT,
					WIDTH_X_HEIGHT,
					'Picture size, or give Aspect Ratio instead; support depends on the ' +
						'channel. Left out, the channel makes (and bills) 480p',
				),
				routes: JSON_ROUTES,
				// docs/gateway-contract.md §10.9: a left-out `size` is made and billed at 480p.
				whenAbsent: '480p',
			},
		],
	},
	aspect_ratio: {
		...suggestion(
			'Aspect Ratio',
			['16:9', '9:16'],
			RATIO,
			'Picture shape, instead of Size; support depends on the channel',
		),
		routes: JSON_ROUTES,
	},
	quality: {
		label: 'Quality',
		values: ['high'],
		default: 'high',
		routes: ['multipart'],
		description: 'The multipart route requires it',
	},
};
const GROK_LIMITS: ModelLimits = {
	referenceField: 'images',
	fileReferenceField: 'input_reference',
	referenceMimeTypes: ['image/jpeg', 'image/png', 'image/webp'],
	maxFileBytes: 20 * 1024 * 1024,
};

/**
 * docs/gateway-contract.md §10.9: OpenAI switched the Sora 2 models off on 2026-09-24; the row stays because the
 * contract lists the id, and says so wherever the model is shown.
 */
const SORA_RETIRED =
	'Retired upstream: OpenAI switched the Sora 2 models off on 2026-09-24 ' +
	'with no replacement. It works only where a gateway still serves it; pick ' +
	'another video model (for example seedance-2.0 or veo-3.1-flash)';

/**
 * sora-2: seconds only "8" or "12" (a string; others are rejected at routing), 1280x720 or 720x1280 at 720p
 * (docs/gateway-contract.md §4.8).
 */
const SORA_FIELDS: Record<string, FieldRule> = {
	seconds: {
		label: 'Seconds',
		values: ['8', '12'],
		default: '8',
		description: 'Video length: sora-2 takes only 8 or 12 seconds',
	},
	size: {
		label: 'Size',
		values: LANDSCAPE_OR_PORTRAIT,
		default: '1280x720',
		description: 'Landscape or portrait (720p only)',
	},
};

/*
 * How the relay bills the families it bills by the second (docs/gateway-contract.md §10.11): the
 * gateway's price × the seconds made × a size or resolution ratio; a request that names no length is
 * billed at the channel's default.
 */
/** Sora-style `/v1/videos` channels: 4 s when no length is sent; the large sizes cost 1.666667×. */
const SORA_BILLING: RelayBilling = {
	per: 'second',
	defaultSeconds: 4,
	ratio: { key: 'size', values: { '1792x1024': 1.666667, '1024x1792': 1.666667 } },
};
/** Veo (the relay's Gemini task channel): 8 s when no length is sent; 4k × 1.5 (3.1). */
const VEO_BILLING: RelayBilling = {
	per: 'second',
	defaultSeconds: 8,
	ratio: { key: 'metadata.resolution', values: { '4k': 1.5 } },
};
/** Veo 3.1 Fast under Google's id: 4k × 2.333333 (its 4k price over its standard one). */
const VEO_FAST_BILLING: RelayBilling = {
	...VEO_BILLING,
	ratio: { key: 'metadata.resolution', values: { '4k': 2.333333 } },
};
/** Wan (the relay's Ali channel): 5 s when no length is sent; its resolution ratios for 2.7 are not published. */
const WAN_BILLING: RelayBilling = { per: 'second', defaultSeconds: 5 };

/** A duration "by channel" (Veo default 8, Seedance by channel): 0 sends nothing. */
function duration(description: string): FieldRule {
	return {
		label: 'Duration (Seconds)',
		integer: true,
		min: 0,
		omit: 0,
		default: 0,
		plausibleMax: PLAUSIBLE_MAX_SECONDS,
		description: `${description}; 0 sends nothing and the channel's default applies`,
	};
}

/** Veo 3.1: picture and duration go in `metadata` under Google's names (docs/gateway-contract.md §4.8). */
const VEO_FIELDS: Record<string, FieldRule> = {
	'metadata.durationSeconds': duration('Video length; Veo defaults to 8 seconds'),
	'metadata.aspectRatio': aspectRatio(['16:9', '9:16']),
	'metadata.resolution': suggestion(
		'Resolution',
		['720p', '1080p', '4k'],
		'^\\w{2,8}$',
		'Output resolution; support (4k especially) depends on the model',
	),
	'metadata.negativePrompt': {
		label: 'Negative Prompt',
		default: '',
		description: 'What the video should not show',
	},
	'metadata.personGeneration': {
		label: 'Person Generation',
		values: ['allow_all', 'allow_adult', 'dont_allow'],
		omit: '',
		default: '',
		description: 'Whether people may be generated; the channel decides when not set',
	},
	'metadata.seed': SEED,
	'metadata.generateAudio': channelSwitch('Generate Audio', 'Whether to generate a sound track'),
};

/** Seedance: integer `duration` (preferred over seconds), aspect_ratio, resolution, metadata switches. */
function seedanceFields(durationRule: FieldRule): Record<string, FieldRule> {
	return {
		duration: durationRule,
		aspect_ratio: suggestion(
			'Aspect Ratio',
			['16:9', '9:16', '1:1', '4:3', '3:4', '21:9', 'adaptive'],
			'^(\\d{1,2}:\\d{1,2}|[a-z]+)$',
			'Picture shape; support depends on the model and channel',
		),
		resolution: suggestion(
			'Resolution',
			['480p', '720p', '1080p', '4k'],
			'^\\w{2,8}$',
			'Output resolution; support (4k especially) depends on the model and channel',
		),
		'metadata.generate_audio': channelSwitch(
			'Generate Audio',
			'Whether to generate a sound track (models that support it)',
		),
		'metadata.return_last_frame': channelSwitch(
			'Return Last Frame',
			'Whether to also return the last frame as an image',
		),
		'metadata.camera_fixed': channelSwitch('Camera Fixed', 'Whether to keep the camera still'),
		'metadata.seed': SEED,
		'metadata.watermark': WATERMARK,
	};
}
const SEEDANCE_1_FIELDS = seedanceFields(
	duration(
		'Video length, set by channel; a 10-second request can select the ' +
			'10-second model variant (Seedance 1.0), 10 or 12 the matching one (1.5 ' +
			'Pro)',
	),
);
const SEEDANCE_2_FIELDS = seedanceFields(
	duration('Video length, set by channel; some channels accept 4 to 15 seconds with default 5'),
);
const SEEDANCE_LIMITS: ModelLimits = { referenceField: 'images' };

/**
 * Seedance 2.5 (docs/gateway-contract.md §10.9): up to 30 s, 480p/720p/1080p (no 4k). Its duration defaults to -1
 * (the model picks: 10 s was seen, twice the 2.0 family's 5 s, and billed), so the node always
 * sends one; -1 typed on purpose is sent, and the estimate then assumes the longest, 30 s.
 */
const SEEDANCE_25_FIELDS: Record<string, FieldRule> = {
	...seedanceFields({
		label: 'Duration (Seconds)',
		integer: true,
		min: -1,
		default: 5,
		required: true,
		whenAbsent: 30,
		plausibleMax: PLAUSIBLE_MAX_SECONDS,
		description:
			'Video length, up to 30 seconds. Always sent: left out, Seedance 2.5 ' +
			'picks the length itself (10 seconds was seen, twice the usual 5) and ' +
			'bills it. -1 lets the model pick; the cost estimate then assumes 30 ' +
			'seconds',
	}),
	resolution: suggestion(
		'Resolution',
		['480p', '720p', '1080p'],
		'^\\w{2,8}$',
		'Output resolution (Seedance 2.5 makes no 4k); support depends on the channel',
	),
};

/**
 * The keys of the unified request (docs/gateway-contract.md §4.8: `duration`, `aspect_ratio`, `resolution`) with a
 * family's usual values as suggestions: the families gateways list beyond the contract's table
 * (docs/gateway-contract.md §10.9) whose channel takes them as the unified request carries them.
 */
function unifiedFields(
	durationText: string,
	resolutions: string[],
	ratios: string[],
): Record<string, FieldRule> {
	return {
		duration: duration(durationText),
		aspect_ratio: aspectRatio(ratios),
		resolution: resolution(resolutions),
	};
}

/**
 * Gemini Omni Flash (docs/gateway-contract.md §10.9): Veo's `metadata` keys; the duration is 4, 6, 8 or 10 seconds
 * only (others are answered `invalid_duration`), 16:9 or 9:16, 720p.
 */
const OMNI_FIELDS: Record<string, FieldRule> = {
	'metadata.durationSeconds': {
		label: 'Duration (Seconds)',
		values: [4, 6, 8, 10],
		omit: '',
		default: '',
		description:
			'Video length: Gemini Omni Flash takes only 4, 6, 8 or 10 seconds (others ' +
			'are refused with invalid_duration); Channel Default sends nothing',
	},
	'metadata.aspectRatio': aspectRatio(['16:9', '9:16']),
	'metadata.resolution': resolution(['720p']),
};

/**
 * What the node offers for a video id it has no row for, on the JSON routes: the fields the
 * relay's unified task request carries for every channel (docs/gateway-contract.md §4.8, §10.9), each sent only
 * when set. Other channel keys go in Additional Body Fields.
 */
export const UNKNOWN_VIDEO_MODEL: Pick<ModelSpec, 'host' | 'fields' | 'limits'> = {
	host: 'main',
	fields: {
		video: Object.fromEntries(
			Object.entries({
				duration: duration(
					'Video length, sent as the integer `duration` of the unified request; a ' +
						'channel that reads `seconds` instead takes {"seconds": "8"} in ' +
						'Additional Body Fields',
				),
				size: suggestion(
					'Size',
					LANDSCAPE_OR_PORTRAIT,
					WIDTH_X_HEIGHT,
					'Picture size WIDTHxHEIGHT, or give Aspect Ratio instead; support depends on the channel',
				),
				aspect_ratio: suggestion(
					'Aspect Ratio',
					['16:9', '9:16', '1:1'],
					RATIO,
					'Picture shape, instead of Size; support depends on the channel',
				),
				resolution: resolution(['480p', '720p', '1080p']),
				'metadata.generate_audio': channelSwitch(
					'Generate Audio',
					'Whether to generate a sound track (models that support it)',
				),
				'metadata.seed': SEED,
				'metadata.watermark': WATERMARK,
			}).map(([key, rule]): [string, FieldRule] => [key, { ...rule, routes: JSON_ROUTES }]),
		),
	},
	limits: { referenceField: 'images' },
};

// docs/gateway-contract.md §10.9: each family's public figures, as suggestions.
const WAN_FIELDS = unifiedFields(
	'Video length; Wan 2.7 makes 2 to 15 seconds',
	['720P', '1080P'],
	['16:9', '9:16', '1:1', '4:3', '3:4'],
);
const KLING_FIELDS = unifiedFields(
	'Video length; Kling 3 makes 3 to 15 seconds',
	['720p', '1080p'],
	['16:9', '9:16', '1:1'],
);
const HAILUO_FIELDS = unifiedFields(
	'Video length; MiniMax Hailuo makes 6 or 10 seconds (6 at 1080P)',
	['768P', '1080P'],
	['16:9', '9:16'],
);
const VIDU_FIELDS = unifiedFields(
	'Video length; Vidu Q3 makes 1 to 16 seconds',
	['540p', '720p', '1080p'],
	['16:9', '9:16', '1:1'],
);

type VideoRow = Omit<ModelSpec, 'group' | 'host' | 'mode' | 'queryRoute' | 'fields'> & {
	fields: Record<string, FieldRule>;
};

/** Reference URLs go in `images` (what most channels read); Veo takes one. */
const URLS_IN_IMAGES: ModelLimits = { referenceField: 'images' };
const VEO_LIMITS: ModelLimits = { ...URLS_IN_IMAGES, maxReferences: 1 };

/** Every video model is a task on the main host, read by default through the generic task query. */
function video(row: VideoRow): ModelSpec {
	const { fields, ...rest } = row;
	return {
		group: 'video',
		host: 'main',
		mode: 'task',
		queryRoute: 'generic',
		...rest,
		fields: { video: fields },
	};
}

/** A family's ids, one row each: the same fields and limits (adding a model of it is one id). */
function family(fields: VideoRow['fields'], limits: ModelLimits, ...ids: string[]): ModelSpec[] {
	return ids.map((id) => video({ id, fields, limits }));
}

/** The same rows, billed by the relay by the second. */
function bySecond(relayBilling: RelayBilling, rows: ModelSpec[]): ModelSpec[] {
	return rows.map((row) => ({ ...row, relayBilling }));
}

export const VIDEO_MODELS: readonly ModelSpec[] = [
	...family(GROK_FIELDS, GROK_LIMITS, 'grok-imagine-video-1.5'),
	video({
		id: 'grok-imagine-1.5-video',
		fields: GROK_FIELDS,
		limits: GROK_LIMITS,
		recommendedId: 'grok-imagine-video-1.5',
	}),
	...bySecond(VEO_BILLING, family(VEO_FIELDS, VEO_LIMITS, 'veo-3.1-flash', 'veo-3.1-pro')),
	// "images allowed" (docs/gateway-contract.md §4.8): one goes in `image`, several in `images`.
	video({
		id: 'sora-2',
		fields: SORA_FIELDS,
		limits: { referenceField: 'image' },
		description: SORA_RETIRED,
		relayBilling: SORA_BILLING,
	}),
	...family(
		SEEDANCE_1_FIELDS,
		SEEDANCE_LIMITS,
		'seedance-1.0-fast',
		'seedance-1.0-mini',
		'seedance-1.0-pro',
		'seedance-1.5-pro',
	),
	...family(SEEDANCE_2_FIELDS, SEEDANCE_LIMITS, 'seedance-2.0', 'seedance-2.0-fast'),
	// Beyond the contract's table: ids gateways built on the relay list today, each with its public
	// source in docs/gateway-contract.md §10.9. Values are suggestions unless that source says "only".
	...family(SEEDANCE_25_FIELDS, SEEDANCE_LIMITS, 'doubao-seedance-2-5-260628'),
	...family(
		SEEDANCE_2_FIELDS,
		SEEDANCE_LIMITS,
		'doubao-seedance-2-0-260128',
		'doubao-seedance-2-0-fast-260128',
	),
	...bySecond(VEO_FAST_BILLING, family(VEO_FIELDS, VEO_LIMITS, 'veo-3.1-fast-generate-preview')),
	...bySecond(VEO_BILLING, family(VEO_FIELDS, VEO_LIMITS, 'veo3.1-fast')),
	// Read by the relay's Gemini task channel, as Veo (its `metadata` keys).
	...bySecond(VEO_BILLING, family(OMNI_FIELDS, URLS_IN_IMAGES, 'gemini-omni-flash-preview')),
	...bySecond(WAN_BILLING, family(WAN_FIELDS, URLS_IN_IMAGES, 'wan2.7-t2v', 'wan2.7-i2v')),
	...family(KLING_FIELDS, URLS_IN_IMAGES, 'kling-v3'),
	...family(HAILUO_FIELDS, URLS_IN_IMAGES, 'MiniMax-Hailuo-2.3', 'MiniMax-Hailuo-02'),
	...family(VIDU_FIELDS, URLS_IN_IMAGES, 'viduq3-pro', 'viduq3-turbo'),
];
