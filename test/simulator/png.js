'use strict';
const zlib = require('node:zlib');
const crypto = require('node:crypto');

// Own CRC-32 table: zlib.crc32 only exists from Node 20.15/22.2.
const CRC_TABLE = new Int32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});

function crc32(buf) {
  let c = -1;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * An 8-bit RGB PNG; writeRow(y, row) fills `row` (width × 3 bytes, still holding the line before)
 * for each line. Lines are stored with PNG's "Up" filter (difference to the line above): a line
 * that repeats the one before is all zeros, which deflate packs small and fast, so even a
 * 4K picture of mostly repeating lines costs little.
 */
function rgbPng(width, height, writeRow) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const stride = 1 + width * 3;
  const raw = Buffer.alloc(stride * height);
  const row = Buffer.alloc(width * 3);
  const previous = Buffer.alloc(width * 3);
  for (let y = 0; y < height; y++) {
    writeRow(y, row);
    const at = y * stride;
    raw[at] = 2; // filter "Up"
    if (!row.equals(previous)) {
      for (let i = 0; i < row.length; i++) raw[at + 1 + i] = (row[i] - previous[i]) & 0xff;
      row.copy(previous);
    }
  }
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw, { level: raw.length > 8e6 ? 1 : 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function solidPng(width, height, [r, g, b]) {
  return rgbPng(width, height, (y, row) => {
    for (let x = 0; x < width; x++) row.set([r, g, b], x * 3);
  });
}

// Bounded cache: reference images are made repeatedly in tests, names are unbounded.
const cache = new Map();

/** A small solid square whose colour is a hash of the name (reference images in tests). */
function pngFor(name, size = 64) {
  const key = `${size}:${name}`;
  let png = cache.get(key);
  if (!png) {
    const colour = [...crypto.createHash('sha256').update(name).digest().subarray(0, 3)];
    png = solidPng(size, size, colour);
    if (cache.size >= 256) cache.delete(cache.keys().next().value);
    cache.set(key, png);
  }
  return png;
}

/** { width, height } of a PNG from its IHDR, or null. */
function pngSize(buf) {
  if (!Buffer.isBuffer(buf) || buf.length < 24 || !buf.subarray(0, 8).equals(SIGNATURE)) return null;
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

module.exports = { pngFor, solidPng, rgbPng, pngSize, crc32, PNG_SIGNATURE: SIGNATURE };
