'use strict';
const { sendJson } = require('../respond');
const { altModels } = require('../catalog');

module.exports = {
  // A retired model has no channel left, so the key's list no longer names it.
  main: [{ method: 'GET', path: '/v1/models', handler: (ctx) => sendJson(ctx, 200, { object: 'list', data: ctx.sim.models.filter((m) => !ctx.sim.retiredModels.has(m.id)) }) }],
  alt: [{ method: 'GET', path: '/v1/models', handler: (ctx) => sendJson(ctx, 200, { object: 'list', data: altModels() }) }],
};
