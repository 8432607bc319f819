import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { nodeErrorOf } from '../../transport/nodeError';
import { DEFAULT_CONCURRENCY, settleLimited } from '../concurrency';
import { fingerprintOf, outputMemory } from './tries';

export interface RunOptions {
	items: INodeExecutionData[];
	continueOnFail: boolean;
}

/**
 * One call per input item, several at once under the Concurrency limit, output in input order and paired.
 * A failed item becomes an error item (Continue On Fail) or stops the node naming the item.
 * `billed`: with Retry On Fail, an item answered in an earlier try of this run gives that answer
 * again instead of a second paid call (the same input item; engine/running/tries.ts).
 */
export async function forEachItem(
	ctx: IExecuteFunctions,
	run: RunOptions,
	fn: (itemIndex: number) => Promise<IDataObject | INodeExecutionData[]>,
	concurrency = DEFAULT_CONCURRENCY,
	billed = false,
): Promise<INodeExecutionData[]> {
	const memory = billed ? outputMemory(ctx) : undefined;
	const results = await settleLimited(run.items, concurrency, async (item, i) => {
		if (!memory) return await fn(i);
		const fingerprint = fingerprintOf(item.json);
		const kept = memory.recall(i, fingerprint);
		if (kept) return kept.value as IDataObject | INodeExecutionData[];
		const value = await fn(i);
		memory.keep(i, fingerprint, value);
		return value;
	});
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
		if (!run.continueOnFail) throw nodeErrorOf(ctx.getNode(), error, i);
		const json: IDataObject = {
			error: error.message,
			...(error.description ? { description: error.description } : {}),
			...(error.context?.taskId ? { taskId: error.context.taskId } : {}),
			...(error.context?.created ? { created: error.context.created } : {}),
		};
		output.push(errorItem(ctx, json, error, i));
	});
	return output;
}

/**
 * The item a failed input item becomes under On Error = Continue. With "Continue (using error
 * output)" n8n moves an item to the error output only when it carries `error`, and then keeps only
 * `{ error: message }` of its json (1.x and 2.x alike): so the message names the task, and the item
 * stays paired with its input (the next node reads the row it came from with `$('Node').item`).
 * With "Continue (regular output)" the item keeps all its fields (task id, created, description).
 */
export function errorItem(
	ctx: IExecuteFunctions,
	json: IDataObject,
	error: unknown,
	itemIndex: number,
): INodeExecutionData {
	const pairedItem = { item: itemIndex };
	if (ctx.getNode().onError !== 'continueErrorOutput') return { json, pairedItem };
	const itemError = nodeErrorOf(ctx.getNode(), error, itemIndex);
	const taskId = json.taskId as string | undefined;
	if (taskId && !itemError.message.includes(taskId))
		itemError.message = `${itemError.message} (task ${taskId})`;
	return { json, error: itemError, pairedItem };
}
