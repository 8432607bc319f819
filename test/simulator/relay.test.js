'use strict';
// How a new-api relay refreshes task records in rounds (relay.js): every time is a clock the test
// passes, so nothing here depends on the machine's speed or on chance.
const { RelayPoller, refreshSettings } = require('./relay');
const { recordState } = require('./tasks');

const task = (model, createdAt, durationMs, kind = 'video') => ({
  model, kind, origin: 'main', createdAt, timeScale: 1, scenario: { durationMs, queuedMs: 0 }, urls: ['u'], answers: [],
});

test('rounds every 15 s after the last ended, 1 s per task inside a channel, channels side by side', () => {
  const settings = refreshSettings({ pace: 'relay', channels: 2 });
  const poller = new RelayPoller(settings, { startedAt: 0, timeScale: 1 });
  const tasks = [0, 1, 2, 3, 4].map((n) => task('sora-2', 100, 60_000));
  tasks.forEach((t, n) => poller.admit(t, n));
  // Created at 100 ms: the round at 0 is empty, the next at 15 s takes all five (channel 0: tasks
  // 0, 2, 4 at 15, 16, 17 s; channel 1: tasks 1, 3 at 15, 16 s); the next starts 15 s after 17 s.
  expect(tasks.map((t) => poller.view(t, 40_000).refreshes)).toEqual([
    [15_000, 32_000], [15_000, 32_000], [16_000, 33_000], [16_000, 33_000], [17_000, 34_000],
  ]);
  const rounds = poller.rounds.map((r) => [r.startedAt, r.endedAt, r.tasks]);
  expect(rounds).toEqual([[15_000, 17_000, 5], [32_000, 34_000, 5]]);
});

test('between two refreshes every read returns the same record; the end shows at the refresh after it', () => {
  const poller = new RelayPoller(refreshSettings('relay'), { startedAt: 0, timeScale: 1 });
  const t = task('sora-2', 1_000, 20_000);
  poller.admit(t, 0);
  const record = (now) => poller.record(t, now);
  // Submitted at 1 s: its record is the submit's until the round at 15 s.
  expect(record(14_999)).toMatchObject({ status: 'queued', progress: 0 });
  const first = record(15_000);
  expect(first.status).toBe('in_progress');
  expect(record(29_999)).toEqual(first);
  // Done at 21 s, seen only at the next round (15 s + 15 s).
  expect(record(29_999).status).toBe('in_progress');
  expect(record(30_000).status).toBe('completed');
  expect(poller.view(t, 40_000)).toMatchObject({ refreshes: [15_000, 30_000], visibleAt: 30_000 });
});

test('Gemini and Vertex video, and tasks of other origins, are read live', () => {
  const poller = new RelayPoller(refreshSettings('relay'), { startedAt: 0, timeScale: 1 });
  const veo = task('veo-3.1', 0, 5_000);
  const alt = { ...task('sora-2', 0, 5_000), origin: 'alt' };
  poller.admit(veo, 0);
  poller.admit(alt, 0);
  expect([poller.paced(veo), poller.paced(alt), poller.refreshedAt(veo, 9_000)]).toEqual([false, false, undefined]);
  expect(recordState(veo, 9_000).status).toBe('completed');
});

test('the settings are checked, naming the option', () => {
  expect(refreshSettings('live')).toBeUndefined();
  expect(refreshSettings('relay')).toEqual({ roundMs: 15_000, perTaskMs: 1_000, channels: 1, phaseMs: 0 });
  expect(() => refreshSettings('fast')).toThrow(/refresh must be 'live', 'relay'/);
  expect(() => refreshSettings({ pace: 'relay', rounds: 3 })).toThrow(/unknown option "rounds"/);
  expect(() => refreshSettings({ pace: 'relay', roundMs: 0 })).toThrow(/roundMs must be more than 0/);
  expect(() => refreshSettings({ pace: 'relay', channels: 1.5 })).toThrow(/channels must be a whole number/);
});

describe('startSimulator({ refresh })', () => {
  const { startSimulator } = require('./index');
  const KEY = 'sk-sim-test-key';
  const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
  let sim;
  // The first round an hour away: every read in the test meets the record the submit wrote, however
  // slow the machine, while the provider's own state is already final.
  beforeAll(async () => {
    sim = await startSimulator({ apiKey: KEY, timeScale: 0.001, refresh: { pace: 'relay', phaseMs: 3_600_000_000 } });
  });
  afterAll(() => sim.close());

  test('reads answer the record, not the provider; the content route waits for the record too', async () => {
    const body = JSON.stringify({ model: 'sora-2', prompt: 'x' });
    const post = await fetch(`${sim.mainUrl}/v1/video/generations`, { method: 'POST', headers, body });
    const { task_id: id } = await post.json();
    await new Promise((r) => setTimeout(r, 20));
    expect(sim.task(id).status).toBe('completed');
    for (let i = 0; i < 2; i++) {
      const body = await (await fetch(`${sim.mainUrl}/v1/videos/${id}`, { headers })).json();
      expect([body.status, body.progress]).toEqual(['queued', 0]);
    }
    expect((await fetch(`${sim.mainUrl}/v1/videos/${id}/content`, { headers })).status).not.toBe(200);
    expect(sim.task(id).relay).toEqual({ channel: 'sora-2#0', refreshes: [], visibleAt: undefined });
    expect(sim.refresh).toMatchObject({ pace: 'relay', roundMs: 15_000, perTaskMs: 1_000, channels: 1 });
    sim.setRefresh('live');
    expect(sim.refresh).toEqual({ pace: 'live' });
    sim.reset();
    expect(sim.refresh.pace).toBe('relay');
  });
});
