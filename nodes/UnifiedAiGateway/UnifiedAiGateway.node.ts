import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { RESOURCES } from './actions/resources';
import { router } from './actions/router';
import { listSearch } from './methods/modelSearch';

export class UnifiedAiGateway implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Unified AI Gateway',
		name: 'unifiedAiGateway',
		icon: {
			light: 'file:../../icons/unifiedAiGateway.svg',
			dark: 'file:../../icons/unifiedAiGateway.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Chat, generate and edit images, render videos, upload files, track tasks ' +
			'and watch spend through a unified AI gateway',
		defaults: { name: 'Unified AI Gateway' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'unifiedAiGatewayApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				default: 'image',
				options: RESOURCES.map(({ name, value, description }) => ({ name, value, description })),
			},
			...RESOURCES.flatMap((r) => r.module.description),
		],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		// n8n's lint wants continueOnFail() read here; the operations receive the answer.
		const continueOnFail = this.continueOnFail();
		return [await router.call(this, continueOnFail)];
	}
}
