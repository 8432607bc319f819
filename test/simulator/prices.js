'use strict';
// The relay's price list (GET /api/pricing, docs/gateway-contract.md §10.11) and what a task is
// charged by it. A gateway sets its own prices: these defaults are the simulator's, not the
// document's; a test sets its own with sim.setPricing({ model: { model_price } | null }, { groupRatio, usableGroup }).
// As new-api does (controller/pricing.go GetPricing, service/group.go): the anonymous list shows the
// ratios of the groups a user may pick (usable_group) only; the key's own group (sim.setKeyGroup) is in
// no answer a key can read, and every charge is the price × that group's ratio (1 for a group with none,
// as ratio_setting.GetGroupRatio).
const catalog = require('./catalog');

/** Task channels the relay bills by the second: default seconds and a size ratio. */
const PER_SECOND = [
  { match: /sora/, seconds: 4, ratio: (p) => (['1792x1024', '1024x1792'].includes(p.size) ? 1.666667 : 1) },
  { match: /veo|omni/, seconds: 8, ratio: (p) => (String(p.resolution || '').toLowerCase() === '4k' ? 1.5 : 1) },
  { match: /^wan/, seconds: 5, ratio: () => 1 },
];

const perSecond = (model) => PER_SECOND.find((f) => f.match.test(model));

/** new-api's own defaults for its speech models (real-newapi/audio-speech.json): tts-1 by ratio, gpt-4o-mini-tts per call. */
const SPEECH = {
  'tts-1': { quota_type: 0, model_ratio: 7.5, model_price: 0, completion_ratio: 0 },
  'tts-1-hd': { quota_type: 0, model_ratio: 15, model_price: 0, completion_ratio: 0 },
  'gpt-4o-mini-tts': { quota_type: 1, model_ratio: 0, model_price: 0.3, completion_ratio: 1 },
  // real-newapi/audio-transcriptions.json: whisper-1 at new-api's default ratio 15, the gpt-4o ones as set for the probe.
  'whisper-1': { quota_type: 0, model_ratio: 15, model_price: 0, completion_ratio: 1 },
  'gpt-4o-transcribe': { quota_type: 0, model_ratio: 1.25, model_price: 0, completion_ratio: 4 },
  'gpt-4o-mini-transcribe': { quota_type: 0, model_ratio: 0.625, model_price: 0, completion_ratio: 4 },
};

/** new-api's default prices of its Suno actions (real-newapi/suno.json: ModelPrice, USD per call). */
const SUNO = { suno_music: 0.1, suno_lyrics: 0.01 };

function defaultEntry(model) {
  if (SUNO[model] !== undefined) return { model_name: model, quota_type: 1, model_ratio: 0, model_price: SUNO[model], completion_ratio: 1, enable_groups: ['default'], supported_endpoint_types: ['openai'] };
  if (SPEECH[model]) return { model_name: model, ...SPEECH[model], enable_groups: ['default'], supported_endpoint_types: ['openai'] };
  const video = catalog.isVideo(model);
  const price = video ? (perSecond(model) ? 0.1 : 0.4) : catalog.isMainImage(model) || catalog.isAlt(model) ? 0.02 : undefined;
  const types = video ? ['openai-video'] : price !== undefined ? ['image-generation'] : ['openai'];
  // Text models are priced by tokens (quota_type 0): a ratio, not a price.
  if (price === undefined) return { model_name: model, quota_type: 0, model_ratio: 1.25, model_price: 0, completion_ratio: 4, enable_groups: ['default'], supported_endpoint_types: types };
  return { model_name: model, quota_type: 1, model_ratio: 0, model_price: price, completion_ratio: 1, enable_groups: ['default', 'vip'], supported_endpoint_types: types };
}

/** The answer of GET /api/pricing, in new-api's shape. */
function priceList(sim) {
  // The Suno actions are priced by new-api's defaults though /v1/models lists no such model.
  const ids = [...new Set([...sim.models.map((m) => m.id), ...Object.keys(SUNO), ...sim.pricing.entries.keys()])];
  const data = ids.flatMap((id) => {
    if (sim.pricing.entries.get(id) === null) return [];
    return [{ ...defaultEntry(id), ...sim.pricing.entries.get(id) }];
  });
  const usable = sim.pricing.usableGroup;
  const shown = Object.fromEntries(Object.entries(sim.pricing.groupRatio ?? {}).filter(([g]) => g in usable));
  return {
    success: true,
    data,
    // A test may set a ratio map that is not an object (a shape to survive): then it is served as given.
    group_ratio: sim.pricing.groupRatio && typeof sim.pricing.groupRatio === 'object' ? shown : sim.pricing.groupRatio,
    usable_group: usable,
    vendors: [],
    supported_endpoint: {},
    auto_groups: [],
    pricing_version: 'sim-1',
  };
}

/** The ratio the key pays: its group's, from every ratio the admin set (shown or not), else 1. */
function keyGroupRatio(sim) {
  const ratio = Number(sim.pricing.groupRatio?.[sim.keyGroup]);
  return Number.isFinite(ratio) && ratio >= 0 ? ratio : 1;
}

/** A per-call model's price (quota_type 1) in the list, else undefined. */
function callPrice(sim, model) {
  const entry = priceList(sim).data.find((e) => e.model_name === model);
  return entry && entry.quota_type === 1 ? Number(entry.model_price) : undefined;
}

/**
 * What a chat is charged in USD (quota_type 0): (prompt + completion tokens × completion_ratio) ×
 * model_ratio × 2 USD per 1M tokens × the key's group ratio; 0 for a model the list does not price so.
 */
function chatChargeUsd(sim, model, usage) {
  const entry = priceList(sim).data.find((e) => e.model_name === model);
  if (!entry || entry.quota_type !== 0 || !usage) return 0;
  const tokens = Number(usage.prompt_tokens) + Number(usage.completion_tokens) * Number(entry.completion_ratio);
  return (tokens * Number(entry.model_ratio) * 2 * keyGroupRatio(sim)) / 1e6;
}

/** What a synchronous image call is charged in USD: the price × the key's group ratio × the images asked. */
function imageChargeUsd(sim, model, n) {
  const price = callPrice(sim, model);
  return price === undefined ? 0 : price * keyGroupRatio(sim) * (Number(n) || 1);
}

/**
 * A synchronous call's row in the relay's consume log (model/log.go RecordConsumeLog: type 2, the
 * quota, the key's group, its ratio in `other`, the answer's request id).
 */
function logConsume(sim, { model, usd, requestId, usage }) {
  const ratio = keyGroupRatio(sim);
  sim.usageLog.push({
    id: sim.usageLog.length + 1,
    created_at: Math.floor(Date.now() / 1000),
    type: 2,
    content: '',
    token_name: 'simulator key',
    model_name: model,
    quota: Math.round(usd * sim.site.quota_per_unit),
    prompt_tokens: usage ? usage.prompt_tokens : 0,
    completion_tokens: usage ? usage.completion_tokens : 0,
    group: sim.keyGroup,
    request_id: requestId,
    other: JSON.stringify({ group_ratio: ratio, model_price: callPrice(sim, model) ?? 0 }),
  });
}

/** The key's quota moves with every billed call, as new-api's token and user records do. */
function settle(sim, usd) {
  for (const kind of ['token', 'user']) {
    const b = sim.balances[kind];
    sim.balances[kind] = { ...b, remain: b.unlimited ? b.remain : b.remain - usd, used: b.used + usd };
  }
}

/**
 * What the relay charges a task in USD (its `quota` ÷ quota_per_unit): the price × the key's group
 * ratio, × seconds and a size ratio where it bills by the second.
 */
function taskChargeUsd(sim, task) {
  if (typeof task.scenario.chargeUsd === 'number') return task.scenario.chargeUsd;
  const price = callPrice(sim, task.model);
  if (price === undefined) return 0;
  const ratio = keyGroupRatio(sim);
  const family = perSecond(task.model);
  const seconds = family ? Number(task.params.seconds) || family.seconds : 1;
  return price * ratio * seconds * (family ? family.ratio(task.params) : 1);
}

module.exports = { priceList, taskChargeUsd, imageChargeUsd, chatChargeUsd, settle, logConsume };
