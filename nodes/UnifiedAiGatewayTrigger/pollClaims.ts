import type { IPollFunctions } from 'n8n-workflow';

import type { WatchedTask } from './state';

/*
 * What the polls of one trigger node in this n8n process know about each other.
 *
 * Each poll works on its own copy of the trigger's state: n8n 2.x hands every poll a snapshot
 * of the `poller_state` cursor and commits it with the poll's execution (last writer wins),
 * and our own state code copies static data at the start of a poll and writes it back at the
 * end. Two polls of one node that overlap (2.x runs one at activation and the scheduler's first
 * one at about the same time) would both see a task as unreported and both emit it. So:
 *   - a poll claims the tasks it queries; another poll running at that time leaves them alone;
 *   - a poll that emitted a task records it as delivered; a later poll whose copy of the state
 *     does not show it yet (a stale snapshot, or an older poll's cursor committed last) takes
 *     it from here instead of emitting it again.
 * A delivery is only recorded when the poll ended within its budget (a poll past it may have
 * been abandoned by n8n, its items thrown away). A delivery that no later state ever shows
 * (n8n dropped the poll's result after all) is forgotten after CONFIRM_GRACE_MS, so the task is
 * emitted again rather than lost.
 */

export const LEDGER = {
	/** How long after a delivery a poll's state may still miss it before it counts as lost. */
	confirmGraceMs: 60_000,
	/** Deliveries remembered per node (oldest forgotten first). */
	maxDeliveries: 5_000,
};

type Done = NonNullable<WatchedTask['done']>;

interface Delivery {
	done: Done;
	at: number;
	/** A later poll's state showed it: n8n committed it. */
	confirmed: boolean;
}

interface NodeLedger {
	claims: Map<string, symbol>;
	deliveries: Map<string, Delivery>;
}

const ledgers = new Map<string, NodeLedger>();

function ledgerOf(ctx: IPollFunctions): NodeLedger {
	const node = ctx.getNode();
	const key = `${ctx.getWorkflow().id ?? ''}\u0000${node.id ?? node.name}`;
	let ledger = ledgers.get(key);
	if (!ledger) {
		ledger = { claims: new Map(), deliveries: new Map() };
		ledgers.set(key, ledger);
	}
	return ledger;
}

export interface PollTurn {
	/** Applies deliveries of other polls to this poll's copy of the tasks (start and end of a poll). */
	merge(tasks: Record<string, WatchedTask>): void;
	/** Claims the ids no other running poll holds; returns them. */
	claim(ids: string[]): string[];
	/** Records this poll's emitted tasks (only call when the poll ends within its budget). */
	delivered(tasks: Record<string, WatchedTask>, ids: string[]): void;
	/** Releases this poll's claims. */
	end(): void;
}

export function startPollTurn(ctx: IPollFunctions, startedAt: number): PollTurn {
	const ledger = ledgerOf(ctx);
	const token = Symbol('poll');
	const takenHere = new Set<string>(); // done in this poll's copy because of the ledger, not of n8n's state
	return {
		merge(tasks) {
			// An id taken out of the list is forgotten, as in the state: put back, it is watched anew.
			for (const id of ledger.deliveries.keys()) if (!(id in tasks)) ledger.deliveries.delete(id);
			for (const [id, watched] of Object.entries(tasks)) {
				const delivery = ledger.deliveries.get(id);
				if (!delivery) continue;
				if (watched.done) {
					if (!takenHere.has(id)) delivery.confirmed = true;
				} else if (delivery.confirmed || startedAt - delivery.at < LEDGER.confirmGraceMs) {
					watched.done = delivery.done;
					watched.doneAt = delivery.at;
					takenHere.add(id);
				} else {
					ledger.deliveries.delete(id); // never committed: report it again
				}
			}
		},
		claim(ids) {
			const mine = ids.filter((id) => !ledger.claims.has(id));
			for (const id of mine) ledger.claims.set(id, token);
			return mine;
		},
		delivered(tasks, ids) {
			for (const id of ids) {
				const done = tasks[id]?.done;
				if (done) ledger.deliveries.set(id, { done, at: Date.now(), confirmed: false });
			}
			const excess = ledger.deliveries.size - LEDGER.maxDeliveries;
			if (excess > 0) [...ledger.deliveries.keys()].slice(0, excess).forEach((id) => ledger.deliveries.delete(id));
		},
		end() {
			for (const [id, owner] of ledger.claims) if (owner === token) ledger.claims.delete(id);
		},
	};
}
