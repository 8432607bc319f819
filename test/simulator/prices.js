'use strict';
// The relay's price list (GET /api/pricing, docs/gateway-contract.md §10.11) and what a task is
// charged by it. A gateway sets its own prices: these defaults are the simulator's, not the
// document's; a test sets its own with sim.setPricing({ model: { model_price } | null }, { groupRatio }).
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
};

function defaultEntry(model) {
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
  const ids = [...new Set([...sim.models.map((m) => m.id), ...sim.pricing.entries.keys()])];
  const data = ids.flatMap((id) => {
    if (sim.pricing.entries.get(id) === null) return [];
    return [{ ...defaultEntry(id), ...sim.pricing.entries.get(id) }];
  });
  return {
    success: true,
    data,
    group_ratio: sim.pricing.groupRatio,
    usable_group: { default: 'Default group', vip: 'VIP' },
    vendors: [],
    supported_endpoint: {},
    auto_groups: [],
    pricing_version: 'sim-1',
  };
}

/** What the relay charges a task in USD (its `quota` ÷ quota_per_unit): the price × the default group's ratio, × seconds and a size ratio where it bills by the second. */
function taskChargeUsd(sim, task) {
  if (typeof task.scenario.chargeUsd === 'number') return task.scenario.chargeUsd;
  const entry = priceList(sim).data.find((e) => e.model_name === task.model);
  if (!entry || entry.quota_type !== 1) return 0;
  const ratio = Number(sim.pricing.groupRatio?.default ?? 1);
  const family = perSecond(task.model);
  const seconds = family ? Number(task.params.seconds) || family.seconds : 1;
  return Number(entry.model_price) * ratio * seconds * (family ? family.ratio(task.params) : 1);
}

module.exports = { priceList, taskChargeUsd };
