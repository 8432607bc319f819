import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { QueryRoute } from '../../engine/routes';
import { IMAGE_MODELS, UNKNOWN_IMAGE_MODEL } from '../../registry/imageModels';
import { findModel, multiHostIds, type ModelSpec } from '../../registry/models';
import type { GatewayHost } from '../../transport/urls';

export type ImageOperation = 'generate' | 'edit';

/** The model one item runs on: its registry row (or the unknown-model row) and its host. */
export interface ImageModel {
	id: string;
	spec: Omit<ModelSpec, 'id'>;
	known: boolean;
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

export function resolveImageModel(ctx: IExecuteFunctions, itemIndex: number): ImageModel {
	const id = String(ctx.getNodeParameter('modelId', itemIndex, '', { extractValue: true }) ?? '').trim();
	if (!id) {
		throw new NodeOperationError(ctx.getNode(), 'Model is empty', {
			itemIndex,
			description: `Pick an image model, for example ${KNOWN_IMAGE_IDS.slice(0, 3).join(', ')}.`,
		});
	}
	const rows = IMAGE_MODELS.filter((m) => m.id === id);
	if (rows.length === 0) {
		const other = findModel(id);
		if (other && other.group !== 'image') {
			throw new NodeOperationError(ctx.getNode(), `Model '${id}' is a ${other.group} model, not an image model`, {
				itemIndex,
				description: `Use the ${other.group === 'video' ? 'Video' : 'Text'} resource for it, or pick an image model.`,
			});
		}
		return { id, spec: UNKNOWN_IMAGE_MODEL, known: false, host: 'main', route: UNKNOWN_IMAGE_MODEL.queryRoute ?? 'image' };
	}
	const host = rows.length > 1 ? (ctx.getNodeParameter('imageHost', itemIndex, rows[0].host) as GatewayHost) : rows[0].host;
	const spec = rows.find((m) => m.host === host) ?? rows[0];
	return { id, spec, known: true, host: spec.host, route: spec.queryRoute ?? (spec.host === 'alt' ? 'alt' : 'image') };
}
