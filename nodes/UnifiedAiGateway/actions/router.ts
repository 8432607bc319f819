import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { receiptsSettled } from '../engine/running/receipts';
import { RESOURCES } from './resources';

export async function router(
	this: IExecuteFunctions,
	continueOnFail: boolean,
): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const handler = RESOURCES.find((r) => r.value === resource)?.module.operations[operation];
	if (!handler) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation '${operation}' of resource '${resource}' is not supported`,
		);
	}
	try {
		return await handler.execute.call(this, { items, continueOnFail });
	} finally {
		// The node's output (or its error) is never ahead of its receipt executions (docs/receipts.md).
		await receiptsSettled(this);
	}
}
