import type { INodeProperties } from 'n8n-workflow';

import { registryProperties } from '../../params/registryProperties';
import type { RegistryFieldSet } from '../../params/registryRules';
import { IMAGE_MODELS, UNKNOWN_IMAGE_MODEL } from '../../registry/imageModels';
import type { GatewayHost } from '../../transport/urls';
import { multiHostIdsOf } from '../../pipeline/prepare';

export type ImageOperation = 'generate' | 'edit';

/** Ids with a row on each host (gemini-3-pro-image-preview): the Host field shows for them. */
export const MULTI_HOST_IDS = multiHostIdsOf('image');

/** Ids whose every row answers synchronously: no Wait for Result fields for them. */
export const SYNC_ONLY_IDS = [...new Set(IMAGE_MODELS.map((m) => m.id))].filter((id) =>
	IMAGE_MODELS.filter((m) => m.id === id).every((m) => m.mode === 'sync'),
);

/**
 * The registry rows as Image fields: a parameter is named by its body key, a rule without a
 * default is an entry of "Model Options" (sent only when added), a single-valued one is sent as is,
 * the rows of an id on two hosts follow the Host choice, and ids the registry does not know get
 * the common fields of UNKNOWN_IMAGE_MODEL.
 */
function imageFieldSet(operation: ImageOperation): RegistryFieldSet {
	return {
		operation,
		models: IMAGE_MODELS,
		show: { resource: ['image'], operation: [operation] },
		modelCondition: '/modelId',
		hostParameter: 'imageHost',
		optionsCollection: {
			name: 'imageOptions',
			description: 'Optional body fields of this model; a field not added here is not sent and the gateway uses its own default',
		},
		sendSingleValues: true,
		unknownModel: UNKNOWN_IMAGE_MODEL,
	};
}

export const IMAGE_FIELD_SETS: Record<ImageOperation, RegistryFieldSet> = {
	generate: imageFieldSet('generate'),
	edit: imageFieldSet('edit'),
};

/** Every model-dependent field of one operation: its own fields, then its Options. */
export function modelFieldProperties(operation: ImageOperation): INodeProperties[] {
	return registryProperties(IMAGE_FIELD_SETS[operation]);
}

/** The Host choice for ids served by both hosts; its text is derived from their rows. */
export function hostField(): INodeProperties {
	const describe = (host: GatewayHost) => {
		const row = IMAGE_MODELS.find((m) => MULTI_HOST_IDS.includes(m.id) && m.host === host);
		const price = row?.price ? `, ${row.price.baseUsd} USD per ${row.price.per}` : '';
		return host === 'alt'
			? `The alt-host image service on the credential's Alt Base URL${price}`
			: `The main gateway on the credential's Base URL${price}`;
	};
	return {
		displayName: 'Host',
		name: 'imageHost',
		type: 'options',
		default: 'main',
		options: [
			{ name: 'Main (Base URL)', value: 'main', description: describe('main') },
			{ name: 'Alt (Alt Base URL)', value: 'alt', description: describe('alt') },
		],
		description: `${MULTI_HOST_IDS.join(', ')} is served by both hosts: pick the one to run it on`,
		displayOptions: { show: { resource: ['image'], '/modelId': MULTI_HOST_IDS } },
	};
}
