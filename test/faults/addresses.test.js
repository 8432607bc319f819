'use strict';
// Addresses a gateway may not send n8n to (docs/gateway-contract.md §10.13): a result URL, or a
// redirect hop, on the n8n host (loopback, the unspecified address), on the link (link-local) or at
// a cloud metadata service is not requested unless the Base URL is on the same kind of address or
// n8n's SSRF settings allow it (n8n 2.x: read through n8n, whether its protection is on or off). A
// service on the n8n host ("internal", below) stands for n8n's own /rest/settings, an admin API, a
// metadata service with cloud keys: it must see no request, and nothing of it reaches an item.
// With n8n's protection on (2.x), what n8n blocks is said to be blocked, naming the settings.
const http = require('node:http');
const path = require('node:path');
const { runNode } = require('../harness');
const { useSimulator, createTask } = require('../support');

const ctx = useSimulator({ scenario: { durationMs: 50 } });
const LINE2 = require.resolve('n8n-core').includes(`${path.sep}lines${path.sep}n8n-2${path.sep}`);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2000)]);
const SECRET = 'sk-cloud-SECRET-of-the-metadata-service';

/** A service on the n8n host, on every address of it (IPv4 and IPv6): it counts what reaches it. */
const internal = { hits: [] };
beforeAll(async () => {
	internal.server = http.createServer((req, res) => {
		internal.hits.push(req.url);
		if (req.url.endsWith('.json')) {
			res.writeHead(200, { 'Content-Type': 'application/json' });
			return res.end(JSON.stringify({ AccessKeyId: SECRET, settings: { secret: SECRET } }));
		}
		res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': PNG.length });
		res.end(PNG);
	});
	await new Promise((resolve) => internal.server.listen(0, '::', resolve));
	internal.port = internal.server.address().port;
});
afterAll(() => new Promise((resolve) => internal.server.close(resolve)));
beforeEach(() => (internal.hits = []));

/** Task → Wait for Completion of one image task whose answers name `resultUrl`, file downloaded. */
async function waitFor(resultUrl, credentials = ctx.creds) {
	ctx.sim.scenario('gpt-image-2-async', { durationMs: 50, resultUrl, imageShape: 'full' });
	const taskId = await createTask(ctx.sim);
	const result = await runNode({
		parameters: { resource: 'task', operation: 'waitForCompletion', taskId, queryRoute: 'image', download: true, waiting: { pollIntervalSeconds: 0.1 } },
		credentials,
		continueOnFail: true,
	});
	return { taskId, item: result.items[0], text: JSON.stringify(result.items.map((i) => i.json)) };
}

/** The credentials with Base URL and Alt Base URL on another address of the simulator's host. */
const baseOn = (host) => ({ ...ctx.creds, baseUrl: ctx.creds.baseUrl.replace('127.0.0.1', host), altBaseUrl: ctx.creds.altBaseUrl.replace('127.0.0.1', host) });

/** [url (P = the internal port), words naming its kind, the address shown, the range that would allow it] */
const REFUSED_BESIDE_A_LOOPBACK_GATEWAY = [
	// The unspecified address: no setting allows it (null: none is named), on either line.
	['http://[::]:P/media.png', 'the unspecified address', '[::]:P', null],
	['http://0.0.0.0:P/media.png', 'the unspecified address', '0.0.0.0:P', null],
	['http://0:P/media.png', 'the unspecified address', '0.0.0.0:P', null],
	['http://[::ffff:0.0.0.0]:P/media.png', 'the unspecified address', '[::ffff:0:0]:P', null],
	['http://169.254.169.254/latest/meta-data/iam.json', "a cloud metadata service's address", '169.254.169.254', '169.254.169.254/32'],
	['http://metadata.google.internal/computeMetadata/v1/x.json', "a cloud metadata service's address", 'metadata.google.internal', '169.254.169.254/32'],
	['http://100.100.100.200/latest/meta-data/x.json', "a cloud metadata service's address", '100.100.100.200', '169.254.169.254/32'],
	['http://[fd00:ec2::254]/latest/x.json', "a cloud metadata service's address", '[fd00:ec2::254]', 'fd00:ec2::254/128'],
	['http://169.254.10.20:P/media.png', 'a link-local address', '169.254.10.20:P', '169.254.10.20/32'],
	['http://[fe80::1]:P/media.png', 'a link-local address', '[fe80::1]:P', 'fe80::1/128'],
];

/** Beside a gateway on 0.0.0.0 (unspecified), every spelling of loopback is another kind: refused. */
const REFUSED_BESIDE_AN_UNSPECIFIED_GATEWAY = [
	['http://127.0.0.1:P/admin.json', '127.0.0.1:P', '127.0.0.1/32'],
	['http://2130706433:P/admin.json', '127.0.0.1:P', '127.0.0.1/32'],
	['http://0177.0.0.1:P/admin.json', '127.0.0.1:P', '127.0.0.1/32'],
	['http://0x7f.1:P/admin.json', '127.0.0.1:P', '127.0.0.1/32'],
	['http://127.1.2.3:P/admin.json', '127.1.2.3:P', '127.1.2.3/32'],
	['http://[::1]:P/admin.json', '[::1]:P', '::1/128'],
	['http://[::ffff:127.0.0.1]:P/admin.json', '[::ffff:7f00:1]:P', '127.0.0.1/32'],
	['http://localhost:P/admin.json', 'localhost:P', '127.0.0.1/32'],
	['http://LOCALHOST.:P/admin.json', 'localhost.:P', '127.0.0.1/32'],
	['http://n8n.localhost:P/admin.json', 'n8n.localhost:P', '127.0.0.1/32'],
];

const port = (text) => text.replace(/P/g, String(internal.port));

function expectRefused({ taskId, item, text }, url, kindWords, shownHost, range) {
	expect(item.json.taskId).toBe(taskId);
	expect(item.binary).toBeUndefined();
	expect(item.json.error).toContain(`The result was not fetched: ${port(url)} points at ${port(shownHost)}`);
	expect(item.json.error).toContain(`${kindWords}`);
	expect(item.json.error).toContain("the node does not send n8n there on a gateway's word");
	expect(item.json.description).toContain('Nothing was requested, and it was not asked again');
	expect(item.json.description).toContain(`Task ${taskId} finished and was paid for: do not submit it again.`);
	expect(item.json.description).not.toMatch(/download its result again with Task → Download Result soon/);
	if (range === null) {
		expect(item.json.description).toContain('No n8n setting allows it: 0.0.0.0 and :: are no host of their own');
		expect(item.json.description).not.toContain('N8N_SSRF_ALLOWED_IP_RANGES');
	} else if (LINE2) expect(item.json.description).toContain(`N8N_SSRF_ALLOWED_IP_RANGES=${range}`);
	else expect(item.json.description).toContain('n8n 1.x has no SSRF settings to allow it');
	// Nothing reached the service, nothing of it is anywhere in the item.
	expect(internal.hits).toEqual([]);
	expect(text).not.toContain(SECRET);
}

describe('beside a gateway on loopback (127.0.0.1)', () => {
	test.each(REFUSED_BESIDE_A_LOOPBACK_GATEWAY)('%s is refused: %s', async (url, kindWords, shownHost, range) => {
		expectRefused(await waitFor(port(url)), url, kindWords, shownHost, range);
	});

	test('loopback itself is the gateway\'s own kind of address: fetched (a gateway on this machine serves its files here)', async () => {
		const { item } = await waitFor(port('http://localhost:P/media.png'));
		expect(item.json.error).toBeUndefined();
		expect(item.binary.data.mimeType).toBe('image/png');
		expect(internal.hits).toEqual(['/media.png']);
	});

	test('a redirect hop to [::] from the file host is refused, naming the URL that redirected', async () => {
		ctx.sim.redirect({ origin: 'files', path: /^\/files\/hop\.png$/, to: port('http://[::]:P'), location: () => '/media.png' });
		const run = await waitFor(`${ctx.sim.filesUrl}/files/hop.png`);
		expect(run.item.json.error).toContain(`The result was not fetched: ${port('http://[::]:P/media.png')}, where ${ctx.sim.filesUrl}/files/hop.png redirected, points at ${port('[::]:P')}`);
		expect(internal.hits).toEqual([]);
	});

	test('a task read the gateway redirects to a metadata address is refused too (a read error of the task, never its state)', async () => {
		const taskId = await createTask(ctx.sim);
		ctx.sim.redirect({ origin: 'main', path: new RegExp(`/v1/images/generations/${taskId}$`), to: 'http://169.254.169.254', location: () => '/latest/meta-data/iam.json' });
		const result = await runNode({ parameters: { resource: 'task', operation: 'get', taskId, queryRoute: 'image' }, credentials: ctx.creds, continueOnFail: true });
		expect(result.items[0].json.taskId).toBe(taskId);
		expect(result.items[0].json.error).toBe(`http://169.254.169.254/latest/meta-data/iam.json, where ${ctx.sim.mainUrl}/v1/images/generations/${taskId} redirected, points at 169.254.169.254, a cloud metadata service's address: the node does not send n8n there on a gateway's word (while checking task ${taskId})`);
	});
});

describe('beside a gateway on the unspecified address (0.0.0.0)', () => {
	test.each(REFUSED_BESIDE_AN_UNSPECIFIED_GATEWAY)('%s is refused as loopback', async (url, shownHost, range) => {
		expectRefused(await waitFor(port(url), baseOn('0.0.0.0')), url, 'a loopback address (the n8n host itself)', shownHost, range);
	});

	test('[::] is the gateway\'s own kind: fetched', async () => {
		const { item } = await waitFor(port('http://[::]:P/media.png'), baseOn('0.0.0.0'));
		expect(item.json.error).toBeUndefined();
		expect(internal.hits).toEqual(['/media.png']);
	});
});

describe('what a non-media answer shows: its kind and size, never its bytes', () => {
	test('a JSON service on an allowed address answers instead of a file: nothing of it in the item', async () => {
		const { item, text } = await waitFor(port('http://127.0.0.1:P/settings.json'));
		expect(item.json.error).toMatch(/sent JSON of \d+ bytes instead of an image/);
		expect(internal.hits).toEqual(['/settings.json']);
		expect(text).not.toContain(SECRET);
		expect(text).not.toMatch(/First bytes|AccessKeyId/);
	});
});

// n8n 2.x only: 1.x has no SSRF protection and no settings a node could follow.
(LINE2 ? describe : describe.skip)("n8n's SSRF settings (n8n 2.x)", () => {
	// Loaded when a test runs, not here: jest runs a skipped describe's body too, and on the 1.x run
	// the 2.x side folder may not be installed.
	function n8nNetwork() {
		const LINE = path.resolve(__dirname, '../lines/n8n-2/node_modules');
		const { Container } = require('@n8n/di');
		const { SsrfProtectionConfig } = require(path.join(LINE, '@n8n/config'));
		const network = require(path.join(LINE, '@n8n/backend-network'));
		return { Container, SsrfProtectionConfig, network };
	}

	/** n8n's SSRF settings as its environment would give them, applied as n8n builds them at start. */
	function settings({ enabled, allowedIpRanges = [], allowedHostnames = [] }) {
		const { Container, SsrfProtectionConfig, network } = n8nNetwork();
		const config = Container.get(SsrfProtectionConfig);
		Object.assign(config, { enabled, allowedIpRanges, allowedHostnames });
		const old = Container.get(network.SsrfProtectionService);
		const service = new network.SsrfProtectionService(config, old.dnsResolver, { scoped: () => ({ warn() {}, debug() {}, info() {}, error() {} }) });
		Container.set(network.SsrfProtectionService, service);
		Container.set(network.OutboundHttp, new network.OutboundHttp(service, config, { scoped: () => ({ warn() {}, debug() {}, info() {}, error() {} }) }));
	}
	afterEach(() => settings({ enabled: false }));

	test.each([false, true])('N8N_SSRF_ALLOWED_IP_RANGES=::1/128 allows [::1], never [::] (protection enabled: %s)', async (enabled) => {
		// The gateway itself is on 127.0.0.1: allowed too when protection is on.
		settings({ enabled, allowedIpRanges: ['::1/128', '127.0.0.1/32', '0.0.0.0/0', '::/0'] });
		const { item } = await waitFor(port('http://[::1]:P/media.png'));
		expect(item.json.error).toBeUndefined();
		expect(internal.hits).toEqual(['/media.png']);
		// Every range allowed, and still: the unspecified address names no host.
		internal.hits.length = 0;
		expectRefused(await waitFor(port('http://[::]:P/media.png')), 'http://[::]:P/media.png', 'the unspecified address', '[::]:P', null);
	});

	test('N8N_SSRF_ALLOWED_HOSTNAMES=localhost allows localhost beside a gateway on 0.0.0.0', async () => {
		settings({ enabled: false, allowedHostnames: ['localhost'] });
		const { item } = await waitFor(port('http://localhost:P/media.png'), baseOn('0.0.0.0'));
		expect(item.json.error).toBeUndefined();
		expect(internal.hits).toEqual(['/media.png']);
	});

	test('protection on: [::] (which n8n 2.41 does not block) is refused by the node', async () => {
		settings({ enabled: true, allowedIpRanges: ['127.0.0.1/32'] });
		expectRefused(await waitFor(port('http://[::]:P/media.png')), 'http://[::]:P/media.png', 'the unspecified address', '[::]:P', null);
	});

	test('protection on: a result URL n8n blocks is said to be blocked by n8n, naming the host and both settings; not asked again, no "download again"', async () => {
		settings({ enabled: true, allowedIpRanges: ['127.0.0.1/32'] });
		// 127.0.0.2 is loopback like the gateway, so the node lets it go; n8n blocks it.
		const { taskId, item } = await waitFor(port('http://127.0.0.2:P/media.png'));
		expect(item.json.taskId).toBe(taskId);
		expect(item.binary).toBeUndefined();
		expect(item.json.error).toBe(`The result was not fetched: n8n's SSRF protection blocked ${port('http://127.0.0.2:P/media.png')} before it was sent: ${port('127.0.0.2:P')} resolves to the restricted address 127.0.0.2`);
		expect(item.json.description).toContain('N8N_SSRF_ALLOWED_IP_RANGES=127.0.0.2/32');
		expect(item.json.description).toContain('Nothing was requested, and it was not asked again');
		expect(item.json.description).not.toMatch(/Could not reach|connection failed|soon/);
		expect(internal.hits).toEqual([]);
	});

	test('protection on: a LAN file host (MinIO, a NAS) that n8n blocks is named with the range that allows it', async () => {
		settings({ enabled: true, allowedIpRanges: ['127.0.0.1/32'] });
		const { item } = await waitFor('http://10.255.255.1:9000/bucket/x.png');
		expect(item.json.error).toContain("n8n's SSRF protection blocked http://10.255.255.1:9000/bucket/x.png before it was sent");
		expect(item.json.description).toContain('N8N_SSRF_ALLOWED_IP_RANGES=10.255.255.1/32');
	});
});
