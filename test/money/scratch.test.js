'use strict';
const { useSimulator } = require('../support');
const { runNode, testCredential } = require('../harness');
const ctx = useSimulator({ scenario: { durationMs: 300 }, profile: 'plainNewApi' });
const rl = (value) => ({ __rl: true, mode: 'id', value });
test('scratch', async () => {
	ctx.sim.setPricing({ 'gpt-image-2': { model_price: 0.061 }, 'seedance-2.0': { model_price: 0.45 } });
	console.log(await testCredential(ctx.creds));
	const bal = await runNode({ parameters: { resource: 'account', operation: 'getTokenBalance' }, credentials: ctx.creds, items: [{json:{}},{json:{}}] });
	console.log(JSON.stringify(bal.error?.message), JSON.stringify(bal.items.map(i=>i.json), null, 1));
	const img = await runNode({ parameters: { resource: 'image', operation: 'generate', modelId: rl('gpt-image-2'), prompt: 'a cat', download: false, spendGuard: { maxRunCostUsd: 1 } }, credentials: ctx.creds });
	console.log(img.error?.message, JSON.stringify(img.items[0].json, null, 1));
	const vid = await runNode({ parameters: { resource: 'video', operation: 'generate', modelId: rl('seedance-2.0'), prompt: 'a boat', download: false, waiting: { pollIntervalSeconds: 0.1 } }, credentials: ctx.creds });
	console.log(vid.error?.message, vid.error?.description, JSON.stringify(vid.items[0]?.json, null, 1), vid.hints);
	console.log(ctx.sim.requests.map(r => `${r.method} ${r.path}`).join('\n'));
});
