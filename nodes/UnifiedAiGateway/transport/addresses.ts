// Addresses a gateway's answer may not send n8n to (docs/gateway-contract.md §10.13): a result URL,
// or a redirect hop off the gateway's own origins, on this n8n host (loopback, the unspecified
// address), on the link (link-local) or at a cloud metadata service. Checked before anything is
// sent, with n8n's SSRF protection on or off.
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { GatewayContext } from './context';

export type AddressKind = 'loopback' | 'unspecified' | 'link-local' | 'metadata';

/** How an address kind is named in a refusal. */
export const ADDRESS_KINDS: Record<AddressKind, string> = {
	loopback: 'a loopback address (the n8n host itself)',
	unspecified: 'the unspecified address (0.0.0.0 or ::, which reaches the n8n host itself)',
	'link-local': 'a link-local address (169.254.0.0/16, fe80::/10)',
	metadata: "a cloud metadata service's address",
};

/** Metadata services by address (AWS, GCP, Azure, OpenStack: 169.254.169.254; AWS IPv6; Alibaba Cloud). */
const METADATA_ADDRESSES = new Set([
	'169.254.169.254',
	'fd00:ec2:0:0:0:0:0:254',
	'100.100.100.200',
]);

/** Metadata services by name: refused without a DNS lookup (n8n 1.x has none to offer a node). */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);

/** Dotted IPv4 (what the URL parser makes of every IPv4 spelling: decimal, octal, hex, short). */
function ipv4(text: string): number[] | undefined {
	const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
	if (!match) return undefined;
	const parts = match.slice(1).map(Number);
	return parts.every((n) => n <= 255) ? parts : undefined;
}

/** An IPv6 address in any text form (`::`, `::ffff:127.0.0.1`, a zone id dropped) as its 8 groups. */
function ipv6(text: string): number[] | undefined {
	let rest = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
	if (!rest.includes(':')) return undefined;
	let tail: number[] = [];
	const dotted = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(rest);
	if (dotted) {
		const v4 = ipv4(dotted[2]);
		if (!v4) return undefined;
		tail = [(v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]];
		rest = dotted[1].endsWith('::') ? dotted[1] : dotted[1].slice(0, -1);
	}
	const halves = rest.split('::');
	if (halves.length > 2) return undefined;
	const groups = (half: string) => (half === '' ? [] : half.split(':'));
	const head = groups(halves[0]);
	const after = halves.length === 2 ? groups(halves[1]) : [];
	const given = head.length + after.length + tail.length;
	// Without `::` all eight groups are written; `::` stands for at least one.
	if (halves.length === 1 ? given !== 8 : given > 7) return undefined;
	const zeros = halves.length === 2 ? new Array<string>(8 - given).fill('0') : [];
	const numbers = [...head, ...zeros, ...after].map((g) =>
		/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN,
	);
	return numbers.every((n) => !Number.isNaN(n)) ? [...numbers, ...tail] : undefined;
}

function ipv4Kind([a, b]: number[], text: string): AddressKind | undefined {
	if (METADATA_ADDRESSES.has(text)) return 'metadata';
	if (a === 127) return 'loopback';
	if (a === 0) return 'unspecified';
	if (a === 169 && b === 254) return 'link-local';
	return undefined;
}

export interface Classified {
	kind: AddressKind;
	/** The address as n8n's settings would name it (an IPv4-mapped address by its IPv4). */
	address: string;
}

/** The kind of one literal address (IPv4 dotted, IPv6 in any form), or undefined for any other. */
export function addressKind(address: string): Classified | undefined {
	const v4 = ipv4(address);
	if (v4) {
		const kind = ipv4Kind(v4, address);
		return kind ? { kind, address } : undefined;
	}
	const v6 = ipv6(address);
	if (!v6) return undefined;
	// IPv4-mapped (::ffff:a.b.c.d): the IPv4 address is what is reached.
	if (v6.slice(0, 5).every((g) => g === 0) && v6[5] === 0xffff) {
		const mapped = [v6[6] >> 8, v6[6] & 255, v6[7] >> 8, v6[7] & 255];
		return addressKind(mapped.join('.'));
	}
	const full = v6.map((g) => g.toString(16)).join(':');
	if (METADATA_ADDRESSES.has(full))
		return { kind: 'metadata', address: address.replace(/^\[|\]$/g, '') };
	const bare = address.replace(/^\[|\]$/g, '');
	if (v6.every((g) => g === 0)) return { kind: 'unspecified', address: bare };
	if (v6.slice(0, 7).every((g) => g === 0) && v6[7] === 1)
		return { kind: 'loopback', address: bare };
	if ((v6[0] & 0xffc0) === 0xfe80) return { kind: 'link-local', address: bare };
	return undefined;
}

/** A host name (from a URL) the node knows without DNS: `localhost`, `*.localhost`, metadata names. */
function namedKind(hostname: string): Classified | undefined {
	const name = hostname.toLowerCase().replace(/\.$/, '');
	if (name === 'localhost' || name.endsWith('.localhost'))
		return { kind: 'loopback', address: '127.0.0.1' };
	if (METADATA_NAMES.has(name)) return { kind: 'metadata', address: '169.254.169.254' };
	return undefined;
}

/** n8n 2.x's egress filter, as a node may ask for it (RequestHelperFunctions.getSecureEgressFilter). */
interface EgressFilter {
	validateUrl(url: string): Promise<{ ok: boolean }>;
	validateConnectionHost(host: string): { ok: boolean };
	createSecureLookup(): (
		hostname: string,
		options: { all: true },
		callback: (error: Error | null, addresses: Array<{ address: string }>) => void,
	) => void;
}

type Policy = 'enforced' | 'unsafe';

function egressFilter(ctx: GatewayContext, policy: Policy): EgressFilter | undefined {
	const helpers = ctx.helpers as unknown as {
		getSecureEgressFilter?: (policy: Policy) => EgressFilter;
	};
	return typeof helpers.getSecureEgressFilter === 'function'
		? helpers.getSecureEgressFilter(policy)
		: undefined;
}

/** Whether this n8n offers SSRF settings a node can follow (n8n 2.x; 1.x has none). */
export function n8nHasSsrfSettings(ctx: GatewayContext): boolean {
	return egressFilter(ctx, 'enforced') !== undefined;
}

/**
 * The addresses a host name resolves to, asked of n8n 2.x (a node may not import Node's DNS). The
 * policy is `unsafe` because this only resolves the name: no request goes through it, and what
 * the addresses may be is judged below. n8n 1.x offers no resolver: nothing.
 */
async function resolve(ctx: GatewayContext, hostname: string): Promise<string[]> {
	const filter = egressFilter(ctx, 'unsafe');
	if (!filter) return [];
	const lookup = filter.createSecureLookup();
	return await new Promise<string[]>((done) => {
		try {
			lookup(hostname, { all: true }, (error, addresses) =>
				done(error || !Array.isArray(addresses) ? [] : addresses.map((a) => a.address)),
			);
		} catch {
			// A name the resolver cannot take: the request itself will fail on it.
			done([]);
		}
	});
}

/** What a URL's host is: a refused kind (with the address), or nothing to refuse. */
export async function classifyHost(
	ctx: GatewayContext,
	hostname: string,
): Promise<Classified | undefined> {
	const literal = addressKind(hostname);
	if (literal || ipv4(hostname) || ipv6(hostname)) return literal;
	const named = namedKind(hostname);
	if (named) return named;
	for (const address of await resolve(ctx, hostname)) {
		const kind = addressKind(address);
		if (kind) return kind;
	}
	return undefined;
}

/**
 * The address n8n's SSRF lists are asked about for a refused one. n8n's default blocked ranges
 * (2.41) hold loopback, `0.0.0.0/8`, link-local and `fd00::/8`, so "allowed" by its lists means the
 * user allowed it, except for what they miss: Alibaba Cloud's metadata address (in 100.64.0.0/10)
 * stands for the link-local metadata address. (`::`, which they miss too, is never asked about.)
 */
function standIn(found: Classified): string {
	if (found.kind === 'metadata' && found.address === '100.100.100.200') return '169.254.169.254';
	return found.address;
}

/** Whether the user allowed this address in n8n's SSRF settings (n8n 2.x, whether protection is on or off). */
async function allowedByN8n(ctx: GatewayContext, url: string, found: Classified): Promise<boolean> {
	// `enforced`: n8n's configured lists (N8N_SSRF_ALLOWED_IP_RANGES, N8N_SSRF_ALLOWED_HOSTNAMES, the
	// blocked ranges) applied whether or not N8N_SSRF_PROTECTION_ENABLED is on.
	const filter = egressFilter(ctx, 'enforced');
	if (!filter) return false;
	try {
		if (!filter.validateConnectionHost(standIn(found)).ok) {
			// Not by its address: perhaps by its name (N8N_SSRF_ALLOWED_HOSTNAMES).
			const host = new URL(url).hostname;
			if (addressKind(host) || standIn(found) !== found.address) return false;
		}
		return (await filter.validateUrl(url)).ok;
	} catch {
		return false;
	}
}

/** A request that was not sent, and who refused it: the node (by this file's rule) or n8n's SSRF protection. */
export interface Blocked {
	by: 'node' | 'n8n';
	url: string;
	/** The URL's host as written (`[::]`, `metadata.google.internal`, `minio.lan:9000`). */
	host: string;
	/** The node's refusal: the kind of address it is. */
	kind?: AddressKind;
	/** The address refused (n8n names it when it blocked by address). */
	address?: string;
	/** Whether this n8n has SSRF settings that could allow it (n8n 2.x). */
	settings: boolean;
	/** The URL whose redirect pointed here, when it was a redirect hop. */
	redirectedFrom?: string;
}

/** Thrown instead of sending a request that is refused (transport/request.ts turns it into the error). */
export class RequestBlocked extends NodeOperationError {
	constructor(
		node: INode,
		readonly blocked: Blocked,
	) {
		super(node, `${blocked.url} was not requested`);
	}
}

const gatewayKindsOfRun = new WeakMap<object, Promise<Set<AddressKind>>>();

/** The kinds the gateway's own Base URLs are on (a gateway on this machine may serve its files from it). */
async function gatewayKinds(ctx: GatewayContext, gatewayUrls: string[]): Promise<Set<AddressKind>> {
	let kinds = gatewayKindsOfRun.get(ctx);
	if (!kinds) {
		kinds = (async () => {
			const found = new Set<AddressKind>();
			for (const url of gatewayUrls) {
				let hostname: string;
				try {
					hostname = new URL(url).hostname;
				} catch {
					continue;
				}
				const kind = (await classifyHost(ctx, hostname))?.kind;
				if (kind) found.add(kind);
			}
			return found;
		})();
		gatewayKindsOfRun.set(ctx, kinds);
	}
	return await kinds;
}

/**
 * Refuses (RequestBlocked) a URL whose host is, or resolves to, an address of a refused kind,
 * unless the gateway's own Base URL is on the same kind (never a metadata address) or the user
 * allowed it in n8n's SSRF settings. A name is resolved where n8n offers a resolver (2.x); on 1.x
 * only literal addresses and `localhost` names are known (docs/gateway-contract.md §10.13).
 */
export async function checkAddress(
	ctx: GatewayContext,
	url: string,
	gatewayUrls: string[],
	redirectedFrom?: string,
): Promise<void> {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return;
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return;
	const found = await classifyHost(ctx, parsed.hostname);
	if (!found) return;
	if (found.kind !== 'metadata' && (await gatewayKinds(ctx, gatewayUrls)).has(found.kind)) return;
	// The unspecified address is no host's own: no setting makes it one. n8n 2.41 does not block `::`,
	// and a range allowed for the loopback it reaches must not open it too (NEVER_ALLOWED).
	if (!NEVER_ALLOWED.has(found.kind) && (await allowedByN8n(ctx, url, found))) return;
	throw new RequestBlocked(ctx.getNode(), {
		by: 'node',
		url,
		host: parsed.host,
		kind: found.kind,
		address: found.address,
		settings: n8nHasSsrfSettings(ctx),
		...(redirectedFrom ? { redirectedFrom } : {}),
	});
}

/**
 * Kinds no n8n setting allows: only a gateway whose own Base URL is on that kind may send n8n
 * there. 0.0.0.0 and `::` name no host; a link there reaches n8n's own host by accident of the OS.
 */
export const NEVER_ALLOWED: ReadonlySet<AddressKind> = new Set(['unspecified']);

/** The N8N_SSRF_ALLOWED_IP_RANGES entry that would allow an address (its stand-in, for metadata). */
export function allowedRangeFor(blocked: Pick<Blocked, 'address' | 'kind'>): string | undefined {
	if (!blocked.address || (blocked.kind && NEVER_ALLOWED.has(blocked.kind))) return undefined;
	const address = blocked.kind
		? standIn({ kind: blocked.kind, address: blocked.address })
		: blocked.address;
	return address.includes(':') ? `${address}/128` : `${address}/32`;
}

/** A request n8n's SSRF protection refused (responses.ts ssrfBlockOf), as a Blocked. */
export function blockedByN8n(
	url: string,
	said: { address?: string; hostname?: string },
	redirectedFrom?: string,
): Blocked {
	let host = url;
	try {
		host = new URL(url).host;
	} catch {
		// Kept as given.
	}
	return {
		by: 'n8n',
		url,
		host,
		...(said.address ? { address: said.address } : {}),
		settings: true,
		...(redirectedFrom ? { redirectedFrom } : {}),
	};
}
