import type { IBinaryData, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

import {
	fetchExternal,
	gatewayRequest,
	type ByteStream,
	type GatewayResponse,
} from '../transport/request';
import { CREDENTIAL_TYPE } from '../transport/context';
import { originsFrom } from '../transport/urls';

export interface DownloadOptions {
	itemIndex: number;
	/** Only the gateway's own content route (grok /v1/videos/{id}/content) gets the API key. */
	viaGateway?: boolean;
	/** File name to use when neither the response nor the URL gives one (without extension). */
	baseName: string;
	defaultMimeType: string;
	timeoutMs?: number;
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

function originOf(url: string): string | undefined {
	try {
		return new URL(url).origin;
	} catch {
		return undefined;
	}
}

/** Spec 5.5: a result URL on the gateway's own host (Base URL or Alt Base URL) is fetched with the key. */
async function isGatewayUrl(ctx: IExecuteFunctions | IPollFunctions, url: string): Promise<boolean> {
	const target = originOf(url);
	if (!target) return false;
	const origins = originsFrom(await ctx.getCredentials(CREDENTIAL_TYPE));
	return [origins.main, origins.alt].some((origin) => origin !== '' && originOf(origin) === target);
}

/** Streams a result file into n8n binary data: large videos never sit in memory twice. */
export async function downloadToBinary(
	ctx: IExecuteFunctions | IPollFunctions,
	url: string,
	options: DownloadOptions,
): Promise<IBinaryData> {
	const request = {
		action: `downloading ${url.split('?')[0]}`,
		itemIndex: options.itemIndex,
		timeoutMs: options.timeoutMs ?? 600_000,
	};
	const viaGateway = options.viaGateway || (await isGatewayUrl(ctx, url));
	const response = (
		viaGateway
			? await gatewayRequest.call(ctx, { ...request, method: 'GET', path: url, stream: true })
			: await fetchExternal.call(ctx, url, request)
	) as unknown as GatewayResponse<ByteStream>;
	const contentType = header(response, 'content-type')?.split(';')[0].trim().toLowerCase();
	let fileName = fileNameFrom(response, url);
	const extension = fileName?.split('.').pop()?.toLowerCase();
	const mimeType =
		contentType && contentType !== 'application/octet-stream'
			? contentType
			: (extension && MIME_BY_EXTENSION[extension]) || options.defaultMimeType;
	if (!fileName) fileName = `${options.baseName}.${EXTENSIONS[mimeType] ?? 'bin'}`;
	return await ctx.helpers.prepareBinaryData(
		response.body as unknown as Buffer,
		fileName,
		mimeType,
	);
}
