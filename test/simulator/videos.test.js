'use strict';
// Result videos are real, playable MP4 files: the committed clip, in the orientation asked for,
// each with its own bytes; the large-download path keeps its exact size and stays playable.
const { startSimulator } = require('./index');
const { assertPlayableMp4, topBoxes } = require('../e2e/playable-mp4');

const KEY = 'sk-sim-test-key';
const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
const post = async (path, body) => (await fetch(`${sim.mainUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })).json();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function finishedVideo(body) {
  const { task_id: id } = await post('/v1/video/generations', body);
  await sleep(60);
  const [url] = sim.task(id).urls;
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return { id, url, res, buf: Buffer.from(await res.arrayBuffer()) };
}

let sim;
beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, quiet: true, timeScale: 0.01 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

test('a finished video is a playable MP4 served as video/mp4 with a file name, portrait when asked', async () => {
  const { id, res, buf } = await finishedVideo({ model: 'sora-2', prompt: 'a paper boat', seconds: '8', size: '720x1280' });
  expect(res.headers.get('content-type')).toBe('video/mp4');
  expect(res.headers.get('content-disposition')).toBe(`inline; filename="${id}.mp4"`);
  expect(Number(res.headers.get('content-length'))).toBe(buf.length);
  expect(buf.length).toBeLessThan(100 * 1024);
  const info = assertPlayableMp4(buf, 'sora-2 video');
  if (!info.skipped) {
    expect(info.duration).toBeGreaterThanOrEqual(3);
    expect(info.codec).toBe('h264');
    expect(info.height).toBeGreaterThan(info.width);
  }
});

test('landscape by default and by aspect ratio; two results never share bytes', async () => {
  const a = await finishedVideo({ model: 'seedance-2.0', prompt: 'waves', aspect_ratio: '16:9' });
  const b = await finishedVideo({ model: 'seedance-2.0', prompt: 'waves', aspect_ratio: '16:9' });
  expect(a.buf.equals(b.buf)).toBe(false);
  expect(topBoxes(a.buf).map((box) => box.type)).toEqual(['ftyp', 'moov', 'free', 'mdat', 'free']);
  const info = assertPlayableMp4(a.buf, 'seedance video');
  if (!info.skipped) expect(info.width).toBeGreaterThan(info.height);
});

test('a video through /v1/videos/{id}/content is the same playable clip', async () => {
  const { id } = await finishedVideo({ model: 'sora-2', prompt: 'x' });
  const res = await fetch(`${sim.mainUrl}/v1/videos/${id}/content`, { headers });
  expect(res.headers.get('content-type')).toBe('video/mp4');
  assertPlayableMp4(Buffer.from(await res.arrayBuffer()), 'content route');
});

test('the large-download file has the exact size asked for and still plays', async () => {
  const size = 3 * 1024 * 1024 + 7;
  const res = await fetch(`${sim.filesUrl}/files/big-${size}-task_x.mp4`);
  const buf = Buffer.from(await res.arrayBuffer());
  expect(Number(res.headers.get('content-length'))).toBe(size);
  expect(buf.length).toBe(size);
  expect(topBoxes(buf).at(-1)).toMatchObject({ type: 'free' });
  assertPlayableMp4(buf, 'large video');
});
