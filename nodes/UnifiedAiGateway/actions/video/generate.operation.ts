import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import type { RunOptions } from '../../engine/running/perItem';
import { additionalBodyField } from '../../params/additionalBody';
import {
	binaryOutputOption,
	concurrencyOption,
	downloadField,
	modelLocator,
	optionsField,
	promptField,
	waitFields,
	type WaitDefaults,
} from '../../params/commonFields';
import { downloadLimitOptions } from '../../params/downloadOptions';
import { registryProperties } from '../../params/registryProperties';
import { ALLOW_UNUSUAL_LABEL } from '../../params/registryRules';
import { spendGuardOptions } from '../../params/spendGuardOptions';
import { runGeneration } from '../../pipeline/generation';
import { PLAUSIBLE_MAX_SECONDS } from '../../registry/videoModels';
import { TASK_LANGUAGE } from '../task/taskFields';
import { VIDEO_ROUTES } from './submitRoutes';
import { VIDEO_ADAPTER } from './videoAdapter';
import { show, VIDEO_FIELD_SET } from './videoFields';

/**
 * How Generate runs with Waiting and Options left out (also the defaults its fields show): video
 * waits long, docs/gateway-contract.md §8 advises a polling window of at least 30 minutes and a
 * read every 5 s, whichever query route reads the task (the unified route's generic query too).
 */
export const WAIT: WaitDefaults = { maxWaitMinutes: 30, pollIntervalSeconds: 5, concurrency: 5 };

const displayOptions = { show };

const properties: INodeProperties[] = [
	modelLocator('video', show, 'seedance-2.0'),
	promptField(
		show,
		'A paper boat drifting down a rainy street, close-up, slow camera pan',
		'Content, motion, camera and style of the video',
	),
	{
		displayName: 'Route',
		name: 'videoRoute',
		type: 'options',
		default: 'unified',
		options: Object.entries(VIDEO_ROUTES).map(([value, route]) => ({
			name: route.name,
			value,
			description: route.description,
		})),
		description:
			'Which gateway route submits the video. Task → Get and Wait read it on the matching query route.',
	},
	{
		displayName: 'Reference Image URLs',
		name: 'videoReferenceUrls',
		type: 'string',
		default: '',
		placeholder: 'https://example.com/first-frame.png',
		description:
			'Public http(s) image URLs, one per line or comma-separated (a comma splits only before another URL, so signed URLs keep theirs), or a list from an expression; they make it image-to-video. How many a model reads depends on the channel. Not for the Grok Multipart route (use binary properties there).',
	},
	{
		displayName: 'Reference Image Binary Properties',
		name: 'videoReferenceBinaryProperties',
		type: 'string',
		default: '',
		placeholder: 'data, image_2',
		description:
			'Binary properties of the input item holding reference images (JPEG, PNG or WebP, at most 20 MB each). They are uploaded to the gateway first, or sent as files on the Grok Multipart route.',
	},
	...registryProperties(VIDEO_FIELD_SET),
	{
		displayName: ALLOW_UNUSUAL_LABEL,
		name: 'videoAllowUnusualValues',
		type: 'boolean',
		default: false,
		description: `Whether to send a duration above ${PLAUSIBLE_MAX_SECONDS} seconds. Video is charged in advance by duration, so such values are refused as likely typos unless this is on.`,
	},
	additionalBodyField(
		'videoAdditionalBody',
		'Channel-specific keys added to the request body, e.g. {"metadata": {"fps": 24}}. They cannot replace a key the fields above already set.',
		show,
	),
	// The unified route's task is read on the generic query, which takes a language (docs/gateway-contract.md §4.10).
	...waitFields(show, WAIT, [
		{
			...TASK_LANGUAGE,
			displayName: 'Status Language',
			description: `${TASK_LANGUAGE.description}, used while waiting on the Unified route. Left out: English.`,
			displayOptions: { show: { '/videoRoute': ['unified'] } },
		},
	]),
	downloadField(show, true, 'video'),
	optionsField(show, [
		binaryOutputOption(),
		concurrencyOption(WAIT.concurrency),
		...downloadLimitOptions('video'),
		{
			displayName: 'Submit Timeout (Seconds)',
			name: 'submitTimeoutSeconds',
			type: 'number',
			typeOptions: { minValue: 0.1, numberPrecision: 1 },
			default: 180,
			description:
				'How long to wait for the gateway to accept the job. Left out: 180 seconds. A submit that times out is never sent again: the job may exist, so check the account before retrying.',
		},
	]),
	spendGuardOptions(show, 'video'),
];

export const description = updateDisplayOptions(displayOptions, properties);

/** Every item through the one generation pipeline: all checked, then submitted, waited for, output. */
export async function execute(
	this: IExecuteFunctions,
	run: RunOptions,
): Promise<INodeExecutionData[]> {
	return await runGeneration(this, run, VIDEO_ADAPTER, WAIT);
}
