import { GPT_TIERS, NANO_TIERS } from './prices';
import type { FieldRule, ModelLimits, ModelPrice, ModelSpec } from './types';

/*
 * Image models of docs/gateway-contract.md §2.1, one row each. The Image resource builds its fields, its checks,
 * its request bodies and its cost estimates from these rows only (actions/image/* through
 * params/registry*.ts), so a new model is one new row. Field rules are keyed by the body key sent to the gateway:
 * - a rule with a `default` is a field of its own, pre-filled and always sent;
 * - a rule without one is an entry of the operation's "Model Options" (sent only when added);
 * - a rule with a single value is sent as is, without a field (response_format: url).
 */

// docs/gateway-contract.md §4.4 size table of the GPT 2.5 models (the edit page's full list).
const GPT_SIZES_STANDARD = [
	'1024x1024',
	'1536x1024',
	'1024x1536',
	'1024x1365',
	'1365x1024',
	'1088x1920',
	'1920x1088',
];
const GPT_SIZES_HIGH = [
	'2048x2048',
	'1712x2560',
	'2560x1712',
	'2048x1536',
	'1536x2048',
	'1152x2048',
	'2048x1152',
	'2880x2880',
	'2560x3840',
	'3840x2560',
	'2880x3840',
	'3840x2880',
	'2160x3840',
	'3840x2160',
];
// docs/gateway-contract.md §4.6: the ratio sizes of gpt-image-2.
const GPT2_RATIOS = [
	'1:1',
	'3:2',
	'2:3',
	'4:3',
	'3:4',
	'5:4',
	'4:5',
	'16:9',
	'9:16',
	'2:1',
	'1:2',
	'3:1',
	'1:3',
	'21:9',
	'9:21',
];
// docs/gateway-contract.md §4.7: alt-host aspect ratios.
const ALT_RATIOS = [
	'auto',
	'1:1',
	'2:3',
	'3:2',
	'3:4',
	'4:3',
	'4:5',
	'5:4',
	'9:16',
	'16:9',
	'21:9',
];

/**
 * docs/gateway-contract.md §4.4 lists auto, low, medium and high; the GPT Image 2.5 family adds xhigh and max
 * (docs/gateway-contract.md §10.9). One rule for every GPT row, so the field keeps its one name (`quality`).
 */
const QUALITY: FieldRule = {
	label: 'Quality',
	values: ['auto', 'low', 'medium', 'high', 'xhigh', 'max'],
	default: 'auto',
	description:
		'Rendering quality; higher is slower. The gateway price list charges per ' +
		"call whatever the quality. Xhigh and max are the GPT Image 2.5 family's: " +
		'a gateway or model without them answers 400 (nothing is charged), and a ' +
		'gateway that bills by tokens charges them more.',
};
const N: FieldRule = {
	label: 'Number of Images',
	integer: true,
	min: 1,
	max: 4,
	default: 1,
	description:
		'How many images one call makes (1-4); each becomes its own output item. ' +
		'The list price is per call, whatever the number (the gateway price ' +
		'list).',
};
const URL_ONLY: FieldRule = { values: ['url'], default: 'url' };
const GPT_SIZE: FieldRule = {
	label: 'Size',
	values: [...GPT_SIZES_STANDARD, ...GPT_SIZES_HIGH],
	default: '1024x1024',
	description:
		'Width x height in pixels. The high-resolution sizes (2K/4K) cost 1.5 times the base price and take longer.',
};
/**
 * gpt-image-2 takes a ratio (with Resolution) or a pixel size (docs/gateway-contract.md §4.4: default 1024x1024, "a
 * ratio such as 16:9 or 1:1 is also shown"; 4.6 lists the ratios): both listed, others typed.
 */
const GPT2_SIZE: FieldRule = {
	label: 'Size',
	values: [...GPT2_RATIOS, ...GPT_SIZES_STANDARD, ...GPT_SIZES_HIGH],
	suggest: true,
	pattern: '^([1-9]\\d?:[1-9]\\d?|[1-9]\\d{2,3}x[1-9]\\d{2,3}|auto)$',
	default: '1:1',
	ratioExtension: true,
	description:
		'An aspect ratio (the pixel count then comes from Resolution) or ' +
		'WIDTHxHEIGHT in pixels; the sizes the model takes depend on the channel',
};
const GPT2_RESOLUTION: FieldRule = {
	label: 'Resolution',
	values: ['1k', '2k', '4k'],
	default: '1k',
	onlyWith: { key: 'size', pattern: ':' },
	description:
		'Used with a ratio size only (a pixel size sets its own). 1k costs the ' +
		'base price; 2k and 4k cost 1.5 times as much and take longer.',
};
const BACKGROUND: FieldRule = {
	label: 'Background',
	values: ['auto', 'opaque', 'transparent'],
	default: 'auto',
	description: 'Transparent needs an output format that keeps transparency (PNG or WebP)',
};
const OUTPUT_FORMAT: FieldRule = {
	label: 'Output Format',
	values: ['png', 'jpeg', 'webp'],
	default: 'png',
};
const OUTPUT_COMPRESSION: FieldRule = {
	label: 'Output Compression',
	integer: true,
	min: 0,
	max: 100,
	description: 'Compression level 0-100 for JPEG and WebP output',
};
/**
 * docs/gateway-contract.md §4.4 names `size` for nano-banana without values: ratios offered, any ratio or pixel size
 * typed is sent, but not 0:0 or 99999x99999 (sizes no model makes, refused before anything is billed): ratio terms
 * 1-99, sides 64-8192 pixels.
 */
/** One side of a WIDTHxHEIGHT size, 64 to 8192 pixels. */
const NANO_SIDE = '([6-9]\\d|[1-9]\\d{2}|[1-7]\\d{3}|8[01]\\d{2}|819[0-2])';
const NANO_SIZE: FieldRule = {
	label: 'Size',
	values: ['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3', '21:9'],
	suggest: true,
	pattern: `^([1-9]\\d?:[1-9]\\d?|${NANO_SIDE}x${NANO_SIDE})$`,
	description:
		'Aspect ratio such as 1:1 or 16:9, or WIDTHxHEIGHT (64 to 8192 pixels a ' +
		'side); left out, the gateway picks. Which sizes a model takes depends on ' +
		'the model. The price is the same at every size.',
};
const ALT_FIELDS: Record<string, FieldRule> = {
	aspect_ratio: {
		label: 'Aspect Ratio',
		values: ALT_RATIOS,
		description: 'Shape of the image; left out, the service picks',
	},
	image_size: {
		label: 'Image Size',
		values: ['1K', '2K', '4K'],
		description: 'Output resolution, written with a capital K. Support depends on the model.',
	},
	size: {
		label: 'Size',
		values: ['1024x1024', '1536x1024', '1024x1536', '1280x720', '720x1280'],
		suggest: true,
		pattern: '^[1-9]\\d{1,4}x[1-9]\\d{1,4}$',
		description:
			'OpenAI-style WIDTHxHEIGHT (the common ones listed); the service turns it into an aspect ratio',
	},
};

/**
 * docs/gateway-contract.md §2.8: per call whatever `n` is; 2K and 4K (a high-resolution size or `resolution`) cost
 * 1.5×.
 */
const GPT_PRICE: ModelPrice = { baseUsd: 0.015, per: 'call', tiers: GPT_TIERS };

/** gpt-image-2.5 and the models that take its body (flare, sunburst). */
const GPT25_FIELDS: ModelSpec['fields'] = {
	generate: { size: GPT_SIZE, quality: QUALITY, n: N, response_format: URL_ONLY },
	edit: {
		size: GPT_SIZE,
		quality: QUALITY,
		n: N,
		background: BACKGROUND,
		output_format: OUTPUT_FORMAT,
		output_compression: OUTPUT_COMPRESSION,
		response_format: URL_ONLY,
	},
};
const GPT25_LIMITS: ModelLimits = { referenceField: 'images', minReferences: 1 };

const GPT_ASYNC_FIELDS: ModelSpec['fields'] = { generate: { size: GPT_SIZE, quality: QUALITY } };

const NANO_FIELDS: ModelSpec['fields'] = {
	generate: { size: NANO_SIZE },
	edit: { size: NANO_SIZE },
};

/**
 * The Nano Banana GA ids (docs/gateway-contract.md §10.9) take a ratio or pixel `size` as the nano-banana rows do, and
 * Google's `image_size` tier (capital K, as on the alt host §4.7); which tiers a channel serves is its own.
 */
function nanoGaFields(imageSize: FieldRule): ModelSpec['fields'] {
	return {
		generate: { size: NANO_SIZE, image_size: imageSize },
		edit: { size: NANO_SIZE, image_size: imageSize },
	};
}
const NANO_GA_FIELDS = nanoGaFields({
	label: 'Image Size',
	values: ['1K', '2K', '4K'],
	suggest: true,
	pattern: '^\\d(\\.\\d)?K$',
	description:
		'Output resolution tier, written with a capital K (Nano Banana 2 also ' +
		'makes 0.5K); which tiers are served depends on the channel',
});
/**
 * Nano Banana 2 Lite makes 1K images only, and a 2K or 4K request is served at 1K without a word
 * (docs/gateway-contract.md §10.9): refused before sending, so nobody pays for a tier that does not come.
 */
const NANO_LITE_FIELDS = nanoGaFields({
	label: 'Image Size',
	values: ['1K'],
	description:
		'Nano Banana 2 Lite makes 1K images only: a 2K or 4K request would be ' +
		'served at 1K anyway, so it is refused before anything is sent',
});
const NANO_LIMITS: ModelLimits = { referenceField: 'images', minReferences: 1 };
const NANO_PRICE: ModelPrice = { baseUsd: 0.02, per: 'call', tiers: NANO_TIERS };

const ALT_ROW: Omit<ModelSpec, 'id'> = {
	group: 'image',
	host: 'alt',
	mode: 'task',
	queryRoute: 'alt',
	fields: { generate: ALT_FIELDS, edit: ALT_FIELDS },
	limits: { referenceField: 'image_urls', minReferences: 1, maxReferences: 10 },
	// docs/gateway-contract.md §2.8: per image; it names no resolution multiplier for the alt host.
	price: { baseUsd: 0.02, per: 'image' },
};

/*
 * The rows a family of ids shares (one home each; a row may override a key): GPT Image 2.5 (sync
 * or either), the async GPT ids, Nano Banana on the main host, and the GA ids of §10.9 (no list price).
 */
const MAIN_IMAGE = { group: 'image', host: 'main', queryRoute: 'image' } as const;
const GPT25_ROW: Omit<ModelSpec, 'id'> = {
	...MAIN_IMAGE,
	mode: 'either',
	fields: GPT25_FIELDS,
	limits: GPT25_LIMITS,
	price: GPT_PRICE,
};
const GPT_ASYNC_ROW: Omit<ModelSpec, 'id'> = {
	...MAIN_IMAGE,
	mode: 'task',
	fields: GPT_ASYNC_FIELDS,
	price: GPT_PRICE,
};
const NANO_ROW: Omit<ModelSpec, 'id'> = {
	...MAIN_IMAGE,
	mode: 'task',
	fields: NANO_FIELDS,
	limits: NANO_LIMITS,
	price: NANO_PRICE,
};
const NANO_GA_ROW: Omit<ModelSpec, 'id'> = {
	...MAIN_IMAGE,
	mode: 'either',
	fields: NANO_GA_FIELDS,
	limits: NANO_LIMITS,
};

export const IMAGE_MODELS: readonly ModelSpec[] = [
	{
		id: 'gpt-image-2',
		group: 'image',
		host: 'main',
		mode: 'sync',
		queryRoute: 'image',
		fields: {
			generate: {
				size: GPT2_SIZE,
				resolution: GPT2_RESOLUTION,
				quality: QUALITY,
				n: N,
				response_format: URL_ONLY,
			},
			edit: {
				size: GPT2_SIZE,
				resolution: GPT2_RESOLUTION,
				quality: QUALITY,
				n: N,
				background: BACKGROUND,
				output_format: OUTPUT_FORMAT,
				output_compression: OUTPUT_COMPRESSION,
			},
		},
		limits: {
			referenceField: 'image_urls',
			minReferences: 1,
			maxReferences: 16,
			maskField: 'mask_url',
		},
		price: GPT_PRICE,
	},
	{ id: 'gpt-image-2.5', ...GPT25_ROW, mode: 'sync' },
	{ id: 'gpt-image-2-async', ...GPT_ASYNC_ROW },
	{ id: 'gpt-image-2.5-async', ...GPT_ASYNC_ROW },
	{ id: 'gpt-image-2.5-flare', ...GPT25_ROW },
	{ id: 'gpt-image-2.5-sunburst', ...GPT25_ROW },
	{ id: 'nano-banana', ...NANO_ROW },
	{ id: 'nano-banana-2', ...NANO_ROW },
	{ id: 'nano-banana-2-lite', ...NANO_ROW },
	{ id: 'nano-banana-pro', ...NANO_ROW, price: { ...NANO_PRICE, baseUsd: 0.03 } },
	{ id: 'gemini-3-pro-image-preview', ...NANO_ROW },
	{ id: 'gemini-2.5-flash-image', ...ALT_ROW },
	// The same id on the alt host: the node shows a Host choice for ids that have a row per host.
	{ id: 'gemini-3-pro-image-preview', ...ALT_ROW },
	{ id: 'gemini-3.1-flash-image-preview', ...ALT_ROW },
	// Beyond the contract's table (docs/gateway-contract.md §10.9): the GA ids on the main host, no list price.
	{ id: 'gemini-3.1-flash-image', ...NANO_GA_ROW },
	{ id: 'gemini-3-pro-image', ...NANO_GA_ROW },
	{ id: 'gemini-3.1-flash-lite-image', ...NANO_GA_ROW, fields: NANO_LITE_FIELDS },
];

/** The common image fields, the same for Generate and Edit. */
const UNKNOWN_FIELDS: Record<string, FieldRule> = {
	size: { label: 'Size', description: 'Sent as `size`, for example 1024x1024 or 16:9' },
	n: { label: 'Number of Images', integer: true, min: 1, description: 'Sent as `n`' },
	quality: {
		label: 'Quality',
		description: 'Sent as `quality`, for example auto, low, medium or high',
	},
};

/**
 * What the node sends for an image model id it has no row for: the common fields, all
 * optional, and the answer decides whether it is a sync result or a task.
 */
export const UNKNOWN_IMAGE_MODEL: Omit<ModelSpec, 'id'> = {
	group: 'image',
	host: 'main',
	mode: 'either',
	queryRoute: 'image',
	fields: { generate: UNKNOWN_FIELDS, edit: UNKNOWN_FIELDS },
	limits: { referenceField: 'images', minReferences: 1 },
};
