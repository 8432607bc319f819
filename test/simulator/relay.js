'use strict';
/*
 * How a new-api relay refreshes its task records (startSimulator({ refresh: 'relay' }),
 * sim.setRefresh()).
 *
 * The relay does not ask the provider when a client reads a task: a system task reads every
 * unfinished task from the providers in rounds (new-api `controller/system_task_handlers.go`:
 * asyncTaskPollHandler, every 15 s; `service/task_polling.go` RunTaskPollingOnce). A round takes
 * the unfinished tasks in id order (GetAllUnFinishSyncTasks), the channels side by side, and
 * inside one channel sleeps 1 s between two tasks (updateVideoTasks); the next round comes 15 s
 * after the last one ended. A task's record changes only when the round reaches it; between two
 * refreshes every read returns the same record. Gemini and Vertex video channels are read live
 * (tryRealtimeFetch: the provider is asked on each read), and so is a task that advances by reads
 * (scenario readSteps).
 *
 * Everything here is a function of the clock a caller passes (`now`, epoch ms), the tasks' own
 * timing and the settings, times scaled by the simulator's timeScale like the tasks' durations:
 * no timers, no chance, so a test can ask what a read at any moment would see.
 */

const { taskState } = require('./tasks');

const FINAL = ['completed', 'failed', 'cancelled'];

/** new-api's pace: a round every 15 s (after the last one ended), 1 s per task inside a channel. */
const RELAY_PACE = { roundMs: 15_000, perTaskMs: 1_000, channels: 1, phaseMs: 0 };

const KEYS = ['pace', 'roundMs', 'perTaskMs', 'channels', 'phaseMs'];

/**
 * The settings as given ('live', 'relay' or { pace: 'relay', roundMs, perTaskMs, channels, phaseMs }),
 * checked: undefined for live reads.
 * - roundMs: the sleep between the end of a round and the start of the next (unscaled ms);
 * - perTaskMs: the sleep between two tasks of one channel in a round;
 * - channels: how many channels share a model's tasks (the n-th task of a model goes to channel
 *   n mod channels; a relay with several keys for a model refreshes each channel's tasks side by side);
 * - phaseMs: when the first round starts, counted from the poller's start (reset()); default: at once.
 */
function refreshSettings(refresh) {
  if (refresh === undefined || refresh === 'live') return undefined;
  if (refresh === 'relay') return { ...RELAY_PACE };
  if (!refresh || typeof refresh !== 'object' || Array.isArray(refresh) || refresh.pace !== 'relay') {
    throw new TypeError("refresh must be 'live', 'relay' or { pace: 'relay', roundMs, perTaskMs, channels, phaseMs }");
  }
  for (const key of Object.keys(refresh)) {
    if (!KEYS.includes(key)) throw new TypeError(`refresh: unknown option "${key}" (known: ${KEYS.join(', ')})`);
  }
  const settings = { ...RELAY_PACE, ...refresh };
  delete settings.pace;
  for (const key of ['roundMs', 'perTaskMs', 'phaseMs']) {
    if (!(Number.isFinite(settings[key]) && settings[key] >= 0)) throw new TypeError(`refresh: ${key} must be ms >= 0`);
  }
  if (!(settings.roundMs > 0)) throw new TypeError('refresh: roundMs must be more than 0');
  if (!(Number.isSafeInteger(settings.channels) && settings.channels >= 1)) {
    throw new TypeError('refresh: channels must be a whole number >= 1');
  }
  return settings;
}

/** Gemini and Vertex video channels: the relay asks the provider on each read. */
const readLive = (task) =>
  (task.kind === 'video' && /^(veo|gemini)/i.test(task.model)) || Boolean(task.scenario.readSteps);

class RelayPoller {
  /** `startedAt`: when the relay's poller started (epoch ms); `timeScale` scales every pause. */
  constructor(settings, { startedAt, timeScale }) {
    this.settings = settings;
    this.scale = timeScale;
    this.roundMs = settings.roundMs * timeScale;
    this.perTaskMs = settings.perTaskMs * timeScale;
    this.nextRound = startedAt + settings.phaseMs * timeScale;
    /** Paced tasks in id order (creation order), each with its refresh times; `open`: not yet final. */
    this.tasks = [];
    this.open = [];
    /** Every round run so far: { startedAt, endedAt, tasks } (tasks: how many it refreshed). */
    this.rounds = [];
    this.byTask = new Map();
  }

  /** A task the relay now keeps (at its submit); the n-th of its model goes to channel n mod channels. */
  admit(task, numberOfModel) {
    if (readLive(task) || task.origin !== 'main' || !(this.roundMs > 0)) return;
    const channel = `${task.model}#${numberOfModel % this.settings.channels}`;
    const entry = { task, channel, refreshes: [], visibleAt: undefined };
    this.byTask.set(task, entry);
    this.tasks.push(entry);
    this.open.push(entry);
  }

  paced(task) {
    return this.byTask.has(task);
  }

  /** Runs every round that has started by `now`. */
  advance(now) {
    while (this.nextRound <= now) {
      const start = this.nextRound;
      const due = this.open.filter((e) => e.task.createdAt <= start);
      if (due.length === 0) {
        // Nothing to refresh: the rounds are empty until the next task arrives (the relay's own loop
        // still turns every roundMs); go straight to the last empty round before it, or before now.
        const next = this.open.find((e) => e.task.createdAt > start);
        const until = Math.min(now, next ? next.task.createdAt : now);
        this.nextRound = start + Math.max(1, Math.ceil((until - start) / this.roundMs)) * this.roundMs;
        continue;
      }
      const perChannel = new Map();
      let last = start;
      for (const entry of due) {
        const position = perChannel.get(entry.channel) ?? 0;
        perChannel.set(entry.channel, position + 1);
        const at = start + position * this.perTaskMs;
        last = Math.max(last, at);
        entry.refreshes.push(at);
        if (FINAL.includes(taskState(entry.task, at).status)) entry.visibleAt = at;
      }
      this.open = this.open.filter((e) => e.visibleAt === undefined);
      this.rounds.push({ startedAt: start, endedAt: last, tasks: due.length });
      this.nextRound = last + this.roundMs;
    }
  }

  /**
   * When the record a read at `now` returns was last refreshed: undefined before its first refresh
   * (the record is still the submit's) and for a task read live.
   */
  refreshedAt(task, now) {
    const entry = this.byTask.get(task);
    if (!entry) return undefined;
    this.advance(now);
    let at;
    for (const r of entry.refreshes) if (r <= now) at = r;
    return at;
  }

  /**
   * The record a read at `now` returns: the provider's state at the last refresh; before the first,
   * what the relay wrote at the submit (queued, 0 %), whatever the provider has done since.
   */
  record(task, now) {
    const at = this.refreshedAt(task, now);
    return at === undefined ? { status: 'queued', progress: 0, urls: [], early: true } : taskState(task, at);
  }

  /** What the relay has of a paced task at `now`: its refreshes so far and when its end became visible. */
  view(task, now) {
    const entry = this.byTask.get(task);
    if (!entry) return undefined;
    this.advance(now);
    const refreshes = entry.refreshes.filter((r) => r <= now);
    const visible = entry.visibleAt !== undefined && entry.visibleAt <= now ? entry.visibleAt : undefined;
    return { channel: entry.channel, refreshes, visibleAt: visible };
  }
}

module.exports = { RelayPoller, RELAY_PACE, refreshSettings, readLive };
