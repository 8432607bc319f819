'use strict';
// Alt-host image service (docs/gateway-contract.md §4.7): task-only, its own /v1/tasks/{id}.
const { sendJson } = require('../respond');
const { badRequest, noChannel, taskNotExist } = require('../errors');
const { jsonBody, requireString, optionalString, optionalEnum, urlArray, present } = require('../validate');
const catalog = require('../catalog');
const { createTask, readTaskState } = require('../tasks');
const { altView } = require('../views');

const ASPECT = ['auto', '1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'];
const IMAGE_SIZE = ['1K', '2K', '4K'];

function validate(body) {
  const model = requireString(body, 'model');
  if (!catalog.isAlt(model)) throw noChannel(model);
  requireString(body, 'prompt');
  optionalEnum(body, 'aspect_ratio', ASPECT);
  const imageSize = body.image_size;
  if (present(imageSize) && !IMAGE_SIZE.includes(imageSize)) {
    throw badRequest(`invalid image_size ${JSON.stringify(imageSize)}: allowed values are 1K, 2K, 4K (capital K required)`, 'image_size');
  }
  const size = optionalString(body, 'size');
  if (present(size) && !/^\d{2,5}x\d{2,5}$/.test(size)) throw badRequest(`invalid size ${JSON.stringify(size)}: use WIDTHxHEIGHT such as 1024x1024`, 'size');
  return model;
}

function submit(mode) {
  return (ctx) => {
    const body = jsonBody(ctx, mode === 'edit' ? ' Alt-host edits take image_urls (public http(s) URLs) in a JSON body.' : '');
    const model = validate(body);
    if (mode === 'edit') urlArray(body, 'image_urls', { min: 1, max: 10 });
    const task = createTask(ctx.sim, {
      model, family: 'alt', route: `alt.${mode === 'edit' ? 'edits' : 'generations'}`, origin: 'alt', mode,
      params: { prompt: body.prompt, aspect_ratio: body.aspect_ratio, image_size: body.image_size, size: body.size },
    });
    sendJson(ctx, 200, { code: 200, msg: 'success', data: { task_id: task.id } });
  };
}

function query(ctx) {
  const task = ctx.sim.tasks.get(decodeURIComponent(ctx.params.id));
  if (!task || task.origin !== 'alt') throw taskNotExist();
  sendJson(ctx, 200, altView(task, readTaskState(task)));
}

module.exports = [
  { method: 'POST', path: '/v1/images/generations', handler: submit('generate') },
  { method: 'POST', path: '/v1/images/edits', handler: submit('edit') },
  { method: 'GET', path: /^\/v1\/tasks\/(?<id>[^/]+)$/, style: 'task', handler: query },
];
