import { MAX_TASK_ID_CHARS } from '../../registry/limits';

/*
 * The one rule for a task id, wherever it comes from (Task operations, the trigger's list, a
 * gateway's answer): it must name a task and nothing else. `.` and `..` would be resolved by the
 * URL into /v1/ or /v1/tasks/ and read with the key as if they were the task; `/`, `?`, `#`, `\`
 * and control characters would leave the path segment. The query routes (routes.ts) refuse such
 * an id too, so no caller can build such a URL.
 */

/** Why `id` cannot be a task id, or undefined when it can. */
export function taskIdProblem(id: string): string | undefined {
	const accepts = 'a task id is the token the gateway returned at submit, for example task_abc123';
	if (id.trim() === '') return `is empty; ${accepts}`;
	if (id === '.' || id === '..')
		return `would address the folder above the task, not a task; ${accepts}`;
	if (id.length > MAX_TASK_ID_CHARS)
		return `is ${id.length} characters long; at most ${MAX_TASK_ID_CHARS}, ${accepts}`;
	if ([...id].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
		return `contains a control character; ${accepts}`;
	if (/\s/.test(id))
		return `contains a space or line break; give one id per item (the trigger takes a list)`;
	const bad = /[/\\?#]/.exec(id);
	if (bad) return `contains '${bad[0]}', which would leave the task's path; ${accepts}`;
	return undefined;
}

/** The id as a URL path segment; throws when the id could address anything but its task. */
export function taskPathSegment(id: string): string {
	const problem = taskIdProblem(id);
	if (problem)
		throw new Error(
			`Task ID ${JSON.stringify(id.slice(0, 80))} ${problem}. Nothing was requested.`,
		);
	return encodeURIComponent(id);
}
