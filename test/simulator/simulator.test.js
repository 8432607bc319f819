'use strict';
const { startSimulator } = require('./index');
const { solidPng, PNG_SIGNATURE } = require('./png');

const KEY = 'sk-sim-test-key';
const auth = { Authorization: `Bearer ${KEY}` };
const jsonHeaders = { ...auth, 'Content-Type': 'application/json' };
const post = (url, body) => fetch(url, { method: 'POST', headers: jsonHeaders, body: JSON.stringify(body) });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let sim;
beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, quiet: true });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

test('401 without or with a wrong key, in route-specific bodies; key masked in records', async () => {
  const models = await fetch(`${sim.mainUrl}/v1/models`);
  expect(models.status).toBe(401);
  expect((await models.json()).error.code).toBe('invalid_api_key');

  const balance = await fetch(`${sim.mainUrl}/balance`, { headers: { Authorization: 'Bearer sk-wrong-key' } });
  expect(balance.status).toBe(401);
  const body = await balance.json();
  expect(body.success).toBe(false);
  expect(body.message).toMatch(/Authorization header/);

  const ok = await fetch(`${sim.mainUrl}/v1/balance`, { headers: auth });
  expect(await ok.json()).toEqual({ success: true, remain_balance: 100.5, used_balance: 12.25, unlimited_quota: false });
  const [rec] = sim.find('GET', '/v1/balance');
  expect(rec.headers.authorization).toBe('Bearer ***key');
  expect(JSON.stringify(sim.requests)).not.toContain(KEY);
});

test('connections(): the TCP connections each origin accepted since reset, kept-alive ones once', async () => {
  const http = require('node:http');
  const get = (agent) =>
    new Promise((resolve, reject) => {
      http.get(`${sim.mainUrl}/v1/balance`, { headers: auth, agent }, (res) => res.resume().on('end', resolve)).on('error', reject);
    });
  // A new connection per request (what n8n's request helpers do: an agent of their own each time)…
  await get(new http.Agent());
  await get(new http.Agent());
  expect(sim.connections('main')).toBe(2);
  // …or one kept alive for both.
  const keepAlive = new http.Agent({ keepAlive: true });
  await get(keepAlive);
  await get(keepAlive);
  keepAlive.destroy();
  expect(sim.connections('main')).toBe(3);
  expect(sim.connections('files')).toBe(0);
  expect(sim.connections()).toBe(3);
  expect(sim.find('GET', '/v1/balance').map((r) => r.headers.connection)).toEqual(['close', 'close', 'keep-alive', 'keep-alive']);
  sim.reset();
  expect(sim.connections()).toBe(0);
});

test('sync image URL downloads a valid PNG from the files origin without auth', async () => {
  const res = await post(`${sim.mainUrl}/v1/images/generations`, { model: 'gpt-image-2', prompt: 'a cat', size: '16:9', resolution: '2k', n: 2 });
  expect(res.status).toBe(200);
  const { data } = await res.json();
  expect(data).toHaveLength(2);
  expect(data[0].url.startsWith(`${sim.filesUrl}/files/`)).toBe(true);
  const png = Buffer.from(await (await fetch(data[0].url)).arrayBuffer());
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(sim.find('GET', /\.png$/, 'files')[0].hasAuth).toBe(false);

  const bad = await post(`${sim.mainUrl}/v1/images/generations`, { model: 'gpt-image-2.5', prompt: 'x', size: '16:9' });
  expect(bad.status).toBe(400);
  expect((await bad.json()).error.param).toBe('size');
});

test('async image task goes queued -> completed by elapsed time', async () => {
  sim.scenario('*', { durationMs: 900, queuedMs: 600, imageShape: 'full' });
  const created = await (await post(`${sim.mainUrl}/v1/images/generations`, { model: 'gpt-image-2-async', prompt: 'x' })).json();
  expect(created).toMatchObject({ status: 'queued', mode: 'generate', model: 'gpt-image-2-async' });
  expect(created.id).toMatch(/^task_[A-Za-z0-9]{32}$/);
  const poll = async () => (await fetch(`${sim.mainUrl}/v1/images/generations/${created.id}`, { headers: auth })).json();
  expect((await poll()).status).toBe('queued');
  await sleep(1000);
  const done = await poll();
  expect(done).toMatchObject({ status: 'completed', progress: '100%' });
  expect(done.items[0].status).toBe('success');
  expect(done.items[0].data[0].url).toBe(done.data[0].url);
  const unknown = await fetch(`${sim.mainUrl}/v1/images/generations/task_nope`, { headers: auth });
  expect(unknown.status).toBe(400);
  expect((await unknown.json()).code).toBe('task_not_exist');
});

test('multipart upload is checked by magic bytes and served back', async () => {
  const png = solidPng(8, 8, [1, 2, 3]);
  const form = new FormData();
  form.append('file', new Blob([png], { type: 'application/octet-stream' }), 'tiny.png');
  const res = await fetch(`${sim.mainUrl}/v1/uploads/images`, { method: 'POST', headers: auth, body: form });
  expect(res.status).toBe(200);
  const up = await res.json();
  expect(up).toMatchObject({ filename: 'tiny.png', content_type: 'image/png', bytes: png.length });
  const back = Buffer.from(await (await fetch(up.url)).arrayBuffer());
  expect(back.equals(png)).toBe(true);
  expect(sim.find('POST', '/v1/uploads/images')[0].parts[0]).toMatchObject({ name: 'file', filename: 'tiny.png', size: png.length });

  const text = new FormData();
  text.append('file', new Blob(['not an image at all']), 'a.png');
  const rejected = await fetch(`${sim.mainUrl}/v1/uploads/images`, { method: 'POST', headers: auth, body: text });
  expect(rejected.status).toBe(400);
  expect((await rejected.json()).error.message).toMatch(/Uploaded file must be an image/);
});

test('grok multipart video records repeated input_reference parts', async () => {
  const form = new FormData();
  for (const [k, v] of Object.entries({ model: 'grok-imagine-video-1.5', prompt: 'waves', seconds: '6', size: '1280x720', quality: 'high' })) form.append(k, v);
  form.append('input_reference', new Blob([solidPng(4, 4, [9, 9, 9])], { type: 'image/png' }), 'a.png');
  form.append('input_reference', new Blob([solidPng(4, 4, [7, 7, 7])], { type: 'image/png' }), 'b.png');
  const res = await fetch(`${sim.mainUrl}/v1/videos`, { method: 'POST', headers: auth, body: form });
  expect(res.status).toBe(200);
  const created = await res.json();
  expect(created).toMatchObject({ object: 'video', status: 'queued', progress: 0, seconds: '6', size: '1280x720' });
  expect(created.task_id).toBe(created.id);
  const refs = sim.find('POST', '/v1/videos')[0].parts.filter((p) => p.name === 'input_reference');
  expect(refs).toHaveLength(2);
  expect(refs[0].sha256).not.toBe(refs[1].sha256);

  const wrong = new FormData();
  for (const [k, v] of Object.entries({ model: 'grok-imagine-video-1.5', prompt: 'waves', seconds: '6', size: '1280x720', quality: 'high' })) wrong.append(k, v);
  wrong.append('input_reference[]', new Blob([solidPng(4, 4, [1, 1, 1])]), 'a.png');
  expect((await fetch(`${sim.mainUrl}/v1/videos`, { method: 'POST', headers: auth, body: wrong })).status).toBe(400);
});

test('streamed chat assembles to the non-stream content', async () => {
  const body = { model: 'gpt-5.6-sol', messages: [{ role: 'user', content: 'Hello, simulator — ünïcode ✓' }] };
  const plain = await (await post(`${sim.mainUrl}/v1/chat/completions`, body)).json();
  const res = await post(`${sim.mainUrl}/v1/chat/completions`, { ...body, stream: true });
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  const events = (await res.text()).split('\n\n').filter(Boolean).map((e) => e.replace(/^data: /, ''));
  expect(events.pop()).toBe('[DONE]');
  const chunks = events.map((e) => JSON.parse(e));
  expect(chunks[0].choices[0].delta.role).toBe('assistant');
  expect(chunks.at(-1).choices[0].finish_reason).toBe('stop');
  expect(chunks.map((c) => c.choices[0].delta.content || '').join('')).toBe(plain.choices[0].message.content);
});

test('429 fault with Retry-After, then success; the faulted submit is still recorded', async () => {
  sim.inject({ method: 'POST', path: '/v1/images/generations', status: 429, headers: { 'Retry-After': '1' }, body: '' });
  const first = await post(`${sim.mainUrl}/v1/images/generations`, { model: 'gpt-image-2', prompt: 'x' });
  expect(first.status).toBe(429);
  expect(first.headers.get('retry-after')).toBe('1');
  expect(await first.text()).toBe('');
  const second = await post(`${sim.mainUrl}/v1/images/generations`, { model: 'gpt-image-2', prompt: 'x' });
  expect(second.status).toBe(200);
  expect(sim.count('POST', '/v1/images/generations')).toBe(2);
});

test('drop fault destroys the socket without a response', async () => {
  sim.inject({ path: '/v1/models', kind: 'drop' });
  await expect(fetch(`${sim.mainUrl}/v1/models`, { headers: auth })).rejects.toThrow();
  expect(sim.count('GET', '/v1/models')).toBe(1);
  expect((await fetch(`${sim.mainUrl}/v1/models`, { headers: auth })).status).toBe(200);
});

async function download(url, onChunk) {
  const res = await fetch(url);
  for await (const chunk of res.body) onChunk(chunk);
  return res;
}

test('big file streams 200 MB with flat memory', async () => {
  // Warm-up: the first download grows the client's heap to its steady state.
  await download(`${sim.filesUrl}/files/big-${16 * 1024 * 1024}.mp4`, () => {});
  const size = 200 * 1024 * 1024;
  const before = process.memoryUsage().rss;
  let peak = before;
  let total = 0;
  let head;
  const res = await download(`${sim.filesUrl}/files/big-${size}.mp4`, (chunk) => {
    if (!head) head = Buffer.from(chunk.subarray(0, 8));
    total += chunk.length;
    peak = Math.max(peak, process.memoryUsage().rss);
  });
  expect(res.headers.get('content-length')).toBe(String(size));
  expect(total).toBe(size);
  expect(head.toString('latin1', 4, 8)).toBe('ftyp');
  expect(peak - before).toBeLessThan(64 * 1024 * 1024);
}, 20000);

test('per-task scenario: durations spread over [min, max], every other estimate left out, every n-th task fails', async () => {
  const { taskState } = require('./tasks');
  sim.scenario('sora-2', { durationMs: [2000, 20000], estimatedTime: 'alternate', failEvery: 3, shape: 'B' });
  const create = async () => (await (await post(`${sim.mainUrl}/v1/video/generations`, { model: 'sora-2', prompt: 'x' })).json()).task_id;
  const ids = [];
  for (let i = 0; i < 6; i++) ids.push(await create());
  const tasks = ids.map((id) => sim.task(id));
  const durations = tasks.map((t) => t.scenario.durationMs);
  expect(durations[0]).toBe(2000);
  expect(new Set(durations).size).toBe(6);
  for (const d of durations) expect(d >= 2000 && d <= 20000).toBe(true);
  const estimates = [];
  for (const id of ids) estimates.push((await (await fetch(`${sim.mainUrl}/v1/tasks/${id}`, { headers: auth })).json()).data.estimated_time);
  expect(estimates.map((e) => e !== undefined)).toEqual([true, false, true, false, true, false]);
  expect(estimates[0]).toBe(2);
  const later = Date.now() + 60_000;
  expect(tasks.map((t) => taskState(t, later).status)).toEqual(['completed', 'completed', 'failed', 'completed', 'completed', 'failed']);
  sim.reset();
  sim.scenario('sora-2', { durationMs: [2000, 20000] });
  const again = await create();
  expect(sim.task(again).scenario.durationMs).toBe(2000);
  expect(() => sim.scenario('*', { durationMs: [5, 1] })).toThrow(/durationMs/);
  expect(() => sim.scenario('*', { estimatedTime: 'sometimes' })).toThrow(/estimatedTime/);
  expect(() => sim.scenario('*', { failEvery: 0 })).toThrow(/failEvery/);
});

describe('retired models, the relay texts, HTTPS (options at start)', () => {
  const { RELAY_TEXTS, gbkBody, relayText } = require('./relay-texts');

  test('retiredModels: every submit of the id answers 503 model_not_found in the error object, English or Chinese; /v1/models no longer lists it', async () => {
    const retired = await startSimulator({ apiKey: KEY, retiredModels: ['sora-2'] });
    try {
      const submit = (path, headers = {}) => fetch(`${retired.mainUrl}${path}`, { method: 'POST', headers: { ...jsonHeaders, ...headers }, body: JSON.stringify({ model: 'sora-2', prompt: 'x' }) });
      for (const path of ['/v1/video/generations', '/v1/videos']) {
        const res = await submit(path);
        expect(res.status).toBe(503);
        const body = await res.json();
        expect(body.error).toMatchObject({ code: 'model_not_found', type: 'new_api_error' });
        expect(body.error.message).toMatch(/^No available channel for model sora-2 under group default \(distributor\)/);
      }
      const zh = await (await submit('/v1/video/generations', { 'Accept-Language': 'zh-CN,zh;q=0.9' })).json();
      expect(zh.error.message).toMatch(/^当前分组 default 下对于模型 sora-2 无可用渠道/);
      expect((await post(`${retired.mainUrl}/v1/video/generations`, { model: 'veo-3.1-flash', prompt: 'x' })).status).toBe(200);
      const ids = (await (await fetch(`${retired.mainUrl}/v1/models`, { headers: auth })).json()).data.map((m) => m.id);
      expect(ids).not.toContain('sora-2');
      expect(ids).toContain('veo-3.1-flash');
      expect(retired.count('POST', '/v1/video/generations')).toBe(3);
    } finally {
      await retired.close();
    }
    // The default simulator keeps sora-2.
    expect((await post(`${sim.mainUrl}/v1/video/generations`, { model: 'sora-2', prompt: 'x' })).status).toBe(200);
  });

  test('retiredLanguage zh answers in Chinese without Accept-Language; bad options throw', async () => {
    const retired = await startSimulator({ apiKey: KEY, retiredModels: ['sora-2'], retiredLanguage: 'zh' });
    try {
      const body = await (await post(`${retired.mainUrl}/v1/video/generations`, { model: 'sora-2', prompt: 'x' })).json();
      expect(body.error.message).toMatch(/无可用渠道/);
    } finally {
      await retired.close();
    }
    await expect(startSimulator({ retiredModels: 'sora-2' })).rejects.toThrow(/retiredModels/);
    await expect(startSimulator({ retiredLanguage: 'fr' })).rejects.toThrow(/retiredLanguage/);
  });

  test('the GBK form of each Chinese relay text decodes to it; inject sends a Buffer body as is', async () => {
    for (const entry of RELAY_TEXTS.filter((t) => t.gbk)) {
      const parsed = JSON.parse(new TextDecoder('gbk').decode(gbkBody(entry)));
      expect(JSON.stringify(parsed)).toContain(relayText(entry, { language: 'zh' }));
    }
    const entry = RELAY_TEXTS.find((t) => t.gbk);
    sim.inject({ path: '/v1/balance', status: 401, body: gbkBody(entry), headers: { 'Content-Type': 'application/json; charset=GBK' } });
    const res = await fetch(`${sim.mainUrl}/v1/balance`, { headers: auth });
    expect(res.headers.get('content-type')).toBe('application/json; charset=GBK');
    expect(Buffer.from(await res.arrayBuffer()).equals(gbkBody(entry))).toBe(true);
  });

  test('https: every origin over TLS with the committed self-signed certificate', async () => {
    const secure = await startSimulator({ apiKey: KEY, https: true });
    try {
      expect(secure.mainUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      await expect(fetch(`${secure.mainUrl}/v1/models`, { headers: auth })).rejects.toThrow();
      const https = require('node:https');
      const status = await new Promise((resolve, reject) => {
        https.get(`${secure.mainUrl}/v1/models`, { headers: auth, ca: require('node:fs').readFileSync(require('node:path').join(__dirname, 'fixtures/tls/localhost-cert.pem')) }, (res) => {
          res.resume();
          resolve(res.statusCode);
        }).on('error', reject);
      });
      expect(status).toBe(200);
    } finally {
      await secure.close();
    }
  });
});

describe("overload(): new-api's performance guard (middleware/performance.go)", () => {
  const GUARD_BODY = {
    error: { message: 'system cpu overloaded (current: 95.0%, threshold: 90%)', type: 'new_api_error', param: '', code: 'system_cpu_overloaded' },
  };

  test('the next N relay calls: 503 in the error object, before the key is checked; then served; nothing billed', async () => {
    const guard = sim.overload(2);
    const wrongKey = await fetch(`${sim.mainUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: 'Bearer sk-wrong', 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-5.6-sol', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(wrongKey.status).toBe(503);
    expect(wrongKey.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(wrongKey.headers.get('retry-after')).toBeNull();
    expect(await wrongKey.text()).toBe(JSON.stringify(GUARD_BODY));
    const image = await post(`${sim.mainUrl}/v1/images/generations`, { model: 'gpt-image-2', prompt: 'a fox' });
    expect(image.status).toBe(503);
    expect(sim.syncResults()).toEqual([]);
    expect(guard).toMatchObject({ refused: 2, remaining: 0 });
    const served = await post(`${sim.mainUrl}/v1/images/generations`, { model: 'gpt-image-2', prompt: 'a fox' });
    expect(served.status).toBe(200);
    expect(sim.syncResults()).toHaveLength(1);
  });

  test('memory and disk name their own code; /v1/messages gets the Claude shape, without a code', async () => {
    sim.overload(1, 'memory');
    expect((await (await post(`${sim.mainUrl}/v1/audio/speech`, { model: 'tts-1', input: 'x' })).json()).error.code).toBe('system_memory_overloaded');
    sim.overload(1, 'disk');
    const claude = await post(`${sim.mainUrl}/v1/messages`, { model: 'claude-sonnet-4' });
    expect(claude.status).toBe(503);
    expect(await claude.json()).toEqual({ error: { type: 'new_api_error', message: 'system disk overloaded (current: 95.0%, threshold: 90%)' } });
  });

  test('not on the routes the guard does not cover: /v1/models, the video routes, the alt host; reset() ends it', async () => {
    const guard = sim.overload(Infinity);
    expect((await fetch(`${sim.mainUrl}/v1/models`, { headers: auth })).status).toBe(200);
    expect((await post(`${sim.mainUrl}/v1/video/generations`, { model: 'sora-2', prompt: 'waves' })).status).toBe(200);
    expect((await fetch(`${sim.altUrl}/v1/models`, { headers: auth })).status).toBe(200);
    expect(guard.refused).toBe(0);
    sim.reset();
    expect((await post(`${sim.mainUrl}/v1/images/generations`, { model: 'gpt-image-2', prompt: 'a fox' })).status).toBe(200);
  });

  test('calls and kind are checked', () => {
    expect(() => sim.overload(-1)).toThrow(/whole number/);
    expect(() => sim.overload(1.5)).toThrow(/whole number/);
    expect(() => sim.overload(1, 'gpu')).toThrow(/cpu, memory, disk/);
  });
});
