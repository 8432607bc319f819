'use strict';
// Task queries on the main host: image-specific (docs/gateway-contract.md §4.5) and generic (§2.3, §4.10).
const { sendJson } = require('../respond');
const { taskNotExist } = require('../errors');
const { readTaskState } = require('../tasks');
const views = require('../views');
const files = require('./files');

// Result files on the gateway's own host (scenario resultHost 'main'): same files, key required.
const resultFiles = files
  .filter((r) => r.method === 'GET' && !String(r.path).includes('uploads'))
  .map((r) => ({ ...r, auth: undefined, path: new RegExp(String(r.path.source).replace('^\\/files', '^\\/v1\\/results')) }));

function lookup(ctx, accept) {
  const task = ctx.sim.tasks.get(decodeURIComponent(ctx.params.id));
  if (!task || task.origin !== ctx.origin || !accept(task)) throw taskNotExist();
  return task;
}

function imageTask(ctx) {
  const task = lookup(ctx, (t) => t.family === 'gpt' || t.family === 'nano');
  // scenario editQuery 'edits': a fork that keeps a GPT edit task only at /v1/images/edits/{id}
  // (docs/gateway-contract.md §10.9) does not know it here.
  if (task.mode === 'edit' && task.scenario.editQuery === 'edits') {
    return sendJson(ctx, 404, { error: { message: `task ${task.id} not found`, type: 'invalid_request_error', param: '', code: 'task_not_exist' } });
  }
  const st = readTaskState(task);
  sendJson(ctx, 200, task.family === 'nano' ? views.nanoView(task, st) : views.gptImageView(task, st));
}

const GENERIC_VIEWS = { A: views.shapeAView, B: views.shapeBView, url: views.urlView };

// docs/gateway-contract.md §2.3 shows shape A, shape B and a top-level `url` variant: each task gets one in turn
// (tasks.js VARIANTS); scenario `shape` pins one.
function genericTask(ctx) {
  const known = ctx.sim.tasks.get(decodeURIComponent(ctx.params.id));
  // scenario tasksRoute 'none': a build of the upstream relay without the /v1/tasks extension
  // answers this route as it answers every path it does not have.
  if (known && known.scenario.tasksRoute === 'none') {
    const message = `Invalid URL (${ctx.method} ${ctx.path}) (request id: ${ctx.reqId})`;
    return sendJson(ctx, 404, { error: { message, type: 'invalid_request_error', param: '', code: '' } });
  }
  const task = lookup(ctx, () => true);
  const st = readTaskState(task);
  const shape = task.scenario.shape || task.variants.generic;
  sendJson(ctx, 200, GENERIC_VIEWS[shape](task, st, ctx.query.language));
}

module.exports = [
  ...resultFiles,
  { method: 'GET', path: /^\/v1\/images\/generations\/(?<id>[^/]+)$/, style: 'task', handler: imageTask },
  // An async GPT edit task read on its own route (docs/gateway-contract.md §10.9).
  { method: 'GET', path: /^\/v1\/images\/edits\/(?<id>[^/]+)$/, style: 'task', handler: (ctx) => {
    const task = lookup(ctx, (t) => t.family === 'gpt' && t.mode === 'edit');
    sendJson(ctx, 200, views.gptImageView(task, readTaskState(task)));
  } },
  { method: 'GET', path: /^\/v1\/tasks\/(?<id>[^/]+)$/, style: 'task', handler: genericTask },
];
