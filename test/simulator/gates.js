'use strict';
// Gates run before faults and routes: redirects (sim.redirect) and per-route rate limits
// (sim.rateLimit). Kept apart from faults.js: a gate is a standing rule, not a one-off fault.
const { CORS } = require('./respond');

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

/** Resolves true when a gate answered the request. */
function applyGates(ctx) {
  const { sim, origin, method, path, res } = ctx;
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

module.exports = { applyGates, normalizeRedirect, normalizeRateLimit };
