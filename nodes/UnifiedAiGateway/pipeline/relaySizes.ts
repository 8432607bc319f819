import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readRelayBuild } from '../api/relayBuild';
import type { FieldRule } from '../registry/models';
import { tierOfValue } from '../registry/prices';
import { refuse } from './refusals';

/*
 * gpt-image-2's ratio size with its `resolution` is the document's extension (docs/gateway-contract.md
 * §4.4, §4.6). A plain new-api forwards `size: "1:1"` unread and drops `resolution` (its image request
 * has no such field, §10.11), so a chosen 2k or 4k has no effect there and an OpenAI-type upstream may
 * refuse the ratio. On such a build the ratio is sent as a pixel size the model's row lists, of the
 * same aspect at the chosen tier; a ratio no listed size has is refused before anything is billed.
 */

/** How far a listed size's aspect may be from the ratio's (1920x1088 is 16:9 within 0.8 %). */
const ASPECT_TOLERANCE = 0.02;
const RATIO = /^([1-9]\d?):([1-9]\d?)$/;
const PIXELS = /^(\d{2,5})x(\d{2,5})$/;

function pixelsOf(size: string): { width: number; height: number } | undefined {
	const found = PIXELS.exec(size);
	return found ? { width: Number(found[1]), height: Number(found[2]) } : undefined;
}

/**
 * The listed pixel size of this ratio at this resolution (1k, 2k, 4k; 1k when none): of the sizes
 * whose aspect is within the tolerance, at 1k a standard size, at 2k the smallest high-resolution
 * one, at 4k the largest. None when the ratio has no such size.
 */
export function pixelSizeFor(
	ratio: string,
	resolution: unknown,
	listed: ReadonlyArray<string | number | boolean>,
): string | undefined {
	const parts = RATIO.exec(ratio);
	if (!parts) return undefined;
	const aspect = Number(parts[1]) / Number(parts[2]);
	const tier = tierOfValue('resolution', resolution) ?? '1K';
	const fits = listed
		.map(String)
		.filter((size) => {
			const pixels = pixelsOf(size);
			if (!pixels) return false;
			const sizeTier = tierOfValue('size', size);
			if ((tier === '1K') !== (sizeTier === '1K')) return false;
			return Math.abs(pixels.width / pixels.height / aspect - 1) <= ASPECT_TOLERANCE;
		})
		.sort((a, b) => area(a) - area(b));
	return tier === '4K' ? fits[fits.length - 1] : fits[0];
}

function area(size: string): number {
	const pixels = pixelsOf(size);
	return pixels ? pixels.width * pixels.height : 0;
}

/** The ratios a plain relay can be sent, each as the size it becomes at 1k (for a refusal's words). */
function ratiosWithSizes(rule: FieldRule): string[] {
	return (rule.values ?? [])
		.map(String)
		.filter((value) => RATIO.test(value) && pixelSizeFor(value, '1k', rule.values ?? []));
}

/** The body as sent, and what the item says about a size changed for the build. */
export interface FittedBody {
	body: IDataObject;
	note?: string;
}

/**
 * The body fitted to the gateway's relay build: unchanged unless a field of the operation's rules is
 * a ratio extension and holds a ratio, and the build is the plain relay (read once per run).
 */
export async function fitToRelayBuild(
	ctx: IExecuteFunctions,
	itemIndex: number,
	rules: Readonly<Record<string, FieldRule>>,
	body: IDataObject,
): Promise<FittedBody> {
	const key = Object.keys(rules).find((name) => rules[name].ratioExtension);
	const ratio = key === undefined ? undefined : body[key];
	if (key === undefined || typeof ratio !== 'string' || !RATIO.test(ratio.trim())) return { body };
	const build = await readRelayBuild(ctx, itemIndex);
	if (build.kind !== 'plain') return { body };
	const rule = rules[key];
	// What goes only with a ratio (gpt-image-2's Resolution) names the tier, and is not sent.
	const beside = Object.keys(rules).filter((name) => rules[name].onlyWith?.key === key);
	const tierKey = beside[0];
	const tierValue = tierKey === undefined ? undefined : (body[tierKey] ?? rules[tierKey].default);
	const pixels = pixelSizeFor(ratio.trim(), tierValue, rule.values ?? []);
	const label = rule.label ?? key;
	const why =
		`this gateway runs the plain relay (${build.evidence}), ` +
		'which does not read a ratio or its resolution';
	if (!pixels) {
		throw refuse(
			ctx,
			itemIndex,
			`${label} '${ratio}' cannot be sent to this gateway: ${why}`,
			`Choose a pixel size (WIDTHxHEIGHT) or one of the ratios it can be sent as: ` +
				`${ratiosWithSizes(rule).join(', ')}.`,
		);
	}
	const sent: IDataObject = { ...body, [key]: pixels };
	for (const name of beside) delete sent[name];
	const tier =
		tierKey === undefined || body[tierKey] === undefined
			? ''
			: ` at ${rules[tierKey].label ?? tierKey} ${String(body[tierKey])}`;
	return {
		body: sent,
		note: `${label} ${ratio}${tier} was sent as ${pixels}: ${why}.`,
	};
}
