import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

export type GatewayHost = 'main' | 'alt';

/** Users paste the base URL with or without `/v1` and trailing slashes; paths always carry `/v1`. */
export function normaliseOrigin(raw: unknown): string {
	return String(raw ?? '')
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/v1$/i, '')
		.replace(/\/+$/, '');
}

export interface GatewayOrigins {
	main: string;
	alt: string;
}

export function originsFrom(credentials: ICredentialDataDecryptedObject): GatewayOrigins {
	return { main: normaliseOrigin(credentials.baseUrl), alt: normaliseOrigin(credentials.altBaseUrl) };
}

export function isAbsoluteUrl(value: string): boolean {
	return /^https?:\/\//i.test(value);
}
