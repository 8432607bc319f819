import type { IDataObject } from 'n8n-workflow';

import type { GatewayContext } from '../../transport/context';
import { gatewayCredentials } from '../../transport/context';
import { answerError, gatewayRequest, GatewayRequestError } from '../../transport/request';
import { originsFrom } from '../../transport/urls';
import { QUERY_ROUTES, type QueryRoute, type RouteInfo } from './routes';
import { nodeErrorOf } from '../../transport/nodeError';
import { otherTaskIdOf, snapshotOf, type TaskSnapshot } from './snapshot';

export interface QueryOptions {
	language?: string;
	itemIndex?: number;
	timeoutMs?: number;
	/** Off for the waiter, which reschedules a failed poll instead of blocking its loop. */
	retries?: boolean;
	/** Epoch ms by which the query and its retries are over (a trigger poll's budget). */
	deadlineAt?: number;
}

/** A way to read a task: the route itself, or one of its fallbacks. */
interface Reading {
	path: (taskId: string) => string;
	contentPath?: (taskId: string) => string;
	/** `GET /v1/video/generations/{id}`, named in the output when a fallback answered. */
	label?: string;
}

/**
 * Which reading of each route answered in this node run or poll (per context object): once a
 * gateway showed it lacks a route, the run goes on with the one that answered.
 */
const chosenReadings = new WeakMap<object, Map<QueryRoute, number>>();

function readingsOf(route: RouteInfo): Reading[] {
	return [{ path: route.path, contentPath: route.contentPath }, ...(route.fallbacks ?? [])];
}

/**
 * Whether an answer sends the read on to the route's next reading: 404 `Invalid URL`, the relay's
 * answer for a path it does not serve (docs/gateway-contract.md §10.2); on a route that knows only some of its
 * tasks (`fallbackOn: 'notFound'`) also a 404 or 400 `task_not_exist` (docs/gateway-contract.md §10.9).
 */
function routeMissing(error: unknown, on: RouteInfo['fallbackOn']): boolean {
	if (!(error instanceof GatewayRequestError)) return false;
	const status = String(error.httpCode);
	if (status === '404' && /invalid url/i.test(error.gatewaySaid ?? '')) return true;
	return (
		on === 'notFound' &&
		(status === '404' || (status === '400' && error.gatewayCode === 'task_not_exist'))
	);
}

/**
 * One reading of a task through the route that created it (docs/gateway-contract.md §4.5, §4.7,
 * §4.9, §4.10; fallbacks §10.2).
 */
export async function queryTask(
	ctx: GatewayContext,
	routeName: QueryRoute,
	taskId: string,
	options: QueryOptions = {},
): Promise<TaskSnapshot> {
	const route = QUERY_ROUTES[routeName];
	const readings = readingsOf(route);
	const chosen = chosenReadings.get(ctx) ?? new Map<QueryRoute, number>();
	chosenReadings.set(ctx, chosen);
	const origin = originsFrom(await gatewayCredentials(ctx))[route.host];
	const first = chosen.get(routeName) ?? 0;
	// From the reading that answered last, on round the others once: on a route that knows only
	// some of its tasks, the reading one task needs is not every task's.
	let firstMissing: unknown;
	for (let step = 0; ; step++) {
		const index = (first + step) % readings.length;
		const reading = readings[index];
		try {
			const { body } = await gatewayRequest.call(ctx, {
				method: 'GET',
				host: route.host,
				path: reading.path(taskId),
				// `language` is the generic query's own parameter (docs/gateway-contract.md §4.10).
				qs: options.language && index === 0 ? { language: options.language } : undefined,
				action: `checking task ${taskId}`,
				itemIndex: options.itemIndex,
				timeoutMs: options.timeoutMs,
				retries: options.retries,
				deadlineAt: options.deadlineAt,
			});
			if (chosen.get(routeName) !== index && (index > 0 || chosen.has(routeName)))
				chosen.set(routeName, index);
			// The relay's Suno envelope: a `code` other than success is a refusal, whatever the status.
			if (route.songs && refusedSuno(body))
				throw await answerError(
					ctx,
					{ action: `checking task ${taskId}`, status: 200, body, refusedWith200: true },
					options.itemIndex,
				);
			// An answer about another task is a bad read of this one (retried as such), never its state.
			const other = otherTaskIdOf(body, taskId);
			if (other)
				throw await answerError(
					ctx,
					{
						action: `checking task ${taskId}`,
						status: 200,
						otherTask: { asked: taskId, named: other },
					},
					options.itemIndex,
				);
			return snapshotOf(body, taskId, {
				contentUrl:
					reading.contentPath && origin ? `${origin}${reading.contentPath(taskId)}` : undefined,
				origin,
				answeredBy: reading.label,
				...(route.songs ? { songs: true } : {}),
			});
		} catch (error) {
			if (error instanceof GatewayRequestError && error.rule === 'another-task')
				throw keepingTask(error, taskId);
			if (!routeMissing(error, route.fallbackOn))
				throw keepingTask(nodeErrorOf(ctx.getNode(), error, options.itemIndex), taskId);
			firstMissing ??= error;
			// Every reading missed: the answer of the first one tried tells the user the most.
			if (step + 1 >= readings.length)
				throw keepingTask(nodeErrorOf(ctx.getNode(), firstMissing, options.itemIndex), taskId);
		}
	}
}

/** A Suno answer whose `code` is not `success` (docs/gateway-contract.md §10.15). */
export function refusedSuno(body: unknown): boolean {
	const code = (body as IDataObject | undefined)?.code;
	return typeof body !== 'object' || body === null || code !== 'success';
}

/** Whatever a read failed of, its error keeps the task it was about (an error item's taskId). */
function keepingTask<E extends { context?: IDataObject }>(error: E, taskId: string): E {
	if (error.context && error.context.taskId === undefined && !error.context.stopped)
		error.context.taskId = taskId;
	return error;
}
