import type { INodeProperties } from 'n8n-workflow';

import { searchMethodOf, type ModelGroup } from '../registry/models';

/*
 * Field builders several operations share: the model picker, the prompt, Download Files, the
 * output field and the Options collection. How a run waits and how many items go at once are
 * runFields.ts (built from the operation's RunDefaults); what reads them back is runSettings.ts.
 */

/** The parameter of the Waiting collection: how a wait runs (its deadline, interval and timeout). */
export const WAITING_PARAMETER = 'waiting';
/** The parameter of the Options collection: operational knobs (concurrency, output field, limits). */
export const OPTIONS_PARAMETER = 'options';

/** The model picker: a searchable list from /v1/models, or any id typed by hand. */
export function modelLocator(
	group: ModelGroup,
	show: Record<string, string[]> | undefined,
	defaultId: string,
): INodeProperties {
	return {
		displayName: 'Model',
		name: 'modelId',
		type: 'resourceLocator',
		default: { mode: 'list', value: defaultId },
		required: true,
		description: `The ${group} model. The list shows the ${group} models this API key can use.`,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: searchMethodOf(group), searchable: true },
			},
			{
				displayName: 'ID',
				name: 'id',
				type: 'string',
				placeholder: defaultId,
			},
		],
		// A node with one thing to do (the Chat Model sub-node) shows its model always.
		...(show ? { displayOptions: { show } } : {}),
	};
}

/** The prompt of a generation (image or video): required text, with its own example and help. */
export function promptField(
	show: Record<string, string[]>,
	placeholder: string,
	description: string,
): INodeProperties {
	return {
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		placeholder,
		description,
		displayOptions: { show },
	};
}

/** Download Files (download): whether the result files become binary data (their limits are in Options). */
export function downloadField(
	show: Record<string, string[]>,
	defaultOn: boolean,
	what: string,
): INodeProperties {
	const download: INodeProperties = {
		displayName: 'Download Files',
		name: 'download',
		type: 'boolean',
		default: false,
		description:
			`Whether to download the ${what} into binary data. Result URLs expire, so downloading keeps ` +
			'the file. Where the file goes and its limits are in Options.',
		displayOptions: { show },
	};
	// Spelled as literals: n8n's scan (node-param-default-wrong-for-boolean) reads only `true` / `false`.
	return defaultOn ? { ...download, default: true } : download;
}

/** The output field of a downloaded file, as an entry of Options. */
export function binaryOutputOption(
	hint = 'The name of the output binary field to put the file in (with Download Files on)',
): INodeProperties {
	return {
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyOutput',
		type: 'string',
		default: 'data',
		description: `${hint}. Left out: data.`,
	};
}

/**
 * The Options collection of an operation (operational knobs, as HTTP Request keeps them): its
 * entries sorted by name as n8n lists them. An entry left out keeps its default.
 */
export function optionsField(
	show: Record<string, string[]> | undefined,
	options: INodeProperties[],
): INodeProperties {
	return {
		displayName: 'Options',
		name: OPTIONS_PARAMETER,
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [...options].sort((a, b) => a.displayName.localeCompare(b.displayName)),
		...(show ? { displayOptions: { show } } : {}),
	};
}

/** Top P of a chat call (top_p): one option for Text → Message a Model and the Chat Model sub-node. */
export const TOP_P_OPTION: INodeProperties = {
	displayName: 'Top P',
	name: 'topP',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
	default: 1,
	description:
		'Nucleus sampling: only the most likely tokens up to this total probability are considered',
};
