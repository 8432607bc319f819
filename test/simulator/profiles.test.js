'use strict';
// The builds the simulator plays (profiles.js) and the relay's money routes (routes/money.js), in
// the shapes of new-api's and one-api's source (docs/gateway-contract.md §10.11).
const { startSimulator } = require('./index');

const KEY = 'sk-sim-test-key';
const auth = { Authorization: `Bearer ${KEY}` };
const get = async (path) => {
  const res = await fetch(`${sim.mainUrl}${path}`, { headers: auth });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : '' };
};
const post = (path, body) => fetch(`${sim.mainUrl}${path}`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

let sim;
beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, quiet: true, profile: 'plainNewApi' });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

test('a plain new-api lacks the commercial routes, answered as the relay’s NoRoute', async () => {
  for (const path of ['/v1/balance', '/balance', '/v1/user/balance', '/v1/tasks/task_x', '/v1/uploads/images']) {
    const { status, body } = await get(path);
    expect([path, status]).toEqual([path, 404]);
    expect(body.error.message).toMatch(/^Invalid URL \(GET /);
  }
  sim.setProfile('commercial');
  expect((await get('/v1/balance')).status).toBe(200);
  expect((await get('/api/pricing')).status).toBe(404);
  sim.reset();
  expect(sim.profile).toBe('plainNewApi');
});

test('/api/status, /api/usage/token/ and the billing routes in new-api’s shapes, in the site’s unit', async () => {
  expect((await get('/api/status')).body.data).toMatchObject({ quota_per_unit: 500000, quota_display_type: 'USD', usd_exchange_rate: 7.3 });
  expect((await get('/api/usage/token/')).body).toMatchObject({ code: true, data: { total_available: 50250000, total_used: 6125000, total_granted: 56375000, unlimited_quota: false } });
  sim.setSiteStatus({ quota_display_type: 'CNY' });
  expect((await get('/v1/dashboard/billing/subscription')).body).toMatchObject({ object: 'billing_subscription', hard_limit_usd: (100.5 + 12.25) * 7.3 });
  expect((await get('/dashboard/billing/usage')).body.total_usage).toBeCloseTo(12.25 * 7.3 * 100, 6);
  const wrong = await fetch(`${sim.mainUrl}/api/usage/token/`, { headers: { Authorization: 'Bearer sk-wrong' } });
  expect([wrong.status, await wrong.json()]).toEqual([401, { success: false, message: '无效的令牌' }]);
});

test('the quota route allows 20 reads per 20 minutes: the 21st is a 429 with an empty body', async () => {
  for (let i = 0; i < 20; i++) expect((await get('/api/usage/token/')).status).toBe(200);
  expect(await get('/api/usage/token/')).toEqual({ status: 429, body: '' });
});

test('the price list: a default entry per model, prices set per test, a model left out', async () => {
  sim.setPricing({ 'gpt-image-2': { model_price: 0.061 }, 'nano-banana': null }, { groupRatio: { default: 1.2 } });
  const { body } = await get('/api/pricing');
  expect(body.group_ratio).toEqual({ default: 1.2 });
  expect(body.data.find((e) => e.model_name === 'gpt-image-2')).toMatchObject({ quota_type: 1, model_price: 0.061, enable_groups: ['default', 'vip'] });
  expect(body.data.find((e) => e.model_name === 'nano-banana')).toBeUndefined();
  expect(body.data.find((e) => e.model_name === 'gpt-5.6-sol')).toMatchObject({ quota_type: 0 });
});

test('a video task: the OpenAI video object at submit, the task record with its quota once finished', async () => {
  sim.setPricing({ 'sora-2': { model_price: 0.1 } });
  sim.scenario('*', { durationMs: 0 });
  const submitted = await (await post('/v1/video/generations', { model: 'sora-2', prompt: 'a boat', seconds: '12' })).json();
  expect(submitted).toMatchObject({ object: 'video', status: 'queued' });
  const { body } = await get(`/v1/video/generations/${submitted.id}`);
  expect(body).toMatchObject({ code: 'success', data: { status: 'SUCCESS', quota: 600000 } });
  sim.scenario('*', { durationMs: 0, outcome: 'fail' });
  const failed = await (await post('/v1/video/generations', { model: 'sora-2', prompt: 'a boat', seconds: '8' })).json();
  expect((await get(`/v1/video/generations/${failed.id}`)).body.data).toMatchObject({ status: 'FAILURE', quota: 0 });
});

test('one-api: no video, no price list, no quota route; its own /api/status', async () => {
  sim.setProfile('oneApi');
  for (const path of ['/api/pricing', '/api/usage/token/', '/v1/videos/x']) expect((await get(path)).status).toBe(404);
  expect((await post('/v1/video/generations', { model: 'sora-2', prompt: 'a boat' })).status).toBe(404);
  expect((await get('/api/status')).body.data).toEqual({ version: 'v0.6.10', system_name: 'One API', quota_per_unit: 500000, display_in_currency: true });
  expect((await get('/v1/dashboard/billing/subscription')).body.hard_limit_usd).toBe(112.75);
});
