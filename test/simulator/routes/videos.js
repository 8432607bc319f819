'use strict';
// Video routes: unified (4.8), compatibility JSON and grok multipart (4.9), queries, content.
const { sendJson, sendStream } = require('../respond');
const { HttpError, badRequest, noChannel, taskNotExist } = require('../errors');
const { jsonBody, requireString, optionalString, optionalEnum, optionalInt, present } = require('../validate');
const catalog = require('../catalog');
const { createTask, recordState, readTaskState } = require('../tasks');
const { videoView, upperCaseView } = require('../views');
const { unixSeconds } = require('../ids');
const { detectImageType } = require('../image-type');
const { multipartParts, tooLarge, MAX_UPLOAD } = require('./uploads');
const { videoSource } = require('./files');
const { taskChargeUsd, settle } = require('../prices');

const SIZES = ['1280x720', '720x1280'];
const GROK_SECONDS = ['6', '10', '12', '16', '20'];
const REJECTED_REFERENCE_NAMES = ['input_reference[]', 'image', 'images'];

function defaultSeconds(model) {
  const id = catalog.canonicalVideo(model);
  if (id === catalog.GROK) return '6';
  // Its duration defaults to -1: the model picks, and picked 10 s (docs/gateway-contract.md §10.9).
  if (id === catalog.SEEDANCE_25) return '10';
  if (id.startsWith('seedance')) return '5';
  return '8';
}

function checkModel(sim, model) {
  if (!catalog.isVideo(model) || !sim.hasModel(model)) throw noChannel(model);
}

function validateJson(sim, body) {
  const model = requireString(body, 'model');
  checkModel(sim, model);
  requireString(body, 'prompt');
  const { seconds } = body;
  if (present(seconds) && (typeof seconds !== 'string' || !/^\d+$/.test(seconds))) {
    throw badRequest('seconds must be a string of whole seconds, for example "8"', 'seconds');
  }
  // -1 asks Seedance 2.5 to pick the length itself (docs/gateway-contract.md §10.9).
  optionalInt(body, 'duration', catalog.canonicalVideo(model) === catalog.SEEDANCE_25 ? -1 : 1, 120);
  const size = optionalString(body, 'size');
  if (present(size) && !/^\d{2,5}x\d{2,5}$/.test(size)) throw badRequest(`invalid size ${JSON.stringify(size)}: use WIDTHxHEIGHT`, 'size');
  optionalString(body, 'aspect_ratio');
  optionalString(body, 'resolution');
  optionalString(body, 'image');
  if (present(body.images) && (!Array.isArray(body.images) || body.images.some((u) => typeof u !== 'string'))) {
    throw badRequest('images must be an array of strings', 'images');
  }
  if (present(body.metadata) && (typeof body.metadata !== 'object' || Array.isArray(body.metadata))) {
    throw badRequest('metadata must be an object', 'metadata');
  }
  if (catalog.canonicalVideo(model) === 'sora-2') {
    optionalEnum(body, 'seconds', ['8', '12']);
    optionalEnum(body, 'size', SIZES);
    optionalEnum(body, 'resolution', ['720p']);
  }
  return model;
}

function paramsOf(model, body) {
  const asked = body.duration != null && Number(body.duration) > 0 ? String(body.duration) : undefined;
  const seconds = body.seconds ?? asked ?? defaultSeconds(model);
  return { prompt: body.prompt, seconds, size: body.size || '1280x720', aspect_ratio: body.aspect_ratio ?? body.metadata?.aspectRatio, resolution: body.resolution ?? body.metadata?.resolution };
}

function createShape(task) {
  return {
    id: task.id, task_id: task.id, request_id: task.id, object: 'video', model: task.model,
    status: 'queued', progress: 0, created_at: unixSeconds(task.createdAt),
    seconds: task.params.seconds, size: task.params.size,
  };
}

function unified(ctx) {
  const body = jsonBody(ctx);
  const model = validateJson(ctx.sim, body);
  const task = createTask(ctx.sim, { model, family: 'video', route: 'video.generations', origin: 'main', params: paramsOf(model, body) });
  // A plain new-api pre-charges the task from the key's quota at submit (refunded if it fails).
  if (ctx.sim.profile === 'plainNewApi') settle(ctx.sim, taskChargeUsd(ctx.sim, task));
  // scenario videoSubmit 'openai', and every plain new-api: the upstream relay answers this route with the OpenAI video object.
  if (task.scenario.videoSubmit === 'openai' || ctx.sim.profile === 'plainNewApi') return sendJson(ctx, 200, createShape(task));
  sendJson(ctx, 200, { status: 'queued', task_id: task.id, progress: '0%', code: 'success' });
}

function grokMultipart(ctx) {
  const parts = multipartParts(ctx, 'POST /v1/videos');
  const bad = parts.find((p) => REJECTED_REFERENCE_NAMES.includes(p.name));
  if (bad) throw badRequest(`field "${bad.name}" is not accepted; repeat the field "input_reference" once per image`, bad.name);
  const fields = {};
  for (const p of parts) if (p.filename === undefined && !(p.name in fields)) fields[p.name] = p.value;
  const model = requireString(fields, 'model');
  if (catalog.canonicalVideo(model) !== catalog.GROK) {
    if (catalog.isVideo(model)) throw badRequest(`multipart/form-data is only accepted for ${catalog.GROK}; send JSON for ${model}`, 'model');
    throw noChannel(model);
  }
  checkModel(ctx.sim, model);
  requireString(fields, 'prompt');
  for (const [field, allowed] of [['seconds', GROK_SECONDS], ['size', SIZES], ['quality', ['high']]]) {
    requireString(fields, field);
    optionalEnum(fields, field, allowed);
  }
  const refs = [];
  for (const p of parts) {
    if (p.name === 'input_reference') {
      if (p.filename === undefined) throw badRequest('input_reference must be an image file part', 'input_reference');
      if (p.data.length > MAX_UPLOAD) throw tooLarge('input_reference');
      const type = detectImageType(p.data);
      if (!type || type === 'image/gif') {
        throw new HttpError(400, `Uploaded file must be an image: input_reference #${refs.length} is not JPEG, PNG or WebP`, { code: `decode_input_reference_failed_at_index_${refs.length}` });
      }
      refs.push({ filename: p.filename, contentType: type, bytes: p.data.length });
    } else if (p.filename !== undefined) {
      throw badRequest(`unexpected file field "${p.name}": only input_reference image files are accepted (no reference video or audio)`, p.name);
    }
  }
  const params = { prompt: fields.prompt, seconds: fields.seconds, size: fields.size, quality: fields.quality, references: refs };
  const task = createTask(ctx.sim, { model, family: 'video', route: 'videos.grok', origin: 'main', params });
  sendJson(ctx, 200, createShape(task));
}

function compat(ctx) {
  if (ctx.bodyKind === 'multipart') return grokMultipart(ctx);
  const body = jsonBody(ctx);
  const model = validateJson(ctx.sim, body);
  const task = createTask(ctx.sim, { model, family: 'video', route: 'videos.json', origin: 'main', params: paramsOf(model, body) });
  sendJson(ctx, 200, createShape(task));
}

function videoTask(ctx) {
  const task = ctx.sim.tasks.get(decodeURIComponent(ctx.params.id));
  if (!task || task.origin !== 'main' || task.kind !== 'video') throw taskNotExist();
  return task;
}

function content(ctx) {
  const task = videoTask(ctx);
  // The relay serves the file once its record says the task succeeded (not counted as a read).
  const st = recordState(task);
  if (st.status === 'failed' || st.status === 'cancelled') {
    throw new HttpError(400, `task ${st.status}; no video content`, { code: 'task_failed' });
  }
  if (st.status !== 'completed') throw new HttpError(400, 'task_not_finished', { code: 'task_not_finished' });
  // scenario serverAddress: the task's URL names this route; the file behind it is the planned one.
  const url = (task.fileUrls || st.urls)[0];
  if (!url) throw new HttpError(404, 'video content is not available for this task', { code: 'video_not_found' });
  const path = url.split('?')[0];
  const src = videoSource(path.slice(path.lastIndexOf('/') + 1), ctx.sim);
  sendStream(ctx, 200, src.open(), src.length, {
    'Content-Type': 'video/mp4',
    'Content-Disposition': `attachment; filename="${task.id}.mp4"`,
  });
}

module.exports = [
  { method: 'POST', path: '/v1/video/generations', style: 'task', handler: unified },
  { method: 'POST', path: '/v1/videos', style: 'task', handler: compat },
  { method: 'GET', path: /^\/v1\/videos\/(?<id>[^/]+)$/, style: 'task', handler: (ctx) => {
    const task = videoTask(ctx);
    sendJson(ctx, 200, videoView(task, readTaskState(task)));
  } },
  { method: 'GET', path: /^\/v1\/videos\/(?<id>[^/]+)\/content$/, style: 'task', handler: content },
  { method: 'GET', path: /^\/v1\/video\/generations\/(?<id>[^/]+)$/, style: 'task', handler: (ctx) => {
    const task = videoTask(ctx);
    const view = upperCaseView(task, readTaskState(task));
    // A plain new-api's task record carries the task's charge in raw quota: the pre-charge while it
    // runs, settled once finished, 0 after the refund of a failed one.
    if (ctx.sim.profile === 'plainNewApi') {
      const refunded = ['FAILURE'].includes(view.data.status);
      if (refunded && !task.refunded) {
        task.refunded = true;
        settle(ctx.sim, -taskChargeUsd(ctx.sim, task));
      }
      view.data.quota = refunded ? 0 : Math.round(taskChargeUsd(ctx.sim, task) * ctx.sim.site.quota_per_unit);
    }
    sendJson(ctx, 200, view);
  } },
];
