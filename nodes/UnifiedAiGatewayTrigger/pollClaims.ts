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

export const POLL_CLAIMS = {
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

interface NodeClaims {
	claims: Map<string, symbol>;
	deliveries: Map<string, Delivery>;
}

const claimsByNode = new Map<string, NodeClaims>();

function claimsOf(ctx: IPollFunctions): NodeClaims {
	const node = ctx.getNode();
	const key = `${ctx.getWorkflow().id ?? ''}\u0000${node.id ?? node.name}`;
	let held = claimsByNode.get(key);
	if (!held) {
		held = { claims: new Map(), deliveries: new Map() };
		claimsByNode.set(key, held);
	}
	return held;
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
	const held = claimsOf(ctx);
	const token = Symbol('poll');
	const takenHere = new Set<string>(); // done in this poll's copy because of the claims, not of n8n's state
	return {
		merge(tasks) {
			// An id taken out of the list is forgotten, as in the state: put back, it is watched anew.
			for (const id of held.deliveries.keys()) if (!(id in tasks)) held.deliveries.delete(id);
			for (const [id, watched] of Object.entries(tasks)) {
				const delivery = held.deliveries.get(id);
				if (!delivery) continue;
				if (watched.done) {
					if (!takenHere.has(id)) delivery.confirmed = true;
				} else if (delivery.confirmed || startedAt - delivery.at < POLL_CLAIMS.confirmGraceMs) {
					watched.done = delivery.done;
					watched.doneAt = delivery.at;
					takenHere.add(id);
				} else {
					held.deliveries.delete(id); // never committed: report it again
				}
			}
		},
		claim(ids) {
			const mine = ids.filter((id) => !held.claims.has(id));
			for (const id of mine) held.claims.set(id, token);
			return mine;
		},
		delivered(tasks, ids) {
			for (const id of ids) {
				const done = tasks[id]?.done;
				if (done) held.deliveries.set(id, { done, at: Date.now(), confirmed: false });
			}
			const excess = held.deliveries.size - POLL_CLAIMS.maxDeliveries;
			if (excess > 0)
				[...held.deliveries.keys()].slice(0, excess).forEach((id) => held.deliveries.delete(id));
		},
		end() {
			for (const [id, owner] of held.claims) if (owner === token) held.claims.delete(id);
		},
	};
}
