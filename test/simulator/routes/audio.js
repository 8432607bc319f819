'use strict';
// POST /v1/audio/speech as new-api relays it (../../../shared/spec/real-newapi/audio-speech.json): the
// upstream's audio, sent chunked with its Content-Type. The recorded stand-in upstream answered
// 38 silent MPEG-1 Layer III frames (15,846 bytes) or 1 s of 24 kHz WAV (48,044 bytes); the other
// formats are their containers' first bytes and silence, enough for a client that judges bytes.
// POST /v1/audio/transcriptions and /translations as in real-newapi/audio-transcriptions.json: the
// multipart rebuilt, the transcript in the asked format (text, srt and vtt as text/plain).
// Both settle by the relay's ratio (tokens × model_ratio, characters for speech) into the usage log.
const { CORS, sendJson } = require('../respond');
const { badRequest, noChannel, HttpError } = require('../errors');
const { jsonBody, requireString, optionalEnum } = require('../validate');
const { chatChargeUsd, settle, logConsume } = require('../prices');
const { multipartParts } = require('./uploads');

const FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'];
const TYPES = { mp3: 'audio/mpeg', opus: 'audio/ogg', aac: 'audio/aac', flac: 'audio/flac', wav: 'audio/wav', pcm: 'audio/pcm' };
const SECOND_PCM = 48000; // 1 s, 24 kHz, 16-bit mono

/** `seconds` of 16-bit mono silence at `rate` in a WAV: what the stand-in upstream answered (24 kHz, 1 s). */
function wav(rate = 24000, seconds = 1) {
  const samples = Math.round(seconds * rate) * 2;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + samples, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(samples, 40);
  return Buffer.concat([header, Buffer.alloc(samples)]);
}

const frame = Buffer.concat([Buffer.from('fffb9064', 'hex'), Buffer.alloc(413)]);
const AUDIO = {
  mp3: () => Buffer.concat(Array.from({ length: 38 }, () => frame)),
  wav: () => wav(),
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
  charge(ctx, body.model, { prompt_tokens: [...body.input].length, completion_tokens: 0 });
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

/** A billed call settled as the relay does; the commercial profile has no usage log. */
function charge(ctx, model, usage) {
  if (ctx.sim.profile === 'commercial') return;
  const usd = chatChargeUsd(ctx.sim, model, usage);
  settle(ctx.sim, usd);
  logConsume(ctx.sim, { model, usd, requestId: ctx.reqId, usage });
}

const TEXT_FORMATS = ['json', 'text', 'srt', 'vtt', 'verbose_json'];
/** OpenAI's gpt-4o transcription models write json or text only, and do not translate. */
const WORDS_ONLY = /^gpt-4o(-mini)?-transcribe/;
const MAX_RECORDING = 25 * 1024 * 1024;
const RECORDING_TYPES = [/^RIFF....WAVE/s, /^ID3/, /^\xff[\xe0-\xff]/, /^OggS/, /^fLaC/, /^....ftyp/s, /^\x1a\x45\xdf\xa3/];

/** How long a recording is: a WAV's header says; anything else is taken as 16 kB a second. */
function secondsOf(data) {
  if (data.toString('latin1', 0, 4) === 'RIFF' && data.length >= 44) {
    const perSecond = data.readUInt32LE(28);
    if (perSecond > 0) return Math.round(((data.length - 44) / perSecond) * 1000) / 1000;
  }
  return Math.round((data.length / 16000) * 1000) / 1000;
}

const stamp = (seconds, mark) => {
  const ms = Math.round(seconds * 1000);
  const pad = (n, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3600000))}:${pad(Math.floor(ms / 60000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${mark}${pad(ms % 1000, 3)}`;
};

function transcriptBody(format, text, seconds, fields) {
  if (format === 'text') return `${text}\n`;
  if (format === 'srt') return `1\n${stamp(0, ',')} --> ${stamp(seconds, ',')}\n${text}\n\n`;
  if (format === 'vtt') return `WEBVTT\n\n${stamp(0, '.')} --> ${stamp(seconds, '.')}\n${text}\n\n`;
  if (format === 'json') return { text };
  const words = fields.getAll('timestamp_granularities[]').includes('word');
  return {
    task: fields.route === 'translations' ? 'translate' : 'transcribe',
    language: fields.route === 'translations' ? 'english' : fields.get('language') === 'de' ? 'german' : 'english',
    duration: seconds,
    text,
    segments: [{ id: 0, seek: 0, start: 0, end: seconds, text, tokens: [50364, 2425], temperature: 0, avg_logprob: -0.2, compression_ratio: 0.9, no_speech_prob: 0.01 }],
    ...(words ? { words: text.split(' ').map((word, i, all) => ({ word, start: (i * seconds) / all.length, end: ((i + 1) * seconds) / all.length })) } : {}),
  };
}

function recording(route) {
  return (ctx) => {
    const parts = multipartParts(ctx, `/v1/audio/${route}`);
    const text = (name) => parts.find((p) => p.name === name && p.filename === undefined)?.value;
    const fields = {
      route,
      get: text,
      getAll: (name) => parts.filter((p) => p.name === name && p.filename === undefined).map((p) => p.value),
    };
    const model = text('model');
    if (!model) throw badRequest('model is required', 'model');
    const file = parts.find((p) => p.name === 'file' && p.filename !== undefined);
    if (!file) throw badRequest('file is required (multipart field "file")', 'file');
    if (!ctx.sim.hasModel(model)) throw noChannel(model);
    if (file.data.length > MAX_RECORDING) {
      throw new HttpError(413, `Maximum content size limit (${MAX_RECORDING}) exceeded`, { code: 'file_too_large', param: 'file', type: 'invalid_request_error' });
    }
    if (!RECORDING_TYPES.some((mark) => mark.test(file.data.toString('latin1', 0, 16)))) {
      throw badRequest("Invalid file format. Supported formats: ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm']", 'file');
    }
    const format = text('response_format') || 'json';
    if (!TEXT_FORMATS.includes(format)) throw badRequest(`response_format must be one of ${TEXT_FORMATS.join(', ')}`, 'response_format');
    if (WORDS_ONLY.test(model) && !['json', 'text'].includes(format)) {
      throw badRequest(`response_format '${format}' is not compatible with model '${model}'. Use 'json' or 'text' instead.`, 'response_format');
    }
    const temperature = text('temperature');
    if (temperature !== undefined && !(Number(temperature) >= 0 && Number(temperature) <= 1)) {
      throw badRequest('temperature must be a number from 0 to 1', 'temperature');
    }
    const seconds = secondsOf(file.data);
    const words = route === 'translations' ? 'Hello from the fake upstream.' : text('language') === 'de' ? 'Hallo vom Fake-Upstream.' : 'Hello from the simulator.';
    const usage = WORDS_ONLY.test(model) ? { prompt_tokens: 14, completion_tokens: 7 } : { prompt_tokens: Math.max(1, Math.round(seconds * 34)), completion_tokens: 0 };
    charge(ctx, model, usage);
    const answer = transcriptBody(format, words, seconds, fields);
    if (typeof answer === 'string') {
      ctx.res.writeHead(200, { ...CORS, 'Content-Type': 'text/plain; charset=utf-8' });
      return ctx.res.end(answer);
    }
    const json = WORDS_ONLY.test(model) && format === 'json'
      ? { ...answer, usage: { type: 'tokens', input_tokens: 14, input_token_details: { text_tokens: 0, audio_tokens: 14 }, output_tokens: 7, total_tokens: 21 } }
      : answer;
    sendJson(ctx, 200, json);
  };
}

module.exports = [
  { method: 'POST', path: '/v1/audio/speech', handler: speech },
  { method: 'POST', path: '/v1/audio/transcriptions', handler: recording('transcriptions') },
  { method: 'POST', path: '/v1/audio/translations', handler: recording('translations') },
];
module.exports.wav = wav;
