import type { IDataObject } from 'n8n-workflow';

import { modelKind, type KindSource, type ModelGroup } from '../registry/models';
import type { GatewayContext } from '../transport/context';
import { gatewayRequest } from '../transport/request';

export interface GatewayModel {
	id: string;
	group: ModelGroup;
	/** How the group was found (registry modelKind): 'none' is a guess (text), shown in every picker. */
	kindFrom: KindSource;
	ownedBy?: string;
	endpointTypes: string[];
}

function kindOf(m: IDataObject): Pick<GatewayModel, 'group' | 'kindFrom'> {
	const { group, by } = modelKind(m.id as string, m.supported_endpoint_types);
	return { group, kindFrom: by };
}

/** GET /v1/models (docs/gateway-contract.md §4.12, §10.4): the key's models, each classified text, image or video. */
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
			...kindOf(m),
			ownedBy: typeof m.owned_by === 'string' ? m.owned_by : undefined,
			endpointTypes: Array.isArray(m.supported_endpoint_types) ? m.supported_endpoint_types.map(String) : [],
		}))
		.sort((a, b) => a.id.localeCompare(b.id));
}
