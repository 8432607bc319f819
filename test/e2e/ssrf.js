#!/usr/bin/env node
'use strict';
/*
 * Addresses a gateway may not send n8n to, in a real n8n (`npm run test:e2e:ssrf`; docs/gateway-contract.md §10.13).
 *
 * The gateway simulator listens on this machine's own network address (not loopback: a gateway on
 * loopback may serve its files there), and a service on every address of the n8n host (`::`) stands
 * for n8n's own /rest/settings, an admin API, a metadata service with cloud keys. Tasks whose result
 * URL points at that service (every spelling of loopback, `[::]`, `0.0.0.0`, a redirect, metadata
 * names) are downloaded with Task → Download Result through `n8n execute`, in these settings:
 *
 *   2.41.1  protection off (2.x's default)        every address refused by the node; the service sees nothing
 *   2.41.1  protection on                         the same (n8n 2.41 itself misses [::]); a LAN file host n8n
 *                                                 blocks is said to be blocked by n8n, naming the setting
 *   2.41.1  protection on, ::1/128 + 127.0.0.1/32 allowed    loopback fetched: n8n's settings followed; [::] and
 *                                                 0.0.0.0 still refused: no setting allows the unspecified address
 *   2.41.1  protection off, the same ranges allowed          the same: followed with protection off too
 *   1.123.81 (no SSRF settings)                   every address refused by the node, the 1.x words
 *
 * Prints `ok  <name>` / `FAIL <name>: <why>` per setting and address, then `N passed, N failed`;
 * exits 1 on a failure. `node test/e2e/ssrf.js 2.41.1` runs one line only.
 */
const assert = require('node:assert/strict');
const http = require('node:http');
const os = require('node:os');

const { startInstance, stopOnSignal } = require('../n8n/instance');
const { tempDir } = require('../n8n/tempdirs');
const cli = require('./cli');
const { SIM_API_KEY } = require('../n8n/redact');

const LINES = process.argv.slice(2).filter((a) => /^\d/.test(a));
const VERSIONS = LINES.length ? LINES : ['2.41.1', '1.123.81'];
const SECRET = 'sk-cloud-SECRET-of-the-metadata-service';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(4000)]);
const CRED = { unifiedAiGatewayApi: { id: '{{CRED_ID}}', name: '{{CRED_NAME}}' } };

/** This machine's own address on its network: the gateway is put there, off loopback. */
function lanAddress() {
	for (const list of Object.values(os.networkInterfaces()))
		for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
	throw new Error('this machine has no network address besides loopback: the gateway cannot be put off loopback');
}

/** A service on every address of the n8n host: what reaches it is counted; it answers a PNG or a secret. */
async function internalService() {
	const svc = { hits: [] };
	svc.server = http.createServer((req, res) => {
		svc.hits.push(req.url);
		if (!req.url.endsWith('.png')) {
			res.writeHead(200, { 'Content-Type': 'application/json' });
			return res.end(JSON.stringify({ AccessKeyId: SECRET, settings: { secret: SECRET } }));
		}
		res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': PNG.length });
		res.end(PNG);
	});
	await new Promise((resolve) => svc.server.listen(0, '::', resolve));
	svc.port = svc.server.address().port;
	return svc;
}

/** The result URLs tried: [name, URL (P = the service's port), what the node should do ('refuse' | 'fetch' | 'n8n')]. */
function addresses(filesUrl) {
	return [
		['[::]', 'http://[::]:P/media.png'],
		['0.0.0.0', 'http://0.0.0.0:P/media.png'],
		['127.0.0.1', 'http://127.0.0.1:P/rest/settings'],
		['decimal 2130706433', 'http://2130706433:P/rest/settings'],
		['octal 0177.0.0.1', 'http://0177.0.0.1:P/rest/settings'],
		['[::1]', 'http://[::1]:P/rest/settings'],
		['[::ffff:127.0.0.1]', 'http://[::ffff:127.0.0.1]:P/rest/settings'],
		['localhost', 'http://localhost:P/media.png'],
		['169.254.169.254', 'http://169.254.169.254/latest/meta-data/iam/security-credentials/'],
		['metadata.google.internal', 'http://metadata.google.internal/computeMetadata/v1/'],
		['a redirect to [::]', `${filesUrl}/files/hop-to-internal.png`],
		['a LAN file store (10.255.255.1)', 'http://10.255.255.1:9000/bucket/result.png'],
	];
}

function workflow(rows) {
	return {
		id: 'e2eSsrf',
		name: 'ssrf',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{ id: 'm', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: 'j', name: 'Tasks', type: 'n8n-nodes-base.set', typeVersion: 3.4, position: [200, 0], parameters: { mode: 'raw', jsonOutput: JSON.stringify({ rows }), options: {} } },
			{ id: 's', name: 'Rows', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [400, 0], parameters: { fieldToSplitOut: 'rows', options: {} } },
			{
				id: 'g', name: 'Download', type: 'n8n-nodes-unified-ai-gateway.unifiedAiGateway', typeVersion: 1, position: [600, 0], credentials: CRED, onError: 'continueRegularOutput',
				parameters: { resource: 'task', operation: 'downloadResult', taskId: '={{ $json.taskId }}', queryRoute: 'image' },
			},
		],
		connections: { Start: { main: [[{ node: 'Tasks', type: 'main', index: 0 }]] }, Tasks: { main: [[{ node: 'Rows', type: 'main', index: 0 }]] }, Rows: { main: [[{ node: 'Download', type: 'main', index: 0 }]] } },
	};
}

/** What each address should give in a setting: the node refuses, n8n blocks, or the file is fetched. */
function expected(setting, name) {
	const allowed = setting.allow && ['127.0.0.1', 'decimal 2130706433', 'octal 0177.0.0.1', '[::1]', '[::ffff:127.0.0.1]', 'localhost'].includes(name);
	if (name === 'a LAN file store (10.255.255.1)') return setting.protection ? 'n8n' : 'skip';
	if (allowed) return 'fetch';
	return 'refuse';
}

const SETTINGS = {
	'2.41.1': [
		{ name: 'protection off', protection: false },
		{ name: 'protection on', protection: true },
		{ name: 'protection on, ::1/128 and 127.0.0.1/32 allowed', protection: true, allow: true },
		{ name: 'protection off, ::1/128 and 127.0.0.1/32 allowed', protection: false, allow: true },
	],
	'1.123.81': [{ name: 'no SSRF settings (1.x)', protection: false, oneX: true }],
};

function envOf(setting, lan) {
	const ranges = [...(setting.protection ? [`${lan}/32`] : []), ...(setting.allow ? ['::1/128', '127.0.0.1/32'] : [])];
	return {
		...(setting.protection ? { N8N_SSRF_PROTECTION_ENABLED: 'true' } : {}),
		...(ranges.length ? { N8N_SSRF_ALLOWED_IP_RANGES: ranges.join(',') } : {}),
	};
}

async function main() {
	const lan = lanAddress();
	const svc = await internalService();
	const port = (text) => text.replace(/:P\b/g, `:${svc.port}`);
	const results = { passed: 0, failed: 0 };
	const report = (name, fn) => {
		try {
			fn();
			results.passed++;
			console.log(`ok  ${name}`);
		} catch (error) {
			results.failed++;
			console.log(`FAIL ${name}: ${String(error.message).split('\n').slice(0, 6).join(' | ')}`);
		}
	};
	let instance;
	const offSignal = stopOnSignal(() => instance);
	const started = Date.now();
	try {
		// Packed once, into a folder of its own: each line's instance (and its folder) goes when it is done.
		const packDir = tempDir('e2e-ssrf-pack-');
		let tgz;
		for (const version of VERSIONS) {
			instance = await startInstance({
				version,
				mode: 'execute',
				prefix: 'e2e-ssrf-',
				...(tgz ? { tgz } : { packDir }),
				simulator: { apiKey: SIM_API_KEY, host: lan },
				workflows: [],
			});
			tgz = instance.tgz;
			const sim = instance.sim;
			for (const setting of SETTINGS[version]) {
				sim.reset();
				svc.hits = [];
				// A LAN store n8n does not block is not reached in a test: it is tried with protection on only.
				const rows = addresses(sim.filesUrl)
					.filter(([name]) => expected(setting, name) !== 'skip')
					.map(([name, url]) => ({ name, url: port(url) }));
				const queue = rows.map((row) => row.url);
				sim.scenario('gpt-image-2-async', { durationMs: 10, imageShape: 'full', resultUrl: () => queue.shift() });
				sim.redirect({ origin: 'files', path: '/files/hop-to-internal.png', to: `http://[::]:${svc.port}`, location: () => '/media.png' });
				for (const row of rows) {
					const res = await fetch(`${sim.mainUrl}/v1/images/generations`, { method: 'POST', headers: { Authorization: `Bearer ${SIM_API_KEY}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ model: 'gpt-image-2-async', prompt: row.name }) });
					row.taskId = (await res.json()).id;
				}
				await new Promise((resolve) => setTimeout(resolve, 200));
				await cli.importWorkflow(instance.userFolder, [workflow(rows.map(({ taskId, name }) => ({ taskId, name })))], instance.vars, { version });
				const run = await cli.executeWorkflow(instance.userFolder, 'e2eSsrf', { version, env: envOf(setting, lan), timeoutMs: 180_000 });
				const label = `${version} ${setting.name}`;
				report(`${label}: the execution ran`, () => assert.ok(run.run, run.error));
				if (!run.run) continue;
				const items = run.run.data.resultData.runData.Download[0].data.main[0];
				const text = JSON.stringify(items);
				report(`${label}: nothing of the service in any item`, () => assert.ok(!text.includes(SECRET) && !/First bytes/.test(text)));
				const fetched = [];
				for (const row of rows) {
					// Allowed, a service that answers JSON is asked, and its answer refused as no image, unquoted.
					const want = expected(setting, row.name) === 'fetch' && !row.url.endsWith('.png') ? 'ask' : expected(setting, row.name);
					const item = items.find((i) => i.json.taskId === row.taskId);
					const says = { fetch: 'fetched', ask: 'asked (allowed), its JSON not stored nor quoted', n8n: 'blocked by n8n, said so', refuse: 'refused' };
					report(`${label}: ${row.name} ${says[want]}`, () => {
						assert.ok(item, 'no item for the task');
						const json = item.json;
						if (want === 'ask') {
							assert.match(json.error, /sent JSON of \d+ bytes instead of an image/);
							assert.ok(!item.binary, 'a file was stored');
							fetched.push(new URL(row.url).pathname);
							return;
						}
						if (want === 'fetch') {
							assert.equal(json.error, undefined, json.error);
							assert.ok(item.binary?.data, 'no file');
							// What the service was asked for (a redirect's last hop).
							fetched.push(row.name === 'a redirect to [::]' ? '/media.png' : new URL(row.url).pathname);
							return;
						}
						assert.equal(json.taskId, row.taskId);
						assert.ok(!item.binary, 'a file was stored');
						if (want === 'n8n') {
							assert.match(json.error, /^The result was not fetched: n8n's SSRF protection blocked http:\/\/10\.255\.255\.1:9000\/bucket\/result\.png before it was sent/);
							assert.match(json.description, /N8N_SSRF_ALLOWED_IP_RANGES=10\.255\.255\.1\/32/);
						} else {
							assert.match(json.error, /^The result was not fetched: .* points at .*: the node does not send n8n there on a gateway's word$/);
							// The unspecified address: no setting allows it, on either line.
							const unspecified = ['[::]', '0.0.0.0', 'a redirect to [::]'].includes(row.name);
							assert.match(json.description, unspecified ? /No n8n setting allows it/ : setting.oneX ? /n8n 1\.x has no SSRF settings/ : /N8N_SSRF_ALLOWED_IP_RANGES=\S+ .*whether or not N8N_SSRF_PROTECTION_ENABLED is on/);
						}
						assert.match(json.description, /Nothing was requested, and it was not asked again/);
						assert.doesNotMatch(`${json.error} ${json.description}`, /Could not reach|connection failed|download its result again .* soon/);
						console.log(`    ${row.url} → ${json.error.replace(/^The result was not fetched: /, '')}`);
					});
				}
				report(`${label}: the service saw only what was allowed`, () =>
					assert.deepEqual(svc.hits.sort(), fetched.sort()),
				);
			}
			await instance.stop();
			instance = undefined;
		}
	} finally {
		if (instance) await instance.stop();
		offSignal();
		await new Promise((resolve) => svc.server.close(resolve));
	}
	console.log(`${results.passed} passed, ${results.failed} failed (${Math.round((Date.now() - started) / 1000)} s)`);
	process.exit(results.failed ? 1 : 0);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
