'use strict';
// Where a gateway's answer may not send n8n (addresses.ts), on a fake context (no HTTP, no DNS):
// each spelling of an address and its kind, the names known without DNS, what n8n 2.x's resolver
// and SSRF settings (a fake getSecureEgressFilter) are asked and how their answers count, the
// refusal (RequestBlocked) and the range that would allow it. faults/addresses.test.js runs the same
// rule through n8n (both lines) against a service on this host; this table holds its edges.
//
// The modules are loaded afresh in each test (fresh-modules.js says why).
const fresh = require('./fresh-modules').freshEachTest();
const addresses = fresh(() => require('../dist/nodes/UnifiedAiGateway/transport/addresses.js'));

const GATEWAY = ['https://gw.example.com'];

describe('addressKind: the kind of one literal address', () => {
	test.each([
		['127.0.0.1', { kind: 'loopback', address: '127.0.0.1' }],
		['127.255.1.2', { kind: 'loopback', address: '127.255.1.2' }],
		['0.0.0.0', { kind: 'unspecified', address: '0.0.0.0' }],
		['0.1.2.3', { kind: 'unspecified', address: '0.1.2.3' }],
		['169.254.10.20', { kind: 'link-local', address: '169.254.10.20' }],
		['169.254.169.254', { kind: 'metadata', address: '169.254.169.254' }],
		['100.100.100.200', { kind: 'metadata', address: '100.100.100.200' }],
		['::1', { kind: 'loopback', address: '::1' }],
		['[::1]', { kind: 'loopback', address: '::1' }],
		['0:0:0:0:0:0:0:1', { kind: 'loopback', address: '0:0:0:0:0:0:0:1' }],
		['::', { kind: 'unspecified', address: '::' }],
		['[::]', { kind: 'unspecified', address: '::' }],
		['fe80::1', { kind: 'link-local', address: 'fe80::1' }],
		['FE80::1%eth0', { kind: 'link-local', address: 'FE80::1%eth0' }],
		['febf:1::', { kind: 'link-local', address: 'febf:1::' }],
		['fd00:ec2::254', { kind: 'metadata', address: 'fd00:ec2::254' }],
		['[fd00:ec2:0:0:0:0:0:254]', { kind: 'metadata', address: 'fd00:ec2:0:0:0:0:0:254' }],
		// IPv4-mapped: the IPv4 address is what is reached, and named.
		['::ffff:127.0.0.1', { kind: 'loopback', address: '127.0.0.1' }],
		['[::ffff:7f00:1]', { kind: 'loopback', address: '127.0.0.1' }],
		['0:0:0:0:0:ffff:169.254.169.254', { kind: 'metadata', address: '169.254.169.254' }],
		['::ffff:a9fe:a14', { kind: 'link-local', address: '169.254.10.20' }],
		// `::` standing for exactly one group, at the end or the start.
		['0:0:0:0:0:0:0::', { kind: 'unspecified', address: '0:0:0:0:0:0:0::' }],
		['::0:0:0:0:0:0:1', { kind: 'loopback', address: '::0:0:0:0:0:0:1' }],
	])('%p: %p', (address, classified) => {
		expect(addresses.addressKind(address)).toStrictEqual(classified);
	});

	test.each([
		['10.0.0.1'],
		['169.253.1.1'],
		['170.254.1.1'],
		['126.0.0.1'],
		['1.0.0.0'],
		['256.0.0.1'],
		['127.0.0.256'],
		['1.2.3'],
		['127.0.0.1.5'],
		['x127.0.0.1'],
		['127.0.0.1x'],
		['1270.0.0.1'],
		['::2'],
		['1::1'],
		['0:0:0:0:0:0:1:1'],
		['::127.0.0.1'],
		['::fffe:127.0.0.1'],
		['1::ffff:127.0.0.1'],
		['::ffff:10.0.0.1'],
		['::ffff:300.0.0.1'],
		['::ffff:127.0.0'],
		['::ffff:127.0.0.1x'],
		['::[1'],
		['::]1'],
		['fe80::zz'],
		['::ffff:zz:1'],
		['::1:ffff:127.0.0.1'],
		['fec0::1'],
		['fe7f::1'],
		['fd00:ec2::255'],
		['1:2:3:4:5:6:7'],
		['0:0:0:0:0:0:0:0:1'],
		['1:2:3:4::5:6:7:8'],
		['1::2::3'],
		['::g'],
		['::10000'],
		['1:2:3:4:5:6:127.0.0.1:1'],
		// Texts no URL holds (its parser refuses them): too many groups, two `::`, a 5-digit group.
		['0:0:0:0:0:0:0:0:0'],
		['0:0:0:0::0:0:0:1'],
		['::1::'],
		['::00001'],
		['localhost'],
		['gw.example.com'],
		[''],
	])('%p: none of the kinds', (address) => {
		expect(addresses.addressKind(address)).toBeUndefined();
	});

	test('each kind as a refusal names it', () => {
		expect(addresses.ADDRESS_KINDS).toEqual({
			loopback: 'a loopback address (the n8n host itself)',
			unspecified: 'the unspecified address (0.0.0.0 or ::, which reaches the n8n host itself)',
			'link-local': 'a link-local address (169.254.0.0/16, fe80::/10)',
			metadata: "a cloud metadata service's address",
		});
	});
});

/**
 * A node run's context. `resolves` (name → its addresses, or { error, addresses }, or 'throw') and
 * `allowed` ({ hosts, urls }: what n8n's settings allow) give it n8n 2.x's egress filter; without
 * both it is n8n 1.x, which has none. `asked` records what the filter was asked.
 */
function fakeContext({ resolves, allowed } = {}) {
	const asked = [];
	const node = { name: 'Gateway', type: 'unifiedAiGateway' };
	const ctx = { getNode: () => node, helpers: {} };
	if (resolves || allowed) {
		ctx.helpers.getSecureEgressFilter = (policy) => ({
			createSecureLookup: () => (hostname, options, callback) => {
				asked.push(['lookup', policy, hostname, options]);
				const answer = resolves?.[hostname];
				if (answer === 'throw') throw new TypeError('bad name');
				const list = (addresses) => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
				// Later, as DNS answers: { error, addresses } as given, or the list of addresses.
				const [error, addresses] = Array.isArray(answer) ? [null, list(answer)] : answer ? [answer.error ?? null, answer.addresses && list(answer.addresses)] : [null, []];
				Promise.resolve().then(() => callback(error, addresses));
			},
			validateConnectionHost: (host) => {
				asked.push(['host', policy, host]);
				if (allowed?.hosts === 'throw') throw new Error('broken settings');
				return { ok: Boolean(allowed?.hosts?.includes(host)) };
			},
			validateUrl: async (url) => {
				asked.push(['url', policy, url]);
				return { ok: Boolean(allowed?.urls?.includes(url)) };
			},
		});
	}
	return { ctx, asked };
}

describe('classifyHost: what a URL host is, by its text or by what it resolves to', () => {
	test.each([
		['localhost', 'loopback', '127.0.0.1'],
		['LOCALHOST.', 'loopback', '127.0.0.1'],
		['n8n.localhost', 'loopback', '127.0.0.1'],
		['metadata.google.internal', 'metadata', '169.254.169.254'],
		['Metadata.Goog.', 'metadata', '169.254.169.254'],
		['metadata', 'metadata', '169.254.169.254'],
	])('%p is known without DNS: %s (%s)', async (hostname, kind, address) => {
		const { ctx, asked } = fakeContext({ resolves: {} });
		expect(await addresses.classifyHost(ctx, hostname)).toStrictEqual({ kind, address });
		expect(asked).toEqual([]);
	});

	test.each([['localhost.example.com'], ['metadata.example.com'], ['xlocalhost'], ['files.example.com']])('%p is another host (n8n 1.x: no resolver)', async (hostname) => {
		expect(await addresses.classifyHost(fakeContext().ctx, hostname)).toBeUndefined();
	});

	test('a name is resolved through n8n 2.x, unsafe (nothing is sent through it), every address; the first of a refused kind counts', async () => {
		const { ctx, asked } = fakeContext({ resolves: { 'files.lan': ['10.0.0.5', '::1', '127.0.0.1'] } });
		expect(await addresses.classifyHost(ctx, 'files.lan')).toStrictEqual({ kind: 'loopback', address: '::1' });
		expect(asked).toEqual([['lookup', 'unsafe', 'files.lan', { all: true }]]);
	});

	test.each([
		['only addresses of no refused kind', ['10.0.0.5', '2001:db8::1']],
		['no address', []],
		['an error', { error: new Error('ENOTFOUND') }],
		['an error, whatever addresses come with it', { error: new Error('ESERVFAIL'), addresses: ['127.0.0.1'] }],
		['no list', { addresses: undefined }],
		['a resolver that throws on the name', 'throw'],
	])('a name that resolves to %s is nothing to refuse', async (_, answer) => {
		const { ctx } = fakeContext({ resolves: { 'files.lan': answer } });
		expect(await addresses.classifyHost(ctx, 'files.lan')).toBeUndefined();
	});

	test('a literal address is not resolved: an address of no refused kind is nothing, a bracketed IPv6 too', async () => {
		const { ctx, asked } = fakeContext({ resolves: {} });
		expect(await addresses.classifyHost(ctx, '10.0.0.1')).toBeUndefined();
		expect(await addresses.classifyHost(ctx, '[2001:db8::1]')).toBeUndefined();
		expect(await addresses.classifyHost(ctx, '[::1]')).toStrictEqual({ kind: 'loopback', address: '::1' });
		expect(asked).toEqual([]);
	});
});

describe('checkAddress: refused before it is sent', () => {
	const refusal = async (promise) => {
		const error = await promise.catch((e) => e);
		expect(error).toBeInstanceOf(addresses.RequestBlocked);
		return error;
	};

	test('an address on this host is refused, naming the URL, its host as written, the kind and the address; n8n 1.x has no settings to allow it', async () => {
		const { ctx } = fakeContext();
		const error = await refusal(addresses.checkAddress(ctx, 'http://127.0.0.1:5678/rest/settings', GATEWAY));
		expect(error.message).toBe('http://127.0.0.1:5678/rest/settings was not requested');
		expect(error.blocked).toStrictEqual({ by: 'node', url: 'http://127.0.0.1:5678/rest/settings', host: '127.0.0.1:5678', kind: 'loopback', address: '127.0.0.1', settings: false });
		const hop = await refusal(addresses.checkAddress(ctx, 'http://[::]:80/x', GATEWAY, 'https://files.example.com/1'));
		expect(hop.blocked).toStrictEqual({ by: 'node', url: 'http://[::]:80/x', host: '[::]', kind: 'unspecified', address: '::', settings: false, redirectedFrom: 'https://files.example.com/1' });
	});

	test.each([
		['not a URL', 'not a url'],
		['another scheme', 'ftp://127.0.0.1/x'],
		['a data URL', 'data:text/plain,x'],
		['an address of no refused kind', 'http://10.0.0.1/x'],
		['an address of no refused kind, over https', 'https://10.0.0.1/x'],
		['a name n8n 1.x cannot resolve', 'https://files.example.com/x'],
	])('%s is left to the request (%p)', async (_, url) => {
		await expect(addresses.checkAddress(fakeContext().ctx, url, GATEWAY)).resolves.toBeUndefined();
	});

	test('the gateway\'s own kind of address is allowed (a gateway on this machine serves its files from it), an unreadable Base URL skipped', async () => {
		const { ctx } = fakeContext();
		const beside = ['not a url', 'http://localhost:3000'];
		await expect(addresses.checkAddress(ctx, 'http://127.0.0.2:9000/x.png', beside)).resolves.toBeUndefined();
		await expect(addresses.checkAddress(ctx, 'http://[::1]:9000/x.png', beside)).resolves.toBeUndefined();
		expect((await refusal(addresses.checkAddress(ctx, 'http://0.0.0.0:9000/x.png', beside))).blocked.kind).toBe('unspecified');
	});

	test('over https as over http', async () => {
		const error = await refusal(addresses.checkAddress(fakeContext().ctx, 'https://127.0.0.1/x', GATEWAY));
		expect(error.blocked).toMatchObject({ kind: 'loopback', address: '127.0.0.1' });
	});

	test('a metadata address is refused even beside a gateway on one', async () => {
		const { ctx } = fakeContext();
		const error = await refusal(addresses.checkAddress(ctx, 'http://169.254.169.254/latest/meta-data', ['http://169.254.169.254']));
		expect(error.blocked).toMatchObject({ kind: 'metadata', address: '169.254.169.254' });
	});

	test('a link-local address beside a gateway on the link is allowed', async () => {
		await expect(addresses.checkAddress(fakeContext().ctx, 'http://169.254.1.1/x', ['http://[fe80::1]:3000'])).resolves.toBeUndefined();
	});

	test('the gateway\'s kinds are read once per node run', async () => {
		const { ctx } = fakeContext();
		await expect(addresses.checkAddress(ctx, 'http://127.0.0.1/x', ['http://127.0.0.1:3000'])).resolves.toBeUndefined();
		// The same run: its Base URLs do not change within it.
		await expect(addresses.checkAddress(ctx, 'http://127.0.0.1/x', GATEWAY)).resolves.toBeUndefined();
		await refusal(addresses.checkAddress(fakeContext().ctx, 'http://127.0.0.1/x', GATEWAY));
	});
});

describe("checkAddress: n8n 2.x's SSRF settings may allow it", () => {
	test('an address the settings allow, and a URL they allow: sent; asked with the configured lists (enforced)', async () => {
		const { ctx, asked } = fakeContext({ allowed: { hosts: ['127.0.0.1'], urls: ['http://127.0.0.1:9000/x'] } });
		await expect(addresses.checkAddress(ctx, 'http://127.0.0.1:9000/x', GATEWAY)).resolves.toBeUndefined();
		expect(asked).toEqual([
			// The gateway's own name, resolved for its kind (none here).
			['lookup', 'unsafe', 'gw.example.com', { all: true }],
			['host', 'enforced', '127.0.0.1'],
			['url', 'enforced', 'http://127.0.0.1:9000/x'],
		]);
	});

	test('an address allowed whose URL is not: refused, and the refusal says this n8n has settings', async () => {
		const { ctx } = fakeContext({ allowed: { hosts: ['127.0.0.1'], urls: [] } });
		const error = await addresses.checkAddress(ctx, 'http://127.0.0.1:9000/x', GATEWAY).catch((e) => e);
		expect(error.blocked).toMatchObject({ kind: 'loopback', settings: true });
	});

	test('[::] is never allowed, whatever n8n allows; Alibaba Cloud\'s metadata address is asked about as 169.254.169.254', async () => {
		const { ctx, asked } = fakeContext({ allowed: { hosts: ['::', '::1', '0.0.0.0', '169.254.169.254'], urls: ['http://[::]/x', 'http://0.0.0.0/x', 'http://100.100.100.200/x'] } });
		await expect(addresses.checkAddress(ctx, 'http://[::]/x', GATEWAY)).rejects.toThrow(addresses.RequestBlocked);
		await expect(addresses.checkAddress(ctx, 'http://0.0.0.0/x', GATEWAY)).rejects.toThrow(addresses.RequestBlocked);
		await expect(addresses.checkAddress(ctx, 'http://100.100.100.200/x', GATEWAY)).resolves.toBeUndefined();
		expect(asked.filter(([what]) => what === 'host').map(([, , host]) => host)).toEqual(['169.254.169.254']);
	});

	test('by its name (N8N_SSRF_ALLOWED_HOSTNAMES): a name whose address is not allowed is asked by URL', async () => {
		const { ctx } = fakeContext({ allowed: { hosts: [], urls: ['http://localhost:9000/x'] } });
		await expect(addresses.checkAddress(ctx, 'http://localhost:9000/x', GATEWAY)).resolves.toBeUndefined();
	});

	test.each([
		['a literal address is not allowed by name', 'http://127.0.0.1:9000/x'],
		['nor [::], whose stand-in is what was asked', 'http://[::]:9000/x'],
		['nor a name of the unspecified address by what it resolves to', 'http://zero.lan/x'],
	])('%s', async (_, url) => {
		const { ctx, asked } = fakeContext({ resolves: { 'zero.lan': ['::'] }, allowed: { hosts: [], urls: [url] } });
		await expect(addresses.checkAddress(ctx, url, GATEWAY)).rejects.toBeInstanceOf(addresses.RequestBlocked);
		expect(asked.filter(([what]) => what === 'url')).toEqual([]);
	});

	test('settings that fail to answer allow nothing', async () => {
		const { ctx } = fakeContext({ allowed: { hosts: 'throw', urls: ['http://127.0.0.1/x'] } });
		await expect(addresses.checkAddress(ctx, 'http://127.0.0.1/x', GATEWAY)).rejects.toBeInstanceOf(addresses.RequestBlocked);
	});

	test('whether this n8n has settings to follow', () => {
		expect(addresses.n8nHasSsrfSettings(fakeContext().ctx)).toBe(false);
		const { ctx, asked } = fakeContext({ allowed: {} });
		expect(addresses.n8nHasSsrfSettings(ctx)).toBe(true);
		// Asked with the configured lists: the policy that answers whether settings apply.
		const policies = [];
		const filterOf = ctx.helpers.getSecureEgressFilter;
		ctx.helpers.getSecureEgressFilter = (policy) => (policies.push(policy), filterOf(policy));
		addresses.n8nHasSsrfSettings(ctx);
		expect(policies).toEqual(['enforced']);
		ctx.helpers.getSecureEgressFilter = {};
		expect(addresses.n8nHasSsrfSettings(ctx)).toBe(false);
		expect(asked).toEqual([]);
	});
});

describe('what a refusal tells the user to allow', () => {
	test.each([
		[{ kind: 'loopback', address: '127.0.0.1' }, '127.0.0.1/32'],
		[{ kind: 'loopback', address: '::1' }, '::1/128'],
		// No range allows the unspecified address: none is named.
		[{ kind: 'unspecified', address: '::' }, undefined],
		[{ kind: 'unspecified', address: '0.0.0.0' }, undefined],
		[{ kind: 'metadata', address: '100.100.100.200' }, '169.254.169.254/32'],
		[{ kind: 'metadata', address: 'fd00:ec2::254' }, 'fd00:ec2::254/128'],
		[{ address: '10.0.0.8' }, '10.0.0.8/32'],
		[{ address: 'fd12::8' }, 'fd12::8/128'],
		[{ kind: 'loopback' }, undefined],
		[{}, undefined],
	])('%p: %p', (blocked, range) => {
		expect(addresses.allowedRangeFor(blocked)).toBe(range);
	});

	test("n8n's own refusal as a Blocked: the host as written, the address when n8n named one, where it was redirected from", () => {
		expect(addresses.blockedByN8n('https://files.internal:8443/1.png', { hostname: 'files.internal' })).toStrictEqual({ by: 'n8n', url: 'https://files.internal:8443/1.png', host: 'files.internal:8443', settings: true });
		expect(addresses.blockedByN8n('http://10.0.0.8/1.png', { address: '10.0.0.8' }, 'https://gw.example.com/v1/a')).toStrictEqual({
			by: 'n8n',
			url: 'http://10.0.0.8/1.png',
			host: '10.0.0.8',
			address: '10.0.0.8',
			settings: true,
			redirectedFrom: 'https://gw.example.com/v1/a',
		});
		expect(addresses.blockedByN8n('not a url', {})).toStrictEqual({ by: 'n8n', url: 'not a url', host: 'not a url', settings: true });
	});
});
