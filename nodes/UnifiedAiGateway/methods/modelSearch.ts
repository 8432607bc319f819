import type {
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { listGatewayModels, type GatewayModel } from '../api/models';
import { findModel, GROUP_IDS, searchMethodOf, type ModelGroup } from '../registry/models';

/** The mark of an id neither the contract's table, its tags nor its name place (docs/gateway-contract.md §10.4). */
const UNKNOWN_KIND = 'kind unknown';

/** Entries per page of a picker: the editor asks for the next page as the user scrolls. */
const PAGE_SIZE = 100;

/**
 * How long the editor's picker waits for GET /v1/models: longer, and the user is better served by
 * typing the ID (the Model field's ID mode). Asked once, not retried.
 */
const PATIENCE_MS = 10_000;

/** A list read for the first page, kept for the pages after it (the same search, minutes at most). */
const KEPT_MS = 5 * 60_000;
const KEPT_LISTS = 16;
const keptLists = new Map<string, { at: number; models: GatewayModel[] }>();
let listCount = 0;

/**
 * One picker entry. An id nothing classifies is offered in the image and video pickers too, marked:
 * the relay's tags follow the channel, not the model, so such an id may well be either.
 */
function entry(m: GatewayModel, group: ModelGroup): INodeListSearchItems {
	const guessed = m.kindFrom === 'none' && group !== 'text';
	const description = guessed
		? `Neither its name nor the gateway's tags say whether this is a text, image or video model; it is listed under each`
		: findModel(m.id)?.description;
	return {
		name: guessed ? `${m.id} (${UNKNOWN_KIND})` : m.id,
		value: m.id,
		...(description ? { description } : {}),
	};
}

/** The key's models for this search: read for its first page, kept for the pages after it. */
async function modelsFor(
	ctx: ILoadOptionsFunctions,
	token: string | undefined,
): Promise<{ list: string; models: GatewayModel[] }> {
	const [list] = (token ?? '').split(':');
	const kept = list ? keptLists.get(list) : undefined;
	if (kept && Date.now() - kept.at < KEPT_MS) return { list, models: kept.models };
	const outcome = await listGatewayModels(ctx, undefined, {
		retries: false,
		timeoutMs: PATIENCE_MS,
	}).then(
		(models) => ({ ok: true as const, models }),
		(error: unknown) => ({ ok: false as const, error }),
	);
	if (!outcome.ok) {
		const error = outcome.error as { description?: string | null };
		error.description = [
			error.description,
			"Type the model's ID instead: switch the Model field from From List to ID.",
		]
			.filter(Boolean)
			.join('\n');
		throw outcome.error;
	}
	const id = String(++listCount);
	keptLists.set(id, { at: Date.now(), models: outcome.models });
	// The oldest lists go first: a picker left open long is read again.
	for (const [old, { at }] of keptLists)
		if (keptLists.size > KEPT_LISTS || Date.now() - at >= KEPT_MS) keptLists.delete(old);
	return { list: id, models: outcome.models };
}

/**
 * A picker of one kind: searchable (the text typed, anywhere in the id, any case), in pages of
 * PAGE_SIZE, the models of its kind first (sorted) and the ids nothing classifies after them
 * (docs/gateway-contract.md §10.4).
 */
function searcher(group: ModelGroup) {
	return async function (
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	): Promise<INodeListSearchResult> {
		const needle = (filter ?? '').trim().toLowerCase();
		const { list, models } = await modelsFor(this, paginationToken);
		const matching = models.filter((m) => !needle || m.id.toLowerCase().includes(needle));
		const ordered = [
			...matching.filter((m) => m.group === group && m.kindFrom !== 'none'),
			...matching.filter((m) => m.kindFrom === 'none'),
		];
		const offset = Number((paginationToken ?? '').split(':')[1] ?? 0) || 0;
		const page = ordered.slice(offset, offset + PAGE_SIZE);
		const next = offset + PAGE_SIZE;
		return {
			results: page.map((m) => entry(m, group)),
			...(next < ordered.length ? { paginationToken: `${list}:${next}` } : {}),
		};
	};
}

/** One picker per model group, named as the Model fields ask for it (params/fields.ts modelLocator). */
export const listSearch = Object.fromEntries(
	GROUP_IDS.map((group) => [searchMethodOf(group), searcher(group)]),
);
