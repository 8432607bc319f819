import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { cancelSignalOf, CREDENTIAL_TYPE, type GatewayContext, signingCredential } from './context';
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
 * any other redirect of a POST is returned as is, for the caller to report.
 */
export async function sendFollowingRedirects(
	ctx: GatewayContext,
	options: IHttpRequestOptions,
	keyOrigins: ReadonlySet<string>,
): Promise<SentResponse> {
	let current: IHttpRequestOptions = { ...options };
	for (let hop = 0; ; hop++) {
		const withKey = keyOrigins.has(originOf(current.url) ?? '');
		const response = await sendOnce(ctx, current, withKey);
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
			discard(response.body);
			return { ...response, url: current.url, unfollowedRedirect: target };
		}
		discard(response.body);
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

/** A redirect's own body, when streamed, would otherwise hold its socket open. */
function discard(body: unknown): void {
	const stream = body as { destroy?: () => void } | undefined;
	if (stream && typeof stream.destroy === 'function') stream.destroy();
}
