'use strict';
// POST /v1/audio/speech as new-api relays it (../../../shared/spec/real-newapi/audio-speech.json): the
// upstream's audio, sent chunked with its Content-Type. The recorded stand-in upstream answered
// 38 silent MPEG-1 Layer III frames (15,846 bytes) or 1 s of 24 kHz WAV (48,044 bytes); the other
// formats are their containers' first bytes and silence, enough for a client that judges bytes.
const { CORS } = require('../respond');
const { badRequest, noChannel } = require('../errors');
const { jsonBody, requireString, optionalEnum } = require('../validate');

const FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'];
const TYPES = { mp3: 'audio/mpeg', opus: 'audio/ogg', aac: 'audio/aac', flac: 'audio/flac', wav: 'audio/wav', pcm: 'audio/pcm' };
const SECOND_PCM = 48000; // 1 s, 24 kHz, 16-bit mono

function wav() {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + SECOND_PCM, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(24000, 24);
  header.writeUInt32LE(48000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(SECOND_PCM, 40);
  return Buffer.concat([header, Buffer.alloc(SECOND_PCM)]);
}

const frame = Buffer.concat([Buffer.from('fffb9064', 'hex'), Buffer.alloc(413)]);
const AUDIO = {
  mp3: () => Buffer.concat(Array.from({ length: 38 }, () => frame)),
  wav,
  opus: () => Buffer.concat([Buffer.from('OggS', 'latin1'), Buffer.alloc(4000)]),
  aac: () => Buffer.concat([Buffer.from('fff15080', 'hex'), Buffer.alloc(4000)]),
  flac: () => Buffer.concat([Buffer.from('fLaC', 'latin1'), Buffer.alloc(4000)]),
  pcm: () => Buffer.alloc(SECOND_PCM),
};

function validate(body) {
  requireString(body, 'model');
  requireString(body, 'input');
  requireString(body, 'voice');
  optionalEnum(body, 'response_format', FORMATS);
  if (body.input.length > 4096) throw badRequest('input must be at most 4096 characters', 'input');
  const { speed } = body;
  if (speed !== undefined && (typeof speed !== 'number' || speed < 0.25 || speed > 4)) {
    throw badRequest('speed must be a number from 0.25 to 4', 'speed');
  }
}

async function speech(ctx) {
  const body = jsonBody(ctx);
  validate(body);
  if (!ctx.sim.hasModel(body.model)) throw noChannel(body.model);
  const format = body.response_format || 'mp3';
  const audio = AUDIO[format]();
  const { res } = ctx;
  // Chunked, as the relay passes the upstream's body on (no Content-Length).
  res.writeHead(200, { ...CORS, 'Content-Type': TYPES[format] });
  for (let at = 0; at < audio.length; at += 4096) {
    if (res.destroyed) return;
    if (ctx.breakStream && at > 0) return res.destroy();
    res.write(audio.subarray(at, at + 4096));
    await ctx.sim.sleep(1);
  }
  res.end();
}

module.exports = [{ method: 'POST', path: '/v1/audio/speech', handler: speech }];
