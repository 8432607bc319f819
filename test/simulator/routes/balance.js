'use strict';
const { sendJson } = require('../respond');

function balanceRecord(b) {
  // A custom message simulates the relay's failure texts, which come with HTTP 200.
  if (b.message) return { success: false, message: b.message };
  return {
    success: true,
    remain_balance: b.unlimited ? -1 : b.remain,
    used_balance: b.used,
    unlimited_quota: Boolean(b.unlimited),
  };
}

const handler = (kind) => (ctx) => sendJson(ctx, 200, balanceRecord(ctx.sim.balances[kind]));

module.exports = [
  { method: 'GET', path: '/v1/balance', auth: 'balance', handler: handler('token') },
  { method: 'GET', path: '/balance', auth: 'balance', handler: handler('token') },
  { method: 'GET', path: '/v1/user/balance', auth: 'balance', handler: handler('user') },
  { method: 'GET', path: '/user/balance', auth: 'balance', handler: handler('user') },
];
