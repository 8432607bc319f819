import type { GatewayHost } from '../transport/urls';
import type { ModelGroup } from './groups';

/**
 * The query routes a task can be read through (docs/gateway-contract.md §4.5, §4.7, §4.9, §4.10); api/tasks/routes.ts
 * says how.
 */
export type QueryRoute = 'generic' | 'image' | 'video' | 'alt' | 'suno';

export type { ModelGroup };
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
	/**
	 * What the user is told about the model beside its id (the model picker, the output's `note`):
	 * a model retired upstream says so (docs/gateway-contract.md §10.9).
	 */
	description?: string;
	/**
	 * Body fields the model takes, per operation, keyed by the body key sent to the gateway
	 * (a dotted key such as `metadata.seed` is nested: `{ metadata: { seed } }`).
	 * The node's fields, the checks before sending and the request body all come from here.
	 */
	fields?: Partial<Record<ModelOperation, Record<string, FieldRule>>>;
	limits?: ModelLimits;
	price?: ModelPrice;
	/**
	 * How the relay bills the model beyond the one figure of the gateway's price list, where it is not
	 * per call (docs/gateway-contract.md §10.11): task channels that bill by the second.
	 */
	relayBilling?: RelayBilling;
	/**
	 * What a chat model reads beside text (docs/gateway-contract.md §10.9): a file of another kind is refused
	 * before anything is billed. Without it the model is sent whatever it is given.
	 */
	inputs?: readonly ChatInput[];
}

/** The kinds of file a chat message carries as content parts (docs/gateway-contract.md §10.14). */
export type ChatInput = 'image' | 'video' | 'audio' | 'document';

/**
 * A task channel of the relay that bills by the second (docs/gateway-contract.md §10.11: Sora-style
 * `/v1/videos`, Veo, Wan): the price list's `model_price` × the seconds made × a size or resolution
 * ratio. Every other family (Seedance, Kling, Vidu, Hailuo, Grok) is billed per call.
 */
export interface RelayBilling {
	per: 'second';
	/** What the channel makes, and bills, when the request names no length. */
	defaultSeconds: number;
	/** The ratio named by one body key's value (a dotted key is nested); a value not listed is 1. */
	ratio?: { key: string; values: Readonly<Record<string, number>> };
}

export type ModelOperation = 'generate' | 'edit' | 'video' | 'speech' | 'transcribe' | 'translate';

export interface FieldRule {
	/**
	 * The values the gateway accepts, exactly as sent (case matters: '1K' is not '1k'). With
	 * `suggest`, the values the spec shows as examples: offered in the list, others sent as typed.
	 */
	values?: ReadonlyArray<string | number | boolean>;
	/**
	 * The spec gives `values` as examples or says support depends on the model or channel: any
	 * other value (typed through an expression) is sent as typed, checked only against `pattern`.
	 */
	suggest?: boolean;
	/**
	 * Another rule per request route (grok: the multipart route's required values, the JSON
	 * routes' suggestions). Each variant is its own field, shown for its routes only.
	 */
	routeVariants?: ReadonlyArray<Omit<FieldRule, 'routeVariants'> & { routes: readonly string[] }>;
	/**
	 * Plausibility bound (a bound the package adds, docs/gateway-contract.md §8): a number above it is almost surely a
	 * typo and, for video, pre-charged by duration; refused unless the user turns on Allow Unusual Values.
	 */
	plausibleMax?: number;
	/**
	 * A ratio value (and the `resolution` beside it) is the document's extension, which the plain relay
	 * forwards unread (docs/gateway-contract.md §10.11): there the ratio is sent as the pixel size of
	 * `values` with its aspect at the resolution's tier, or refused before sending (pipeline/relaySizes.ts).
	 */
	ratioExtension?: boolean;
	/** Sent only beside another value: gpt-image-2 `resolution` goes with ratio sizes (docs/gateway-contract.md §4.4). */
	onlyWith?: { key: string; pattern: string };
	default?: string | number | boolean;
	min?: number;
	max?: number;
	integer?: boolean;
	/** Label and help for the node's field. */
	label?: string;
	description?: string;
	/** A value that means "leave it to the channel": shown as the default, never sent ('' always is). */
	omit?: string | number;
	/**
	 * Always sent: an empty value is refused before anything is billed, because leaving the field
	 * out is billed at a costly default (Seedance 2.5's duration, docs/gateway-contract.md §10.9).
	 */
	required?: boolean;
	/**
	 * What the channel uses, and bills, when the field is not sent (Grok's 8 s), or the most it may
	 * pick (Seedance 2.5's 30 s): the cost estimate prices an empty field with it (pipeline/cost.ts).
	 */
	whenAbsent?: string | number;
	/** Sent only on these request routes (e.g. grok's `quality` on the multipart route). */
	routes?: readonly string[];
	/** For free-text values (no `values` list): a regular expression the value must match. */
	pattern?: string;
}

export interface ModelLimits {
	minReferences?: number;
	maxReferences?: number;
	/** Body key the reference URLs go in: images, image_urls, image. */
	referenceField?: string;
	maxN?: number;
	maxFileBytes?: number;
	/** Reference image types the model reads (checked by content before sending). */
	referenceMimeTypes?: ReadonlyArray<'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif'>;
	/**
	 * Multipart field the model takes reference files in, repeated once per file; without it the model has no multipart
	 * route.
	 */
	fileReferenceField?: string;
	/** Body key of an optional mask image URL (gpt-image-2 edits: mask_url); it needs references. */
	maskField?: string;
	/** Music: the longest lyrics (`prompt`) and style tags (`tags`) the version takes, in characters. */
	maxLyricsChars?: number;
	maxStyleChars?: number;
}

/** docs/gateway-contract.md §2.8 resolution tiers: what a price multiplier is keyed by. */
export type ResolutionTier = '1K' | '2K' | '4K';

export interface ModelPrice {
	/** docs/gateway-contract.md §2.8 base price, USD. */
	baseUsd: number;
	/** 'call': one charge per request, whatever its `n` (GPT, nano-banana); 'image': one per image made (alt host). */
	per: 'call' | 'image';
	/**
	 * docs/gateway-contract.md §2.8 resolution multipliers (GPT: 2K and 4K = 1.5); a tier not listed costs 1×. The tier
	 * comes from the request (registry/prices.ts).
	 */
	tiers?: Partial<Record<ResolutionTier, number>>;
}
