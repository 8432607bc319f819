import type { GatewayContext } from './context';
import { abortableSleep } from './sleep';

/**
 * Paces the POSTs of one node run (submits, uploads) so a rate-limited gateway is ridden out
 * instead of hammered. AIMD on the rate, as TCP does with its window: unlimited until the first
 * 429, then 0.8 × the rate that was getting through; +1 request/s for every second of successes;
 * × 0.8 again on a 429 sent at the current rate (the others of the same burst do not count twice).
 * The relay's overload refusal (created.ts refusedBeforeBilling) counts as a 429: it too says "fewer".
 */
const DECREASE = 0.8;
const MIN_RATE = 0.2;
const WINDOW_MS = 1_000;

export interface PacerTicket {
	/** When the request left; a 429 for a request sent before the last slowdown is not news. */
	sentAt: number;
}

export class Pacer {
	/** Requests per second; Infinity until the gateway first says 429. */
	private rate = Infinity;

	private nextAt = 0;

	private slowedAt = 0;

	private recent: number[] = [];

	/** Waits for this request's slot; slots are handed out in call order. */
	async acquire(ctx?: GatewayContext): Promise<PacerTicket> {
		const now = Date.now();
		const at = Math.max(now, this.nextAt);
		if (Number.isFinite(this.rate)) this.nextAt = at + 1000 / this.rate;
		if (at > now) await abortableSleep(at - now, ctx);
		return { sentAt: Date.now() };
	}

	succeeded(): void {
		const now = Date.now();
		this.recent.push(now);
		while (this.recent.length > 0 && this.recent[0] < now - WINDOW_MS) this.recent.shift();
		if (Number.isFinite(this.rate)) this.rate += 1 / this.rate;
	}

	/** A 429: slow down once per burst, and hold every slot until the gateway's Retry-After. */
	limited(ticket: PacerTicket, retryAfterMs?: number): void {
		const now = Date.now();
		if (ticket.sentAt > this.slowedAt) {
			const gettingThrough = this.recent.filter((t) => t >= now - WINDOW_MS).length;
			const basis = Number.isFinite(this.rate) ? this.rate : Math.max(gettingThrough, 1);
			this.rate = Math.max(MIN_RATE, basis * DECREASE);
			this.slowedAt = now;
		}
		if (retryAfterMs !== undefined)
			this.nextAt = Math.max(this.nextAt, now + Math.min(retryAfterMs, 1000 / this.rate));
	}

	get requestsPerSecond(): number {
		return this.rate;
	}
}

const pacers = new WeakMap<object, Pacer>();

/** One pacer per node run: every item's submit of this execution context shares it. */
export function pacerFor(ctx: object): Pacer {
	let pacer = pacers.get(ctx);
	if (!pacer) {
		pacer = new Pacer();
		pacers.set(ctx, pacer);
	}
	return pacer;
}
