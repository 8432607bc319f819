'use strict';
// Every response shape a task can be read in. `st` comes from tasks.taskState().
const { unixSeconds } = require('./ids');
const { failMessage } = require('./tasks');

const pct = (p) => `${p}%`;
const EXPIRES_S = 72 * 3600;

function errorOf(task, st, language) {
  if (st.moderated) return { message: 'The video was blocked by content moderation', code: 'moderation_blocked' };
  if (st.status === 'failed') return { message: failMessage(task, language), code: 'generation_failed' };
  if (st.status === 'cancelled') return { message: 'Task was cancelled', code: 'task_cancelled' };
  return undefined;
}

function withError(obj, task, st, language) {
  const error = errorOf(task, st, language);
  if (error) {
    obj.error = error;
    obj.fail_reason = error.message;
  }
  return obj;
}

// The item status of docs/gateway-contract.md §4.5: `success` when done, else the task's own word.
const itemStatus = (st) => (st.status === 'completed' ? 'success' : st.status);

// GET /v1/images/generations/{id} for async GPT tasks, in the variant the task was given.
function gptImageView(task, st) {
  const variant = task.scenario.imageShape || task.variants.image;
  if (variant === 'items') {
    // docs/gateway-contract.md §4.5 literally: poll until items[0].status is success, read items[0].data[0].url.
    const item = { id: `${task.id}_0`, status: itemStatus(st), data: st.urls.map((url) => ({ url })) };
    const error = errorOf(task, st);
    if (error) item.fail_reason = error.message;
    return { id: task.id, progress: pct(st.progress), items: [item] };
  }
  if (variant === 'upload') {
    // The upload workflow example reads top-level status, url and fail_reason.
    const error = errorOf(task, st);
    return { id: task.id, status: st.status, url: st.urls[0] || '', fail_reason: error ? error.message : '' };
  }
  const out = {
    id: task.id,
    object: 'image.task',
    model: task.model,
    mode: task.mode,
    status: st.status,
    progress: pct(st.progress),
    created_at: new Date(task.createdAt).toISOString(),
  };
  if (st.status === 'completed') {
    const data = st.urls.map((url) => ({ url }));
    out.data = data;
    if (st.urls[0]) out.url = st.urls[0];
    out.items = [{ id: `${task.id}_0`, status: 'success', data }];
  }
  return withError(out, task, st);
}

const NANO_STATE = { queued: 'pending', in_progress: 'running', completed: 'succeeded', failed: 'failed', cancelled: 'cancelled' };

function nanoView(task, st) {
  const data = { task_id: task.id, state: NANO_STATE[st.status], progress: st.progress };
  if (st.status === 'completed') data.data = { images: st.urls.map((url) => ({ url })) };
  return { code: 200, msg: 'success', data: withError(data, task, st) };
}

// Generic query, shape A (flat). Video tasks carry their video in result_url.
// The upload example's variant of the generic task (docs/gateway-contract.md §2.3): id, status, url, fail_reason.
function urlView(task, st, language) {
  const error = errorOf(task, st, language);
  const out = { id: task.id, status: st.status, progress: pct(st.progress) };
  if (st.status === 'completed' && st.urls[0]) out.url = st.urls[0];
  if (error) out.fail_reason = error.message;
  return out;
}

// scenario statusCase 'upper': the status words as some gateways spell them (COMPLETED).
const caseOf = (task, word) => (task.scenario.statusCase === 'upper' ? word.toUpperCase() : word);

function shapeAView(task, st, language) {
  const out = { task_id: task.id, status: caseOf(task, st.status), progress: pct(st.progress) };
  // scenario videoResult: the video inside `result` as gateways with /v1/tasks for videos send it.
  const videoResult = task.kind === 'video' && task.scenario.videoResult;
  if (st.status === 'completed' && videoResult) {
    out.result = videoResult === 'videos' ? { videos: [{ url: st.urls }] } : { video_url: st.urls[0] };
  } else if (st.status === 'completed') {
    if (st.urls[0]) out.result_url = st.urls[0];
    if (task.kind === 'image') {
      out.result = { items: [{ id: `${task.id}_0`, status: 'success', data: st.urls.map((url) => ({ url })) }] };
    }
  }
  return withError(out, task, st, language);
}

const SHAPE_B_STATUS = { queued: 'pending', in_progress: 'processing', completed: 'completed', failed: 'failed', cancelled: 'cancelled' };

function shapeBView(task, st, language) {
  const data = {
    id: task.id,
    status: SHAPE_B_STATUS[st.status],
    progress: st.progress,
    created: unixSeconds(task.createdAt),
    estimated_time: estimatedSeconds(task),
  };
  if (st.finishedAt) {
    data.completed = unixSeconds(st.finishedAt);
    data.actual_time = Math.max(1, Math.round((st.finishedAt - task.createdAt) / 1000));
  }
  if (st.status === 'completed') {
    if (task.kind === 'video') {
      if (st.urls[0]) data.result_url = st.urls[0];
    } else {
      data.result = { images: [{ url: st.urls, expires_at: unixSeconds(st.finishedAt) + EXPIRES_S }] };
    }
  }
  const error = errorOf(task, st, language);
  if (error) data.error = error;
  return { code: 200, data };
}

// undefined (the field left out) for a task whose scenario says estimatedTime 'none'.
function estimatedSeconds(task) {
  if (task.scenario.estimatedTime === 'none') return undefined;
  if (task.scenario.estimatedTime != null) return task.scenario.estimatedTime;
  const ms = (task.scenario.durationMs ?? (task.kind === 'video' ? 3000 : 2000)) * task.timeScale;
  return Math.max(1, Math.ceil(ms / 1000));
}

function altView(task, st) {
  const out = { task_id: task.id, status: st.status, progress: pct(st.progress) };
  if (st.status === 'completed') {
    out.result = {
      images: st.urls.map((url) => ({ file_name: url.slice(url.lastIndexOf('/') + 1), url })),
    };
    if (st.urls[0]) out.result_url = st.urls[0];
  }
  return withError(out, task, st);
}

// GET /v1/videos/{id}: integer progress; URL field chosen by scenario urlField.
function videoView(task, st) {
  const out = {
    id: task.id,
    task_id: task.id,
    object: 'video',
    model: task.model,
    status: st.status,
    progress: st.progress,
    created_at: unixSeconds(task.createdAt),
    seconds: task.params.seconds,
    size: task.params.size,
  };
  if (st.finishedAt) out.completed_at = unixSeconds(st.finishedAt);
  const field = task.scenario.urlField || task.variants.videoUrl;
  if (st.status === 'completed' && st.urls[0] && field !== 'none') {
    if (field === 'metadata.url') out.metadata = { url: st.urls[0] };
    else out[field] = st.urls[0];
    out.expires_at = unixSeconds(st.finishedAt) + EXPIRES_S;
  }
  const error = errorOf(task, st);
  if (error) out.error = error;
  return out;
}

// GET /v1/video/generations/{id}: the upper-case relay shape.
function upperCaseView(task, st) {
  let status = { in_progress: 'IN_PROGRESS', completed: 'SUCCESS', failed: 'FAILURE', cancelled: 'FAILURE' }[st.status];
  if (!status) status = st.early ? 'SUBMITTED' : 'QUEUED';
  const error = errorOf(task, st);
  return {
    code: 'success',
    message: '',
    data: {
      task_id: task.id,
      action: task.mode,
      status,
      progress: pct(st.progress),
      fail_reason: error ? error.message : '',
      result_url: st.status === 'completed' ? st.urls[0] || '' : '',
      submit_time: unixSeconds(task.createdAt),
      start_time: st.startedAt ? unixSeconds(st.startedAt) : 0,
      finish_time: st.finishedAt ? unixSeconds(st.finishedAt) : 0,
    },
  };
}

module.exports = { gptImageView, nanoView, urlView, shapeAView, shapeBView, altView, videoView, upperCaseView };
