'use strict';
const { sendJson } = require('../respond');
const { altModels } = require('../catalog');

module.exports = {
  main: [{ method: 'GET', path: '/v1/models', handler: (ctx) => sendJson(ctx, 200, { object: 'list', data: ctx.sim.models }) }],
  alt: [{ method: 'GET', path: '/v1/models', handler: (ctx) => sendJson(ctx, 200, { object: 'list', data: altModels() }) }],
};
