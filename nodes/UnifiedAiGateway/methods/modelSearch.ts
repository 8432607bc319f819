import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listGatewayModels } from '../api/models';
import type { ModelGroup } from '../registry/models';

function searcher(group: ModelGroup) {
	return async function (this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		const needle = (filter ?? '').trim().toLowerCase();
		const models = await listGatewayModels(this);
		return {
			results: models
				.filter((m) => m.group === group && (!needle || m.id.toLowerCase().includes(needle)))
				.map((m) => ({ name: m.id, value: m.id })),
		};
	};
}

export const listSearch = {
	searchTextModels: searcher('text'),
	searchImageModels: searcher('image'),
	searchVideoModels: searcher('video'),
};
