'use strict';
// Gates run before faults and routes: redirects (sim.redirect), per-route rate limits
// (sim.rateLimit) and the relay's overload guard (sim.overload). Kept apart from faults.js: a gate
// is a standing rule, not a one-off fault.
const { CORS, sendJson } = require('./respond');

const RETRY_AFTER = ['seconds', 'date', 'none', 'zero'];

function pathMatches(rule, path) {
  return typeof rule.path === 'string' ? rule.path === path : rule.path.test(path);
}

function ruleMatches(rule, origin, method, path) {
  return (!rule.origin || rule.origin === origin) && (!rule.method || rule.method === method) && pathMatches(rule, path);
}

function checkPath(name, rule) {
  if (typeof rule.path !== 'string' && !(rule.path instanceof RegExp)) throw new TypeError(`${name}: path must be a string or RegExp`);
}

/**
 * `{ path, method?, origin?, to: 'main'|'alt'|'files'|'http://…', location?: string | (path, ctx) => string,
 *    status?: 301|302|303|307|308, times? }`: answers with a redirect to `to` + location (default: same path).
 */
function normalizeRedirect(rule) {
  checkPath('redirect', rule);
  if (typeof rule.to !== 'string' || rule.to === '') throw new TypeError("redirect: 'to' must be an origin name or a URL");
  const status = rule.status ?? 302;
  if (![301, 302, 303, 307, 308].includes(status)) throw new TypeError('redirect: status must be 301, 302, 303, 307 or 308');
  return { ...rule, method: rule.method && rule.method.toUpperCase(), status, times: rule.times ?? Infinity };
}

/**
 * `{ path, method?, origin?, perSecond, burst?, retryAfter?: 'seconds'|'date'|'none'|'zero' }`: a token
 * bucket; a request finding it empty gets 429 (empty body, as real relays send) and creates nothing.
 */
function normalizeRateLimit(rule) {
  checkPath('rateLimit', rule);
  if (!(rule.perSecond > 0)) throw new TypeError('rateLimit: perSecond must be > 0');
  const retryAfter = rule.retryAfter ?? 'seconds';
  if (!RETRY_AFTER.includes(retryAfter)) throw new TypeError(`rateLimit: retryAfter must be one of ${RETRY_AFTER.join(', ')}`);
  const burst = rule.burst ?? rule.perSecond;
  return { ...rule, method: rule.method && rule.method.toUpperCase(), retryAfter, burst, tokens: burst, refilledAt: Date.now(), limited: 0, passed: 0 };
}

function takeToken(rule, now) {
  rule.tokens = Math.min(rule.burst, rule.tokens + ((now - rule.refilledAt) / 1000) * rule.perSecond);
  rule.refilledAt = now;
  if (rule.tokens >= 1) {
    rule.tokens -= 1;
    return 0;
  }
  return ((1 - rule.tokens) / rule.perSecond) * 1000;
}

function retryAfterHeader(rule, waitMs) {
  if (rule.retryAfter === 'none') return {};
  if (rule.retryAfter === 'zero') return { 'Retry-After': '0' };
  if (rule.retryAfter === 'date') return { 'Retry-After': new Date(Date.now() + Math.max(1000, waitMs)).toUTCString() };
  return { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) };
}

/*
 * new-api's performance guard (middleware/performance.go SystemPerformanceCheck): while the CPU,
 * memory or disk use is above the operator's threshold, every call on a route group it guards is
 * answered 503 before TokenAuth, Distribute or any billing run (router/relay-router.go puts it
 * ahead of TokenAuth on /v1, /v1beta, /pg, /mj and /suno; the video routes of router/video-router.go
 * have no guard). The body is its error in the route's format: OpenAI's `error` object (type
 * new_api_error, param '', code system_<kind>_overloaded), Claude's on /v1/messages (no code).
 */
const OVERLOAD_KINDS = ['cpu', 'memory', 'disk'];
const GUARDED_POSTS = new RegExp(`^/v1/(${[
  'chat/completions', 'completions', 'responses(/compact)?', 'edits', 'images/(generations|edits)', 'embeddings',
  'audio/(transcriptions|translations|speech)', 'rerank', 'moderations', 'messages', 'models/.+', 'engines/[^/]+/embeddings',
].join('|')})$`);
const GUARDED_GROUPS = /^\/(v1beta|pg|suno|mj|[^/]+\/mj)\//;

function guarded(origin, method, path) {
  if (origin !== 'main') return false;
  if (method === 'GET' && path === '/v1/realtime') return true;
  return method === 'POST' && (GUARDED_POSTS.test(path) || GUARDED_GROUPS.test(path));
}

/** `sim.overload(calls, kind)`: the next `calls` guarded calls (Infinity: until reset) are refused. */
function normalizeOverload(calls, kind) {
  if (!(calls === Infinity || (Number.isSafeInteger(calls) && calls >= 0))) {
    throw new TypeError('overload: calls must be a whole number >= 0 or Infinity');
  }
  if (!OVERLOAD_KINDS.includes(kind)) throw new TypeError(`overload: kind must be one of ${OVERLOAD_KINDS.join(', ')}`);
  return { kind, remaining: calls, refused: 0 };
}

/** The guard's answer, as gin's c.JSON writes it (the threshold is the guard's default of 90 %). */
function overloadBody(kind, path) {
  const message = `system ${kind} overloaded (current: 95.0%, threshold: 90%)`;
  if (path.startsWith('/v1/messages')) return { error: { type: 'new_api_error', message } };
  return { error: { message, type: 'new_api_error', param: '', code: `system_${kind}_overloaded` } };
}

/** Resolves true when a gate answered the request. */
function applyGates(ctx) {
  const { sim, origin, method, path, res } = ctx;
  const overload = sim.overloaded;
  if (overload && overload.remaining > 0 && guarded(origin, method, path)) {
    overload.remaining -= 1;
    overload.refused += 1;
    sendJson(ctx, 503, overloadBody(overload.kind, path));
    return true;
  }
  const limit = sim.rateLimits.find((r) => ruleMatches(r, origin, method, path));
  if (limit) {
    const waitMs = takeToken(limit, Date.now());
    if (waitMs > 0) {
      limit.limited += 1;
      res.writeHead(429, { ...CORS, 'Content-Length': 0, ...retryAfterHeader(limit, waitMs) });
      res.end();
      return true;
    }
    limit.passed += 1;
  }
  const i = sim.redirects.findIndex((r) => ruleMatches(r, origin, method, path));
  if (i < 0) return false;
  const rule = sim.redirects[i];
  rule.times -= 1;
  if (rule.times <= 0) sim.redirects.splice(i, 1);
  const base = sim.urls[rule.to] ?? rule.to;
  const location = typeof rule.location === 'function' ? rule.location(path, ctx) : (rule.location ?? path);
  res.writeHead(rule.status, { ...CORS, Location: `${base}${location}`, 'Content-Length': 0 });
  res.end();
  return true;
}

module.exports = { applyGates, normalizeRedirect, normalizeRateLimit, normalizeOverload, overloadBody, guarded };
