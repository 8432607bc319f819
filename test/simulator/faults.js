'use strict';
// Injected faults: matched in injection order, each match consumes one of `times`.
const { CORS } = require('./respond');

const KINDS = ['drop', 'slow', 'malformed', 'breakStream', 'trickle', 'huge', 'gzipBomb', 'deepJson'];
const ORIGINS = ['main', 'alt', 'files'];

const DEFAULTS = {
  400: ['bad_request', 'bad request'],
  401: ['invalid_api_key', 'Invalid token'],
  403: ['insufficient_user_quota', 'user quota is not enough'],
  404: ['not_found', 'not found'],
  429: ['rate_limit_exceeded', 'rate limit exceeded, please retry later'],
  500: ['do_request_failed', 'upstream error: do request failed'],
  502: ['bad_gateway', 'bad gateway'],
  503: ['channel_circuit_open', 'service temporarily unavailable'],
  504: ['timeout', 'image generation timeout'],
};

function normalizeFault(f) {
  if (!f || typeof f !== 'object') throw new TypeError('inject(fault): fault must be an object');
  if (typeof f.path !== 'string' && !(f.path instanceof RegExp)) throw new TypeError('inject(fault): path must be a string or RegExp');
  if (f.kind !== undefined && !KINDS.includes(f.kind)) throw new TypeError(`inject(fault): kind must be one of ${KINDS.join(', ')}`);
  if (f.origin !== undefined && !ORIGINS.includes(f.origin)) throw new TypeError(`inject(fault): origin must be one of ${ORIGINS.join(', ')}`);
  if (f.kind === undefined && f.status === undefined && f.delayMs === undefined) {
    throw new TypeError('inject(fault): give a status, a kind or a delayMs');
  }
  const times = f.times === undefined ? 1 : f.times;
  if (!(times > 0)) throw new TypeError('inject(fault): times must be a positive number (Infinity allowed)');
  return { ...f, method: f.method && f.method.toUpperCase(), times };
}

function matches(f, origin, method, path) {
  if (f.origin && f.origin !== origin) return false;
  if (f.method && f.method !== method) return false;
  return typeof f.path === 'string' ? f.path === path : f.path.test(path);
}

function takeFault(faults, origin, method, path) {
  const i = faults.findIndex((f) => matches(f, origin, method, path));
  if (i < 0) return null;
  const f = faults[i];
  f.times -= 1;
  if (f.times <= 0) faults.splice(i, 1);
  return f;
}

function faultBody(f, reqId) {
  // Bytes as given (a body in another charset): the fault's headers name its Content-Type.
  if (Buffer.isBuffer(f.body)) return { buf: f.body, type: 'application/octet-stream' };
  if (typeof f.body === 'string') return { buf: Buffer.from(f.body), type: /^\s*</.test(f.body) ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8' };
  const value = f.body !== undefined ? f.body : defaultError(f.status, reqId);
  return { buf: Buffer.from(JSON.stringify(value)), type: 'application/json; charset=utf-8' };
}

function defaultError(status, reqId) {
  const [code, message] = DEFAULTS[status] || ['simulated_error', `simulated error ${status}`];
  return { error: { message: `${message} (request id: ${reqId})`, type: 'new_api_error', param: '', code } };
}

/**
 * Applies a fault. Resolves true when the fault answered (or killed) the request,
 * false when the route should still run (slow, breakStream).
 */
async function applyFault(ctx, f) {
  if (f.delayMs || f.kind === 'slow') await ctx.sim.sleep(f.delayMs ?? 1000);
  const { res } = ctx;
  if (f.kind === 'drop') {
    ctx.req.socket.destroy();
    return true;
  }
  if (f.kind === 'malformed') {
    const buf = Buffer.from('{"id":"broken","object":"list","data":[{"url": ');
    res.writeHead(f.status || 200, { ...CORS, 'Content-Type': 'application/json', 'Content-Length': buf.length, ...f.headers });
    res.end(buf);
    return true;
  }
  if (f.kind === 'trickle') return trickle(ctx, f);
  if (f.kind === 'huge') return huge(ctx, f);
  if (f.kind === 'gzipBomb') return gzipBomb(ctx, f);
  if (f.kind === 'deepJson') return deepJson(ctx, f);
  if (f.kind === 'breakStream') ctx.breakStream = true;
  if (f.kind === 'breakStream' || f.status === undefined) {
    // The route answers; the fault's headers still ride along.
    for (const [name, value] of Object.entries(f.headers || {})) res.setHeader(name, value);
    return false;
  }
  const { buf, type } = faultBody(f, ctx.reqId);
  res.writeHead(f.status, { ...CORS, 'Content-Type': type, 'Content-Length': buf.length, ...f.headers });
  res.end(buf);
  return true;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// A file host that trickles: 200 with a declared length, then one byte every `everyMs` (default
// 1000) until the client gives up. The bytes start as a PNG, so only the clock can tell.
function trickle(ctx, f) {
  const { res } = ctx;
  const length = f.bytes ?? 65536;
  res.writeHead(f.status || 200, { ...CORS, 'Content-Type': 'image/png', 'Content-Length': length, ...f.headers });
  let sent = 0;
  const tick = () => {
    if (res.destroyed || sent >= length) return;
    res.write(sent < PNG_SIGNATURE.length ? PNG_SIGNATURE.subarray(sent, sent + 1) : Buffer.alloc(1));
    sent += 1;
    const t = setTimeout(tick, f.everyMs ?? 1000);
    ctx.sim.timers.add(t);
  };
  tick();
  return true;
}

// A huge file: `bytes` (default 300 MB) of a PNG signature and zeros, streamed in 64 KB chunks
// with flat memory; `declareLength: false` leaves Content-Length out (only counting can stop it).
function huge(ctx, f) {
  const { res } = ctx;
  const length = f.bytes ?? 300 * 1024 * 1024;
  const declare = f.declareLength !== false;
  res.writeHead(f.status || 200, {
    ...CORS, 'Content-Type': f.contentType || 'image/png', ...(declare ? { 'Content-Length': length } : {}), ...f.headers,
  });
  const chunk = Buffer.alloc(65536);
  PNG_SIGNATURE.copy(chunk);
  let sent = 0;
  const pump = () => {
    while (!res.destroyed && sent < length) {
      const piece = chunk.subarray(0, Math.min(chunk.length, length - sent));
      sent += piece.length;
      ctx.record.bytesSent = sent;
      if (!res.write(piece)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  // The record's bytesSent counts what was written so far (socket buffers included): a client that
  // refuses by size stops taking bytes early, whether or not it closes the connection.
  res.on('close', () => (sent = length));
  pump();
  return true;
}

// A compression bomb: 200 JSON (or `contentType`) with `Content-Encoding: gzip` (or `encoding`
// 'deflate' | 'br') whose body inflates to `bytes` (default 2 GB) of one long string, about a
// thousandth of that on the wire. Made as the client reads (flat memory, stops when it leaves);
// the record's bytesSent counts the compressed bytes written.
function gzipBomb(ctx, f) {
  const zlib = require('node:zlib');
  const { Readable, pipeline } = require('node:stream');
  const { res } = ctx;
  const length = f.bytes ?? 2 * 1024 * 1024 * 1024;
  const encoding = f.encoding || 'gzip';
  const packer = encoding === 'br' ? zlib.createBrotliCompress() : encoding === 'deflate' ? zlib.createDeflate({ level: 9 }) : zlib.createGzip({ level: 9 });
  res.writeHead(f.status || 200, { ...CORS, 'Content-Type': f.contentType || 'application/json', 'Content-Encoding': encoding, ...f.headers });
  const head = Buffer.from('{"task_id":"bomb","status":"in_progress","data":"');
  const filler = Buffer.alloc(64 * 1024, 0x41);
  let made = 0;
  const source = Readable.from((function* () {
    yield head;
    made += head.length;
    while (made < length) {
      const piece = filler.subarray(0, Math.min(filler.length, length - made));
      made += piece.length;
      yield piece;
    }
    yield Buffer.from('"}');
  })());
  let written = 0;
  packer.on('data', (chunk) => {
    written += chunk.length;
    ctx.record.bytesSent = written;
  });
  ctx.record.inflatesTo = length;
  pipeline(source, packer, res, () => {});
  return true;
}

// JSON nested `depth` levels (default 20,000: about 40 KB): `body` (an object, default a running
// task) with a field `nested` holding [[[…]]].
function deepJson(ctx, f) {
  const { res } = ctx;
  const depth = f.depth ?? 20000;
  const base = JSON.stringify(f.body ?? { status: 'in_progress' });
  const text = `${base.slice(0, -1)}${base.length > 2 ? ',' : ''}"nested":${'['.repeat(depth)}${']'.repeat(depth)}}`;
  const buf = Buffer.from(text);
  res.writeHead(f.status || 200, { ...CORS, 'Content-Type': 'application/json', 'Content-Length': buf.length, ...f.headers });
  res.end(buf);
  return true;
}

module.exports = { normalizeFault, takeFault, applyFault, KINDS };
