import type { GatewayContext } from '../transport/context';
import { gatewayCredentials } from '../transport/context';
import { gatewayRequest } from '../transport/request';
import { originsFrom } from '../transport/urls';
import { QUERY_ROUTES, type QueryRoute } from './routes';
import { readTask, type TaskSnapshot } from './snapshot';

export interface QueryOptions {
	language?: string;
	itemIndex?: number;
	timeoutMs?: number;
	/** Off for the waiter, which reschedules a failed poll instead of blocking its loop. */
	retries?: boolean;
	/** Epoch ms by which the query and its retries are over (a trigger poll's budget). */
	deadlineAt?: number;
}

/** One reading of a task through the route that created it (spec 4.5, 4.7, 4.9, 4.10). */
export async function queryTask(
	ctx: GatewayContext,
	routeName: QueryRoute,
	taskId: string,
	options: QueryOptions = {},
): Promise<TaskSnapshot> {
	const route = QUERY_ROUTES[routeName];
	const { body } = await gatewayRequest.call(ctx, {
		method: 'GET',
		host: route.host,
		path: route.path(taskId),
		qs: options.language ? { language: options.language } : undefined,
		action: `checking task ${taskId}`,
		itemIndex: options.itemIndex,
		timeoutMs: options.timeoutMs,
		retries: options.retries,
		deadlineAt: options.deadlineAt,
	});
	return readTask(body, taskId, { contentUrl: await contentUrlOf(ctx, routeName, taskId) });
}

/** The absolute URL of the route's content download, on the host that holds the task. */
async function contentUrlOf(ctx: GatewayContext, routeName: QueryRoute, taskId: string): Promise<string | undefined> {
	const route = QUERY_ROUTES[routeName];
	if (!route.contentPath) return undefined;
	const origins = originsFrom(await gatewayCredentials(ctx));
	return `${origins[route.host]}${route.contentPath(taskId)}`;
}
