'use strict';
// Model ids of docs/gateway-contract.md §2.1 and how the simulator routes them. A model is one row
// of the node's registry (dist/…/registry/models.js MODELS): every image and video row is served,
// placed by its row (host, sync / task / either, the GPT family by its id); adding a row is all the
// simulator needs. Below, only what the gateway has beyond the registry (text ids, ids without a
// row) and what the simulator answers per id (the contract's own video table for the tags, Grok's
// and Seedance 2.5's defaults).
const path = require('node:path');

const REGISTRY = path.join(__dirname, '..', '..', 'dist', 'nodes', 'UnifiedAiGateway', 'registry', 'models.js');

function registryModels() {
  try {
    return require(REGISTRY).MODELS;
  } catch (error) {
    throw new Error(`the simulator serves the models of the built registry (${path.relative(process.cwd(), REGISTRY)}): run npm run build first (${error.message})`);
  }
}

const ROWS = registryModels();
const ids = (test) => [...new Set(ROWS.filter(test).map((row) => row.id))];
const isGptId = (id) => id.startsWith('gpt-image');
const mainImage = (mode, gpt) => ids((m) => m.group === 'image' && m.host === 'main' && m.mode === mode && isGptId(m.id) === gpt);

// The gateway serves any chat model; the node has rows for some.
const TEXT = [...new Set([...ids((m) => m.group === 'text'), 'claude-sonnet-4', 'deepseek-v3'])];
const IMAGE_SYNC = mainImage('sync', true);
const IMAGE_ASYNC = mainImage('task', true);
const IMAGE_SWITCH = mainImage('either', true); // sync unless scenario mode 'task'
const NANO = mainImage('task', false);
// docs/gateway-contract.md §10.9: the Nano Banana GA ids gateways list today, answered like nano-banana (a task).
const NANO_GA = mainImage('either', false);
const ALT = ids((m) => m.group === 'image' && m.host === 'alt');
const GROK = 'grok-imagine-video-1.5';
// Speech models: every audio row of the registry (relayed on /v1/audio/speech).
const AUDIO = ids((m) => m.group === 'audio');
// An old id kept for existing clients: its row names the recommended one.
const VIDEO_ALIASES = Object.fromEntries(ROWS.filter((m) => m.group === 'video' && m.recommendedId).map((m) => [m.id, m.recommendedId]));
// The video ids of the contract's table (§2.1), tagged as the document's gateway tags them …
const CONTRACT_VIDEO = [
  GROK, 'veo-3.1-flash', 'veo-3.1-pro', 'sora-2',
  'seedance-1.0-fast', 'seedance-1.0-mini', 'seedance-1.0-pro', 'seedance-1.5-pro',
  'seedance-2.0', 'seedance-2.0-fast',
];
const VIDEO_ROWS = ids((m) => m.group === 'video' && !(m.id in VIDEO_ALIASES));
const VIDEO = VIDEO_ROWS.filter((id) => CONTRACT_VIDEO.includes(id));
// … and the ids gateways list beyond it that the node has rows for (docs/gateway-contract.md §10.9) …
const LIVE_VIDEO = VIDEO_ROWS.filter((id) => !CONTRACT_VIDEO.includes(id));
// … and some it has none for (only in relayCatalogue()): the node sends them the unified request's own fields.
const UNLISTED_VIDEO = ['kling-v2-6', 'viduq2', 'wan2.6-i2v', 'T2V-01', 'pixverse-v5'].filter((id) => !VIDEO_ROWS.includes(id));
// Seedance 2.5's duration defaults to -1: left out, the model picks 10 s and bills them (docs/gateway-contract.md §10.9).
const SEEDANCE_25 = 'doubao-seedance-2-5-260628';

const canonicalVideo = (id) => VIDEO_ALIASES[id] || id;
const isVideo = (id) => [...VIDEO, ...LIVE_VIDEO, ...UNLISTED_VIDEO].includes(canonicalVideo(id));
const isMainImage = (id) => [...IMAGE_SYNC, ...IMAGE_ASYNC, ...IMAGE_SWITCH, ...NANO, ...NANO_GA].includes(id);
const isAlt = (id) => ALT.includes(id);
const isNano = (id) => [...NANO, ...NANO_GA].includes(id);
// Validation family for GPT image ids: '2' (ratios, image_urls) or '2.5' (size table, images).
const gptFamily = (id) => (id.startsWith('gpt-image-2.5') ? '2.5' : '2');

// Tags are deliberately incomplete, as on real relays (docs/gateway-contract.md §10.4).
function tagsFor(id) {
  if (id === 'gpt-image-2' || id === 'nano-banana') return ['openai'];
  // The ids beyond the table as the relay tags them: by channel type (Gemini channels say gemini).
  if (NANO_GA.includes(id) || /^(veo|gemini)/.test(id)) return ['gemini', 'openai'];
  if (LIVE_VIDEO.includes(id)) return ['openai'];
  if (isMainImage(id) || isAlt(id)) return ['image-generation'];
  if (isVideo(id)) return ['openai-video'];
  if (id.startsWith('claude')) return ['anthropic', 'openai'];
  return ['openai'];
}

function ownerOf(id) {
  if (id.startsWith('gemini') || id.startsWith('veo') || id.startsWith('nano')) return 'google';
  if (id.startsWith('grok')) return 'xai';
  if (id.startsWith('seedance')) return 'bytedance';
  if (id.startsWith('claude')) return 'anthropic';
  if (id.startsWith('deepseek')) return 'deepseek';
  return 'openai';
}

const CREATED = 1767225600; // fixed so /v1/models is deterministic

function defaultModels() {
  const ids = [...new Set([
    ...TEXT, ...IMAGE_SYNC, ...IMAGE_ASYNC, ...IMAGE_SWITCH, ...NANO, ...ALT, ...VIDEO,
    ...Object.keys(VIDEO_ALIASES), ...NANO_GA, ...LIVE_VIDEO, ...AUDIO,
  ])];
  return ids.map((id) => ({
    id,
    object: 'model',
    created: CREATED,
    owned_by: ownerOf(id),
    supported_endpoint_types: tagsFor(id),
  }));
}

/*
 * A relay's /v1/models of 42 ids, most outside the contract's table, tagged as the relay tags them
 * (docs/gateway-contract.md §10.4: by channel type, not by kind; no price, no tag), with the kind each truly is:
 * `sim.setModels(relayCatalogue())`; `kind` is the answer a picker should give ('unknown': nothing tells).
 */
const RELAY_CATALOGUE = [
  ['gpt-5.6-sol', 'text', ['openai']], ['claude-sonnet-4', 'text', ['anthropic', 'openai']],
  ['deepseek-v3', 'text', ['openai']], ['qwen3-max', 'text', ['openai']], ['glm-4.6', 'text', ['openai']],
  ['kimi-k2', 'text', ['openai']], ['gemini-3-pro', 'text', ['gemini', 'openai']], ['grok-4', 'text', ['openai', 'openai-response']],
  ['gpt-image-2', 'image', ['openai']], ['gpt-image-2.5', 'image', ['image-generation']], ['gpt-image-2.5-flare', 'image', ['openai']],
  ['nano-banana', 'image', ['openai']], ['nano-banana-2', 'image', ['image-generation']],
  ['gemini-3.1-flash-image', 'image', ['gemini', 'openai']], ['gemini-3-pro-image', 'image', ['gemini', 'openai']],
  ['gemini-3.1-flash-lite-image', 'image', ['gemini', 'openai']], ['wan2.6-t2i', 'image', ['openai']],
  ['doubao-seedream-4-5', 'image', ['openai']], ['flux-kontext-pro', 'image', ['openai']], ['qwen-image', 'image', ['openai']],
  ['grok-imagine-video-1.5', 'video', ['openai', 'openai-response']], ['veo-3.1-flash', 'video', ['gemini', 'openai']],
  ['veo-3.1-fast-generate-preview', 'video', ['gemini', 'openai']], ['veo3.1-fast', 'video', ['gemini', 'openai']],
  ['sora-2', 'video', ['openai-video']], ['seedance-2.0', 'video', ['openai']], ['doubao-seedance-2-5-260628', 'video', ['openai']],
  ['doubao-seedance-2-0-260128', 'video', ['openai']], ['gemini-omni-flash-preview', 'video', ['gemini', 'openai']],
  ['kling-v3', 'video', ['openai']], ['kling-v2-6', 'video', ['openai']], ['viduq3-pro', 'video', ['openai']], ['viduq2', 'video', ['openai']],
  ['MiniMax-Hailuo-2.3', 'video', ['openai']], ['T2V-01', 'video', ['openai']], ['wan2.7-t2v', 'video', ['openai']],
  ['wan2.6-i2v', 'video', ['openai']], ['pixverse-v5', 'video', []],
  ['mystery-model-x1', 'unknown', []], ['aurora-2', 'unknown', ['openai']],
  // A tag that says the kind outranks a name that says otherwise (the names say text here).
  ['ernie-vilg-v2', 'image', ['openai', 'image-generation']], ['doubao-pro-animate', 'video', ['openai-video']],
];

function relayCatalogue() {
  return RELAY_CATALOGUE.map(([id, , tags]) => ({ id, object: 'model', created: CREATED, owned_by: ownerOf(id), supported_endpoint_types: tags }));
}

/** What each id of relayCatalogue() truly is: text, image, video, or unknown. */
const relayKinds = () => Object.fromEntries(RELAY_CATALOGUE.map(([id, kind]) => [id, kind]));

function altModels() {
  return defaultModels().filter((m) => isAlt(m.id));
}

module.exports = {
  registryModels,
  TEXT, AUDIO, IMAGE_SYNC, IMAGE_ASYNC, IMAGE_SWITCH, NANO, NANO_GA, ALT, VIDEO, LIVE_VIDEO, UNLISTED_VIDEO, SEEDANCE_25, GROK, VIDEO_ALIASES,
  canonicalVideo, isVideo, isMainImage, isAlt, isNano, gptFamily, defaultModels, altModels, relayCatalogue, relayKinds,
};
