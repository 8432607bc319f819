'use strict';
// Result videos: a real, playable 4-second H.264 clip (fixtures/*.mp4, made once by
// fixtures/make-videos.sh), landscape or portrait. Every file gets the clip plus a trailing `free`
// box (ignored by players): the name for small files, so each result has its own bytes, and filler
// up to an exact size for the large-download benchmark, still playable, produced chunk by chunk.
const fs = require('node:fs');
const path = require('node:path');
const { Readable } = require('node:stream');

const FIXTURES = path.join(__dirname, 'fixtures');
const clips = {};

/** The committed clip ('landscape' | 'portrait'), read once. */
function clip(orientation = 'landscape') {
  const name = orientation === 'portrait' ? 'portrait' : 'landscape';
  clips[name] ??= fs.readFileSync(path.join(FIXTURES, `${name}.mp4`));
  return clips[name];
}

/** 'portrait' when the request asked for a taller than wide picture (aspect ratio, else size). */
function orientationOf({ size, aspect_ratio: ratio } = {}) {
  const shape = /^(\d+):(\d+)$/.exec(String(ratio ?? '')) || /^(\d+)x(\d+)$/.exec(String(size ?? ''));
  return shape && Number(shape[2]) > Number(shape[1]) ? 'portrait' : 'landscape';
}

/** Header of a `free` box of `total` bytes; the 64-bit "largesize" form past 32 bits. */
function freeHeader(total) {
  if (total < 0x100000000) {
    const h = Buffer.alloc(8);
    h.writeUInt32BE(total);
    h.write('free', 4, 'ascii');
    return h;
  }
  const h = Buffer.alloc(16);
  h.writeUInt32BE(1);
  h.write('free', 4, 'ascii');
  h.writeBigUInt64BE(BigInt(total), 8);
  return h;
}

/** The clip with the file's name in a trailing `free` box (a few tens of KB). */
function smallMp4(name, orientation) {
  const tag = Buffer.from(`simulator:${name}`, 'utf8');
  return Buffer.concat([clip(orientation), freeHeader(8 + tag.length), tag]);
}

const FILLER = Buffer.alloc(64 * 1024, 0x5a);

/**
 * Exactly `total` bytes: the clip, then one `free` box of filler, pushed from one shared buffer so
 * that serving hundreds of MB keeps memory flat. Below the clip's size: the clip's first bytes.
 */
function bigMp4Stream(total) {
  const video = clip();
  let rest = total - video.length;
  let head;
  if (rest >= 8) {
    const header = freeHeader(rest);
    head = Buffer.concat([video, header]);
    rest -= header.length;
  } else {
    head = video.subarray(0, Math.max(0, Math.min(video.length, total)));
    rest = Math.max(0, total - head.length); // under 8 bytes more than the clip: plain padding
  }
  let left = rest;
  return new Readable({
    highWaterMark: FILLER.length,
    read() {
      if (head) {
        const h = head;
        head = null;
        if (h.length) this.push(h);
        if (left <= 0) this.push(null);
        return;
      }
      if (left <= 0) return this.push(null);
      const n = Math.min(left, FILLER.length);
      left -= n;
      this.push(n === FILLER.length ? FILLER : FILLER.subarray(0, n));
      if (left === 0) this.push(null);
    },
  });
}

module.exports = { smallMp4, bigMp4Stream, orientationOf, clip };
