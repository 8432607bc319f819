import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { beginRun } from '../UnifiedAiGateway/api/runReads';
import { pollBalanceBelow } from './balanceEvent';
import { triggerProperties } from './triggerFields';
import { manualTaskFinished, pollTaskFinished } from './taskEvent';

export class UnifiedAiGatewayTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Unified AI Gateway Trigger',
		name: 'unifiedAiGatewayTrigger',
		icon: {
			light: 'file:../../icons/unifiedAiGateway.svg',
			dark: 'file:../../icons/unifiedAiGateway.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ $parameter["event"] === "balanceBelow" ? "Balance below " + $parameter["threshold"] : "Task finished" }}',
		description:
			'Starts the workflow when gateway tasks submitted elsewhere finish, or when the balance runs low',
		defaults: { name: 'Unified AI Gateway Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'unifiedAiGatewayApi', required: true }],
		properties: triggerProperties,
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		// n8n polls with one context for the whole activation: a poll's once-per-run reads are its own.
		beginRun(this);
		const event = this.getNodeParameter('event', 'taskFinished') as string;
		if (event === 'balanceBelow') return await pollBalanceBelow(this);
		if (this.getMode() === 'manual') return await manualTaskFinished(this);
		return await pollTaskFinished(this);
	}
}
