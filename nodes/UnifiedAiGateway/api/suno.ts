import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { gatewayCredentials, type GatewayContext } from '../transport/context';
import { gatewayRequest } from '../transport/request';
import { asObject } from '../transport/responses';
import { originsFrom } from '../transport/urls';
import { snapshotOf, type TaskSnapshot } from './tasks/snapshot';
import { taskPathSegment } from './tasks/taskIds';

/*
 * The relay's Suno routes (docs/gateway-contract.md §10.15, new-api `router/relay-router.go`):
 * POST /suno/submit/music and /suno/submit/lyrics (one billed call each, answered
 * `{code: "success", data: "task_…"}`), and the batch read POST /suno/fetch {ids} (one TaskDto per
 * id it knows). One task is read through the query route `suno` (api/tasks/routes.ts).
 */

export type SunoAction = 'music' | 'lyrics';

/** The relay's submit answer: its `task_…` id, or what it said instead. */
export interface SunoSubmitted {
	taskId?: string;
	/** The envelope's `code` when it is not `success`. */
	refusedCode?: string;
	body: IDataObject;
}

/** One billed submit, never repeated; the answer as the gateway sent it (redacted). */
export async function postSunoSubmit(
	ctx: IExecuteFunctions,
	job: { action: SunoAction; body: IDataObject; timeoutMs: number; itemIndex: number },
): Promise<SunoSubmitted> {
	const response = await gatewayRequest.call(ctx, {
		method: 'POST',
		path: `/suno/submit/${job.action}`,
		body: job.body,
		action: job.action === 'music' ? 'submitting the music job' : 'submitting the lyrics job',
		billed: true,
		answer: 'submit',
		model: job.action === 'music' ? 'suno_music' : 'suno_lyrics',
		timeoutMs: job.timeoutMs,
		itemIndex: job.itemIndex,
	});
	const body = asObject(response.body) ?? { answer: response.body as unknown as string };
	if (body.code !== 'success')
		return { refusedCode: typeof body.code === 'string' ? body.code : String(body.code), body };
	const id = typeof body.data === 'string' ? body.data.trim() : undefined;
	return { taskId: id || undefined, body };
}

/** How many ids one batch read asks for (new-api reads them all with one query). */
export const SUNO_BATCH_IDS = 50;

/**
 * One batch read of Suno tasks (`POST /suno/fetch {ids}`): the task records it answered, by id.
 * Free (a read); an id the relay does not know is left out of the answer.
 */
export async function fetchSunoTasks(
	ctx: GatewayContext,
	ids: readonly string[],
	options: { itemIndex?: number; timeoutMs?: number; deadlineAt?: number } = {},
): Promise<{ records: Map<string, IDataObject>; body: unknown }> {
	// Every id is checked by the one rule before it is sent (api/tasks/taskIds.ts).
	ids.forEach((id) => taskPathSegment(id));
	const { body } = await gatewayRequest.call(ctx, {
		method: 'POST',
		path: '/suno/fetch',
		body: { ids: [...ids] },
		action: `checking ${ids.length} music tasks`,
		itemIndex: options.itemIndex,
		timeoutMs: options.timeoutMs,
		deadlineAt: options.deadlineAt,
	});
	const records = new Map<string, IDataObject>();
	const root = asObject(body);
	if (root?.code === 'success' && Array.isArray(root.data))
		for (const entry of root.data) {
			const task = asObject(entry);
			const id = typeof task?.task_id === 'string' ? task.task_id : undefined;
			if (task && id && ids.includes(id)) records.set(id, task);
		}
	return { records, body };
}

/**
 * Many music tasks in one read: each record the relay answered as a TaskSnapshot, as its own read
 * on the query route `suno` would parse it; an id it left out is not in the map (read it alone).
 */
export async function querySunoTasks(
	ctx: GatewayContext,
	ids: readonly string[],
	options: { deadlineAt?: number } = {},
): Promise<Map<string, TaskSnapshot>> {
	const { records } = await fetchSunoTasks(ctx, ids, options);
	const origin = originsFrom(await gatewayCredentials(ctx)).main;
	const snapshots = new Map<string, TaskSnapshot>();
	for (const [id, record] of records)
		snapshots.set(id, snapshotOf({ code: 'success', data: record }, id, { origin, songs: true }));
	return snapshots;
}
