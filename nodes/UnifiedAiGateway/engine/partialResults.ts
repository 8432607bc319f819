import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { WaitOutcome } from './waiter';

/** What the engine knows of one item when another item's failure stops the run. */
export interface ItemRecord {
	submitted?: { taskId?: string; route?: string };
	outcome?: WaitOutcome;
	error?: Error;
	/** The item's finished output items, when they were built. */
	output?: INodeExecutionData[];
}

export interface ItemResult extends IDataObject {
	item: number;
	taskId?: string;
	state: 'succeeded' | 'pending' | 'failed' | 'submitted';
	urls?: string[];
	queryRoute?: string;
}

/** Lines of the description at most; all of them are in the error's context and the n8n log. */
const LISTED = 50;

/** Every other item's result, finished or not, so an error that stops the run loses nothing paid. */
export function otherResults(records: readonly ItemRecord[], failedIndex: number): ItemResult[] {
	const results: ItemResult[] = [];
	records.forEach((record, item) => {
		if (item === failedIndex) return;
		const taskId = record.submitted?.taskId ?? (record.outcome?.task.taskId as string | undefined);
		const urls = urlsOf(record);
		if (!taskId && urls.length === 0) return;
		const state: ItemResult['state'] = record.error
			? 'failed'
			: record.outcome?.kind === 'succeeded' || (!taskId && urls.length > 0)
				? 'succeeded'
				: record.outcome
					? 'pending'
					: 'submitted';
		results.push({
			item,
			...(taskId ? { taskId } : {}),
			state,
			...(urls.length > 0 ? { urls } : {}),
			...(record.submitted?.route ? { queryRoute: record.submitted.route } : {}),
		});
	});
	return results;
}

function urlsOf(record: ItemRecord): string[] {
	if (record.outcome?.kind === 'succeeded') return record.outcome.snapshot.urls;
	const fromOutput = (record.output ?? []).flatMap((item) => {
		const json = item.json ?? {};
		const urls = Array.isArray(json.urls) ? json.urls : [json.url];
		return urls.filter((url): url is string => typeof url === 'string');
	});
	return [...new Set(fromOutput)];
}

/** The description's paragraph: one line per item, each enough to collect or resume it. */
export function describeResults(results: readonly ItemResult[], noun: string): string | undefined {
	if (results.length === 0) return undefined;
	const lines = results.slice(0, LISTED).map((r) => {
		const what = r.taskId ? `task ${r.taskId}` : `sync ${noun}`;
		const where = r.urls?.length ? `: ${r.urls.join(' ')}` : '';
		return `item ${r.item}: ${what} ${r.state}${where}`;
	});
	if (results.length > LISTED) lines.push(`… and ${results.length - LISTED} more (all in the n8n log and this error's context: results)`);
	return `The other items' results are not lost (tasks still running: resume them with Task → Wait for Completion; do not submit them again):\n${lines.join('\n')}`;
}
