'use strict';
const { taskId, randomAlnum } = require('./ids');

/** A Suno clip id (a UUID in Suno's answers), from the seed. */
const clipId = () => {
  const hex = () => randomAlnum(4).split('').map((c) => (c.charCodeAt(0) % 16).toString(16)).join('');
  return `${hex()}${hex()}-${hex()}-4${hex().slice(1)}-8${hex().slice(1)}-${hex()}${hex()}${hex()}`;
};

const DEFAULT_DURATION = { image: 2000, video: 3000, music: 3000 };

/*
 * Where the spec shows several answers for one query, each task gets one of them in turn (a
 * rotation per list, kept across reset() so a file's later tests see the later variants), so
 * every suite meets every shape. A scenario option (shape, imageShape, urlField) pins one.
 *   generic: docs/gateway-contract.md §2.3 shape A, shape B, and the top-level `url` variant of the upload example;
 *   image:   §4.5 top-level items[] without a status, the upload example's status/url/
 *            fail_reason, and both together;
 *   videoUrl: §2.7 result_url, video_url, url ("present on completion, possibly absent"),
 *            §10.2 metadata.url.
 */
const VARIANTS = {
  generic: ['A', 'B', 'url'],
  image: ['items', 'upload', 'full'],
  videoUrl: ['result_url', 'video_url', 'url', 'none', 'metadata.url'],
};

function pickVariants(sim) {
  sim.variantTurns = sim.variantTurns || {};
  const picked = {};
  for (const [name, list] of Object.entries(VARIANTS)) {
    const turn = sim.variantTurns[name] || 0;
    sim.variantTurns[name] = turn + 1;
    picked[name] = list[turn % list.length];
  }
  return picked;
}
// moderated: a Grok video blocked by moderation reports completed with error.code moderation_blocked
// and no file, and is billed (docs/gateway-contract.md §10.9).
const OUTCOMES = ['success', 'fail', 'cancel', 'stuck100', 'noUrl', 'never', 'moderated'];

/**
 * Creates and stores a task. `family` says which query shapes apply:
 * 'gpt' (async GPT image), 'nano', 'alt', 'video'.
 */
function createTask(sim, { model, family, route, origin, mode = 'generate', n, params = {} }) {
  const kind = family === 'video' ? 'video' : family === 'suno' ? 'music' : 'image';
  const number = sim.nextTaskNumber(model);
  const scenario = perTask(sim.scenarioFor(model), number);
  const task = {
    id: taskId(),
    model,
    family,
    kind,
    route,
    origin,
    mode,
    createdAt: Date.now(),
    timeScale: sim.timeScale,
    scenario,
    params,
    variants: pickVariants(sim),
    images: kind === 'image' ? scenario.images || n || 1 : 0,
    // What each read of the task answered, in order (readTaskState): { status, progress }.
    answers: [],
  };
  // A Suno music task makes two songs (routes/suno.js), each its clip id from the seed.
  if (kind === 'music') task.clips = mode === 'lyrics' ? [] : [clipId(), clipId()];
  task.urls = resultUrls(sim, task);
  sim.tasks.set(task.id, task);
  // refresh 'relay' (relay.js): the relay keeps the task and refreshes its record in its rounds.
  if (sim.relay) {
    sim.relay.admit(task, number);
    if (sim.relay.paced(task)) pollers.set(task, sim.relay);
  }
  return task;
}

/** The relay poller that refreshes a task's record (refresh 'relay'), kept beside the task, not on it. */
const pollers = new WeakMap();

/*
 * The per-task options, resolved for the task-th task (0-based) of its model, so a batch meets
 * varied tasks the same way on every run: durationMs [min, max] spreads the durations over the
 * range (golden-ratio steps: any run of tasks covers it evenly), estimatedTime 'alternate' leaves
 * every other task without an estimate, failEvery n fails every n-th task.
 */
const GOLDEN = (Math.sqrt(5) - 1) / 2;
function perTask(scenario, task) {
  const sc = { ...scenario };
  if (Array.isArray(sc.durationMs)) {
    const [min, max] = sc.durationMs;
    sc.durationMs = Math.round(min + (max - min) * ((task * GOLDEN) % 1));
  }
  if (sc.estimatedTime === 'alternate') sc.estimatedTime = task % 2 === 0 ? undefined : 'none';
  if (sc.failEvery && (task + 1) % sc.failEvery === 0) sc.outcome = 'fail';
  delete sc.failEvery;
  return sc;
}

// scenario signedUrls: result URLs carry a storage signature in their query, as signed object-store
// links do: the file is served only with it, so a URL cut at '?' can never fetch it again.
function signed(url, on) {
  if (!on) return url;
  const expires = Math.floor(Date.now() / 1000) + 3600;
  return `${url}?X-Expires=${expires}&X-Signature=${require('node:crypto').createHash('sha256').update(url).digest('hex').slice(0, 32)}`;
}

function resultUrls(sim, task) {
  if (task.scenario.outcome === 'noUrl' || task.scenario.outcome === 'moderated') return [];
  // scenario resultUrl: where a hostile or misconfigured gateway says the result is (an address on
  // the n8n host, a metadata service): a URL, or (task, index) => URL, in every shape of answer.
  const given = task.scenario.resultUrl;
  if (given !== undefined) {
    const count = task.kind === 'video' ? 1 : task.kind === 'music' ? task.clips.length : task.images;
    return Array.from({ length: count }, (_, i) => (typeof given === 'function' ? given(task, i) : given));
  }
  const urls = plainResultUrls(sim, task).map((url) => signed(url, task.scenario.signedUrls));
  // scenario serverAddress: the relay names a video by its content route under its own configured
  // server address (new-api's ServerAddress), which need not be the address clients use
  // (docs/gateway-contract.md §10.2); the file itself is still the one the content route serves.
  if (task.kind === 'video' && task.scenario.serverAddress) {
    task.fileUrls = urls;
    return [`${task.scenario.serverAddress.replace(/\/+$/, '')}/v1/videos/${task.id}/content`];
  }
  return urls;
}

function plainResultUrls(sim, task) {
  // resultHost 'main': the gateway serves results on its own host, behind the key (docs/gateway-contract.md §5 rule 5).
  const base = task.scenario.resultHost === 'main' ? `${sim.urls.main}/v1/results` : `${sim.urls.files}/files`;
  if (task.kind === 'music') return task.clips.map((clip) => `${base}/${clip}.mp3`);
  if (task.kind === 'video') {
    const bytes = task.scenario.videoBytes;
    return [bytes ? `${base}/big-${bytes}-${task.id}.mp4` : `${base}/${task.id}.mp4`];
  }
  return Array.from({ length: task.images }, (_, i) => `${base}/${task.id}-${i + 1}.png`);
}

function timings(task) {
  const sc = task.scenario;
  const scale = task.timeScale;
  const durationMs = sc.durationMs ?? DEFAULT_DURATION[task.kind];
  const duration = durationMs * scale;
  const queued = Math.min(duration, (sc.queuedMs ?? durationMs * 0.1) * scale);
  const stuck = sc.stuckMs == null ? Infinity : sc.stuckMs * scale;
  return { duration, queued, stuck };
}

// Progress while running: linear 0..99, snapped down to the scenario's steps if any.
function runningProgress(task, elapsed, { duration, queued }) {
  const span = duration - queued;
  const frac = span > 0 ? (elapsed - queued) / span : 1;
  const raw = Math.max(0, Math.min(99, Math.floor(frac * 100)));
  const steps = task.scenario.progressSteps;
  if (!Array.isArray(steps) || steps.length === 0) return raw;
  const below = steps.filter((s) => s <= raw && s < 100);
  return below.length ? Math.max(...below) : Math.min(...steps);
}

const FINAL = ['completed', 'failed', 'cancelled'];

/*
 * scenario readSteps: the lifecycle advances by reads instead of time. The n-th read of the task
 * answers the n-th step ({ status, progress }), the last step every read after; before any read the
 * task is at the first step. A test that asserts what a wait saw (the statuses and progress, how
 * many reads it took) then holds however slow the machine is.
 */
function stepState(task, now) {
  const steps = task.scenario.readSteps;
  const step = steps[Math.max(0, Math.min(task.answers.length, steps.length) - 1)];
  const startedAt = task.createdAt;
  if (!FINAL.includes(step.status)) return { status: step.status, progress: step.progress ?? 0, startedAt, urls: [], early: false };
  task.finishedAt ??= now;
  const urls = step.status === 'completed' ? task.urls : [];
  return { status: step.status, progress: step.progress ?? 100, startedAt, finishedAt: task.finishedAt, urls };
}

/**
 * The state a read of the task answers: counted, and kept in task.answers. Behind a relay that
 * refreshes in rounds (refresh 'relay'), the state at the record's last refresh.
 */
function readTaskState(task, now = Date.now()) {
  task.answers.push({ status: undefined, progress: undefined });
  const st = recordState(task, now);
  Object.assign(task.answers[task.answers.length - 1], { status: st.status, progress: st.progress });
  return st;
}

/**
 * State at `now`, derived from elapsed time only (polling frequency has no effect), or from the
 * reads so far with scenario readSteps.
 * status uses the unified vocabulary: queued | in_progress | completed | failed | cancelled.
 */
function taskState(task, now = Date.now()) {
  if (task.scenario.readSteps) return stepState(task, now);
  const t = timings(task);
  const elapsed = now - task.createdAt;
  const outcome = task.scenario.outcome || 'success';
  const startedAt = task.createdAt + t.queued;
  const endAt = task.createdAt + t.duration;
  // `early` lets the upper-case view tell SUBMITTED from QUEUED.
  if (elapsed < t.queued) return { status: 'queued', progress: 0, urls: [], early: elapsed < t.queued / 2 };
  if (elapsed < t.duration || outcome === 'never') {
    const at = Math.min(elapsed, Math.max(t.queued, t.duration - 1));
    return { status: 'in_progress', progress: runningProgress(task, at, t), startedAt, urls: [] };
  }
  switch (outcome) {
    case 'fail':
      return { status: 'failed', progress: 100, startedAt, finishedAt: endAt, urls: [] };
    case 'cancel':
      return { status: 'cancelled', progress: runningProgress(task, t.duration - 1, t), startedAt, finishedAt: endAt, urls: [] };
    case 'stuck100':
      if (elapsed < t.duration + t.stuck) return { status: 'in_progress', progress: 100, startedAt, urls: [] };
      return { status: 'completed', progress: 100, startedAt, finishedAt: endAt + t.stuck, urls: task.urls };
    case 'moderated':
      return { status: 'completed', progress: 100, startedAt, finishedAt: endAt, urls: [], moderated: true };
    default: // success, noUrl (its url list is empty)
      return { status: 'completed', progress: 100, startedAt, finishedAt: endAt, urls: task.urls };
  }
}

/** What the gateway's record of the task says at `now`, not counted as a read. */
function recordState(task, now = Date.now()) {
  const poller = pollers.get(task);
  return poller ? poller.record(task, now) : taskState(task, now);
}

/** The relay's view of a paced task at `now` (relay.js view), or undefined for a task read live. */
function relayView(task, now = Date.now()) {
  return pollers.get(task)?.view(task, now);
}

function failMessage(task, language) {
  if (task.scenario.failMessage) return task.scenario.failMessage;
  if (language === 'zh') return '生成失败：上游服务拒绝了该请求';
  return 'Generation failed: the upstream provider rejected the request';
}

module.exports = {
  signed, createTask, taskState, readTaskState, recordState, relayView, failMessage,
  DEFAULT_DURATION, OUTCOMES, VARIANTS,
};
