import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { classifyModel, type ModelGroup } from '../registry/models';
import type { GatewayContext } from '../transport/context';
import { gatewayRequest } from '../transport/request';

export interface GatewayModel {
	id: string;
	group: ModelGroup;
	ownedBy?: string;
	endpointTypes: string[];
}

export async function listGatewayModels(ctx: GatewayContext, itemIndex?: number): Promise<GatewayModel[]> {
	const { body } = await gatewayRequest.call(ctx, {
		method: 'GET',
		path: '/v1/models',
		action: 'listing the models of this key',
		itemIndex,
	});
	const data = Array.isArray(body.data) ? (body.data as IDataObject[]) : [];
	return data
		.filter((m) => typeof m.id === 'string')
		.map((m) => ({
			id: m.id as string,
			group: classifyModel(m.id as string, m.supported_endpoint_types),
			ownedBy: typeof m.owned_by === 'string' ? m.owned_by : undefined,
			endpointTypes: Array.isArray(m.supported_endpoint_types) ? m.supported_endpoint_types.map(String) : [],
		}))
		.sort((a, b) => a.id.localeCompare(b.id));
}

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
