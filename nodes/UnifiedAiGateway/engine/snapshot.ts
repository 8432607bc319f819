import type { IDataObject } from 'n8n-workflow';

import { extractResultUrls } from './results';
import { phaseOf, readProgress, type TaskPhase } from './status';

/** One reading of a task, the same for every route and shape. */
export interface TaskSnapshot {
	taskId: string;
	/** The status word exactly as the gateway sent it. */
	status: string;
	phase: TaskPhase | 'unknown';
	/** Spec 3 rule 2 applied: success needs `completed` AND a result URL. */
	state: 'pending' | 'succeeded' | 'failed';
	progress?: number;
	urls: string[];
	error?: string;
	estimatedTimeS?: number;
	raw: IDataObject;
}

function obj(value: unknown): IDataObject | undefined {
	if (Array.isArray(value)) return obj(value[0]);
	return value && typeof value === 'object' ? (value as IDataObject) : undefined;
}

function firstString(...values: unknown[]): string | undefined {
	const found = values.find((v) => typeof v === 'string' && v.trim() !== '');
	return found === undefined ? undefined : String(found);
}

function firstNumber(...values: unknown[]): number | undefined {
	const found = values.find((v) => typeof v === 'number' && Number.isFinite(v));
	return found as number | undefined;
}

/** The task id a submit or query answer carries, in any of its shapes. */
export function taskIdOf(body: unknown): string | undefined {
	const root = obj(body);
	const data = obj(root?.data);
	return firstString(root?.task_id, data?.task_id, data?.id, root?.id, root?.request_id);
}

export function readTask(body: unknown, taskId: string): TaskSnapshot {
	const root = obj(body) ?? {};
	const data = obj(root.data);
	const firstItem = obj(obj(root.result)?.items) ?? obj(root.items);
	const status =
		firstString(root.status, root.state, data?.status, data?.state, firstItem?.status) ?? 'unknown';
	const phase = phaseOf(status) ?? 'unknown';
	const urls = extractResultUrls(root);
	const progress = readProgress(root.progress ?? data?.progress);
	const errorObject = obj(root.error) ?? obj(data?.error);
	let error = firstString(
		errorObject?.message,
		typeof root.error === 'string' ? root.error : undefined,
		root.fail_reason,
		data?.fail_reason,
	);
	let state: TaskSnapshot['state'] = 'pending';
	if (phase === 'failed') {
		state = 'failed';
		error = error ?? `The gateway reported the task as ${status} without a reason`;
	} else if (phase === 'succeeded') {
		if (urls.length > 0) state = 'succeeded';
		else {
			state = 'failed';
			error = `The task is ${status} but the gateway gave no result URL, so there is nothing to download`;
		}
	}
	return {
		taskId: taskIdOf(root) ?? taskId,
		status,
		phase,
		state,
		progress: phase === 'succeeded' && state === 'succeeded' ? (progress ?? 100) : progress,
		urls,
		error: state === 'failed' ? error : undefined,
		estimatedTimeS: firstNumber(root.estimated_time, data?.estimated_time),
		raw: root,
	};
}
