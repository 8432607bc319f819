'use strict';
// new-api's Suno routes as recorded in ../../../shared/spec/real-newapi/suno.json (a SunoAPI channel,
// type 36): POST /suno/submit/music and /suno/submit/lyrics answer {code: "success", data: "task_…"}
// (the relay's own id), GET /suno/fetch/{id} the relay's TaskDto in {code, message, data}, POST
// /suno/fetch {ids} a list of them (only the ids it knows). States NOT_START → IN_PROGRESS →
// SUCCESS (or FAILURE with the reason in fail_reason and result_url); progress "NN%"; a music task
// makes two songs in data.data[]; the task's `quota` is its charge, 0 after a failure's refund.
// Unknown ids and actions answer as recorded: 400 task_not_exist, 503 model_not_found.
const { sendJson } = require('../respond');
const { HttpError } = require('../errors');
const { jsonBody } = require('../validate');
const { createTask, readTaskState } = require('../tasks');
const { unixSeconds } = require('../ids');
const { taskChargeUsd, settle } = require('../prices');

const MODEL = { music: 'suno_music', lyrics: 'suno_lyrics' };
const STATUS = { queued: 'NOT_START', in_progress: 'IN_PROGRESS', completed: 'SUCCESS', failed: 'FAILURE', cancelled: 'FAILURE' };

const invalid = (message) => new HttpError(400, message, { code: 'invalid_request' });
const taskNotExist = () => new HttpError(400, 'task_not_exist', { code: 'task_not_exist' });

function textOf(body, key) {
  const value = body[key];
  if (value !== undefined && value !== null && typeof value !== 'string') throw invalid(`${key} must be a string`);
  return value || '';
}

function submit(ctx, action) {
  const body = jsonBody(ctx);
  if (!MODEL[action]) {
    throw new HttpError(503, `No available channel for model suno_${action} under group default (distributor)`, { code: 'model_not_found', type: 'new_api_error', style: 'openai' });
  }
  const params = { action };
  if (action === 'lyrics') {
    params.prompt = textOf(body, 'prompt');
    if (!params.prompt) throw invalid('prompt_empty');
  } else {
    for (const key of ['prompt', 'gpt_description_prompt', 'title', 'tags', 'continue_clip_id', 'task_id']) params[key] = textOf(body, key);
    // new-api's actionValidate asks nothing of a music submit but a clip's task (relay/channel/task/suno/adaptor.go).
    if (params.continue_clip_id && !params.task_id) throw invalid('task id is empty');
    if (body.make_instrumental !== undefined && typeof body.make_instrumental !== 'boolean') throw invalid('make_instrumental must be a boolean');
    if (body.continue_at !== undefined && typeof body.continue_at !== 'number') throw invalid('continue_at must be a number');
    // new-api fills the version when none is given (recorded).
    params.mv = textOf(body, 'mv') || 'chirp-v3-0';
    params.make_instrumental = Boolean(body.make_instrumental);
    params.continue_at = body.continue_at;
  }
  const task = createTask(ctx.sim, { model: MODEL[action], family: 'suno', route: `suno.${action}`, origin: 'main', mode: action, params });
  // The relay charges the submit at once (its usage log's consume row), refunded if the task fails.
  settle(ctx.sim, taskChargeUsd(ctx.sim, task));
  sendJson(ctx, 200, { code: 'success', message: '', data: task.id });
}

function sunoTask(sim, id) {
  const task = sim.tasks.get(id);
  return task && task.origin === 'main' && task.kind === 'music' ? task : undefined;
}

/** The songs of a task as the relay shows them: streaming while it runs, complete once done. */
function songs(sim, task, st) {
  const p = task.params;
  if (st.status === 'queued' || st.status === 'failed' || st.status === 'cancelled') return null;
  if (task.mode === 'lyrics') {
    if (st.status !== 'completed') return null;
    return { id: `lyrics-${task.id.slice(5, 13)}`, status: 'complete', title: 'Chore Cat', text: `[Verse]\n${p.prompt}\n[Chorus]\nPress run, press run` };
  }
  const done = st.status === 'completed';
  const words = p.prompt || (p.make_instrumental ? '' : `[Verse]\n${p.gpt_description_prompt}`);
  return task.clips.map((clip, i) => ({
    id: clip,
    video_url: done ? `${sim.urls.files}/files/${clip}.mp4` : '',
    audio_url: done ? st.urls[i] : `https://audiopipe.suno.ai/?item_id=${clip}`,
    image_url: `${sim.urls.files}/files/image_${clip}.png`,
    image_large_url: `${sim.urls.files}/files/image_large_${clip}.png`,
    major_model_version: p.mv.replace(/^chirp-/, '').split('-')[0],
    model_name: p.mv,
    status: done ? 'complete' : 'streaming',
    title: p.title || (p.gpt_description_prompt || 'Untitled').split(/\s+/).slice(0, 4).join(' '),
    text: words,
    metadata: {
      tags: p.tags || 'pop, upbeat',
      prompt: words,
      gpt_description_prompt: p.gpt_description_prompt || null,
      audio_prompt_id: null,
      duration: done ? 123.4 + i * 7.1 : null,
      error_type: null,
      error_message: null,
    },
  }));
}

/** The relay's TaskDto of a task, read as a client read counts (readTaskState). */
function taskDto(sim, task, st) {
  const failed = st.status === 'failed' || st.status === 'cancelled';
  if (failed && !task.refunded) {
    task.refunded = true;
    settle(sim, -taskChargeUsd(sim, task));
  }
  const reason = failed ? task.scenario.failMessage || 'fake upstream: prompt rejected' : '';
  return {
    id: Number(task.id.length),
    created_at: unixSeconds(task.createdAt),
    updated_at: unixSeconds(),
    task_id: task.id,
    platform: 'suno',
    user_id: 1,
    group: 'default',
    channel_id: 2,
    quota: failed ? 0 : Math.round(taskChargeUsd(sim, task) * sim.site.quota_per_unit),
    action: task.mode.toUpperCase(),
    status: task.scenario.statusWord ?? STATUS[st.status],
    fail_reason: reason,
    ...(failed ? { result_url: reason } : {}),
    submit_time: unixSeconds(task.createdAt),
    start_time: st.startedAt ? unixSeconds(st.startedAt) : 0,
    finish_time: st.finishedAt ? unixSeconds(st.finishedAt) : 0,
    progress: `${st.status === 'completed' || failed ? 100 : st.status === 'queued' ? 0 : st.progress}%`,
    properties: { input: '', upstream_model_name: task.model, origin_model_name: task.model },
    data: songs(sim, task, st),
  };
}

function fetchOne(ctx) {
  const task = sunoTask(ctx.sim, decodeURIComponent(ctx.params.id));
  if (!task) throw taskNotExist();
  sendJson(ctx, 200, { code: 'success', message: '', data: taskDto(ctx.sim, task, readTaskState(task)) });
}

function fetchMany(ctx) {
  const body = jsonBody(ctx);
  if (!Array.isArray(body.ids) || body.ids.some((id) => typeof id !== 'string')) throw invalid('ids must be a list of task ids');
  // Each task read once per batch read, as the relay's one query; unknown ids are left out.
  const found = [...new Set(body.ids)].map((id) => sunoTask(ctx.sim, id)).filter(Boolean);
  ctx.sim.sunoBatchReads = (ctx.sim.sunoBatchReads || 0) + 1;
  sendJson(ctx, 200, { code: 'success', message: '', data: found.map((task) => taskDto(ctx.sim, task, readTaskState(task))) });
}

module.exports = [
  { method: 'POST', path: '/suno/submit/music', style: 'task', handler: (ctx) => submit(ctx, 'music') },
  { method: 'POST', path: '/suno/submit/lyrics', style: 'task', handler: (ctx) => submit(ctx, 'lyrics') },
  { method: 'POST', path: /^\/suno\/submit\/(?<action>[^/]+)$/, style: 'task', handler: (ctx) => submit(ctx, ctx.params.action) },
  { method: 'GET', path: /^\/suno\/fetch\/(?<id>[^/]+)$/, style: 'task', handler: fetchOne },
  { method: 'POST', path: '/suno/fetch', style: 'task', handler: fetchMany },
];
