'use strict';
// Result videos are real, playable MP4 files: the committed clip, in the orientation asked for,
// each with its own bytes; the large-download path keeps its exact size and stays playable.
// The box structure is checked here always; how a player reads the file (length, codec, picture
// size) needs Debian's ffprobe: without it those tests are reported as skipped, with the reason in
// their name, never passed.
const { startSimulator } = require('./index');
const { assertMp4Structure, assertPlayableMp4, ffprobeMissing, topBoxes } = require('../e2e/playable-mp4');

const KEY = 'sk-sim-test-key';
const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
const post = async (path, body) => (await fetch(`${sim.mainUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })).json();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const MISSING = ffprobeMissing();
/** A test that needs ffprobe: skipped (and named so) when it is missing. */
const played = (name, fn) => (MISSING ? test.skip(`${name} [skipped: ${MISSING}]`, fn) : test(name, fn));

async function finishedVideo(body) {
  const { task_id: id } = await post('/v1/video/generations', body);
  await sleep(60);
  const [url] = sim.task(id).urls;
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return { id, url, res, buf: Buffer.from(await res.arrayBuffer()) };
}

const contentOf = async (id) => fetch(`${sim.mainUrl}/v1/videos/${id}/content`, { headers });

async function largeFile(size) {
  const res = await fetch(`${sim.filesUrl}/files/big-${size}-task_x.mp4`);
  return { res, buf: Buffer.from(await res.arrayBuffer()) };
}

let sim;
beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, quiet: true, timeScale: 0.01 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe('the files', () => {
  test('a finished video is an MP4 served as video/mp4 with a file name', async () => {
    const { id, res, buf } = await finishedVideo({ model: 'sora-2', prompt: 'a paper boat', seconds: '8', size: '720x1280' });
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="${id}.mp4"`);
    expect(Number(res.headers.get('content-length'))).toBe(buf.length);
    expect(buf.length).toBeLessThan(100 * 1024);
    assertMp4Structure(buf, 'sora-2 video');
  });

  test('two results never share bytes', async () => {
    const a = await finishedVideo({ model: 'seedance-2.0', prompt: 'waves', aspect_ratio: '16:9' });
    const b = await finishedVideo({ model: 'seedance-2.0', prompt: 'waves', aspect_ratio: '16:9' });
    expect(a.buf.equals(b.buf)).toBe(false);
    expect(topBoxes(a.buf).map((box) => box.type)).toEqual(['ftyp', 'moov', 'free', 'mdat', 'free']);
    assertMp4Structure(a.buf, 'seedance video');
  });

  test('a video through /v1/videos/{id}/content is the same clip', async () => {
    const { id } = await finishedVideo({ model: 'sora-2', prompt: 'x' });
    const res = await contentOf(id);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    assertMp4Structure(Buffer.from(await res.arrayBuffer()), 'content route');
  });

  test('the large-download file has the exact size asked for', async () => {
    const size = 3 * 1024 * 1024 + 7;
    const { res, buf } = await largeFile(size);
    expect(Number(res.headers.get('content-length'))).toBe(size);
    expect(buf.length).toBe(size);
    expect(topBoxes(buf).at(-1)).toMatchObject({ type: 'free' });
    assertMp4Structure(buf, 'large video');
  });
});

describe('as a player reads them (ffprobe)', () => {
  played('a finished video plays 3 s or more of H.264, portrait when asked', async () => {
    const { buf } = await finishedVideo({ model: 'sora-2', prompt: 'a paper boat', seconds: '8', size: '720x1280' });
    const info = assertPlayableMp4(buf, 'sora-2 video');
    expect(info.duration).toBeGreaterThanOrEqual(3);
    expect(info.codec).toBe('h264');
    expect(info.height).toBeGreaterThan(info.width);
  });

  played('landscape by default and by aspect ratio', async () => {
    const { buf } = await finishedVideo({ model: 'seedance-2.0', prompt: 'waves', aspect_ratio: '16:9' });
    const info = assertPlayableMp4(buf, 'seedance video');
    expect(info.width).toBeGreaterThan(info.height);
  });

  played('the /content route and the large-download file still play', async () => {
    const { id } = await finishedVideo({ model: 'sora-2', prompt: 'x' });
    expect(assertPlayableMp4(Buffer.from(await (await contentOf(id)).arrayBuffer()), 'content route').skipped).toBeUndefined();
    expect(assertPlayableMp4((await largeFile(3 * 1024 * 1024 + 7)).buf, 'large video').skipped).toBeUndefined();
  });
});
