import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { postSunoSubmit, type SunoAction } from '../../api/suno';
import { submittedTaskId } from '../../engine/running/submitAnswer';
import type { Submitted } from '../../engine/running/types';
import type { ItemEstimate } from '../../engine/spend/types';
import { readNumber } from '../../params/inputs';
import { perCallCostJson } from '../../pipeline/cost';
import { CREATED_NOTE } from '../../transport/created';
import { gatewayText } from '../../transport/errors';
import { nodeOf } from '../../transport/context';

/*
 * What Music → Generate and Write Lyrics share: their one billed submit (api/suno.ts), its answer
 * read into the task the engine waits for on the query route `suno` (docs/gateway-contract.md
 * §10.15), its timeout and the estimate as the items show it. Never sent twice: the
 * engine's receipts and Retry On Fail memory hold it.
 */

/** The item's submit timeout in ms, checked by its NUMBER_LIMITS row. */
export function readSubmitTimeoutMs(ctx: IExecuteFunctions, i: number, seconds: number): number {
	const given = readNumber(ctx, 'submitTimeoutSeconds', i, {
		name: 'options.submitTimeoutSeconds',
		fallback: seconds,
	});
	return given * 1000;
}

/** The run's estimate for one submit as the items show it: the price list's, per submit. */
export function sunoCostJson(estimate: ItemEstimate | undefined, per: string): IDataObject {
	return estimate ? { estimatedCost: { ...perCallCostJson(estimate), per } } : {};
}

/** One submit: the relay's `task_…` id, or the error that says the job may exist. */
export async function submitSuno(
	ctx: IExecuteFunctions,
	action: SunoAction,
	body: IDataObject,
	timeoutMs: number,
	itemIndex: number,
): Promise<Submitted> {
	const noun = action === 'music' ? 'music job' : 'lyrics job';
	const startedAt = Date.now();
	const answer = await postSunoSubmit(ctx, { action, body, timeoutMs, itemIndex });
	if (answer.refusedCode !== undefined) {
		// A 200 whose envelope is not `success`: a stranger gateway's words; the job may exist.
		const said = gatewayText(answer.body);
		const error = new NodeOperationError(
			nodeOf(ctx),
			`The gateway answered the ${noun} with code '${answer.refusedCode}'` +
				`${said ? `: ${said}` : ''}${CREATED_NOTE.unknown.suffix}`,
			{
				itemIndex,
				description: `${CREATED_NOTE.unknown.advice}\nAnswer: ${JSON.stringify(answer.body).slice(0, 500)}`,
			},
		);
		error.context.created = 'unknown';
		throw error;
	}
	const taskId = submittedTaskId(nodeOf(ctx), itemIndex, noun, answer.body, answer.taskId);
	return { taskId, route: 'suno', startedAt, raw: answer.body };
}
