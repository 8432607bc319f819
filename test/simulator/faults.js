'use strict';
// Injected faults: matched in injection order, each match consumes one of `times`.
const { CORS } = require('./respond');

const KINDS = ['drop', 'slow', 'malformed', 'breakStream'];
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

module.exports = { normalizeFault, takeFault, applyFault, KINDS };
