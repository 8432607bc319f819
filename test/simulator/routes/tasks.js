'use strict';
// Task queries on the main host: image-specific (spec 4.5) and generic (2.3, 4.10).
const { sendJson } = require('../respond');
const { taskNotExist } = require('../errors');
const { taskState } = require('../tasks');
const views = require('../views');

function lookup(ctx, accept) {
  const task = ctx.sim.tasks.get(decodeURIComponent(ctx.params.id));
  if (!task || task.origin !== ctx.origin || !accept(task)) throw taskNotExist();
  return task;
}

function imageTask(ctx) {
  const task = lookup(ctx, (t) => t.family === 'gpt' || t.family === 'nano');
  const st = taskState(task);
  sendJson(ctx, 200, task.family === 'nano' ? views.nanoView(task, st) : views.gptImageView(task, st));
}

// Images default to shape B, videos to shape A; scenario `shape` overrides.
function genericTask(ctx) {
  const task = lookup(ctx, () => true);
  const st = taskState(task);
  const shape = task.scenario.shape || (task.kind === 'video' ? 'A' : 'B');
  const language = ctx.query.language;
  sendJson(ctx, 200, shape === 'A' ? views.shapeAView(task, st, language) : views.shapeBView(task, st, language));
}

module.exports = [
  { method: 'GET', path: /^\/v1\/images\/generations\/(?<id>[^/]+)$/, style: 'task', handler: imageTask },
  { method: 'GET', path: /^\/v1\/tasks\/(?<id>[^/]+)$/, style: 'task', handler: genericTask },
];
