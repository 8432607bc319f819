import type { IDataObject, IExecuteFunctions, INodeProperties, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { modeLimitMb } from '../engine/files/binaryStore';
import { FILE_KIND_NAMES, FILE_KINDS, type FileKind } from '../registry/fileKinds';
import { NUMBER_LIMITS } from '../registry/limits';
import { OPTIONS_PARAMETER } from './fields';
import { checkNumber, readBoolean } from './inputs';

export type { FileKind };

/**
 * The download limits, as entries of an Options collection (operational knobs, as HTTP Request
 * keeps them): the size limit of one result file and the time one item's downloads may take. A
 * bigger file is refused before it fills n8n's memory or disk.
 */
export function downloadLimitOptions(kind: FileKind | 'any'): INodeProperties[] {
	// The default follows where n8n keeps binaries (engine/files/binaryStore.ts): the description says each.
	const perMode = (mb: number) => {
		const lower = [
			...(modeLimitMb(mb, 'database') < mb
				? [`${modeLimitMb(mb, 'database')} MB in n8n's database mode (its own limit there)`]
				: []),
			...(modeLimitMb(mb, 'memory') < mb
				? [
						`${modeLimitMb(mb, 'memory')} MB while n8n keeps files in memory (1.x's ` +
							`default: set N8N_DEFAULT_BINARY_DATA_MODE=filesystem for more)`,
					]
				: []),
		];
		return lower.length === 0
			? `${mb} MB`
			: [
					`${mb} MB where n8n streams files to disk (filesystem mode, 2.x's default) or to S3`,
					...lower,
				].join('; ');
	};
	const kinds = kind === 'any' ? FILE_KIND_NAMES : [kind];
	const limit =
		kinds.length === 1
			? perMode(FILE_KINDS[kinds[0]].maxMb)
			: kinds.map((k) => `for ${FILE_KINDS[k].one} ${perMode(FILE_KINDS[k].maxMb)}`).join('; ');
	const bounds = kinds.map((k) => `${FILE_KINDS[k].downloadMinutes} min for ${FILE_KINDS[k].many}`);
	const ownBound =
		bounds.length > 1
			? `${bounds.slice(0, -1).join(', ')} and ${bounds[bounds.length - 1]}`
			: bounds[0];
	return [
		{
			displayName: 'Max File Size (MB)',
			name: 'maxFileSizeMb',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description:
				`Largest result file accepted when downloading, in MB. 0 (or left out) ` +
				`uses the default: ${limit}. A bigger file is not stored and the item ` +
				`fails with its URL or task ID.`,
		},
		{
			displayName: 'Download Timeout (Seconds)',
			name: 'downloadTimeoutSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description:
				'Longest time all files of one item may take to download. 0 (or left out): inside Max Wait ' +
				`when waiting for a task, else ${ownBound} (a trigger always keeps to its poll ` +
				'budget). A file host that stops sending for 60 s fails sooner.',
		},
	];
}

/**
 * Download Files, checked with the download limits of Options while the item is read: a bad switch
 * or limit refuses the item before anything is sent, not after the paid answer arrives.
 */
export function checkDownloads(
	ctx: IExecuteFunctions,
	itemIndex: number,
	downloadByDefault: boolean,
): boolean {
	const download = readBoolean(ctx, 'download', itemIndex, downloadByDefault, 'Download Files');
	if (download) readDownloadLimits(ctx, itemIndex);
	return download;
}

export interface DownloadLimits {
	/** The user's size limit in bytes (undefined: the engine's default for the file's kind). */
	maxBytes?: number;
	/** The user's bound on one item's downloads (undefined: Max Wait or the download's own bound). */
	timeoutMs?: number;
}

export function readDownloadLimits(
	ctx: IExecuteFunctions | IPollFunctions,
	itemIndex: number,
): DownloadLimits {
	const poll = !('getInputData' in ctx);
	// Both nodes keep the limits in their Options collection.
	const options = (
		poll
			? (ctx as IPollFunctions).getNodeParameter(OPTIONS_PARAMETER, {})
			: (ctx as IExecuteFunctions).getNodeParameter(OPTIONS_PARAMETER, itemIndex, {})
	) as IDataObject;
	// An option left out is its default; one set (or given by an expression) is checked like every number.
	const read = (
		field: 'maxFileSizeMb' | 'downloadTimeoutSeconds',
		key: string,
	): number | undefined => {
		if (options?.[key] === undefined) return undefined;
		const checked = checkNumber(options[key], NUMBER_LIMITS[field]);
		if ('problem' in checked) {
			throw new NodeOperationError(ctx.getNode(), checked.problem, {
				...(poll ? {} : { itemIndex }),
				description:
					'Nothing was downloaded. If the value comes from an expression, check what it gives.',
			});
		}
		return checked.value > 0 ? checked.value : undefined;
	};
	const mb = read('maxFileSizeMb', 'maxFileSizeMb');
	const seconds = read('downloadTimeoutSeconds', 'downloadTimeoutSeconds');
	return {
		maxBytes: mb && Math.round(mb * 1024 * 1024),
		timeoutMs: seconds && Math.round(seconds * 1000),
	};
}
