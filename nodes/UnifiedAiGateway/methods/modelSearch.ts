import type {
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { listGatewayModels, type GatewayModel } from '../api/models';
import { findModel, type ModelGroup } from '../registry/models';

/** The mark of an id neither the contract's table, its name nor the gateway's tags place (docs/gateway-contract.md §10.4). */
const UNKNOWN_KIND = 'kind unknown';

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

function searcher(group: ModelGroup) {
	return async function (
		this: ILoadOptionsFunctions,
		filter?: string,
	): Promise<INodeListSearchResult> {
		const needle = (filter ?? '').trim().toLowerCase();
		const models = await listGatewayModels(this);
		return {
			results: models
				.filter(
					(m) =>
						(m.group === group || m.kindFrom === 'none') &&
						(!needle || m.id.toLowerCase().includes(needle)),
				)
				.map((m) => entry(m, group)),
		};
	};
}

export const listSearch = {
	searchTextModels: searcher('text'),
	searchImageModels: searcher('image'),
	searchVideoModels: searcher('video'),
};
