import type {
	IExecuteFunctions,
	IExecuteSingleFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';

/** Every n8n context our code runs in: node execution, the trigger's poll, and dynamic lists. */
export type GatewayContext =
	| IExecuteFunctions
	| IExecuteSingleFunctions
	| IPollFunctions
	| ILoadOptionsFunctions;

export const CREDENTIAL_TYPE = 'unifiedAiGatewayApi';

/** The execution's Stop signal, when the context has one (polls and list loads do not). */
export function cancelSignalOf(ctx: GatewayContext): AbortSignal | undefined {
	if ('getExecutionCancelSignal' in ctx && typeof ctx.getExecutionCancelSignal === 'function') {
		return ctx.getExecutionCancelSignal();
	}
	return undefined;
}
