import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { WaitOutcome } from '../waiting/waiter';

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
	/**
	 * `notStored`: completed at the gateway (billed), its file not downloaded or not stored (a file
	 * host's refusal, n8n's full disk): never submit it again. `failed`: the gateway reported it
	 * failed (or it could not be read or built).
	 */
	state: 'succeeded' | 'pending' | 'failed' | 'submitted' | 'notStored';
	/** The gateway itself reported the task failed or cancelled (nothing was made). */
	failedAtGateway?: boolean;
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
		const state = stateOf(record, taskId, urls);
		results.push({
			item,
			...(taskId ? { taskId } : {}),
			state,
			...(state === 'failed' && record.outcome?.kind === 'failed' ? { failedAtGateway: true } : {}),
			...(urls.length > 0 ? { urls } : {}),
			...(record.submitted?.route ? { queryRoute: record.submitted.route } : {}),
		});
	});
	return results;
}

function stateOf(
	record: ItemRecord,
	taskId: string | undefined,
	urls: string[],
): ItemResult['state'] {
	// A failed download is of a finished, paid result: no failure at the gateway.
	if ((record.error as { context?: IDataObject } | undefined)?.context?.downloadFailed)
		return 'notStored';
	if (record.error) return 'failed';
	if (record.outcome?.kind === 'succeeded' || (!taskId && urls.length > 0)) return 'succeeded';
	return record.outcome ? 'pending' : 'submitted';
}

function urlsOf(record: ItemRecord): string[] {
	if (record.outcome?.kind === 'succeeded') return record.outcome.snapshot.urls;
	// A sync answer whose file failed has no output: its error holds the URLs (the receipt).
	const context = (record.error as { context?: IDataObject } | undefined)?.context;
	if (context?.downloadFailed) {
		const failed = Array.isArray(context.urls) ? context.urls : [context.url];
		return failed.filter((url): url is string => typeof url === 'string');
	}
	const fromOutput = (record.output ?? []).flatMap((item) => {
		const json = item.json ?? {};
		const urls = Array.isArray(json.urls) ? json.urls : [json.url];
		return urls.filter((url): url is string => typeof url === 'string');
	});
	return [...new Set(fromOutput)];
}

/** How each state reads in the description: a finished, paid task is never called failed. */
const STATE_WORDS: Record<ItemResult['state'], string> = {
	succeeded: 'succeeded',
	pending: 'pending',
	submitted: 'submitted',
	failed: 'failed',
	notStored: 'completed at the gateway (paid), file not stored',
};

/** The description's paragraph: one line per item, each enough to collect or resume it. */
export function describeResults(results: readonly ItemResult[], noun: string): string | undefined {
	if (results.length === 0) return undefined;
	const lines = results.slice(0, LISTED).map((r) => {
		const what = r.taskId ? `task ${r.taskId}` : `sync ${noun}`;
		const where = r.urls?.length ? `: ${r.urls.join(' ')}` : '';
		return `item ${r.item}: ${what} ${r.failedAtGateway ? 'failed at the gateway' : STATE_WORDS[r.state]}${where}`;
	});
	if (results.length > LISTED)
		lines.push(
			`… and ${results.length - LISTED} more (all in the n8n log and this error's context: results)`,
		);
	return (
		`The other items' results are not lost (tasks still running: resume them ` +
		`with Task → Wait for Completion; do not submit them again):\n${lines.join('\n')}`
	);
}
