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

function solidPng(width, height, [r, g, b]) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const row = Buffer.alloc(1 + width * 3); // leading 0 = filter "none"
  for (let x = 0; x < width; x++) row.set([r, g, b], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// Bounded cache: result URLs are fetched repeatedly in tests, names are unbounded.
const cache = new Map();

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

module.exports = { pngFor, solidPng, crc32, PNG_SIGNATURE: SIGNATURE };
