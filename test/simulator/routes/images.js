'use strict';
// Main-host image generation and editing (docs/gateway-contract.md §4.4, §4.6).
const { sendJson } = require('../respond');
const { badRequest, noChannel } = require('../errors');
const { jsonBody, requireString, optionalString, optionalEnum, optionalInt, urlArray, isHttpUrl, present } = require('../validate');
const catalog = require('../catalog');
const { createTask, signed } = require('../tasks');
const { randomAlnum, unixSeconds } = require('../ids');
const { rememberPicture } = require('../pictures');
const { imageChargeUsd, settle, logConsume } = require('../prices');

const QUALITY = ['auto', 'low', 'medium', 'high'];
// The GPT Image 2.5 family adds xhigh and max (docs/gateway-contract.md §10.9); gpt-image-2 answers them 400.
const QUALITY_25 = [...QUALITY, 'xhigh', 'max'];
const RATIOS = ['1:1', '3:2', '2:3', '4:3', '3:4', '5:4', '4:5', '16:9', '9:16', '2:1', '1:2', '3:1', '1:3', '21:9', '9:21'];
const SIZES_25 = [
  '1024x1024', '1536x1024', '1024x1536', '1024x1365', '1365x1024', '1088x1920', '1920x1088',
  '2048x2048', '1712x2560', '2560x1712', '2048x1536', '1536x2048', '1152x2048', '2048x1152',
  '2880x2880', '2560x3840', '3840x2560', '2880x3840', '3840x2880', '2160x3840', '3840x2160',
];
const WXH = /^[1-9]\d{1,4}x[1-9]\d{1,4}$/;
const RATIO = /^[1-9]\d?:[1-9]\d?$/;

// 'sync' | 'task' (async GPT shape) | 'nano'
function styleOf(sim, model) {
  if (catalog.isNano(model)) return 'nano';
  if (catalog.IMAGE_ASYNC.includes(model)) return 'task';
  if (catalog.IMAGE_SWITCH.includes(model) && sim.scenarioFor(model).mode === 'task') return 'task';
  return 'sync';
}

function checkModel(sim, body) {
  const model = requireString(body, 'model');
  if (!catalog.isMainImage(model) || !sim.hasModel(model)) throw noChannel(model);
  return model;
}

function validateGpt(body, family) {
  optionalEnum(body, 'quality', family === '2.5' ? QUALITY_25 : QUALITY);
  optionalInt(body, 'n', 1, 4);
  optionalEnum(body, 'response_format', ['url']);
  optionalEnum(body, 'background', ['auto', 'opaque', 'transparent']);
  optionalEnum(body, 'output_format', ['png', 'jpeg', 'webp']);
  optionalInt(body, 'output_compression', 0, 100);
  if (family === '2.5') {
    optionalEnum(body, 'size', SIZES_25);
    return;
  }
  const size = optionalString(body, 'size');
  // docs/gateway-contract.md §4.4 shows ratios "such as 16:9 or 1:1": any ratio of small whole numbers is taken.
  if (present(size) && size !== 'auto' && !RATIOS.includes(size) && !RATIO.test(size) && !WXH.test(size)) {
    throw badRequest(`invalid size ${JSON.stringify(size)}: use a ratio (${RATIOS.join(', ')}) or WIDTHxHEIGHT`, 'size');
  }
  optionalEnum(body, 'resolution', ['1k', '2k', '4k']);
}

// Plain new-api's image request (its dto.ImageRequest) has no `resolution`: the relay drops it and forwards `size` as
// sent (real-newapi, gateway-notes.md: gpt-image-2's "1:1" went upstream unchanged). The OpenAI-type upstream of the
// plain profiles refuses a ratio the way OpenAI does, a 400 the relay passes through; nothing is billed.
function forwardedByRelay(sim, model, body) {
  if (sim.profile === 'commercial' || catalog.isNano(model)) return body;
  const { resolution, ...forwarded } = body;
  if (typeof forwarded.size === 'string' && RATIO.test(forwarded.size)) {
    throw badRequest(
      `Invalid value: '${forwarded.size}'. Supported values are: '1024x1024', '1024x1536', '1536x1024', ` +
        "'auto', or WIDTHxHEIGHT in pixels.",
      'size',
      'invalid_value',
    );
  }
  return forwarded;
}

function validateEditInputs(model, body) {
  if (catalog.isNano(model) || catalog.gptFamily(model) === '2.5') {
    urlArray(body, 'images', { min: 1, max: 16 });
    if (present(body.mask_url)) throw badRequest('mask_url is only supported with image_urls (gpt-image-2)', 'mask_url');
    return;
  }
  urlArray(body, 'image_urls', { min: 1, max: 16 });
  if (present(body.mask_url) && !isHttpUrl(body.mask_url)) throw badRequest('mask_url must be an http(s) URL', 'mask_url');
}

async function answer(ctx, body, model, mode) {
  const { sim } = ctx;
  const style = styleOf(sim, model);
  const params = { prompt: body.prompt, size: body.size, resolution: body.resolution, n: body.n };
  if (style === 'nano') {
    const task = createTask(sim, { model, family: 'nano', route: `images.${mode === 'edit' ? 'edits' : 'generations'}`, origin: 'main', mode, n: body.n, params });
    return sendJson(ctx, 200, { code: 200, msg: 'success', data: { task_id: task.id } });
  }
  if (style === 'task') {
    const task = createTask(sim, { model, family: 'gpt', route: `images.${mode === 'edit' ? 'edits' : 'generations'}`, origin: 'main', mode, n: body.n, params });
    return sendJson(ctx, 200, { id: task.id, status: 'queued', mode, model, created_at: new Date(task.createdAt).toISOString() });
  }
  const delay = sim.scenarioFor(model).syncDelayMs;
  if (delay) await sim.sleep(delay * sim.timeScale);
  const stem = `img-${randomAlnum(12)}`;
  rememberPicture(sim, stem, { model, ...params });
  const given = sim.scenarioFor(model).resultUrl;
  const data = Array.from({ length: body.n || 1 }, (_, i) => ({
    url: given !== undefined
      ? (typeof given === 'function' ? given({ id: stem, model }, i) : given)
      : signed(`${sim.urls.files}/files/${stem}-${i + 1}.png`, sim.scenarioFor(model).signedUrls),
    revised_prompt: body.prompt,
  }));
  // What a synchronous answer billed, as sent (a test compares the receipts a client kept with it).
  sim.syncResults.push(...data.map((d) => d.url));
  // The relay settles a synchronous call from the key's quota as it answers (its usage log has the row).
  if (sim.profile !== 'commercial') {
    const usd = imageChargeUsd(sim, model, body.n);
    settle(sim, usd);
    logConsume(sim, { model, usd, requestId: ctx.reqId });
  }
  sendJson(ctx, 200, { created: unixSeconds(), data });
}

async function generations(ctx) {
  const body = jsonBody(ctx);
  const model = checkModel(ctx.sim, body);
  requireString(body, 'prompt');
  if (!catalog.isNano(model)) validateGpt(body, catalog.gptFamily(model));
  else optionalString(body, 'size');
  return answer(ctx, forwardedByRelay(ctx.sim, model, body), model, 'generate');
}

async function edits(ctx) {
  const body = jsonBody(ctx, ' /v1/images/edits takes JSON with reference image URLs; upload files with /v1/uploads/images first.');
  const model = checkModel(ctx.sim, body);
  requireString(body, 'prompt');
  validateEditInputs(model, body);
  if (!catalog.isNano(model)) validateGpt(body, catalog.gptFamily(model));
  return answer(ctx, forwardedByRelay(ctx.sim, model, body), model, 'edit');
}

module.exports = [
  { method: 'POST', path: '/v1/images/generations', handler: generations },
  { method: 'POST', path: '/v1/images/edits', handler: edits },
];
module.exports.SIZES_25 = SIZES_25;
module.exports.RATIOS = RATIOS;
