'use strict';
// Model ids of docs/gateway-contract.md §2.1 and how the simulator routes them.

const TEXT = ['gpt-5.6-sol', 'claude-sonnet-4', 'deepseek-v3'];
const IMAGE_SYNC = ['gpt-image-2', 'gpt-image-2.5'];
const IMAGE_ASYNC = ['gpt-image-2-async', 'gpt-image-2.5-async'];
const IMAGE_SWITCH = ['gpt-image-2.5-flare', 'gpt-image-2.5-sunburst']; // sync unless scenario mode 'task'
const NANO = ['nano-banana', 'nano-banana-2', 'nano-banana-2-lite', 'nano-banana-pro', 'gemini-3-pro-image-preview'];
const ALT = ['gemini-2.5-flash-image', 'gemini-3-pro-image-preview', 'gemini-3.1-flash-image-preview'];
const GROK = 'grok-imagine-video-1.5';
const VIDEO_ALIASES = { 'grok-imagine-1.5-video': GROK };
const VIDEO = [
  GROK, 'veo-3.1-flash', 'veo-3.1-pro', 'sora-2',
  'seedance-1.0-fast', 'seedance-1.0-mini', 'seedance-1.0-pro', 'seedance-1.5-pro',
  'seedance-2.0', 'seedance-2.0-fast',
];

const canonicalVideo = (id) => VIDEO_ALIASES[id] || id;
const isVideo = (id) => VIDEO.includes(canonicalVideo(id));
const isMainImage = (id) => [...IMAGE_SYNC, ...IMAGE_ASYNC, ...IMAGE_SWITCH, ...NANO].includes(id);
const isAlt = (id) => ALT.includes(id);
const isNano = (id) => NANO.includes(id);
// Validation family for GPT image ids: '2' (ratios, image_urls) or '2.5' (size table, images).
const gptFamily = (id) => (id.startsWith('gpt-image-2.5') ? '2.5' : '2');

// Tags are deliberately incomplete, as on real relays (docs/gateway-contract.md §10.4).
function tagsFor(id) {
  if (id === 'gpt-image-2' || id === 'nano-banana') return ['openai'];
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
    ...Object.keys(VIDEO_ALIASES),
  ])];
  return ids.map((id) => ({
    id,
    object: 'model',
    created: CREATED,
    owned_by: ownerOf(id),
    supported_endpoint_types: tagsFor(id),
  }));
}

function altModels() {
  return defaultModels().filter((m) => isAlt(m.id));
}

module.exports = {
  TEXT, IMAGE_SYNC, IMAGE_ASYNC, IMAGE_SWITCH, NANO, ALT, VIDEO, GROK, VIDEO_ALIASES,
  canonicalVideo, isVideo, isMainImage, isAlt, isNano, gptFamily, defaultModels, altModels,
};
