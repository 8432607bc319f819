import type { IExecuteFunctions } from 'n8n-workflow';

import { nodeOf } from '../../transport/context';
import { ReceiptExecutions } from './receiptExecutions';
import type { QueryRoute } from '../../api/tasks/routes';
import { shownUrl } from '../../api/tasks/results';

/** n8n's custom execution data: at most 10 keys per execution, keys [A-Za-z0-9_] ≤ 50, values ≤ 255. */
interface CustomData {
	set(key: string, value: string): void;
	get(key: string): string | undefined;
	getAll(): Record<string, string>;
}

const VALUE_LIMIT = 255;
const KEY_LIMIT = 10;
const NONE = 'none';

/** The item indexes a `…_sending` value lists ("items 0 2 (submit sent, …)"); none for "none" or a count. */
function listedItems(value: string | undefined): number[] {
	const listed = /^items ([\d ]+) \(/.exec(value ?? '');
	return listed ? listed[1].split(' ').filter(Boolean).map(Number) : [];
}

/** Appends `value` to the last chunk when it fits (space-separated), else starts one; returns the chunk's index. */
function appendChunked(chunks: string[], value: string): number {
	const last = chunks.length - 1;
	if (last >= 0 && chunks[last].length + 1 + value.length <= VALUE_LIMIT)
		chunks[last] += ` ${value}`;
	else chunks.push(value.slice(0, VALUE_LIMIT));
	return chunks.length - 1;
}

/**
 * Where every task a node run creates is written the moment its submit answers, so that Stop,
 * a crash or a failed item never loses one:
 *  - the execution's custom data (saved with the execution, also a stopped one): one key per
 *    node and route, `gateway_<Node>_<route>[_n]`, its value the ids separated by spaces (ready
 *    to paste into the trigger's Task IDs), and `gateway_<Node>_sending` listing the items whose
 *    submit was sent but not yet answered (they may have been created);
 *  - receipt executions (engine/running/receiptExecutions.ts): saved by n8n in its database while the node
 *    still runs, so a killed process loses none, whatever the log level (docs/receipts.md);
 *  - the n8n log at info level, one line per task with the execution id and item index (at warn
 *    while receipt executions cannot be written).
 */
export class ReceiptLog {
	private readonly prefix: string;

	/** Per route, the ids as their custom data values hold them: each chunk ≤ VALUE_LIMIT characters. */
	private readonly idChunks = new Map<QueryRoute, string[]>();

	private readonly sending = new Set<number>();

	private warned = false;

	/**
	 * Items whose submit went out in an earlier try of this node run (Retry On Fail) and never
	 * answered: they may have been created whatever this try does, so they stay listed.
	 */
	private lostBefore?: Set<number>;

	private readonly durable: ReceiptExecutions;

	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly noun: string,
		private readonly earlierSending: Iterable<number> = [],
		earlierCreated: Iterable<
			[number, { taskId?: string; route?: QueryRoute; receiptUrls?: string[] }]
		> = [],
	) {
		const name = nodeOf(ctx)
			.name.replace(/[^A-Za-z0-9_]+/g, '_')
			.replace(/^_+|_+$/g, '')
			.slice(0, 28);
		this.prefix = `gateway_${name || 'node'}`;
		this.durable = new ReceiptExecutions(ctx, (reason, entries) =>
			this.ctx.logger?.warn(
				`Unified AI Gateway: execution ${this.executionId()} node "${nodeOf(this.ctx).name}" ` +
					`could not save its receipts as an execution of this workflow (${reason}); ` +
					`they are in this log, at warn level from now on: ${entries.join('; ') || 'none yet'}`,
				{ executionId: this.executionId() },
			),
		);
		let runs = runsOf.get(ctx);
		if (!runs) runsOf.set(ctx, (runs = new Set()));
		runs.add(this.durable);
		// Retry On Fail: what earlier tries left stays in this try's receipt executions, which hold the whole run.
		for (const itemIndex of earlierSending)
			this.durable.set(itemIndex, { receipt: 'unanswered' }, false);
		for (const [itemIndex, earlier] of earlierCreated) {
			if (earlier.taskId && earlier.route)
				this.durable.set(
					itemIndex,
					{ receipt: 'task', taskId: earlier.taskId, queryRoute: earlier.route },
					false,
				);
			else if (earlier.receiptUrls?.length)
				this.durable.set(
					itemIndex,
					{ receipt: 'result', resultUrls: earlier.receiptUrls.map(shownUrl) },
					false,
				);
		}
	}

	/** A submit is about to go out: until it answers, the item may or may not have a task. */
	submitting(itemIndex: number): void {
		this.sending.add(itemIndex);
		this.durable.set(itemIndex, { receipt: 'unanswered' }, false);
		this.writeSending();
	}

	/** A receipt line: info, or warn while receipt executions cannot be written (it is then the only durable trace). */
	private logReceipt(message: string, meta: Record<string, unknown>): void {
		if (this.durable.failure === undefined) this.ctx.logger?.info(message, meta);
		else this.ctx.logger?.warn(message, meta);
	}

	/**
	 * The submit answered (or failed): the item leaves the "sending" list. A task id, or a
	 * synchronous answer's result URLs (query included: a signed URL without it fetches nothing),
	 * is the receipt of what was paid for, recorded before any download is tried.
	 */
	answered(itemIndex: number, taskId?: string, route?: QueryRoute, receiptUrls?: string[]): void {
		this.sending.delete(itemIndex);
		if (!(taskId && route) && !(receiptUrls && receiptUrls.length > 0))
			this.durable.set(itemIndex, undefined, false);
		if (!taskId && receiptUrls && receiptUrls.length > 0) this.receipt(itemIndex, receiptUrls);
		if (taskId && route) {
			this.durable.set(itemIndex, { receipt: 'task', taskId, queryRoute: route }, true);
			this.logReceipt(
				`Unified AI Gateway: execution ${this.executionId()} node "${nodeOf(this.ctx).name}" ` +
					`item ${itemIndex} created ${this.noun} task ${taskId} (query route ${route}). ` +
					`If this execution stops, resume it with Task → Wait for Completion; do ` +
					`not submit it again.`,
				{ executionId: this.executionId(), itemIndex, taskId, queryRoute: route },
			);
			this.writeId(route, taskId);
		}
		this.writeSending();
	}

	/** A paid synchronous result (no task id): its URLs into the log and custom data `gateway_<Node>_results[_n]`. */
	private receipt(itemIndex: number, urls: string[]): void {
		// An inline (base64) result is named by its kind and size, not its bytes.
		const listed = urls.map(shownUrl);
		this.durable.set(itemIndex, { receipt: 'result', resultUrls: listed }, true);
		this.logReceipt(
			`Unified AI Gateway: execution ${this.executionId()} node "${nodeOf(this.ctx).name}" ` +
				`item ${itemIndex} received a paid ${this.noun} result without a task ID; ` +
				`its result URLs (fetch them before they expire; do not run the item ` +
				`again): ${listed.join(' ')}`,
			{ executionId: this.executionId(), itemIndex, resultUrls: listed },
		);
		// An earlier try's receipts (Retry On Fail, same custom data) stay beside this try's.
		const key = `${this.prefix}_results`;
		if (!this.resultChunks) {
			this.resultChunks = [];
			for (const url of this.earlier(key)) appendChunked(this.resultChunks, url);
		}
		for (const url of listed) {
			if (url.length > VALUE_LIMIT) continue; // the log line above holds it
			const n = appendChunked(this.resultChunks, url);
			this.set(`${key}${n > 0 ? `_${n + 1}` : ''}`, this.resultChunks[n]);
		}
	}

	/** The result URLs as their custom data values hold them (as idChunks). */
	private resultChunks?: string[];

	/**
	 * What an earlier try of this node wrote under `key[_n]` in this execution (Retry On Fail runs
	 * the node again with the same custom data): kept, so a retry never hides a task or a receipt
	 * it did not create.
	 */
	private earlier(key: string): string[] {
		const known = this.data()?.getAll() ?? {};
		return Object.entries(known)
			.filter(
				([name]) =>
					name === key || (name.startsWith(`${key}_`) && /^\d+$/.test(name.slice(key.length + 1))),
			)
			.sort(
				([a], [b]) => Number(a.slice(key.length + 1) || 1) - Number(b.slice(key.length + 1) || 1),
			)
			.flatMap(([, value]) => value.split(' ').filter(Boolean));
	}

	/**
	 * Adds one id to its route's values. Only the value that changed is written again: a run of
	 * 500 items would otherwise rebuild every value on every answer.
	 */
	private writeId(route: QueryRoute, taskId: string): void {
		const key = `${this.prefix}_${route}`;
		let chunks = this.idChunks.get(route);
		if (!chunks) {
			chunks = [];
			for (const id of this.earlier(key)) appendChunked(chunks, id);
			this.idChunks.set(route, chunks);
		}
		const n = appendChunked(chunks, taskId);
		this.set(`${key}${n > 0 ? `_${n + 1}` : ''}`, chunks[n]);
	}

	private writeSending(): void {
		const key = `${this.prefix}_sending`;
		// The earlier tries' list, as they left it in custom data and in the try memory (engine/running/tries.ts).
		this.lostBefore ??= new Set([...this.earlierSending, ...listedItems(this.data()?.get(key))]);
		const items = [...new Set([...this.lostBefore, ...this.sending])].sort((a, b) => a - b);
		if (items.length === 0 && this.data()?.get(key) === undefined) return;
		const text =
			items.length === 0
				? NONE
				: `items ${items.join(' ')} (submit sent, answer not received: may have been created)`;
		this.set(
			key,
			text.length <= VALUE_LIMIT
				? text
				: `${items.length} items (submit sent, answer not received); see the n8n log`,
		);
	}

	private set(key: string, value: string): void {
		const data = this.data();
		if (!data) return;
		if (data.get(key) === undefined && Object.keys(data.getAll()).length >= KEY_LIMIT) {
			if (!this.warned) {
				this.warned = true;
				this.ctx.logger?.warn(
					`Unified AI Gateway: execution ${this.executionId()} has no room left in ` +
						`its custom data (n8n keeps ${KEY_LIMIT} keys); further task ids and ` +
						`result URLs are only in the n8n log and the node's output.`,
				);
			}
			return;
		}
		data.set(key, value);
	}

	private customData?: CustomData | null;

	/** n8n's own handle (the one the Execution Data node uses), looked up once per run. */
	private data(): CustomData | undefined {
		if (this.customData === undefined) {
			try {
				const proxy = this.ctx.getWorkflowDataProxy(0) as {
					$execution?: { customData?: CustomData };
				};
				this.customData = proxy.$execution?.customData ?? null;
			} catch {
				this.customData = null;
			}
		}
		return this.customData ?? undefined;
	}

	private executionId(): string {
		try {
			return this.ctx.getExecutionId();
		} catch {
			return 'unknown';
		}
	}
}

/** The receipt executions of every ReceiptLog of a node run (its n8n context). */
const runsOf = new WeakMap<IExecuteFunctions, Set<ReceiptExecutions>>();

/**
 * The node run ends: every receipt not yet in a receipt execution is written now, so the node's
 * output is never ahead of its durable record. Never throws.
 */
export async function receiptsSettled(ctx: IExecuteFunctions): Promise<void> {
	const runs = runsOf.get(ctx);
	if (runs) await Promise.all([...runs].map(async (run) => await run.settled()));
}
