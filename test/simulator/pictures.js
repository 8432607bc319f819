'use strict';
// Which picture a result URL of the files origin shows: the prompt, size and model of the request
// that made it (a task's params, or a synchronous answer remembered here), drawn by picture.js.
const { picturePng } = require('./picture');

// Ratio sizes (gpt-image-2 `size: '16:9'` + `resolution`, alt-host `aspect_ratio` + `image_size`):
// the longer side by resolution, the other from the ratio.
const LONG_SIDE = { '1k': 1024, '2k': 2048, '4k': 3840 };
const DEFAULT_SIDE = 1024;
// Larger requests (the simulator accepts any WxH) are drawn smaller, same ratio: 16.7 MP keeps
// every size of the spec (up to 3840x3840) exact and a picture under about half a second.
const MAX_PIXELS = 4096 * 4096;
const WXH = /^(\d{1,5})x(\d{1,5})$/;
const RATIO = /^(\d{1,2}):(\d{1,2})$/;

/** { width, height } for the request's size fields. */
function pictureSize({ size, resolution, aspect_ratio: aspectRatio, image_size: imageSize } = {}) {
  let width = DEFAULT_SIDE;
  let height = DEFAULT_SIDE;
  const exact = WXH.exec(String(size ?? ''));
  const ratio = RATIO.exec(String(size ?? '')) || RATIO.exec(String(aspectRatio ?? ''));
  if (exact) {
    width = Number(exact[1]);
    height = Number(exact[2]);
  } else if (ratio) {
    const long = LONG_SIDE[String(resolution ?? imageSize ?? '1k').toLowerCase()] || DEFAULT_SIDE;
    const [a, b] = [Number(ratio[1]), Number(ratio[2])];
    if (a > 0 && b > 0) {
      width = a >= b ? long : Math.round((long * a) / b);
      height = a >= b ? Math.round((long * b) / a) : long;
    }
  }
  width = Math.max(1, width);
  height = Math.max(1, height);
  const shrink = Math.sqrt(MAX_PIXELS / (width * height));
  if (shrink < 1) return { width: Math.max(1, Math.floor(width * shrink)), height: Math.max(1, Math.floor(height * shrink)) };
  return { width, height };
}

// Synchronous answers have no task to read the request from: remembered per simulator, bounded.
const remembered = new WeakMap();
const MAX_REMEMBERED = 2000;

/** Keeps what a synchronous image answer with URLs `<stem>-<n>.png` was asked for. */
function rememberPicture(sim, stem, request) {
  let map = remembered.get(sim);
  if (!map) remembered.set(sim, (map = new Map()));
  if (map.size >= MAX_REMEMBERED) map.delete(map.keys().next().value);
  map.set(stem, request);
}

/** The request behind a file name `<stem>-<n>` (task id or remembered stem), or undefined. */
function requestFor(sim, name) {
  const stem = /^(.+)-\d+$/.exec(name)?.[1] ?? name;
  const task = sim.tasks.get(stem);
  if (task) return { model: task.model, ...task.params };
  return remembered.get(sim)?.get(stem);
}

// Bounded cache: a result is often fetched more than once (download, preview, test).
const cache = new Map();
const MAX_CACHED = 32;

/** The PNG for a result file name: the request's prompt and size, or a 1024² placeholder. */
function pictureFor(sim, name) {
  const request = requestFor(sim, name) || {};
  const { width, height } = pictureSize(request);
  const title = typeof request.prompt === 'string' && request.prompt.trim() ? request.prompt : name;
  const caption = `${width}×${height}${request.model ? ` ${request.model}` : ''}`;
  const key = JSON.stringify([name, width, height, title, caption]);
  let png = cache.get(key);
  if (!png) {
    png = picturePng({ width, height, title, caption, seed: name }); // each result its own colours
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value);
    cache.set(key, png);
  }
  return png;
}

module.exports = { pictureFor, pictureSize, rememberPicture, MAX_PIXELS };
