import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREATED_NOTE, type Created } from '../../transport/created';
import { taskIdProblem } from '../../api/tasks/taskIds';

/**
 * Whether a failed submit left a job behind. The transport marks every billed request's error;
 * an error without a mark was raised before the billed POST went out (checks, reference uploads).
 */
export function createdOf(error: unknown): Created {
	const marked = (error as { context?: IDataObject } | undefined)?.context?.created;
	return marked === 'yes' || marked === 'unknown' || marked === 'no' ? marked : 'no';
}

/** A 200 whose answer holds no task id we can read: the gateway accepted and charged the job. */
export function acceptedWithoutId(
	node: INode,
	itemIndex: number,
	noun: string,
	answer: unknown,
	why = 'its answer has no task ID',
): NodeOperationError {
	const text = typeof answer === 'string' ? answer : JSON.stringify(answer);
	const error = new NodeOperationError(
		node,
		`The gateway accepted the ${noun} but ${why}${CREATED_NOTE.yes.suffix}`,
		{
			itemIndex,
			description: `${CREATED_NOTE.yes.advice}\nAnswer: ${String(text ?? '').slice(0, 500)}`,
		},
	);
	error.context.created = 'yes';
	return error;
}

/**
 * The task id of a submit's answer, or the error when the answer has none or one that cannot be
 * read back (a task id is one path segment: api/tasks/taskIds.ts): either way the job was accepted.
 */
export function submittedTaskId(
	node: INode,
	itemIndex: number,
	noun: string,
	answer: unknown,
	taskId: string | undefined,
): string {
	if (!taskId) throw acceptedWithoutId(node, itemIndex, noun, answer);
	const problem = taskIdProblem(taskId);
	if (problem)
		throw acceptedWithoutId(
			node,
			itemIndex,
			noun,
			answer,
			`its task ID ${JSON.stringify(taskId.slice(0, 80))} cannot be read back: it ${problem}`,
		);
	return taskId;
}
