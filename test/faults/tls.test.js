'use strict';
// Fault matrix: a gateway (and a file host) on HTTPS with a self-signed certificate
// (startSimulator({ https: true }), test/simulator/fixtures/tls). A refused certificate is named as
// one, with both fixes; Ignore SSL Issues (Insecure) reaches the gateway's own origins, the Test
// button included, and never a file host.
const { runNode, testCredential, binaryBuffer } = require('../harness');
const { API_KEY, useSimulator } = require('../support');
const { SUBMIT_ROUTES, runRoute, expectNoKey } = require('./runner');

const ctx = useSimulator({ https: true, scenario: { durationMs: 50 } });
const insecure = () => ({ ...ctx.creds, ignoreSSLIssues: true });
const balance = { resource: 'account', operation: 'getTokenBalance' };
const image = (model) => ({
	resource: 'image', operation: 'generate', modelId: { __rl: true, mode: 'id', value: model }, prompt: 'a red bicycle', waiting: { pollIntervalSeconds: 0.1 },
});

test('the simulator serves HTTPS on every origin', () => {
	for (const url of [ctx.sim.mainUrl, ctx.sim.altUrl, ctx.sim.filesUrl]) expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
});

describe('a self-signed gateway, Ignore SSL Issues off', () => {
	test.each(SUBMIT_ROUTES.map((r) => [r.name, r]))('%s: the certificate is named, with both fixes; nothing was sent', async (_name, route) => {
		const run = await runRoute(route, ctx.creds);
		const [item] = run.result.items;
		expect(item.json.error).toMatch(/^The gateway's TLS certificate was refused while .+: it is self-signed \(DEPTH_ZERO_SELF_SIGNED_CERT\)/);
		expect(item.json.error).not.toMatch(/Could not reach/);
		expect(item.json.description).toMatch(/NODE_EXTRA_CA_CERTS/);
		expect(item.json.description).toMatch(/Ignore SSL Issues \(Insecure\)/);
		if (route.billed) expect(item.json.created).toBe('no');
		// The handshake failed: no request reached the gateway.
		expect(ctx.sim.requests).toEqual([]);
		expectNoKey(run, ctx.sim);
	});

	test('a read is named the same way (not retried as a dropped connection)', async () => {
		const result = await runNode({ parameters: balance, credentials: ctx.creds });
		expect(result.error.message).toBe("The gateway's TLS certificate was refused while checking the token balance: it is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT)");
	});

	test('the Test button fails on the certificate', async () => {
		const tested = await testCredential(ctx.creds);
		expect(tested.status).toBe('Error');
		expect(tested.message).toMatch(/SELF_SIGNED|self-signed|certificate/i);
		expect(ctx.sim.requests).toEqual([]);
	});
});

describe('Ignore SSL Issues (Insecure) on', () => {
	test('the Test button connects', async () => {
		expect(await testCredential(insecure())).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(ctx.sim.find('GET', '/v1/models')).toHaveLength(1);
	});

	test.each(SUBMIT_ROUTES.filter((r) => r.name !== 'upload').map((r) => [r.name, r]))('%s: the submit and its task reads reach the gateway', async (_name, route) => {
		// Results on the gateway's own origin: fetched with the key, so with the switch.
		ctx.sim.scenario('*', { durationMs: 50, resultHost: 'main' });
		const run = await runRoute(route, insecure());
		expect(run.result.items[0].json.error).toBeUndefined();
		expect(route.done(run.result.items[0].json)).toBeTruthy();
		expect(ctx.sim.requests.filter((r) => r.origin !== 'files').every((r) => r.authExact)).toBe(true);
		expectNoKey(run, ctx.sim, API_KEY);
	});

	test('a result file on the gateway origin downloads; one on a file host keeps its certificate check', async () => {
		ctx.sim.scenario('*', { durationMs: 50, resultHost: 'main' });
		const onGateway = await runNode({ parameters: image('gpt-image-2-async'), credentials: insecure(), continueOnFail: true });
		expect(onGateway.items[0].json.error).toBeUndefined();
		expect((await binaryBuffer(onGateway.items[0].binary.data)).subarray(1, 4).toString('ascii')).toBe('PNG');

		ctx.fresh();
		const onFileHost = await runNode({ parameters: image('gpt-image-2'), credentials: insecure(), continueOnFail: true });
		const [item] = onFileHost.items;
		// The image was made (the gateway was reached with the switch) but its file host's self-signed
		// certificate was refused: no request reached the file host.
		expect(ctx.sim.count('POST', '/v1/images/generations')).toBe(1);
		expect(item.json.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/files\//);
		expect(item.binary).toBeUndefined();
		// Named as a refused certificate of the file host, with the fix that applies to it, not as unreachable.
		expect(item.json.error).toMatch(/^The TLS certificate of the file host 127\.0\.0\.1:\d+ was refused for the result https:\/\/127\.0\.0\.1:\d+\/files\/\S+: it is self-signed \(DEPTH_ZERO_SELF_SIGNED_CERT\)/);
		expect(JSON.stringify(item.json)).toMatch(/Ignore SSL Issues applies to Base URL and Alt Base URL only, never to a file host/);
		expect(JSON.stringify(item.json)).not.toMatch(/Could not reach/);
		expect(ctx.sim.requests.filter((r) => r.origin === 'files')).toEqual([]);
	});
});
