import type { IBinaryData, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

import type { GatewayContext } from '../../transport/context';
import { abortableSleep } from '../../transport/sleep';

type Context = IExecuteFunctions | IPollFunctions;

/**
 * Where n8n keeps binary data (its setting N8N_DEFAULT_BINARY_DATA_MODE; docs/ARCHITECTURE.md
 * "Binary data"). A node cannot read n8n's environment, so the mode is read from what n8n's own
 * helper answers: a stored file's id starts with its mode (`filesystem-v2:…`, `database:…`,
 * `s3:…`); a file kept in memory has no id.
 */
export type BinaryMode = 'memory' | 'filesystem' | 'database' | 'objectStore';

/**
 * Per mode, the default size limit of one result file (MB), before Options → Max File Size:
 * - memory: n8n holds the file twice while storing it (the bytes, then their base64 text on the
 *   JavaScript heap) and keeps the text until the execution ends and is saved (a third copy, the
 *   saved JSON). Measured (npm run bench:binary, n8n 2.41.1, heap capped at 384 MB, three videos
 *   at once): 16 MB each peaked at 285 MB of heap, 24 MB at 331 MB, 32 MB at 374 MB (the edge),
 *   60 MB ran n8n out of memory and ended every execution on it. A bigger file is refused, naming
 *   N8N_DEFAULT_BINARY_DATA_MODE=filesystem.
 * - database: n8n's own per-file limit there (N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE, 512 by
 *   default); past it n8n refuses the file only after holding all of it in memory.
 * - filesystem and object stores: the file streams to storage; the kind's own limit.
 */
export const MEMORY_MODE_MAX_MB = 24;
export const DATABASE_MODE_MAX_MB = 512;

/** A file bigger than this (or of unknown size) is stored one at a time where n8n holds it whole. */
export const LARGE_FILE_BYTES = 16 * 1024 * 1024;

export function modeOfBinary(binary: IBinaryData): BinaryMode {
	const prefix =
		typeof binary.id === 'string' && binary.id.includes(':') ? binary.id.split(':')[0] : undefined;
	if (!prefix) return 'memory';
	if (prefix.startsWith('filesystem')) return 'filesystem';
	if (prefix === 'database') return 'database';
	return 'objectStore';
}

/** The default limit of a file kind under a mode (MB); `kindMb` is the kind's own limit. */
export function modeLimitMb(kindMb: number, mode: BinaryMode | undefined): number {
	if (mode === 'memory') return Math.min(kindMb, MEMORY_MODE_MAX_MB);
	if (mode === 'database') return Math.min(kindMb, DATABASE_MODE_MAX_MB);
	return kindMb;
}

/** n8n holds the whole file in its process while storing it (memory and database modes). */
export function holdsWholeFile(mode: BinaryMode | undefined): boolean {
	return mode === 'memory' || mode === 'database';
}

interface RunStore {
	mode?: BinaryMode;
	probe?: Promise<BinaryMode>;
}

/** What one node run (or trigger poll) learned of n8n's storage, per context object (as the pacer). */
const runs = new WeakMap<object, RunStore>();

function runOf(ctx: Context): RunStore {
	let run = runs.get(ctx);
	if (!run) {
		run = {};
		runs.set(ctx, run);
	}
	return run;
}

/** The mode, when a file of this run has shown it. */
export function knownMode(ctx: Context): BinaryMode | undefined {
	return runs.get(ctx)?.mode;
}

/**
 * Stores bytes (a buffer or a stream) through n8n's helper and learns the mode from the answer.
 * Errors are n8n's own (a full disk, a read-only folder, n8n's database limit), passed on.
 */
export async function storeBinary(
	ctx: Context,
	data: Buffer | unknown,
	fileName: string,
	mimeType: string,
): Promise<IBinaryData> {
	const binary = await ctx.helpers.prepareBinaryData(data as Buffer, fileName, mimeType);
	runOf(ctx).mode = modeOfBinary(binary);
	return binary;
}

/**
 * n8n's binary-data folder (N8N_BINARY_DATA_STORAGE_PATH): n8n's path helper only joins a file id
 * to the folder, on both lines, so the path of a made-up id under it names the folder without
 * touching the disk. Undefined where the helper is missing or refuses.
 */
export function binaryFolder(ctx: Context): string | undefined {
	try {
		return storageFolderOf(ctx.helpers.getBinaryPath('filesystem:workflows/folder'));
	} catch {
		return undefined;
	}
}

/** The folder part of a path n8n keeps an execution's files under: `<folder>/workflows/<workflow>/…`. */
export function storageFolderOf(filePath: string | undefined): string | undefined {
	if (!filePath) return undefined;
	const match = /^(.*?)[\\/]workflows[\\/]/.exec(filePath);
	return match ? match[1] : undefined;
}

/**
 * The mode, learned from a file of this run or, before the first, from one probe: a few bytes
 * stored through n8n's helper (nothing cheaper tells a node the mode; one per node run, only for
 * a file whose size makes the mode matter). A probe that fails is n8n's storage failing: thrown.
 */
export async function binaryModeOf(ctx: Context): Promise<BinaryMode> {
	const run = runOf(ctx);
	if (run.mode) return run.mode;
	if (!run.probe) {
		run.probe = storeBinary(
			ctx,
			Buffer.from('binary mode probe'),
			'binary-mode-probe.txt',
			'text/plain',
		).then((binary) => modeOfBinary(binary));
		run.probe.catch(() => (run.probe = undefined));
	}
	return await run.probe;
}

/**
 * Large files stored where n8n holds them whole are stored one at a time in this process: three
 * 250 MB videos at once in database mode held about 1.5 GB (docs/ARCHITECTURE.md "Binary data").
 * Process-wide on purpose: the memory is the process's, whichever execution fills it.
 */
let largeStoreBusy = false;
const WAIT_SLICE_MS = 250;

/** The slot's release, or undefined when another large file holds it. */
export function tryTakeLargeSlot(): (() => void) | undefined {
	if (largeStoreBusy) return undefined;
	largeStoreBusy = true;
	let released = false;
	return () => {
		if (released) return;
		released = true;
		largeStoreBusy = false;
	};
}

/**
 * Waits for the slot: ends on Stop (the Stop error) or at `deadlineAt` (undefined: the slot
 * was not free in time).
 */
export async function takeLargeSlot(
	ctx: GatewayContext,
	deadlineAt: number | undefined,
	itemIndex?: number,
): Promise<(() => void) | undefined> {
	for (;;) {
		const release = tryTakeLargeSlot();
		if (release) return release;
		if (deadlineAt !== undefined && Date.now() >= deadlineAt) return undefined;
		await abortableSleep(WAIT_SLICE_MS, ctx, itemIndex);
	}
}

/** How n8n's storage failed, told from the error it threw while storing a file. */
export interface StorageFailure {
	/** The system's code (ENOSPC…) or n8n's own refusal ('N8N_DATABASE_LIMIT'). */
	code: string;
	/** What the user reads: "the disk of the n8n host is full". */
	what: string;
	/** A file path the error names, when it names one. */
	path?: string;
	/** n8n's database limit in MB, when that is what refused the file. */
	limitMb?: number;
}

const FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'SQLITE_FULL']);
const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'EROFS']);

/**
 * Names a storage failure: a full disk or quota, a folder n8n may not write, a read-only file
 * system, n8n's database-mode limit, memory that ran out; anything else by its code or text.
 */
export function describeStorageFailure(error: unknown): StorageFailure {
	const e = error as {
		code?: unknown;
		path?: unknown;
		message?: unknown;
		name?: unknown;
		constructor?: { name?: string };
	};
	const message = typeof e?.message === 'string' ? e.message : String(error);
	const path = typeof e?.path === 'string' ? e.path : undefined;
	const rawCode =
		typeof e?.code === 'string' ? e.code : /\b(E[A-Z]{3,}|SQLITE_[A-Z]+)\b/.exec(message)?.[1];
	const code =
		rawCode ??
		(/no space left on device|database or disk is full|disk_full/i.test(message)
			? 'ENOSPC'
			: undefined);
	const dbLimit = /max size limit of (\d+(?:\.\d+)?) MB set for `?database`? mode/i.exec(message);
	if (dbLimit || e?.constructor?.name === 'FileTooLargeError') {
		return {
			code: 'N8N_DATABASE_LIMIT',
			what:
				`n8n refused to store it: the file is larger than n8n's limit of ` +
				(dbLimit ? `${dbLimit[1]} MB` : 'its database mode') +
				` per file in database mode (N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE)`,
			limitMb: dbLimit ? Number(dbLimit[1]) : undefined,
		};
	}
	if (code && FULL.has(code))
		return {
			code,
			what: `the disk of the n8n host is full (${code}${code === 'EDQUOT' ? ', disk quota exceeded' : ''})`,
			path,
		};
	if (code && NOT_WRITABLE.has(code)) {
		const why = code === 'EROFS' ? 'its file system is read-only' : 'n8n may not write there';
		return { code, what: `n8n's storage on its host is not writable: ${why} (${code})`, path };
	}
	if (
		code === 'ERR_STRING_TOO_LONG' ||
		/string longer than|allocation failed|out of memory/i.test(message)
	) {
		return {
			code: code ?? 'ENOMEM',
			what: `n8n ran out of memory holding the file (${code ?? 'out of memory'})`,
		};
	}
	return {
		code: code ?? 'unknown',
		what: `n8n could not store it on its host${code ? ` (${code})` : ''}: ${message.split('\n')[0].slice(0, 200)}`,
		path,
	};
}

/** Where n8n keeps binaries under a mode, for messages. */
export function describeStorage(mode: BinaryMode | undefined, folder: string | undefined): string {
	if (mode === 'database') return "n8n's database (binary data mode `database`)";
	if (mode === 'objectStore') return "n8n's external binary-data store (S3 or Azure)";
	if (mode === 'memory') return "n8n's memory (binary data mode `default`)";
	const where = folder ? ` ${folder}` : '';
	return (
		`n8n's binary-data folder${where} (N8N_BINARY_DATA_STORAGE_PATH; by ` +
		`default in n8n's user folder: ~/.n8n/storage on n8n 2.x, ` +
		`~/.n8n/binaryData on 1.x)`
	);
}
