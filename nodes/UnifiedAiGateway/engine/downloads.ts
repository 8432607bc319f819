import type { IBinaryData, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { cancelSignalOf } from '../transport/context';
import { fetchResultFile, type GatewayResponse } from '../transport/request';
import { networkCodeOf } from '../transport/responses';
import { backoffDelay } from '../transport/retry';
import { abortableSleep } from '../transport/sleep';

/** A result file cut mid-way is fetched again (a GET is safe) this many times in all. */
const DOWNLOAD_ATTEMPTS = 3;

export interface DownloadOptions {
	itemIndex: number;
	/** File name to use when neither the response nor the URL gives one (without extension). */
	baseName: string;
	defaultMimeType: string;
	timeoutMs?: number;
	/** Epoch ms by which the download's response must have started, retries included (a trigger poll's budget). */
	deadlineAt?: number;
}

const EXTENSIONS: Record<string, string> = {
	'image/png': 'png',
	'image/jpeg': 'jpg',
	'image/webp': 'webp',
	'image/gif': 'gif',
	'video/mp4': 'mp4',
	'video/webm': 'webm',
	'video/quicktime': 'mov',
};

const MIME_BY_EXTENSION: Record<string, string> = Object.fromEntries(
	Object.entries(EXTENSIONS).map(([mime, ext]) => [ext, mime]),
);
MIME_BY_EXTENSION.jpeg = 'image/jpeg';

function header(response: GatewayResponse<unknown>, name: string): string | undefined {
	const value = response.headers[name];
	return typeof value === 'string' ? value : undefined;
}

function fileNameFrom(response: GatewayResponse<unknown>, url: string): string | undefined {
	const disposition = header(response, 'content-disposition');
	const quoted = disposition && /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
	if (quoted) return decodeURIComponent(quoted[1].trim());
	const last = url.split('?')[0].split('#')[0].split('/').pop();
	return last && /\.[a-z0-9]{2,5}$/i.test(last) ? decodeURIComponent(last) : undefined;
}

/**
 * Streams a result file into n8n binary data: large videos never sit in memory twice. The key
 * goes along only to the gateway's own origins (transport decides, hop by hop).
 */
export async function downloadToBinary(
	ctx: IExecuteFunctions | IPollFunctions,
	url: string,
	options: DownloadOptions,
): Promise<IBinaryData> {
	const shown = url.split('?')[0];
	const request = {
		action: `downloading ${shown}`,
		itemIndex: options.itemIndex,
		timeoutMs: options.timeoutMs ?? 600_000,
		deadlineAt: options.deadlineAt,
	};
	const signal = cancelSignalOf(ctx);
	for (let attempt = 1; ; attempt++) {
		const response = await fetchResultFile.call(ctx, url, request);
		const { fileName, mimeType } = describeFile(response, url, options);
		try {
			return await ctx.helpers.prepareBinaryData(response.body as unknown as Buffer, fileName, mimeType);
		} catch (error) {
			response.body.destroy?.();
			if (signal?.aborted) {
				throw new NodeOperationError(ctx.getNode(), 'The execution was stopped', {
					itemIndex: options.itemIndex,
					description: `The download of ${shown} was cancelled because the workflow was stopped.`,
				});
			}
			if (attempt < DOWNLOAD_ATTEMPTS) {
				await abortableSleep(backoffDelay(attempt - 1), signal);
				continue;
			}
			const code = networkCodeOf(error);
			throw new NodeOperationError(ctx.getNode(), `The file ${shown} stopped arriving before its end, ${DOWNLOAD_ATTEMPTS} times (download interrupted)`, {
				itemIndex: options.itemIndex,
				description: `The connection closed mid-file${code && code !== 'ERR_CANCELED' ? ` (${code})` : ''}; it was fetched ${DOWNLOAD_ATTEMPTS} times. The task itself finished: download it again later with Task → Download Result (result URLs are temporary, so do it soon).`,
			});
		}
	}
}

function describeFile(response: GatewayResponse<unknown>, url: string, options: DownloadOptions) {
	const contentType = header(response, 'content-type')?.split(';')[0].trim().toLowerCase();
	let fileName = fileNameFrom(response, url);
	const extension = fileName?.split('.').pop()?.toLowerCase();
	const mimeType =
		contentType && contentType !== 'application/octet-stream'
			? contentType
			: (extension && MIME_BY_EXTENSION[extension]) || options.defaultMimeType;
	if (!fileName) fileName = `${options.baseName}.${EXTENSIONS[mimeType] ?? 'bin'}`;
	return { fileName, mimeType };
}
