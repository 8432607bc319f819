import type { IDataObject } from 'n8n-workflow';

import { nodeOf, type GatewayContext } from '../../transport/context';
import type { QueryRoute } from '../../api/tasks/routes';

/**
 * The longest an AI Agent's tool call waits for a task: an agent (and the person chatting with it)
 * should get an answer in a minute, not after a 30-minute render. Max Wait may lower it, never raise it.
 */
export const TOOL_MAX_WAIT_MS = 60_000;

/** The node type n8n generates from `usableAsTool` (`<package>.unifiedAiGatewayTool`). */
const TOOL_TYPE_SUFFIX = 'unifiedAiGatewayTool';

/**
 * Whether this run is an AI Agent's tool call. n8n 2.x says so with isToolExecution() when the
 * agent runs the tool as a sub-node; a tool run by the engine as a node of its own (both lines)
 * and every tool call on 1.x (no such method) is known by the node type n8n generated.
 */
export function isToolRun(ctx: GatewayContext): boolean {
	const asked = (ctx as { isToolExecution?: () => boolean }).isToolExecution;
	if (typeof asked === 'function') {
		try {
			if (asked.call(ctx) === true) return true;
		} catch {
			// fall through to the node type
		}
	}
	const type = typeof ctx.getNode === 'function' ? (nodeOf(ctx)?.type ?? '') : '';
	return type === TOOL_TYPE_SUFFIX || type.endsWith(`.${TOOL_TYPE_SUFFIX}`);
}

/**
 * The wait of a tool call: at most TOOL_MAX_WAIT_MS (a shorter Max Wait stays), and a task still
 * running then is answered as pending, never as a failure: the model can check it later.
 */
export function toolWait<W extends { deadlineMs?: number; onTimeout: 'pending' | 'fail' }>(
	wait: false | W,
): false | W {
	if (!wait) return wait;
	const asked = wait.deadlineMs;
	const deadlineMs =
		typeof asked === 'number' && Number.isFinite(asked) && asked > 0
			? Math.min(asked, TOOL_MAX_WAIT_MS)
			: TOOL_MAX_WAIT_MS;
	return { ...wait, deadlineMs, onTimeout: 'pending' };
}

/**
 * Whether the tool's operation reads a task that exists (Task → Wait for Completion, Check Once)
 * or created it (Generate): the operation is the caller's to know, the engine reads no parameter.
 */
export type ToolTask = 'reads' | 'created';

/**
 * What a model reads about a task still running: its id, state and how to check it. A tool that
 * created the task must not be called again for it (that submits and bills a new one).
 */
export function toolPendingText(
	task: { taskId: string; route?: QueryRoute; status?: string; progress?: number },
	tool: ToolTask,
): string {
	const state =
		(task.status ? `status '${task.status}'` : 'submitted') +
		(task.progress !== undefined ? `, ${task.progress}%` : '');
	const route = task.route ? ` and query route ${task.route}` : '';
	const again =
		tool === 'reads'
			? `Call this tool again with task id ${task.taskId}${route} in about a minute.`
			: `To check it, call a Unified AI Gateway tool set to Task → Get (or Task → ` +
				`Wait for Completion) with task id ${task.taskId}${route} in about a ` +
				`minute. Do not call this tool again for it: that would start, and bill, ` +
				`a new task.`;
	return `Task ${task.taskId} is still running (${state}). ${again}`;
}

/** A pending item's json as an agent gets it: the same fields, `message` in the model's terms. */
export function toolPendingJson(json: IDataObject, tool: ToolTask): IDataObject {
	const taskId = typeof json.taskId === 'string' ? json.taskId : undefined;
	if (!taskId) return json;
	// The submit's raw answer means nothing to a model and only costs it tokens.
	const rest = { ...json };
	delete rest.submitResponse;
	return {
		...rest,
		message: toolPendingText(
			{
				taskId,
				route: json.queryRoute as QueryRoute | undefined,
				status: typeof json.status === 'string' ? json.status : undefined,
				progress: typeof json.progress === 'number' ? json.progress : undefined,
			},
			tool,
		),
	};
}
