/** Items sent to the gateway at once when Options → Concurrency is left out (every operation's default). */
export const DEFAULT_CONCURRENCY = 5;

/** Runs `fn` over `inputs` with at most `limit` at once; results keep the input order. */
export async function mapLimited<T, R>(
	inputs: readonly T[],
	limit: number,
	fn: (input: T, index: number) => Promise<R>,
): Promise<R[]> {
	const results = new Array<R>(inputs.length);
	let next = 0;
	const worker = async () => {
		while (next < inputs.length) {
			const index = next++;
			results[index] = await fn(inputs[index], index);
		}
	};
	const workers = Array.from({ length: Math.max(1, Math.min(limit, inputs.length)) }, worker);
	await Promise.all(workers);
	return results;
}

/** Like Promise.allSettled over mapLimited: one item's failure never hides another's result. */
export async function settleLimited<T, R>(
	inputs: readonly T[],
	limit: number,
	fn: (input: T, index: number) => Promise<R>,
): Promise<Array<{ ok: true; value: R } | { ok: false; error: unknown }>> {
	return await mapLimited(inputs, limit, async (input, index) => {
		try {
			return { ok: true as const, value: await fn(input, index) };
		} catch (error) {
			return { ok: false as const, error };
		}
	});
}

/**
 * A limit on work started one piece at a time as it becomes known (mapLimited needs the whole list
 * first): `run(fn)` starts fn once fewer than the limit are running, in call order. The limit may be
 * a function, asked each time a piece would start: a limit that grows lets the waiting ones start.
 */
export function limiter(limit: number | (() => number)): <R>(fn: () => Promise<R>) => Promise<R> {
	const current = typeof limit === 'number' ? () => limit : limit;
	let running = 0;
	const queue: Array<() => void> = [];
	// Counted when let in, not when it resumes: a newcomer in between cannot take the same place.
	const admit = () => {
		while (queue.length > 0 && running < Math.max(1, current())) {
			running++;
			queue.shift()!();
		}
	};
	return async <R>(fn: () => Promise<R>): Promise<R> => {
		await new Promise<void>((resolve) => {
			queue.push(resolve);
			admit();
		});
		try {
			return await fn();
		} finally {
			running--;
			admit();
		}
	};
}
