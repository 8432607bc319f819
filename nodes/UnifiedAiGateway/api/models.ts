import type { IDataObject } from 'n8n-workflow';

import { modelKind, type KindSource, type ModelGroup } from '../registry/models';
import type { GatewayContext } from '../transport/context';
import { MODEL_NOT_OFFERED } from '../transport/errorRules';
import { GatewayRequestError, gatewayRequest } from '../transport/request';
import { explainKeyRefusal } from './keyState';

export interface GatewayModel {
	id: string;
	group: ModelGroup;
	/** How the group was found (registry modelKind): 'none' is a guess (text), shown in every picker. */
	kindFrom: KindSource;
	ownedBy?: string;
	endpointTypes: string[];
}

function kindOf(m: IDataObject): Pick<GatewayModel, 'group' | 'kindFrom'> {
	const { group, by } = modelKind(m.id as string, m.supported_endpoint_types);
	return { group, kindFrom: by };
}

/** GET /v1/models (docs/gateway-contract.md §4.12, §10.4): the key's models, each classified text, image or video. */
export async function listGatewayModels(
	ctx: GatewayContext,
	itemIndex?: number,
	read: { retries?: boolean; timeoutMs?: number } = {},
): Promise<GatewayModel[]> {
	const { body } = await gatewayRequest.call(ctx, {
		method: 'GET',
		path: '/v1/models',
		action: 'listing the models of this key',
		itemIndex,
		answer: 'list',
		...read,
	});
	const data = Array.isArray(body.data) ? (body.data as IDataObject[]) : [];
	return data
		.filter((m) => typeof m.id === 'string')
		.map((m) => ({
			id: m.id as string,
			...kindOf(m),
			ownedBy: typeof m.owned_by === 'string' ? m.owned_by : undefined,
			endpointTypes: Array.isArray(m.supported_endpoint_types)
				? m.supported_endpoint_types.map(String)
				: [],
		}))
		.sort((a, b) => a.id.localeCompare(b.id));
}

/** Models named in a refusal, at most: the rest are counted (Account → List Models shows them all). */
const NAMED_MODELS = 25;

/** One read of the key's models per node run, for refusals only: undefined when it fails (the refusal stands). */
const modelsOfRun = new WeakMap<object, Promise<GatewayModel[] | undefined>>();

function modelsOnce(ctx: GatewayContext, itemIndex: number): Promise<GatewayModel[] | undefined> {
	let read = modelsOfRun.get(ctx);
	if (!read) {
		// Best effort: one GET, not retried, short; its failure never replaces the refusal it explains.
		read = listGatewayModels(ctx, itemIndex, { retries: false, timeoutMs: 15_000 }).catch(
			() => undefined,
		);
		modelsOfRun.set(ctx, read);
	}
	return read;
}

/**
 * A billed submit whose model the gateway does not offer to this key (transport/errorRules.ts
 * MODEL_NOT_OFFERED: no channel, `model_not_found`, "does not exist", in any envelope or language):
 * its description starts with the models of the same kind (text, image, video) the key can use,
 * read from GET /v1/models. The refusal (created: no) is thrown as it was, with or without the list.
 */
export async function namingModelsOffered<T>(
	ctx: GatewayContext,
	model: string,
	itemIndex: number,
	send: () => Promise<T>,
): Promise<T> {
	// Settled rather than caught: the transport's error is passed on unchanged, only its description grows.
	const outcome = await send().then(
		(value) => ({ ok: true as const, value }),
		(error: unknown) => ({ ok: false as const, error }),
	);
	if (outcome.ok) return outcome.value;
	const refused = outcome.error;
	// A bare 401: the key's own state, where the gateway lets it be known (api/keyState.ts).
	if (refused instanceof GatewayRequestError && refused.rule === 'key-rejected')
		await explainKeyRefusal(ctx, refused, itemIndex);
	if (refused instanceof GatewayRequestError && refused.rule === MODEL_NOT_OFFERED) {
		const models = await modelsOnce(ctx, itemIndex);
		if (models)
			refused.description = [offeredLine(models, model), refused.description]
				.filter(Boolean)
				.join('\n');
	}
	throw outcome.error;
}

/** "Video models this key can use (GET /v1/models): …" — the kind of the refused model (registry modelKind). */
function offeredLine(models: GatewayModel[], model: string): string {
	const { group } = modelKind(model, []);
	const others = models.filter((m) => m.group === group && m.id !== model).map((m) => m.id);
	if (others.length === 0) return `GET /v1/models lists no other ${group} model for this key.`;
	const more =
		others.length > NAMED_MODELS
			? ` and ${others.length - NAMED_MODELS} more (Account → List Models)`
			: '';
	return (
		`${group[0].toUpperCase()}${group.slice(1)} models this key can use (GET ` +
		`/v1/models): ${others.slice(0, NAMED_MODELS).join(', ')}${more}.`
	);
}
