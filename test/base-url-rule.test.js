'use strict';
// One Base URL rule: whatever form the Base URL takes (/v1 in any case, trailing slashes,
// spaces), the credential's Test button and the node read the same address.
const { runNode, testCredential } = require('./harness');
const { useSimulator } = require('./support');

const ctx = useSimulator();
const balance = { resource: 'account', operation: 'getTokenBalance' };

describe('the credential Test and the node agree on the Base URL', () => {
	test.each([['', '/V1'], ['', '/V1/'], ['', '/v1'], ['', '/v1//'], ['', ''], ['', '/'], ['  ', '/V1  ']])('Base URL %p + address + %p: Test OK and the node works, both on the gateway address', async (before, after) => {
		const credentials = { ...ctx.creds, baseUrl: `${before}${ctx.sim.mainUrl}${after}` };
		expect(await testCredential(credentials)).toEqual({ status: 'OK', message: 'Connection successful!' });
		const result = await runNode({ parameters: balance, credentials });
		expect(result.error).toBeUndefined();
		expect(ctx.sim.requests.map((r) => r.path)).toEqual(['/v1/models', '/v1/balance']);
	});

	test('a Base URL that is not a URL fails both, naming the field; nothing is sent', async () => {
		const credentials = { ...ctx.creds, baseUrl: 'gateway.example.com/v1' };
		const tested = await testCredential(credentials);
		expect(tested.status).toBe('Error');
		expect(tested.message).toMatch(/Base URL is not a URL/);
		const result = await runNode({ parameters: balance, credentials });
		expect(result.error.message).toMatch(/Base URL is not a URL/);
		expect(ctx.sim.requests).toHaveLength(0);
	});
});
