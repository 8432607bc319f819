'use strict';
const crypto = require('node:crypto');
const { Readable } = require('node:stream');

function box(type, payload) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + payload.length);
  head.write(type, 4, 'ascii');
  return Buffer.concat([head, payload]);
}

const FTYP = box('ftyp', Buffer.concat([
  Buffer.from('isom', 'ascii'),
  Buffer.from([0, 0, 2, 0]), // minor version 512
  Buffer.from('isomiso2avc1mp41', 'ascii'),
]));

// A few KB that a sniffer recognises as MP4 (ftyp first); not a playable video.
function smallMp4(name) {
  const seed = crypto.createHash('sha256').update(name).digest();
  const media = Buffer.alloc(4096);
  for (let i = 0; i < media.length; i += seed.length) seed.copy(media, i);
  return Buffer.concat([FTYP, box('free', Buffer.from(`simulator:${name}`)), box('mdat', media)]);
}

// mdat header for the rest of the file; 64-bit "largesize" form when it does not fit 32 bits.
function mdatHeader(remaining) {
  if (remaining < 0x100000000) {
    const h = Buffer.alloc(8);
    h.writeUInt32BE(remaining);
    h.write('mdat', 4, 'ascii');
    return h;
  }
  const h = Buffer.alloc(16);
  h.writeUInt32BE(1);
  h.write('mdat', 4, 'ascii');
  h.writeBigUInt64BE(BigInt(remaining), 8);
  return h;
}

const FILLER = Buffer.alloc(64 * 1024, 0x5a);

// Exactly `total` bytes, produced chunk by chunk with one shared filler buffer, so
// serving hundreds of MB keeps memory flat.
function bigMp4Stream(total) {
  const header = Buffer.concat([FTYP, mdatHeader(Math.max(0, total - FTYP.length))]);
  let head = header.subarray(0, Math.min(header.length, total));
  let left = total - head.length;
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

module.exports = { smallMp4, bigMp4Stream };
