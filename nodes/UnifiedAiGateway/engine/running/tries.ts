import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Submitted } from './types';

/*
 * What one run of the node created, kept for n8n's Retry On Fail. n8n-core's WorkflowExecute
 * retries a node by calling execute() again in the same execution and process, with the same
 * input items and the very same execute-data object (its node-execution-stack entry). That
 * object is the key: a WeakMap entry lives exactly as long as the execution holds the entry, so
 * nothing needs evicting, another run index or execution never sees it, and another process
 * (n8n 1.x queue mode running a crashed execution again) starts with nothing, as before.
 */

/** One item's submit as the earlier tries left it. */
export type TryRecord =
	/** Sent, not answered yet (or the answer was lost): a task may exist. Never sent again. */
	| { state: 'sending'; fingerprint: string }
	/**
	 * Answered: a task id, or a sync answer with its result URLs. Taken up, not sent again.
	 * `output`: its finished output (files included), once built: a retry outputs it again instead
	 * of downloading again. n8n's binary entries are references in filesystem mode and base64 in
	 * the default mode; either way the execution holds them already.
	 */
	| { state: 'created'; fingerprint: string; submitted: Submitted; output?: INodeExecutionData[] };

interface RunRecords {
	submits: Map<number, TryRecord>;
	/** Outputs of one-call-per-item operations (a chat answer), by item: the fingerprint and the value. */
	outputs: Map<number, { fingerprint: string; value: unknown }>;
}

const runs = new WeakMap<object, RunRecords>();

/** This run's records, or undefined when n8n will not retry it (Retry On Fail off) or the run cannot be told. */
function recordsOf(ctx: IExecuteFunctions): RunRecords | undefined {
	let key: unknown;
	try {
		if (ctx.getNode().retryOnFail !== true) return undefined;
		key = ctx.getExecuteData?.();
	} catch {
		return undefined;
	}
	if (!key || typeof key !== 'object') return undefined;
	let records = runs.get(key);
	if (!records) {
		records = { submits: new Map(), outputs: new Map() };
		runs.set(key, records);
	}
	return records;
}

/** The memory of this run's submits (engine/running/batch.ts), when a retry can follow. */
export function tryMemory(ctx: IExecuteFunctions): TryMemory | undefined {
	const records = recordsOf(ctx);
	return records ? new TryMemory(records.submits) : undefined;
}

/**
 * The outputs an earlier try of this run gave per item (engine/running/perItem.ts for billed calls such
 * as a chat answer), when a retry can follow: an item answered before is output again, not paid again.
 */
export function outputMemory(ctx: IExecuteFunctions) {
	const outputs = recordsOf(ctx)?.outputs;
	if (!outputs) return undefined;
	return {
		recall(itemIndex: number, fingerprint: string): { value: unknown } | undefined {
			const kept = outputs.get(itemIndex);
			return kept && kept.fingerprint === fingerprint ? { value: kept.value } : undefined;
		},
		keep(itemIndex: number, fingerprint: string, value: unknown): void {
			outputs.set(itemIndex, { fingerprint, value });
		},
	};
}

export class TryMemory {
	constructor(private readonly records: Map<number, TryRecord>) {}

	/**
	 * What an earlier try left for this item, if it was the same request: the same input item
	 * index and the same prepared request (model, body, references). A changed request is new work.
	 */
	recall(itemIndex: number, fingerprint: string): TryRecord | undefined {
		const record = this.records.get(itemIndex);
		if (record && record.fingerprint !== fingerprint) {
			this.records.delete(itemIndex);
			return undefined;
		}
		return record;
	}

	sending(itemIndex: number, fingerprint: string): void {
		this.records.set(itemIndex, { state: 'sending', fingerprint });
	}

	created(itemIndex: number, fingerprint: string, submitted: Submitted): void {
		this.records.set(itemIndex, { state: 'created', fingerprint, submitted });
	}

	/** The item's finished output (every file arrived): a retry outputs it again as it is. */
	built(itemIndex: number, output: INodeExecutionData[]): void {
		const record = this.records.get(itemIndex);
		if (record?.state === 'created') record.output = output;
	}

	/** Items whose submit an earlier try sent without getting an answer: they may have been created. */
	unanswered(): number[] {
		return [...this.records]
			.filter(([, record]) => record.state === 'sending')
			.map(([itemIndex]) => itemIndex);
	}

	/** What earlier tries created, by item: their receipts belong in this try's record too (receipts.ts). */
	createdBefore(): Array<[number, Submitted]> {
		return [...this.records].flatMap(([itemIndex, record]) =>
			record.state === 'created' ? [[itemIndex, record.submitted] as [number, Submitted]] : [],
		);
	}

	/**
	 * Surely not created (the gateway refused it), or the gateway reported its task failed: a retry may submit it again.
	 */
	forget(itemIndex: number): void {
		this.records.delete(itemIndex);
	}
}

/**
 * A short, stable fingerprint of a prepared request. Binary parts (references to upload) count
 * by their bytes, so the same file is the same request and another file is not.
 */
export function fingerprintOf(prepared: unknown): string {
	let hash = 0x811c9dc5;
	let hash2 = 0x01000193;
	const mix = (text: string) => {
		for (let i = 0; i < text.length; i++) {
			const code = text.charCodeAt(i);
			hash = Math.imul(hash ^ code, 0x01000193) >>> 0;
			hash2 = Math.imul(hash2 ^ code, 0x5bd1e995) >>> 0;
		}
	};
	const seen = new WeakSet<object>();
	const walk = (value: unknown): void => {
		if (value instanceof Uint8Array) {
			mix(`bytes:${value.length}:`);
			let bytes = 0;
			for (let i = 0; i < value.length; i++) bytes = Math.imul(bytes ^ value[i], 0x01000193) >>> 0;
			mix(String(bytes));
			return;
		}
		if (Array.isArray(value)) {
			mix('[');
			value.forEach(walk);
			mix(']');
			return;
		}
		if (value && typeof value === 'object') {
			if (seen.has(value)) return;
			seen.add(value);
			mix('{');
			for (const key of Object.keys(value).sort()) {
				mix(`${key}:`);
				walk((value as Record<string, unknown>)[key]);
			}
			mix('}');
			return;
		}
		mix(`${typeof value}:${String(value)};`);
	};
	walk(prepared);
	return `${hash.toString(36)}.${hash2.toString(36)}`;
}
