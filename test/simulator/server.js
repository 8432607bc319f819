'use strict';
// One http.Server per origin: read body, record, apply faults, check auth, route.
const http = require('node:http');
const https = require('node:https');
const crypto = require('node:crypto');
const { HttpError } = require('./errors');
const { sendJson, sendError, CORS } = require('./respond');
const { isMultipart, parseMultipart, describeParts } = require('./multipart');
const { takeFault, applyFault } = require('./faults');
const { applyGates } = require('./gates');
const { requestId } = require('./ids');
const { RELAY_TEXTS, byName, relayText, relayEnvelope } = require('./relay-texts');
const { lacks } = require('./profiles');

const MAX_BODY = 128 * 1024 * 1024;
const MAX_RECORDED_TEXT = 1024 * 1024;

// Collects the body; past MAX_BODY it keeps draining (so the client can read our 413)
// but drops the bytes.
function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => resolve({ buf: size <= MAX_BODY ? Buffer.concat(chunks) : null, size }));
    req.on('error', (err) => reject(Object.assign(err, { clientAborted: true })));
    req.on('close', () => {
      if (!req.complete) reject(Object.assign(new Error('client aborted the request'), { clientAborted: true }));
    });
  });
}

function bearerToken(header) {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header || '');
  return m ? m[1] : null;
}

function maskAuthorization(value) {
  const token = bearerToken(value) || value;
  return token.length >= 8 ? `Bearer ***${token.slice(-3)}` : 'Bearer ***';
}

function sameKey(a, b) {
  if (typeof a !== 'string') return false;
  const x = crypto.createHash('sha256').update(a).digest();
  const y = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(x, y);
}

function parseBody(ctx, buf) {
  const type = ctx.headers['content-type'] || '';
  if (!buf || buf.length === 0) return { bodyKind: 'empty', recorded: undefined };
  if (isMultipart(type)) {
    try {
      ctx.parts = parseMultipart(buf, type);
      return { bodyKind: 'multipart', recorded: undefined, parts: describeParts(ctx.parts) };
    } catch (err) {
      ctx.multipartError = err.message;
      return { bodyKind: 'multipart', recorded: undefined, parts: [] };
    }
  }
  const text = buf.toString('utf8');
  try {
    ctx.json = JSON.parse(text);
    return { bodyKind: 'json', recorded: ctx.json };
  } catch {
    const recorded = buf.length > MAX_RECORDED_TEXT ? `<${buf.length} bytes>` : text;
    return { bodyKind: /\bjson\b/i.test(type) ? 'badjson' : 'other', recorded };
  }
}

function matchRoute(routes, method, path) {
  let pathMatched = false;
  for (const r of routes) {
    const m = typeof r.path === 'string' ? (r.path === path ? {} : null) : r.path.exec(path);
    if (!m) continue;
    pathMatched = true;
    if (r.method === method) return { route: r, params: m.groups || {} };
  }
  return { pathMatched };
}

/** The model a submit names (JSON or multipart `model`), for the distributor's check below. */
function submittedModel(ctx) {
  if (ctx.method !== 'POST') return undefined;
  if (ctx.json && typeof ctx.json.model === 'string') return ctx.json.model;
  const part = (ctx.parts || []).find((p) => p.name === 'model' && p.filename === undefined);
  return part ? part.value : undefined;
}

/**
 * A retired model (startSimulator({ retiredModels })): the relay's distributor finds no channel and
 * answers 503 model_not_found before any handler runs, in its `error` object on every route, in
 * English or Chinese (option retiredLanguage, or the request's Accept-Language: zh).
 */
function retiredAnswer(ctx) {
  const model = submittedModel(ctx);
  if (!model || !ctx.sim.retiredModels.has(model)) return false;
  const chinese = ctx.sim.retiredLanguage === 'zh' || /^zh/i.test(String(ctx.headers['accept-language'] || ''));
  const entry = byName(chinese ? 'no channel (older relays)' : 'no channel (distributor)');
  const message = relayText(entry, { language: chinese ? 'zh' : 'en', model });
  sendJson(ctx, 503, relayEnvelope({ ...entry, code: 'model_not_found' }, message, ctx.reqId));
  return true;
}

function authError(route) {
  if (route.auth === 'balance') {
    return new HttpError(401, 'Authorization header is missing or the token is invalid (无效的令牌)', { style: 'balance' });
  }
  return new HttpError(401, 'Invalid token', { code: 'invalid_api_key', type: 'new_api_error', style: 'openai' });
}

const KEY_STATE_TEXTS = { exhausted: 'token quota used up', expired: 'token expired', disabled: 'token disabled' };

/** The key's state refuses this relay call (sim.setKeyState); a POST before that counts down. */
function keyRefused(ctx) {
  const { keyState } = ctx.sim;
  if (keyState.state === 'active') return false;
  if (keyState.afterCalls > 0) {
    if (ctx.method === 'POST') keyState.afterCalls--;
    return false;
  }
  return true;
}

/**
 * new-api's auth middleware (middleware/auth.go TokenAuth) on a used-up, expired or disabled key:
 * plain new-api and one-api answer all three, as a wrong key, with a bare `401 Invalid token`
 * (gateway-notes); a build that passes the validation's words on (the commercial profile) names it.
 */
function keyStateError(ctx) {
  const plain = ctx.sim.profile !== 'commercial';
  const text = plain ? 'Invalid token' : RELAY_TEXTS.find((t) => t.name === KEY_STATE_TEXTS[ctx.sim.keyState.state]).en;
  return new HttpError(401, `${text} (request id: ${ctx.reqId})`, { code: '', type: 'new_api_error', style: 'openai' });
}

async function handle(sim, origin, routes, req, res) {
  const at = Date.now();
  const url = new URL(req.url, 'http://simulator.invalid');
  const ctx = {
    sim, origin, req, res,
    method: req.method.toUpperCase(),
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: req.headers,
    reqId: requestId(),
  };
  res.on('close', () => sim.logRequest(ctx, at));
  res.setHeader('X-Request-Id', ctx.reqId);
  // new-api and one-api name every answer's request id so; a usage log row carries the same id.
  if (sim.profile !== 'commercial') res.setHeader('X-Oneapi-Request-Id', ctx.reqId);

  const { buf, size } = await readBody(req);
  const parsed = parseBody(ctx, buf);
  ctx.bodyKind = parsed.bodyKind;
  ctx.json = parsed.bodyKind === 'json' ? ctx.json : undefined;
  const authHeader = req.headers.authorization;
  const authValid = sameKey(bearerToken(authHeader), sim.apiKey);
  const headers = { ...req.headers };
  if (authHeader !== undefined) headers.authorization = maskAuthorization(authHeader);
  const record = {
    origin, method: ctx.method, path: ctx.path, query: ctx.query, headers,
    hasAuth: authHeader !== undefined, authValid, body: parsed.recorded, at,
    // Exactly `Bearer <key>`: a client that sends stray whitespace relies on a lenient gateway.
    authExact: authHeader === `Bearer ${sim.apiKey}`,
  };
  if (parsed.parts) record.parts = parsed.parts;
  sim.requests.push(record);
  // When the answer was handed over: lets a test prove calls overlapped without a timing budget.
  res.on('finish', () => (record.answeredAt = Date.now()));
  // When the connection ended, answered or not: a client that left a slow download shows it by order.
  res.on('close', () => (record.closedAt = Date.now()));
  ctx.record = record;

  if (applyGates(ctx)) return;
  const fault = takeFault(sim.faults, origin, ctx.method, ctx.path);
  if (fault && (await applyFault(ctx, fault))) return;

  if (ctx.method === 'OPTIONS') {
    res.writeHead(204, { ...CORS, 'Access-Control-Max-Age': '600' });
    return res.end();
  }
  const { route, params, pathMatched } = lacks(sim, origin, ctx.path) ? {} : matchRoute(routes, ctx.method, ctx.path);
  if (!route) {
    const status = pathMatched ? 405 : 404;
    const message = `Invalid URL (${ctx.method} ${ctx.path}) (request id: ${ctx.reqId})`;
    return sendJson(ctx, status, { error: { message, type: 'invalid_request_error', param: '', code: '' } });
  }
  ctx.params = params;
  const style = route.auth === 'balance' ? 'balance' : route.style || 'openai';
  try {
    if (route.auth !== false && !authValid) throw authError(route);
    if (route.auth !== false && keyRefused(ctx)) throw keyStateError(ctx);
    if (retiredAnswer(ctx)) return;
    if (size > MAX_BODY) throw new HttpError(413, `Request body is too large (limit ${MAX_BODY} bytes)`, { code: 'body_too_large' });
    await route.handler(ctx);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    sendError(ctx, err, style);
  }
}

function createOriginServer(sim, origin, routes, tls) {
  const serve = tls ? (handler) => https.createServer(tls, handler) : (handler) => http.createServer(handler);
  return serve((req, res) => {
    handle(sim, origin, routes, req, res).catch((err) => {
      if (err && err.clientAborted) return res.destroy();
      sim.log(`[${origin}] internal error: ${err && err.stack}`);
      if (!res.headersSent) sendJson({ res, method: req.method }, 500, { error: { message: 'simulator internal error', type: 'simulator_error', param: '', code: 'internal_error' } });
      else res.destroy();
    });
  });
}

module.exports = { createOriginServer, maskAuthorization };
