import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { settleLimited } from '../engine/concurrency';

export interface RunOptions {
	items: INodeExecutionData[];
	continueOnFail: boolean;
}

export const DEFAULT_CONCURRENCY = 5;

/**
 * One call per input item, several at once under a cap, output in input order and paired.
 * A failed item becomes an error item (Continue On Fail) or stops the node naming the item.
 */
export async function forEachItem(
	ctx: IExecuteFunctions,
	run: RunOptions,
	fn: (itemIndex: number) => Promise<IDataObject | INodeExecutionData[]>,
	concurrency = DEFAULT_CONCURRENCY,
): Promise<INodeExecutionData[]> {
	const results = await settleLimited(run.items, concurrency, async (_item, i) => await fn(i));
	const output: INodeExecutionData[] = [];
	results.forEach((result, i) => {
		const pairedItem = { item: i };
		if (result.ok) {
			const value = result.value;
			const items = Array.isArray(value) ? value : [{ json: value }];
			output.push(...items.map((item) => ({ ...item, pairedItem })));
			return;
		}
		const error = result.error as Error & { description?: string | null; context?: IDataObject };
		if (!run.continueOnFail) {
			if (error instanceof NodeApiError || error instanceof NodeOperationError) {
				error.context.itemIndex = i;
				throw error;
			}
			throw new NodeOperationError(ctx.getNode(), error, { itemIndex: i });
		}
		output.push({
			json: {
				error: error.message,
				...(error.description ? { description: error.description } : {}),
				...(error.context?.taskId ? { taskId: error.context.taskId } : {}),
				...(error.context?.created ? { created: error.context.created } : {}),
			},
			pairedItem,
		});
	});
	return output;
}
