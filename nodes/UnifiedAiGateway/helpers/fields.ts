import type { INodeProperties } from 'n8n-workflow';

import type { ModelGroup } from '../registry/models';

const SEARCH_METHODS: Record<ModelGroup, string> = {
	text: 'searchTextModels',
	image: 'searchImageModels',
	video: 'searchVideoModels',
};

/** The model picker: a searchable list from /v1/models, or any id typed by hand. */
export function modelLocator(group: ModelGroup, show: Record<string, string[]>, defaultId: string): INodeProperties {
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
				typeOptions: { searchListMethod: SEARCH_METHODS[group], searchable: true },
			},
			{
				displayName: 'ID',
				name: 'id',
				type: 'string',
				placeholder: defaultId,
			},
		],
		displayOptions: { show },
	};
}

/** Wait for Completion, its deadline, interval and what a timeout does (one definition for all). */
export function waitFields(show: Record<string, string[]>, defaultDeadlineMin: number): INodeProperties[] {
	return [
		{
			displayName: 'Wait for Completion',
			name: 'waitForCompletion',
			type: 'boolean',
			default: true,
			description:
				'Whether to wait inside this node until the task finishes. Off returns the task ID at once (resume later with Task → Wait for Completion or the trigger).',
			displayOptions: { show },
		},
		{
			displayName: 'Max Wait (Minutes)',
			name: 'waitDeadlineMinutes',
			type: 'number',
			typeOptions: { minValue: 0.05, numberPrecision: 2 },
			default: defaultDeadlineMin,
			description: 'How long to wait for each task before giving up on waiting (the task itself keeps running)',
			displayOptions: { show: { ...show, waitForCompletion: [true] } },
		},
		{
			displayName: 'Poll Interval (Seconds)',
			name: 'waitIntervalSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: 'Seconds between status checks of one task. 0 uses the gateway\'s advised interval for the route (3-5 s for images, 5 s for video).',
			displayOptions: { show: { ...show, waitForCompletion: [true] } },
		},
		{
			displayName: 'On Timeout',
			name: 'onTimeout',
			type: 'options',
			default: 'pending',
			options: [
				{
					name: 'Return Pending Item',
					value: 'pending',
					description: 'Output the task ID with pending: true, to resume later without paying again',
				},
				{ name: 'Fail', value: 'fail', description: 'Treat the item as failed (the task ID is in the error)' },
			],
			description: 'What to do when Max Wait passes before the task finishes',
			displayOptions: { show: { ...show, waitForCompletion: [true] } },
		},
	];
}

export function downloadFields(
	show: Record<string, string[]>,
	defaultOn: boolean,
	what: string,
): INodeProperties[] {
	return [
		{
			displayName: 'Download Result',
			name: 'download',
			type: 'boolean',
			// eslint-disable-next-line n8n-nodes-base/node-param-default-wrong-for-boolean -- on for new images, off when resuming tasks
			default: defaultOn,
			description: `Whether to download the ${what} into binary data. Result URLs expire, so downloading keeps the file.`,
			displayOptions: { show },
		},
		{
			displayName: 'Put Output File in Field',
			name: 'binaryPropertyOutput',
			type: 'string',
			default: 'data',
			hint: 'The name of the output binary field to put the file in',
			displayOptions: { show: { ...show, download: [true] } },
		},
	];
}

export function concurrencyField(show: Record<string, string[]>): INodeProperties {
	return {
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 50 },
		default: 5,
		description: 'How many items are sent to the gateway at the same time',
		displayOptions: { show },
	};
}
