'use strict';
// Mutable simulator state shared by all three origins.
const { defaultModels, canonicalVideo } = require('./catalog');
const { OUTCOMES, VARIANTS } = require('./tasks');
const { PROFILES } = require('./profiles');
const { RelayPoller, refreshSettings } = require('./relay');

const SCENARIO_KEYS = [
  'durationMs', 'progressSteps', 'queuedMs', 'outcome', 'stuckMs', 'failMessage', 'estimatedTime',
  'shape', 'urlField', 'mode', 'syncDelayMs', 'images', 'videoBytes', 'imageShape', 'resultHost', 'failEvery',
  'signedUrls', 'tasksRoute', 'videoSubmit', 'videoResult', 'statusCase', 'editQuery', 'readSteps', 'serverAddress',
  'chargeUsd',
  'resultUrl',
  // Suno tasks (routes/suno.js): the status word every read answers instead of the task's own.
  'statusWord',
];
const URL_FIELDS = VARIANTS.videoUrl;

const defaultBalances = () => ({
  token: { remain: 100.5, used: 12.25, unlimited: false },
  user: { remain: 100.5, used: 12.25, unlimited: false },
});

function checkScenario(opts) {
  for (const key of Object.keys(opts)) {
    if (!SCENARIO_KEYS.includes(key)) throw new TypeError(`scenario: unknown option "${key}" (known: ${SCENARIO_KEYS.join(', ')})`);
  }
  if (opts.outcome !== undefined && !OUTCOMES.includes(opts.outcome)) throw new TypeError(`scenario: outcome must be one of ${OUTCOMES.join(', ')}`);
  if (opts.shape !== undefined && !VARIANTS.generic.includes(opts.shape)) throw new TypeError(`scenario: shape must be one of ${VARIANTS.generic.join(', ')}`);
  if (opts.imageShape !== undefined && !VARIANTS.image.includes(opts.imageShape)) throw new TypeError(`scenario: imageShape must be one of ${VARIANTS.image.join(', ')}`);
  if (opts.resultHost !== undefined && !['files', 'main'].includes(opts.resultHost)) throw new TypeError("scenario: resultHost must be 'files' or 'main'");
  if (opts.urlField !== undefined && !URL_FIELDS.includes(opts.urlField)) throw new TypeError(`scenario: urlField must be one of ${URL_FIELDS.join(', ')}`);
  if (opts.mode !== undefined && !['task', 'sync'].includes(opts.mode)) throw new TypeError("scenario: mode must be 'task' or 'sync'");
  if (opts.tasksRoute !== undefined && opts.tasksRoute !== 'none') throw new TypeError("scenario: tasksRoute must be 'none'");
  if (opts.videoSubmit !== undefined && opts.videoSubmit !== 'openai') throw new TypeError("scenario: videoSubmit must be 'openai'");
  if (opts.videoResult !== undefined && !['videos', 'video_url'].includes(opts.videoResult)) throw new TypeError("scenario: videoResult must be 'videos' or 'video_url'");
  if (opts.statusCase !== undefined && opts.statusCase !== 'upper') throw new TypeError("scenario: statusCase must be 'upper'");
  if (opts.editQuery !== undefined && opts.editQuery !== 'edits') throw new TypeError("scenario: editQuery must be 'edits'");
  if (opts.serverAddress !== undefined && !/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(opts.serverAddress)) throw new TypeError('scenario: serverAddress must be an http(s) URL without query');
  if (opts.resultUrl !== undefined && typeof opts.resultUrl !== 'string' && typeof opts.resultUrl !== 'function') throw new TypeError('scenario: resultUrl must be a URL or a function (task, index) => URL');
  const steps = opts.readSteps;
  const STATUSES = ['queued', 'in_progress', 'completed', 'failed', 'cancelled'];
  if (steps !== undefined && !(Array.isArray(steps) && steps.length > 0 && steps.every((st) => st && STATUSES.includes(st.status) && (st.progress === undefined || (st.progress >= 0 && st.progress <= 100))))) {
    throw new TypeError(`scenario: readSteps must be a non-empty list of { status (${STATUSES.join(', ')}), progress (0-100) }`);
  }
  if (opts.statusWord !== undefined && typeof opts.statusWord !== 'string') throw new TypeError('scenario: statusWord must be a string');
  if (opts.chargeUsd !== undefined && !(typeof opts.chargeUsd === 'number' && opts.chargeUsd >= 0)) throw new TypeError('scenario: chargeUsd must be USD >= 0');
  const d = opts.durationMs;
  if (d !== undefined && !(d >= 0 || (Array.isArray(d) && d.length === 2 && d[0] >= 0 && d[1] >= d[0]))) throw new TypeError('scenario: durationMs must be ms >= 0 or [min, max]');
  const e = opts.estimatedTime;
  if (e !== undefined && !(e >= 0 || e === 'none' || e === 'alternate')) throw new TypeError("scenario: estimatedTime must be seconds >= 0, 'none' or 'alternate'");
  if (opts.failEvery !== undefined && !(Number.isSafeInteger(opts.failEvery) && opts.failEvery >= 1)) throw new TypeError('scenario: failEvery must be a whole number >= 1');
  if (opts.videoBytes !== undefined && !(Number.isSafeInteger(opts.videoBytes) && opts.videoBytes >= 0)) throw new TypeError('scenario: videoBytes must be a whole number of bytes');
}

const KEY_STATES = ['active', 'exhausted', 'expired', 'disabled'];

class SimState {
  constructor(options = {}) {
    const { apiKey = 'sk-sim-good', timeScale = 1, quiet = true, log, retiredModels = [] } = options;
    const { retiredLanguage = 'en', profile = 'commercial', refresh } = options;
    if (!PROFILES.includes(profile)) throw new TypeError(`profile must be one of ${PROFILES.join(', ')}`);
    // The build the simulator plays after every reset() (profiles.js), and how it refreshes task
    // records (relay.js).
    this.startProfile = profile;
    this.startRefresh = refreshSettings(refresh);
    if (typeof apiKey !== 'string' || apiKey === '') throw new TypeError('apiKey must be a non-empty string');
    if (!(timeScale >= 0)) throw new TypeError('timeScale must be a number >= 0');
    if (!Array.isArray(retiredModels) || retiredModels.some((id) => typeof id !== 'string')) throw new TypeError('retiredModels must be an array of model ids');
    if (!['en', 'zh'].includes(retiredLanguage)) throw new TypeError("retiredLanguage must be 'en' or 'zh'");
    // Models switched off upstream (Sora 2 since 2026-09-24): every submit answers 503 model_not_found.
    this.retiredModels = new Set(retiredModels);
    this.retiredLanguage = retiredLanguage;
    this.apiKey = apiKey;
    this.timeScale = timeScale;
    this.quiet = quiet;
    this.logger = log || ((line) => process.stdout.write(`${line}\n`));
    this.urls = {};
    this.requests = [];
    this.timers = new Set();
    this.reset();
  }

  reset() {
    this.requests.length = 0; // in place: callers may hold sim.requests
    this.faults = [];
    this.redirects = [];
    this.rateLimits = [];
    // The relay's overload guard (gates.js, sim.overload): { kind, remaining, refused } while set.
    this.overloaded = undefined;
    this.scenarios = new Map();
    this.taskNumbers = new Map();
    this.tasks = new Map();
    this.syncResults = [];
    this.uploads = new Map();
    this.balances = defaultBalances();
    this.models = defaultModels();
    this.profile = this.startProfile;
    this.setRefresh(this.startRefresh && { pace: 'relay', ...this.startRefresh });
    // The relay's money (routes/money.js, prices.js): its quota unit, its price list, the quota route's reads.
    this.site = { quota_per_unit: 500000, quota_display_type: 'USD', usd_exchange_rate: 7.3 };
    this.pricing = {
      served: false,
      entries: new Map(),
      groupRatio: { default: 1, vip: 0.8 },
      usableGroup: { default: 'Default group', vip: 'VIP' },
    };
    // The key's group (new-api's token group, else its user's): what it pays, told in no answer to the key.
    this.keyGroup = 'default';
    // The key's own state (setKeyState): refused by the relay's auth once `afterCalls` billed calls passed.
    this.keyState = { state: 'active', afterCalls: 0 };
    this.usageTokenReads = [];
    // The relay's consume log (GET /api/log/token): one row per billed synchronous call, newest last.
    this.usageLog = [];
  }

  setProfile(profile) {
    if (!PROFILES.includes(profile)) throw new TypeError(`setProfile: profile must be one of ${PROFILES.join(', ')}`);
    this.profile = profile;
  }

  /**
   * How task records are refreshed from now on ('live', 'relay' or its settings, relay.js): a new
   * poller whose clock starts now; tasks created before keep the refresh they were created under.
   */
  setRefresh(refresh) {
    const settings = refreshSettings(refresh);
    this.refresh = settings ? { pace: 'relay', ...settings } : { pace: 'live' };
    this.relay = settings ? new RelayPoller(settings, { startedAt: Date.now(), timeScale: this.timeScale }) : undefined;
  }

  /** Raw values are served as given (text, NaN…): a test of an answer that makes no sense sets one. */
  setSiteStatus(values) {
    this.site = { ...this.site, ...values };
  }

  /** Prices per model (an entry's fields; null leaves the model out) and the group ratios; serves the list on every profile but one-api. */
  setPricing(entries = {}, { groupRatio, usableGroup } = {}) {
    for (const [model, entry] of Object.entries(entries)) this.pricing.entries.set(model, entry === null ? null : { ...entry });
    if (groupRatio !== undefined) this.pricing.groupRatio = groupRatio;
    if (usableGroup !== undefined) this.pricing.usableGroup = { ...usableGroup };
    this.pricing.served = true;
  }

  /** The group the key is in: its charges follow that group's ratio; no route tells it to the key. */
  setKeyGroup(group) {
    if (typeof group !== 'string' || group === '') throw new TypeError('setKeyGroup: group must be a non-empty string');
    this.keyGroup = group;
  }

  /**
   * The key's state at the relay: 'active', or 'exhausted' | 'expired' | 'disabled', which new-api's
   * auth refuses on every relay route (a bare 401 on plain new-api and one-api) once `afterCalls`
   * more POSTs have passed: a key that runs out mid-batch.
   */
  setKeyState(state, { afterCalls = 0 } = {}) {
    if (!KEY_STATES.includes(state)) throw new TypeError(`setKeyState: state must be one of ${KEY_STATES.join(', ')}`);
    if (!Number.isInteger(afterCalls) || afterCalls < 0) throw new TypeError('setKeyState: afterCalls must be a whole number');
    this.keyState = { state, afterCalls };
  }

  /** The key's refused state now ('exhausted', …), or undefined while it is accepted. */
  refusedKeyState() {
    return this.keyState.state !== 'active' && this.keyState.afterCalls === 0 ? this.keyState.state : undefined;
  }

  hasModel(id) {
    return this.models.some((m) => m && m.id === id);
  }

  // '*' first, then the canonical id (for the grok alias), then the exact id.
  scenarioFor(model) {
    return {
      ...this.scenarios.get('*'),
      ...this.scenarios.get(canonicalVideo(model)),
      ...this.scenarios.get(model),
    };
  }

  /** 0 for the first task of a model since reset(), then 1, 2, … (the per-task scenario options). */
  nextTaskNumber(model) {
    const n = this.taskNumbers.get(model) ?? 0;
    this.taskNumbers.set(model, n + 1);
    return n;
  }

  setScenario(model, opts) {
    if (typeof model !== 'string' || model === '') throw new TypeError("scenario: model must be a model id or '*'");
    if (opts == null) return void this.scenarios.delete(model);
    checkScenario(opts);
    this.scenarios.set(model, { ...opts });
  }

  setBalance(kind, values = {}) {
    if (!(kind in this.balances)) throw new TypeError("setBalance: kind must be 'token' or 'user'");
    const next = { ...this.balances[kind] };
    for (const key of ['remain', 'used', 'unlimited', 'message']) if (key in values) next[key] = values[key];
    this.balances[kind] = next;
  }

  setModels(models) {
    if (models === null || models === undefined) {
      this.models = defaultModels();
      return;
    }
    if (!Array.isArray(models) || models.some((m) => !m || typeof m.id !== 'string')) {
      throw new TypeError('setModels: expected an array of {id, ...} objects or null');
    }
    this.models = models.map((m) => ({ id: m.id, object: 'model', created: 1767225600, owned_by: 'custom', supported_endpoint_types: [], ...m }));
  }

  // Timers die with close(); a pending sleep then simply never resolves.
  sleep(ms) {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, Math.max(0, ms));
      this.timers.add(t);
    });
  }

  clearTimers() {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  log(line) {
    if (!this.quiet) this.logger(line);
  }

  // One line per request; the path only (never headers), so the key cannot leak.
  logRequest(ctx, at) {
    if (this.quiet) return;
    const { res } = ctx;
    const status = res.headersSent ? res.statusCode : 'dropped';
    const note = res.headersSent && !res.writableFinished ? ' (cut)' : '';
    this.logger(`[${ctx.origin}] ${ctx.method} ${ctx.path} ${status}${note} ${Date.now() - at}ms`);
  }
}

module.exports = { SimState, SCENARIO_KEYS };
