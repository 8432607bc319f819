import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { forEachItem, type RunOptions } from '../../engine/running/perItem';
import { findModel, GROUP_IDS, MODEL_GROUPS } from '../../registry/models';
import { listGatewayModels } from '../../api/models';

const displayOptions = { show: { resource: ['account'], operation: ['listModels'] } };

const properties: INodeProperties[] = [
	{
		displayName: 'Model Type',
		name: 'modelGroup',
		type: 'options',
		default: 'all',
		options: [
			{ name: 'All', value: 'all' },
			...GROUP_IDS.map((value) => ({ name: MODEL_GROUPS[value].name, value })),
		],
		description:
			'Only list models of this type (classified by the spec table, then the ' +
			'name, then the gateway tags; a model nothing identifies is listed as ' +
			'text)',
	},
];

export const description = updateDisplayOptions(displayOptions, properties);

/** One item per model the key can use (GET /v1/models, free), of the chosen type, marked whether this node knows it. */
export async function execute(
	this: IExecuteFunctions,
	run: RunOptions,
): Promise<INodeExecutionData[]> {
	return await forEachItem(this, run, async (i) => {
		const group = this.getNodeParameter('modelGroup', i, 'all') as string;
		const models = await listGatewayModels(this, i);
		return models
			.filter((m) => group === 'all' || m.group === group)
			.map(
				(m): INodeExecutionData => ({
					json: {
						id: m.id,
						type: m.group,
						ownedBy: m.ownedBy,
						supportedEndpointTypes: m.endpointTypes,
						knownToThisNode: findModel(m.id) !== undefined,
					} as IDataObject,
				}),
			);
	});
}
