'use strict';
// Ids from the tests' seed (test/seed.js), not from crypto: a failure names its seed and replays.
const { seededRandom } = require('../seed');

const draws = seededRandom('simulator ids');

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function randomAlnum(length) {
  const bytes = draws.bytes(length);
  let out = '';
  for (const b of bytes) out += ALNUM[b % ALNUM.length];
  return out;
}

// Real relays put a request id in error texts; the shape (timestamp + hex) mirrors them.
function requestId() {
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 17);
  return stamp + draws.bytes(4).toString('hex');
}

function taskId() {
  return 'task_' + randomAlnum(32);
}

const unixSeconds = (ms = Date.now()) => Math.floor(ms / 1000);

module.exports = { randomAlnum, requestId, taskId, unixSeconds };
