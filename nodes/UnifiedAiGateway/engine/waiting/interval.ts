import { gatewayCredentials, type GatewayContext } from '../../transport/context';
import { isLoopbackHost, originsFrom } from '../../transport/urls';
import { addHint } from '../hints';
import { QUERY_ROUTES, type QueryRoute } from '../../api/tasks/routes';

/** A gateway on this machine (tests, a local simulator): any interval is fine there. */
export function isLoopbackOrigin(origin: string): boolean {
	try {
		return isLoopbackHost(new URL(origin).hostname);
	} catch {
		return false;
	}
}

export interface PollIntervals {
	of(route: QueryRoute): number;
	/** What was raised and why, once per route; empty when the user's value was obeyed. */
	notices: string[];
}

/**
 * The interval per route: the user's value, but never below the spec's advice for the route
 * (docs/gateway-contract.md §8: polling faster only adds load and risks a rate limit) unless the host is loopback.
 */
export async function pollIntervals(
	ctx: GatewayContext,
	routes: readonly QueryRoute[],
	requestedMs: number | undefined,
): Promise<PollIntervals> {
	const chosen = new Map<QueryRoute, number>();
	const notices: string[] = [];
	let origins: { main: string; alt: string } | undefined;
	for (const route of new Set(routes)) {
		const advice = QUERY_ROUTES[route].intervalMs;
		if (requestedMs === undefined || requestedMs >= advice) {
			chosen.set(route, requestedMs ?? advice);
			continue;
		}
		origins ??= await gatewayOrigins(ctx);
		if (origins && isLoopbackOrigin(origins[QUERY_ROUTES[route].host])) {
			chosen.set(route, Math.max(requestedMs, 1));
			continue;
		}
		chosen.set(route, advice);
		notices.push(
			`Poll Interval raised from ${requestedMs / 1000} s to ${advice / 1000} s ` +
				`for the ${QUERY_ROUTES[route].label}, as the gateway advises (faster ` +
				`only adds load)`,
		);
	}
	return { of: (route) => chosen.get(route) ?? QUERY_ROUTES[route].intervalMs, notices };
}

async function gatewayOrigins(ctx: GatewayContext) {
	try {
		return originsFrom(await gatewayCredentials(ctx));
	} catch {
		return undefined;
	}
}

/** Tells the user, in the node's output panel where n8n has execution hints, and in the log. */
export function announce(ctx: GatewayContext, notices: string[]): void {
	for (const message of notices) {
		ctx.logger?.warn(message);
		addHint(ctx, message, 'info');
	}
}
