'use strict';
// Result images are real pictures at the requested size: decoded here as any viewer would.
const zlib = require('node:zlib');
const { startSimulator } = require('./index');
const { pictureSize, MAX_PIXELS } = require('./pictures');
const { PNG_SIGNATURE } = require('./png');
const { coloursOf } = require('./picture');

const KEY = 'sk-sim-test-key';
const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
const post = async (base, path, body) => (await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })).json();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A PNG (8-bit RGB, any of the five filters) → { width, height, pixel(x, y) → [r, g, b] }. */
function decodePng(buf) {
  expect(buf.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  let at = 8;
  let width;
  let height;
  const idat = [];
  while (at < buf.length) {
    const len = buf.readUInt32BE(at);
    const type = buf.toString('ascii', at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect([data[8], data[9]]).toEqual([8, 2]);
    }
    if (type === 'IDAT') idat.push(data);
    at += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * 3;
  const px = Buffer.alloc(stride * height);
  const paeth = (a, b, c) => {
    const p = a + b - c;
    const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
  };
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = y * stride;
    for (let i = 0; i < stride; i++) {
      const a = i >= 3 ? px[out + i - 3] : 0;
      const b = y > 0 ? px[out - stride + i] : 0;
      let pred = 0;
      if (filter === 1) pred = a;
      else if (filter === 2) pred = b;
      else if (filter === 3) pred = (a + b) >> 1;
      else if (filter === 4) pred = paeth(a, b, i >= 3 && y > 0 ? px[out - stride + i - 3] : 0);
      px[out + i] = (line[i] + pred) & 0xff;
    }
  }
  return { width, height, pixel: (x, y) => [...px.subarray(y * stride + x * 3, y * stride + x * 3 + 3)] };
}

async function download(url) {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/png');
  return decodePng(Buffer.from(await res.arrayBuffer()));
}

let sim;
beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, quiet: true, timeScale: 0.01 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

test('a synchronous image is a gradient with the prompt drawn in, at the ratio size and resolution asked for', async () => {
  const { data } = await post(sim.mainUrl, '/v1/images/generations', { model: 'gpt-image-2', prompt: 'a lighthouse at dawn', size: '16:9', resolution: '2k' });
  const png = await download(data[0].url);
  expect([png.width, png.height]).toEqual([2048, 1152]);
  // Background: two corners of the gradient differ. Letters: white pixels in the middle band, none
  // in the top and bottom fifths (the caption is drawn in the last lines, small).
  expect(png.pixel(0, 0)).not.toEqual(png.pixel(2047, 1151));
  const whiteIn = (from, to) => {
    let n = 0;
    for (let y = from; y < to; y += 2) for (let x = 0; x < png.width; x += 2) if (png.pixel(x, y).join() === '250,250,245') n++;
    return n;
  };
  expect(whiteIn(Math.round(1152 * 0.3), Math.round(1152 * 0.7))).toBeGreaterThan(1000);
  expect(whiteIn(0, Math.round(1152 * 0.2))).toBe(0);
});

test('WxH sizes are exact, for task models too; each result has its own colours', async () => {
  const { data } = await post(sim.mainUrl, '/v1/images/generations', { model: 'gpt-image-2.5', prompt: 'a red fox', size: '1536x1024' });
  const fox = await download(data[0].url);
  expect([fox.width, fox.height]).toEqual([1536, 1024]);

  const task = await post(sim.mainUrl, '/v1/images/generations', { model: 'gpt-image-2-async', prompt: 'a paper boat', size: '1024x1536' });
  await sleep(50);
  const url = sim.task(task.id).urls[0];
  const boat = await download(url);
  expect([boat.width, boat.height]).toEqual([1024, 1536]);
  // Each result its own colours: each picture's corner is the colour of its own file name's hash
  // (two names may share a hue by chance, 1 in 256, so the two are not compared with each other).
  const corner = (fileUrl) => coloursOf(new URL(fileUrl).pathname.split('/').pop().replace(/\.png$/, '')).from;
  expect(fox.pixel(0, 0)).toEqual(corner(data[0].url));
  expect(boat.pixel(0, 0)).toEqual(corner(url));
});

test('alt-host aspect_ratio with image_size maps to the long side; no size gives 1024x1024', async () => {
  const alt = await post(sim.altUrl, '/v1/images/generations', { model: 'gemini-2.5-flash-image', prompt: 'tall tower', aspect_ratio: '9:16', image_size: '2K' });
  const tower = await download(sim.task(alt.data.task_id).urls[0]);
  expect([tower.width, tower.height]).toEqual([1152, 2048]);

  const nano = await post(sim.mainUrl, '/v1/images/generations', { model: 'nano-banana', prompt: 'a banana' });
  const banana = await download(sim.task(nano.data.task_id).urls[0]);
  expect([banana.width, banana.height]).toEqual([1024, 1024]);
});

test('size mapping: ratios by resolution, exact WxH, and a pixel cap above 4096x4096 that keeps the ratio', () => {
  expect(pictureSize({ size: '1:1', resolution: '4k' })).toEqual({ width: 3840, height: 3840 });
  expect(pictureSize({ size: '9:16' })).toEqual({ width: 576, height: 1024 });
  expect(pictureSize({ size: '21:9', resolution: '1k' })).toEqual({ width: 1024, height: 439 });
  expect(pictureSize({ size: 'auto' })).toEqual({ width: 1024, height: 1024 });
  expect(pictureSize({ size: '3840x2160' })).toEqual({ width: 3840, height: 2160 });
  const huge = pictureSize({ size: '20000x10000' });
  expect(huge.width * huge.height).toBeLessThanOrEqual(MAX_PIXELS);
  expect(huge.width / huge.height).toBeCloseTo(2, 2);
});
