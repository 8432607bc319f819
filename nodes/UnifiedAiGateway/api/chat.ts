import type { IDataObject } from 'n8n-workflow';

import type { GatewayContext } from '../transport/context';
import { gatewayRequest } from '../transport/request';
import { namingModelsOffered } from './models';

/**
 * POST /v1/chat/completions (docs/gateway-contract.md §4.3): one billed chat call. A streamed
 * call's body is the byte stream (api/chatStream.ts reads it); `headers` tell whether a relay
 * answered one JSON completion instead. Text → Message a Model and the Chat Model sub-node send it.
 */
export async function postChatCompletion(
	ctx: GatewayContext,
	call: { body: IDataObject; model: string; stream: boolean; timeoutMs: number; itemIndex: number },
): Promise<{ body: IDataObject; headers: IDataObject }> {
	const { body, headers } = await namingModelsOffered(ctx, call.model, call.itemIndex, () =>
		gatewayRequest.call(ctx, {
			method: 'POST',
			path: '/v1/chat/completions',
			body: call.body,
			model: call.model,
			action: `asking model '${call.model}'`,
			billed: true,
			answeredAtOnce: true,
			stream: call.stream,
			answer: 'chat',
			timeoutMs: call.timeoutMs,
			itemIndex: call.itemIndex,
		}),
	);
	return { body, headers };
}
