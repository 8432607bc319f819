import type { IDataObject } from 'n8n-workflow';

import { asObject } from '../../transport/responses';
import { leaderCount, type RoundTask } from './pollSchedule';

/**
 * `checkPlan` on a pending item: what Task → Check Once needs to plan its reads over the rounds of
 * a Wait-node loop (pollSchedule.ts, reading in rounds). The batch (epoch ms: the tasks submitted by
 * one node run, or first checked in one round, share it), how many leaders the batch has, whether
 * this task leads, how many of them had finished at its last reading, and the rounds in a row
 * it was left unread. Generate with Wait for Result off seeds it (the first √n items of a run
 * lead); Check Once carries it on each pending item; a finished item has none. An item without it
 * (ids from elsewhere) is read in its first round, as before.
 */
export interface CheckPlan extends RoundTask {
	batch: number;
	leaders: number;
}

const count = (value: unknown): number | undefined =>
	typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;

/** The item's plan, or undefined when it has none or one that does not parse (the item is then read). */
export function checkPlanOf(json: IDataObject): CheckPlan | undefined {
	const plan = asObject(json.checkPlan);
	if (!plan) return undefined;
	const { batch, leaders, leader, leadersDone, skipped } = plan;
	const at = count(batch);
	const k = count(leaders);
	if (at === undefined || k === undefined || k < 1 || typeof leader !== 'boolean') return undefined;
	const done = count(leadersDone);
	return {
		batch: at,
		leaders: Math.floor(k),
		leader,
		leadersDone: done === undefined ? undefined : Math.floor(done),
		skipped: Math.floor(count(skipped) ?? 0),
	};
}

/** Item `index` of `items` submitted together in the node run that began at `batch`. */
export function seedCheckPlan(batch: number, index: number, items: number): CheckPlan {
	const leaders = leaderCount(items);
	return { batch, leaders, leader: index < leaders, skipped: 0 };
}

/** The field as an item carries it. */
export function checkPlanJson(plan: CheckPlan): IDataObject {
	return {
		batch: plan.batch,
		leaders: plan.leaders,
		leader: plan.leader,
		...(plan.leadersDone !== undefined ? { leadersDone: plan.leadersDone } : {}),
		skipped: plan.skipped,
	};
}
