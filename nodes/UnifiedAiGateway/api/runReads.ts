import type { IDataObject } from 'n8n-workflow';

import { CREDENTIAL_TYPE, gatewayCredentials, type GatewayContext } from '../transport/context';
import { isStop, nodeErrorOf } from '../transport/nodeError';
import { gatewayRequest, GatewayRequestError } from '../transport/request';
import type { AnswerKind } from '../transport/responses';
import { readPastedKey } from '../transport/secrets';
import { originsFrom } from '../transport/urls';

/*
 * Free reads a node run makes at most once (per context object: a node run; a trigger poll, begun
 * on its activation's context), and answers kept briefly across runs: the gateway's price list and
 * its quota unit do not change between two runs a minute apart, and the quota route allows 20 reads
 * per 20 minutes per IP (docs/gateway-contract.md §10.11). What is kept across runs is process-wide
 * state: bounded, keyed by the credential, its Base URL and its key (two credentials never share an
 * answer), judged by the time it was read (no timer).
 */

const perRun = new WeakMap<object, Map<string, Promise<unknown>>>();

/** `read` once per node run; every later call of the same run gets the same answer. */
export async function oncePerRun<T>(
	ctx: GatewayContext,
	name: string,
	read: () => Promise<T>,
): Promise<T> {
	let reads = perRun.get(ctx);
	if (!reads) {
		reads = new Map();
		perRun.set(ctx, reads);
	}
	let found = reads.get(name) as Promise<T> | undefined;
	if (!found) {
		found = read();
		reads.set(name, found);
	}
	return await found;
}

/**
 * Begins a new run on a context that outlives one: n8n hands a polling trigger one context for
 * every poll of its activation, so each poll begins its own run here (what an earlier poll read,
 * a balance for one, is read again; an overlapping poll shares the newer run's reads).
 */
export function beginRun(ctx: GatewayContext): void {
	perRun.delete(ctx);
}

/** Answers kept across runs, at most this many (the oldest goes first). */
const MAX_KEPT = 32;
const kept = new Map<string, { at: number; value: unknown }>();

/** FNV-1a of the key: tells two keys apart without keeping the key. */
function fingerprint(text: string): string {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash.toString(16);
}

async function keyOf(ctx: GatewayContext, name: string): Promise<string> {
	const credentials = await gatewayCredentials(ctx);
	const id = ctx.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? '';
	const key = fingerprint(readPastedKey(credentials.apiKey).key);
	return `${name}|${id}|${originsFrom(credentials).main}|${key}`;
}

/** What was kept under `name` for this credential, when younger than `ttlMs`. */
export async function recall<T>(
	ctx: GatewayContext,
	name: string,
	ttlMs: number,
): Promise<T | undefined> {
	const key = await keyOf(ctx, name);
	const found = kept.get(key);
	if (found && Date.now() - found.at < ttlMs) return found.value as T;
	kept.delete(key);
	return undefined;
}

/** Keeps `value` under `name` for this credential, from now. */
export async function remember(ctx: GatewayContext, name: string, value: unknown): Promise<void> {
	const key = await keyOf(ctx, name);
	kept.delete(key);
	kept.set(key, { at: Date.now(), value });
	while (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value as string);
}

/**
 * The answer of `read`, kept for `ttlMs` across runs when `keep` says it may be (a refusal that may
 * pass later, a 429 or a timeout, is not kept).
 */
export async function keptBriefly<T>(
	ctx: GatewayContext,
	name: string,
	ttlMs: number,
	read: () => Promise<T>,
	keep: (value: T) => boolean,
): Promise<T> {
	const found = await recall<T>(ctx, name, ttlMs);
	if (found !== undefined) return found;
	const value = await read();
	if (keep(value)) await remember(ctx, name, value);
	return value;
}

/** A free read's answer, or why there is none (never thrown: what it was for goes on without it). */
export type QuietAnswer =
	| { body: unknown; status: number; headers: IDataObject }
	| {
			/** `GET /api/pricing: HTTP 404 (Invalid URL (GET /api/pricing))`. */
			problem: string;
			status?: number;
			/** A 429, a 5xx or a dropped connection: it may answer later. */
			transient: boolean;
	  };

/** Longest gateway text a reason repeats. */
const MAX_SAID = 160;
/** How long a free read may take; a trigger poll's deadline shortens it, down to the shortest. */
const FREE_READ_MS = 20_000;
const SHORTEST_READ_MS = 1_000;

/**
 * One GET of a free route, made once (no retry loop: a 429 is reported, not waited out), through
 * the one transport (its bounds, redaction and key rules), over by `deadlineAt` where one is given
 * (epoch ms: a trigger poll's budget); a failure is described, not thrown, except a Stop.
 */
export async function quietGet(
	ctx: GatewayContext,
	path: string,
	action: string,
	itemIndex?: number,
	deadlineAt?: number,
	answer?: AnswerKind,
): Promise<QuietAnswer> {
	const timeoutMs =
		deadlineAt === undefined
			? FREE_READ_MS
			: Math.min(FREE_READ_MS, Math.max(SHORTEST_READ_MS, deadlineAt - Date.now()));
	try {
		const got = await gatewayRequest.call(ctx, {
			method: 'GET',
			path,
			action,
			timeoutMs,
			retries: false,
			itemIndex,
			...(answer ? { answer } : {}),
		});
		return { body: got.body, status: got.status, headers: got.headers };
	} catch (error) {
		if (isStop(error)) throw nodeErrorOf(ctx.getNode(), error, itemIndex);
		const failed = error instanceof GatewayRequestError ? error : undefined;
		const status = failed?.httpCode ? Number(failed.httpCode) : undefined;
		const said = (failed?.gatewaySaid ?? (error as Error).message).slice(0, MAX_SAID);
		return {
			problem: `GET ${path}: ${status ? `HTTP ${status}` : 'no answer'} (${said})`,
			status,
			transient: failed?.transient === true,
		};
	}
}

/** A number, or a number written as text; anything else (NaN, words, objects) is none. */
export function numberOf(value: unknown): number | undefined {
	const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}
