import type {
	IAdditionalCredentialOptions,
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	ILoadOptionsFunctions,
	INode,
	IPollFunctions,
	ISupplyDataFunctions,
} from 'n8n-workflow';

/**
 * Every n8n context our code runs in: node execution, the trigger's poll, dynamic lists, and the
 * Chat Model sub-node's supplyData.
 */
export type GatewayContext =
	| IExecuteFunctions
	| IExecuteSingleFunctions
	| IPollFunctions
	| ILoadOptionsFunctions
	| ISupplyDataFunctions;

export const CREDENTIAL_TYPE = 'unifiedAiGatewayApi';

/** The execution's Stop signal, when the context has one (polls and list loads do not). */
export function cancelSignalOf(ctx: GatewayContext): AbortSignal | undefined {
	if ('getExecutionCancelSignal' in ctx && typeof ctx.getExecutionCancelSignal === 'function') {
		return ctx.getExecutionCancelSignal();
	}
	return undefined;
}

const nodeOfRun = new WeakMap<object, INode>();

/**
 * The node, as n8n's getNode() gives it, taken once per node run (per context object): getNode()
 * copies the whole node, its parameters included, at every call, and the hot paths (every
 * request, every submit) only read its name, type and credential. Not to be changed.
 */
export function nodeOf(ctx: GatewayContext): INode {
	let node = nodeOfRun.get(ctx);
	if (!node) {
		node = ctx.getNode();
		nodeOfRun.set(ctx, node);
	}
	return node;
}

const credentialsOfRun = new WeakMap<object, Promise<ICredentialDataDecryptedObject>>();

/**
 * The credential, read once per node run (per context object, as the pacer): n8n loads it from its
 * database and decrypts it on every call, and a 500-item run polls thousands of times. Requests
 * are signed with it too (signingCredential). A failed read is not kept, so it is tried again.
 */
export async function gatewayCredentials(
	ctx: GatewayContext,
): Promise<ICredentialDataDecryptedObject> {
	let read = credentialsOfRun.get(ctx);
	if (!read) {
		read = ctx.getCredentials(CREDENTIAL_TYPE);
		credentialsOfRun.set(ctx, read);
		read.catch(() => credentialsOfRun.delete(ctx));
	}
	return await read;
}

/**
 * What httpRequestWithAuthentication is given so it signs the request with the credential read
 * above instead of loading it again: n8n otherwise reads it from its database and decrypts it for
 * every request (both lines take `credentialsDecrypted`). The request is still authenticated by
 * n8n, with the credential's own `authenticate` (which keeps the key to the gateway's origins).
 */
export async function signingCredential(
	ctx: GatewayContext,
): Promise<IAdditionalCredentialOptions> {
	const data = await gatewayCredentials(ctx);
	const chosen = nodeOf(ctx).credentials?.[CREDENTIAL_TYPE];
	return {
		credentialsDecrypted: {
			id: chosen?.id ?? '',
			name: chosen?.name ?? '',
			type: CREDENTIAL_TYPE,
			data,
		},
	};
}
