'use strict';
// engine/waiting/: why each survivor is left (index.js says how a line reads).
module.exports = [
	['engine/waiting/checkPlan.ts', "typeof value === 'number' → true", 'Number.isFinite is false for anything but a number, so the count refuses the same values without the typeof: equivalent'],
	['engine/waiting/checkPlan.ts', "typeof plan !== 'object' → false", 'a text or number plan then reaches the destructuring, whose fields are all undefined, and is refused by the batch check as before: equivalent'],
	['engine/waiting/timeLimit.ts', "typeof stamp === 'number' → true", 'Number.isFinite is false for anything but a number, so a stamp that is no number gives no limit either way: equivalent'],
	['engine/waiting/timeLimit.ts', "typeof seconds === 'number' → true", 'Number.isFinite is false for anything but a number, so a setting that is no number gives no limit either way: equivalent'],
	['engine/waiting/timeLimit.ts', "typeof ctx.getWorkflowSettings === 'function' → true", 'calling a getWorkflowSettings that is not a function throws inside the try, whose catch gives no limit, as the check does: equivalent'],
	['engine/waiting/timeLimit.ts', "'getWorkflowSettings' in ctx && typeof ctx.getWorkflowSettings === … → true", 'calling a getWorkflowSettings the context lacks throws inside the try, whose catch gives no limit, as the check does: equivalent'],
	['engine/waiting/timeLimit.ts', 'BlockStatement {… → {}', 'the catch only sets seconds to undefined, which it still is when the call threw: equivalent'],
	['engine/waiting/interval.ts', 'BlockStatement {… → {}', "gatewayOrigins' catch returns undefined, as the emptied block does: equivalent"],
	['engine/waiting/interval.ts', 'ctx.logger?.warn → ctx.logger.warn', 'every context n8n hands a node has a logger, on both lines (1.123, 2.41): equivalent on every path n8n takes'],
	['engine/waiting/taskReads.ts', "{ kind: 'stop', error: settled.error, checkedAt: Date.now() } → {}", "readTasksOnce's read catches every failure of its own read, so settleLimited never hands back a rejected one: the line is unreachable, equivalent"],
	['engine/waiting/taskReads.ts', "StringLiteral 'stop' → \"\"", "readTasksOnce's read catches every failure of its own read, so settleLimited never hands back a rejected one: the line is unreachable, equivalent", 89],
	['engine/waiting/taskReads.ts', "ConditionalExpression read.kind === 'fault' → true", "only a fault read has a fault field, so read.fault === 'transient' after it is false for every other read: equivalent", 90],
	['engine/waiting/taskReads.ts', "read.kind !== 'skipped' → true", "passFault: a skipped read is neither a stop, a read nor a fault, so counting it as asked changes none of the three tests after it: equivalent"],
	['engine/waiting/taskReads.ts', "StringLiteral 'skipped' → \"\"", "passFault: a skipped read is neither a stop, a read nor a fault, so counting it as asked changes none of the three tests after it: equivalent", 102],
	['engine/waiting/taskReads.ts', 'asked.length === 0 → false', 'passFault: with no read asked, asked.find finds no gateway-wide fault and gives undefined, as the shortcut does: equivalent'],
	['engine/waiting/taskReads.ts', "ConditionalExpression read.kind === 'fault' → true", 'passFault: asked holds only faults there (stops returned before it, a read answered before it, skipped ones filtered out): equivalent', 108],
	['engine/waiting/taskReads.ts', "gatewayWide.kind === 'fault' → true", 'passFault: gatewayWide is found among faults only; the check narrows the type for tsc: equivalent'],
];
