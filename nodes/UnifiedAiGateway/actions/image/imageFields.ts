import type { INodeProperties } from 'n8n-workflow';

import { additionalBodyField } from '../../params/additionalBody';
import { binaryOutputOption, downloadField, modelLocator, optionsField } from '../../params/fields';
import type { RunDefaults } from '../../params/runDefaults';
import { concurrencyOption, waitFields } from '../../params/runFields';
import { downloadLimitOptions } from '../../params/downloadOptions';
import { registryProperties } from '../../params/registryProperties';
import type { RegistryFieldSet } from '../../params/registryRules';
import { spendGuardOptions } from '../../params/spendGuardOptions';
import { IMAGE_MODELS, UNKNOWN_IMAGE_MODEL } from '../../registry/imageModels';
import type { GatewayHost } from '../../transport/urls';
import type { QueryRoute } from '../../api/tasks/routes';
import { multiHostIdsOf } from '../../pipeline/prepare';

export type ImageOperation = 'generate' | 'edit';

/** Ids with a row on each host (gemini-3-pro-image-preview): the Host field shows for them. */
export const MULTI_HOST_IDS = multiHostIdsOf('image');

/** The query routes image tasks are read on: each row's, and an unknown id's (UNKNOWN_IMAGE_MODEL). */
export const IMAGE_ROUTES: QueryRoute[] = [
	...new Set([...IMAGE_MODELS, UNKNOWN_IMAGE_MODEL].map((m) => m.queryRoute ?? 'image')),
];

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
			description:
				'Optional body fields of this model; a field not added here is not sent and the gateway uses its own default',
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
		displayOptions: { show: { ...show, '/modelId': MULTI_HOST_IDS } },
	};
}

/*
 * The fields every Image operation shows (Generate and Edit alike), defined once: index.ts places
 * them around each operation's own fields (its .operation.ts), in the order the form shows.
 */
const show = { resource: ['image'], operation: ['generate', 'edit'] };

/** Before an operation's own fields: the model, and the host of an id served by both. */
export const IMAGE_FIELDS_BEFORE: INodeProperties[] = [
	modelLocator('image', show, 'gpt-image-2'),
	hostField(),
];

/**
 * After an operation's own fields: extra body keys, waiting, the download, Options and the Spend
 * Guard. The waiting fields and Options show the defaults each operation declares (its WAIT, the
 * one its run gets): operations with the same defaults share one set (Generate and Edit today),
 * operations whose defaults differ get a set each.
 */
export function imageFieldsAfter(waits: Array<[ImageOperation, RunDefaults]>): INodeProperties[] {
	const groups = new Map<string, { operations: ImageOperation[]; wait: RunDefaults }>();
	for (const [operation, wait] of waits) {
		const group = groups.get(JSON.stringify(wait)) ?? { operations: [], wait };
		group.operations.push(operation);
		groups.set(JSON.stringify(wait), group);
	}
	const sets = [...groups.values()].map(({ operations, wait }) => ({
		wait,
		show: groups.size === 1 ? show : { ...show, operation: operations },
	}));
	return [
		additionalBodyField(
			'additionalBodyFields',
			'Extra request body keys sent as they are, for options this node has no ' +
				'field for, e.g. {"seed": 7}. Not checked by the node; it cannot replace ' +
				'a field the node sets.',
			show,
		),
		// Sync-only models answer in the same call: no waiting fields for them.
		...sets.flatMap((set) =>
			waitFields(set.show, set.wait).map((field) => ({
				...field,
				displayOptions: { ...field.displayOptions, hide: { '/modelId': SYNC_ONLY_IDS } },
			})),
		),
		downloadField(show, true, 'images'),
		...sets.map((set) =>
			optionsField(set.show, [
				binaryOutputOption(),
				concurrencyOption(set.wait),
				...downloadLimitOptions('image'),
			]),
		),
		spendGuardOptions(show, 'image'),
	];
}
