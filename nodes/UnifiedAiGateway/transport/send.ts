import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { blockedByN8n, checkAddress, RequestBlocked } from './addresses';
import { cancelSignalOf, CREDENTIAL_TYPE, type GatewayContext, signingCredential } from './context';
import { discard, ssrfBlockOf, type ByteStream } from './responses';
import { originOf } from './urls';

export interface FullResponse {
	body: unknown;
	headers: IDataObject;
	statusCode: number;
}

/** Where a request ended up when the gateway redirected it. */
export interface SentResponse extends FullResponse {
	url: string;
	/** A redirect we did not follow (a POST sent elsewhere): its target. */
	unfollowedRedirect?: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/**
 * Sends one request and follows redirects ourselves. n8n's request helpers copy the
 * Authorization header onto a redirect to any origin unless told otherwise (both 1.x and 2.x
 * default `sendCredentialsOnCrossOriginRedirect` to true), so auto-follow is off and each hop
 * decides alone: the key goes with it only when its origin is one of `keyOrigins`.
 * A POST is followed only by 307/308 to a key origin (the gateway did not process it there);
 * any other redirect of a POST is returned as is, for the caller to report. A hop off those
 * origins (a result URL, a redirect) is first checked for where it would send n8n
 * (addresses.ts checkAddress): one on this host, the link or a metadata service is refused
 * (RequestBlocked) before it is sent; so is one n8n's own SSRF protection blocks, with what it said.
 */
export async function sendFollowingRedirects(
	ctx: GatewayContext,
	options: IHttpRequestOptions,
	keyOrigins: ReadonlySet<string>,
): Promise<SentResponse> {
	let current: IHttpRequestOptions = { ...options };
	let from: string | undefined;
	for (let hop = 0; ; hop++) {
		const withKey = keyOrigins.has(originOf(current.url) ?? '');
		if (!withKey) await checkAddress(ctx, current.url, [...keyOrigins], from);
		const asked = current;
		const response = await sendOnce(ctx, asked, withKey).catch(async (error: unknown) => {
			// n8n's SSRF protection (2.x) said no before anything was sent: which hop, and what it named.
			const ssrf = ssrfBlockOf(error);
			return await Promise.reject(
				ssrf ? new RequestBlocked(ctx.getNode(), blockedByN8n(asked.url, ssrf, from)) : error,
			);
		});
		const location = header(response.headers, 'location');
		if (!REDIRECTS.has(response.statusCode) || !location || hop >= MAX_REDIRECTS) {
			return { ...response, url: current.url };
		}
		const target = new URL(location, current.url).href;
		const method = current.method ?? 'GET';
		const keepsMethod = response.statusCode === 307 || response.statusCode === 308;
		if (
			method !== 'GET' &&
			method !== 'HEAD' &&
			!(keepsMethod && keyOrigins.has(originOf(target) ?? ''))
		) {
			// Its body is read (64 KB at most) by the caller, which reports the redirect.
			return { ...response, url: current.url, unfollowedRedirect: target };
		}
		discard(response.body as ByteStream);
		from = current.url;
		current = { ...current, url: target, qs: undefined };
	}
}

async function sendOnce(
	ctx: GatewayContext,
	options: IHttpRequestOptions,
	withKey: boolean,
): Promise<FullResponse> {
	const safe: IHttpRequestOptions = {
		...options,
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
	};
	if (withKey) {
		const signing = await signingCredential(ctx);
		return (await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			CREDENTIAL_TYPE,
			safe,
			signing,
		)) as FullResponse;
	}
	return (await ctx.helpers.httpRequest({
		...safe,
		abortSignal: cancelSignalOf(ctx),
	})) as FullResponse;
}

function header(headers: IDataObject | undefined, name: string): string | undefined {
	const value = headers?.[name];
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
