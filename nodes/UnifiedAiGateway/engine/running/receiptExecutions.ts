import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IWorkflowBase,
} from 'n8n-workflow';

import { cancelSignalOf } from '../../transport/context';
import { abortableSleep } from '../../transport/sleep';

/*
 * Receipt executions (docs/receipts.md): the one record of a node run's receipts that n8n writes
 * to its database while the node is still running. A community node has no other durable write
 * mid-node: custom data and node output are saved when the execution ends or parks (at node
 * boundaries with Save Execution Progress), the log is kept only at its level and where someone
 * keeps it. A sub-workflow execution is saved by n8n the moment it starts and again when it ends,
 * whatever the log level; an inline one (`executeWorkflow({ code })`) runs as an execution of the
 * same workflow, so it is listed beside the execution it belongs to.
 *
 * Each one holds the whole picture of the node run so far, one item per input item that has a
 * receipt or a submit without an answer: the newest receipt execution of a run is all a user needs.
 * A receipt is written at once (then at most one write per pace), a submit going out lazily (one
 * pace later: a quick answer replaces it, so a quick run writes one execution).
 */

/** One input item's entry: its task, its paid result's URLs, or a submit that has not answered. */
export type ReceiptEntry =
	| { receipt: 'task'; taskId: string; queryRoute: string }
	| { receipt: 'result'; resultUrls: string[] }
	| { receipt: 'unanswered' };

/** Writes are at least this far apart, more for big runs (each holds the whole run so far). */
const PACE = { minMs: 1_000, perEntryMs: 10, maxMs: 30_000 };
/** How often a paced wait looks whether the node has ended (then the last write goes at once). */
const SLICE_MS = 100;
/** A write that failed this often in a row is not tried again in this node run. */
const MAX_FAILURES = 3;

const NOTE =
	'## Receipts of a gateway node run\n' +
	('Written by the **Unified AI Gateway** node while execution ' +
		'**{execution}** ran node **{node}**, so that a crash or restart of n8n ' +
		'loses no paid work. The newest of these executions of a run holds all of ' +
		'it.\n\n') +
	('- `receipt: task`: a billed task. Collect it with **Task → Wait for ' +
		'Completion** (Task ID, Query Route); never submit it again.\n') +
	'- `receipt: result`: a paid result without a task. Download its `resultUrls` before they expire.\n' +
	('- `receipt: unanswered`: the submit was sent and its answer never ' +
		"arrived: it may have been created and billed. Check the gateway's task " +
		'list before running the item again.');

/** The inline workflow of a receipt execution: n8n's sub-workflow trigger, passing the entries through. */
function receiptWorkflow(workflowId: string, executionId: string, nodeName: string): IWorkflowBase {
	const workflow = {
		id: workflowId,
		name: `Receipts of execution ${executionId}`,
		active: false,
		activeVersionId: null,
		isArchived: false,
		nodes: [
			{
				id: 'receipts',
				name: 'Receipts',
				type: 'n8n-nodes-base.executeWorkflowTrigger',
				typeVersion: 1.1,
				position: [0, 0],
				parameters: { inputSource: 'passthrough' },
			},
			{
				id: 'receipts-note',
				name: 'About These Receipts',
				type: 'n8n-nodes-base.stickyNote',
				typeVersion: 1,
				position: [-60, -300],
				parameters: {
					content: NOTE.replace('{execution}', executionId).replace('{node}', nodeName),
					height: 280,
					width: 480,
				},
			},
		],
		connections: {},
		// Kept whatever the workflow's own save settings: a receipt is what the user paid for.
		settings: {
			executionOrder: 'v1',
			saveDataSuccessExecution: 'all',
			saveDataErrorExecution: 'all',
			saveManualExecutions: true,
			callerPolicy: 'any',
		},
		createdAt: new Date(),
		updatedAt: new Date(),
	};
	return workflow as unknown as IWorkflowBase;
}

export class ReceiptExecutions {
	private readonly entries = new Map<number, ReceiptEntry & { recordedAt: string }>();

	/** Bumped by every change; `written` is the version the last write held. */
	private version = 0;

	private written = 0;

	/** How many entries the last write held (0: none written yet). */
	private writtenEntries = 0;

	/** When the next write is due (epoch ms); Infinity while nothing asks for one. */
	private dueAt = Infinity;

	private lastWriteAt = 0;

	private writing?: Promise<void>;

	private ending = false;

	private failures = 0;

	/** Why the last write failed, while it stands (the caller then keeps receipts in the log at warn). */
	failure?: string;

	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly onFailure: (reason: string, entries: string[]) => void,
	) {}

	/** An item's entry changed (`undefined`: it has none any more). `soon`: write now (a receipt), else one pace later. */
	set(itemIndex: number, entry: ReceiptEntry | undefined, soon: boolean): void {
		if (entry) this.entries.set(itemIndex, { ...entry, recordedAt: new Date().toISOString() });
		else if (!this.entries.delete(itemIndex)) return;
		this.version++;
		const now = Date.now();
		this.dueAt = Math.min(this.dueAt, soon ? now : now + this.pace());
		this.writing ??= this.writeLoop().finally(() => (this.writing = undefined));
	}

	/** The node run ends: what is not yet written is written now. Never throws. */
	async settled(): Promise<void> {
		this.ending = true;
		while (this.writing) await this.writing;
		if (this.version !== this.written && this.failures < MAX_FAILURES) {
			this.writing = this.writeLoop().finally(() => (this.writing = undefined));
			await this.writing;
		}
	}

	/** Every entry as a log would name it: `item 2 task task_x (video)`. */
	describe(): string[] {
		return [...this.entries.entries()]
			.sort(([a], [b]) => a - b)
			.map(([item, entry]) => `item ${item} ${describeEntry(entry)}`);
	}

	private pace(): number {
		return Math.min(PACE.maxMs, Math.max(PACE.minMs, this.entries.size * PACE.perEntryMs));
	}

	private async writeLoop(): Promise<void> {
		while (this.version !== this.written && this.failures < MAX_FAILURES) {
			await this.untilDue();
			const version = this.version;
			this.dueAt = Infinity;
			// Nothing written and nothing to write (a submit refused before its entry was written).
			if (this.entries.size === 0 && this.writtenEntries === 0) {
				this.written = version;
				continue;
			}
			const size = this.entries.size;
			this.lastWriteAt = Date.now();
			try {
				await this.write();
				this.written = version;
				this.writtenEntries = size;
				this.failures = 0;
				this.failure = undefined;
			} catch (error) {
				this.failures++;
				const first = this.failure === undefined;
				this.failure = (error as Error)?.message || String(error);
				if (first) this.onFailure(this.failure, this.describe());
				// Tried again with the next change (or at the end), not in a loop of its own.
				if (this.version === version) return;
			}
		}
	}

	/** Until the write is due and a pace has passed since the last one; at once when the node run ends or is stopped. */
	private async untilDue(): Promise<void> {
		const signal = cancelSignalOf(this.ctx);
		for (;;) {
			if (this.ending || signal?.aborted) return;
			const left = Math.max(this.dueAt, this.lastWriteAt + this.pace()) - Date.now();
			if (left <= 0) return;
			try {
				await abortableSleep(Math.min(left, SLICE_MS), this.ctx);
			} catch {
				return; // Stop: write what there is now
			}
		}
	}

	private async write(): Promise<void> {
		const ctx = this.ctx;
		if (typeof ctx.executeWorkflow !== 'function')
			throw new Error('this n8n gives nodes no sub-workflow executions');
		const executionId = ctx.getExecutionId();
		const workflowId = ctx.getWorkflow().id ?? '';
		const node = ctx.getNode().name;
		const items: INodeExecutionData[] = [...this.entries.entries()]
			.sort(([a], [b]) => a - b)
			.map(([item, entry]) => ({
				json: { execution: executionId, node, item, ...entry } as IDataObject,
			}));
		if (items.length === 0) items.push({ json: { execution: executionId, node, receipt: 'none' } });
		await ctx.executeWorkflow(
			{ code: receiptWorkflow(workflowId, executionId, node) },
			items,
			undefined,
			{
				parentExecution: { executionId, workflowId, shouldResume: false },
			},
		);
	}
}

function describeEntry(entry: ReceiptEntry): string {
	if (entry.receipt === 'task') return `task ${entry.taskId} (query route ${entry.queryRoute})`;
	if (entry.receipt === 'result') return `paid result ${entry.resultUrls.join(' ')}`;
	return 'submit sent, no answer (may have been created)';
}
