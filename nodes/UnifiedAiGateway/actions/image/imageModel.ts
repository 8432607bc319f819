import type { IExecuteFunctions } from 'n8n-workflow';

import type { QueryRoute } from '../../engine/routes';
import { IMAGE_MODELS, UNKNOWN_IMAGE_MODEL } from '../../registry/imageModels';
import { resolveModelId } from '../../pipeline/model';
import { multiHostIds, type ModelSpec } from '../../registry/models';
import type { GatewayHost } from '../../transport/urls';

export type ImageOperation = 'generate' | 'edit';

/** The model one item runs on: its registry row (or the unknown-model row) and its host. */
export interface ImageModel {
	id: string;
	spec: Omit<ModelSpec, 'id'>;
	host: GatewayHost;
	route: QueryRoute;
}

const unique = (ids: string[]) => [...new Set(ids)];

const KNOWN_IMAGE_IDS = unique(IMAGE_MODELS.map((m) => m.id));

/** Ids with a row on each host (gemini-3-pro-image-preview): the user picks the host. */
export const MULTI_HOST_IDS = multiHostIds(IMAGE_MODELS);

/** Ids whose every row answers synchronously: no Wait for Completion fields for them. */
export const SYNC_ONLY_IDS = KNOWN_IMAGE_IDS.filter((id) => IMAGE_MODELS.filter((m) => m.id === id).every((m) => m.mode === 'sync'));

/** "model 'x'" or "model 'x' on the alt host", for messages. */
export function describeModel(model: ImageModel): string {
	return `model '${model.id}'${model.host === 'alt' ? ' on the alt host' : ''}`;
}

/** Models of the registry that have an edit variant, for messages. */
export function editModelIds(): string {
	return unique(IMAGE_MODELS.filter((m) => m.fields?.edit).map((m) => m.id)).join(', ');
}

/** Step one of the image pipeline: the item's model, its row on the chosen host, where its tasks are read. */
export function resolveImageModel(ctx: IExecuteFunctions, itemIndex: number): ImageModel {
	const { id } = resolveModelId(ctx, itemIndex, ctx.getNodeParameter('modelId', itemIndex, '', { extractValue: true }), 'image', KNOWN_IMAGE_IDS);
	const rows = IMAGE_MODELS.filter((m) => m.id === id);
	if (rows.length === 0) return { id, spec: UNKNOWN_IMAGE_MODEL, host: 'main', route: UNKNOWN_IMAGE_MODEL.queryRoute ?? 'image' };
	const host = rows.length > 1 ? (ctx.getNodeParameter('imageHost', itemIndex, rows[0].host) as GatewayHost) : rows[0].host;
	const spec = rows.find((m) => m.host === host) ?? rows[0];
	return { id, spec, host: spec.host, route: spec.queryRoute ?? (spec.host === 'alt' ? 'alt' : 'image') };
}
