import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

export type GatewayHost = 'main' | 'alt';

export const BASE_URL_FIELDS: Record<GatewayHost, string> = {
	main: 'Base URL',
	alt: 'Alt Base URL',
};

/** Users paste the base URL with or without `/v1` and trailing slashes; paths always carry `/v1`. */
export function normaliseOrigin(raw: unknown): string {
	return String(raw ?? '')
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/v1$/i, '')
		.replace(/\/+$/, '');
}

export interface GatewayOrigins {
	/** Where `/v1/...` paths are appended: scheme, host, port and any path prefix before `/v1`. */
	main: string;
	alt: string;
}

export function originsFrom(credentials: ICredentialDataDecryptedObject): GatewayOrigins {
	return {
		main: normaliseOrigin(credentials.baseUrl),
		alt: normaliseOrigin(credentials.altBaseUrl),
	};
}

export function isAbsoluteUrl(value: string): boolean {
	return /^https?:\/\//i.test(value);
}

/** The origin (scheme://host:port) of a URL, or undefined when it is not one. */
export function originOf(url: string): string | undefined {
	try {
		const parsed = new URL(url);
		return parsed.origin === 'null' ? undefined : parsed.origin;
	} catch {
		return undefined;
	}
}

/**
 * The only origins the API key is ever sent to: those of Base URL and Alt Base URL.
 * Same scheme, host and port exactly; a subdomain or another port is another origin.
 */
export function keyOrigins(credentials: ICredentialDataDecryptedObject): Set<string> {
	const origins = new Set<string>();
	for (const raw of [credentials.baseUrl, credentials.altBaseUrl]) {
		const origin = originOf(normaliseOrigin(raw));
		if (origin) origins.add(origin);
	}
	return origins;
}

export function isLoopbackHost(hostname: string): boolean {
	const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
	return (
		host === 'localhost' ||
		host.endsWith('.localhost') ||
		host === '::1' ||
		/^127\.\d+\.\d+\.\d+$/.test(host)
	);
}

export interface BaseUrlCheck {
	/** Why the value cannot be used, naming the field; undefined when it can. */
	problem?: string;
	/** http:// on a host other than this machine: works, but the key travels unencrypted. */
	insecure?: boolean;
}

/**
 * What a Base URL may be: http(s)://host[:port][/path], nothing else. A query string would be
 * glued in front of every path; `user:pass@` would put a second secret in every request line.
 */
export function checkBaseUrl(raw: unknown, field: string, required: boolean): BaseUrlCheck {
	const value = String(raw ?? '').trim();
	const accepts = `use https://host[:port] with an optional path, for example https://gateway.example.com/v1`;
	if (value === '') return required ? { problem: `${field} is empty: ${accepts}` } : {};
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		return { problem: `${field} is not a URL: ${accepts}` };
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		return {
			problem: `${field} uses '${url.protocol.replace(/:$/, '')}://', which is not http or https: ${accepts}`,
		};
	}
	if (url.username !== '' || url.password !== '') {
		return {
			problem:
				`${field} contains a user name or password (user:pass@): remove it; the ` +
				`API Key field is the only credential sent`,
		};
	}
	if (url.search !== '' || value.includes('?')) {
		return { problem: `${field} contains a query string ('?…'): remove it; ${accepts}` };
	}
	if (url.hash !== '' || value.includes('#')) {
		return { problem: `${field} contains a fragment ('#…'): remove it; ${accepts}` };
	}
	return { insecure: url.protocol === 'http:' && !isLoopbackHost(url.hostname) };
}
