'use strict';
// The relay's own money routes (docs/gateway-contract.md §10.11), in new-api's or one-api's shapes
// by the profile (profiles.js): its quota unit, its price list, the key's quota and the
// OpenAI-style billing routes. Amounts come from the token balance (sim.setBalance('token'), in USD)
// and the site's unit (sim.setSiteStatus).
const { sendJson, sendBuffer } = require('../respond');
const { priceList } = require('../prices');

/** 20 requests per 20 minutes per IP (new-api's CriticalRateLimit on /api/usage/token/). */
const USAGE_LIMIT = { reads: 20, windowMs: 20 * 60_000 };
const UNLIMITED_GRANT = 1e8;

const oneApi = (ctx) => ctx.sim.profile === 'oneApi';

function status(ctx) {
  const site = ctx.sim.site;
  if (oneApi(ctx)) {
    // one-api says only whether amounts are shown in currency.
    return sendJson(ctx, 200, { success: true, message: '', data: { version: 'v0.6.10', system_name: 'One API', quota_per_unit: site.quota_per_unit, display_in_currency: site.quota_display_type !== 'TOKENS' } });
  }
  sendJson(ctx, 200, {
    success: true,
    message: '',
    data: {
      version: 'v0.9.0', system_name: 'New API', server_address: ctx.sim.urls.main,
      quota_per_unit: site.quota_per_unit, quota_display_type: site.quota_display_type,
      usd_exchange_rate: site.usd_exchange_rate, display_in_currency: site.quota_display_type !== 'TOKENS',
    },
  });
}

/** The key check of the relay's money routes: a wrong key is refused in the route's own envelope. */
function keyRefused(ctx, envelope) {
  if (ctx.record.authValid) return false;
  sendJson(ctx, 401, envelope === 'usage' ? { success: false, message: '无效的令牌' } : { error: { message: 'Invalid token', type: oneApi(ctx) ? 'one_api_error' : 'new_api_error', code: '' } });
  return true;
}

/** new-api's CriticalRateLimit: one count per IP for every route behind it (usage and log). */
function criticalLimited(ctx) {
  const sim = ctx.sim;
  const now = Date.now();
  sim.usageTokenReads = sim.usageTokenReads.filter((at) => now - at < USAGE_LIMIT.windowMs);
  if (sim.usageTokenReads.length >= USAGE_LIMIT.reads) {
    sendBuffer(ctx, 429, Buffer.alloc(0), { 'Retry-After': '1200' });
    return true;
  }
  sim.usageTokenReads.push(now);
  return false;
}

/** GET /api/log/token (controller/log.go GetLogByKey): the key's last rows, newest first. */
function logToken(ctx) {
  if (criticalLimited(ctx)) return;
  if (keyRefused(ctx, 'billing')) return;
  sendJson(ctx, 200, { success: true, message: '', data: [...ctx.sim.usageLog].reverse().slice(0, 1000) });
}

function usageToken(ctx) {
  const sim = ctx.sim;
  if (criticalLimited(ctx)) return;
  if (keyRefused(ctx, 'usage')) return;
  const b = sim.balances.token;
  if (b.message) return sendJson(ctx, 200, { success: false, message: b.message });
  // As the real relay answered (gateway-notes): a disabled key is named, a used-up one still read,
  // below zero. An expired one is assumed named as its auth names it (not seen on the real server).
  const refused = sim.refusedKeyState();
  if (refused === 'disabled') return sendJson(ctx, 200, { success: false, message: 'This token status is unavailable' });
  if (refused === 'expired') return sendJson(ctx, 200, { success: false, message: 'This token has expired' });
  const quota = (usd) => Math.round(usd * sim.site.quota_per_unit);
  const used = quota(b.used);
  const available = refused === 'exhausted' ? Math.min(quota(b.remain), -50) : quota(b.remain);
  sendJson(ctx, 200, {
    code: true,
    message: 'ok',
    data: {
      object: 'token_usage', name: 'simulator key', total_granted: available + used, total_used: used,
      total_available: available, unlimited_quota: Boolean(b.unlimited), model_limits: {}, model_limits_enabled: false, expires_at: 0,
    },
  });
}

/** A USD amount in the unit the site shows (new-api's billing routes since 2025-09; one-api: currency or raw). */
function inDisplayUnit(sim, usd) {
  const type = sim.site.quota_display_type;
  if (type === 'TOKENS') return usd * sim.site.quota_per_unit;
  if (type === 'CNY') return usd * sim.site.usd_exchange_rate;
  return usd;
}

function subscription(ctx) {
  if (keyRefused(ctx, 'billing')) return;
  const b = ctx.sim.balances.token;
  const amount = b.unlimited ? UNLIMITED_GRANT : inDisplayUnit(ctx.sim, b.remain + b.used);
  sendJson(ctx, 200, {
    object: 'billing_subscription', has_payment_method: true, soft_limit_usd: amount, hard_limit_usd: amount,
    system_hard_limit_usd: amount, access_until: 0,
  });
}

function usage(ctx) {
  if (keyRefused(ctx, 'billing')) return;
  sendJson(ctx, 200, { object: 'list', total_usage: inDisplayUnit(ctx.sim, ctx.sim.balances.token.used) * 100 });
}

const billing = (name, handler) => [
  { method: 'GET', path: `/v1/dashboard/billing/${name}`, auth: false, handler },
  { method: 'GET', path: `/dashboard/billing/${name}`, auth: false, handler },
];

module.exports = [
  { method: 'GET', path: '/api/status', auth: false, handler: status },
  // Public by default: a key sent with it is ignored (the anonymous view).
  { method: 'GET', path: '/api/pricing', auth: false, handler: (ctx) => sendJson(ctx, 200, priceList(ctx.sim)) },
  { method: 'GET', path: '/api/usage/token/', auth: false, handler: usageToken },
  // new-api only (profiles.js): the key's consume log.
  { method: 'GET', path: '/api/log/token', auth: false, handler: logToken },
  ...billing('subscription', subscription),
  ...billing('usage', usage),
];
