'use strict';
// The open-source relay's own error texts (QuantumNous/new-api), English and Chinese, as its
// answers carry them: which layer sends each (so which envelope), its status and code. The files of
// the relay each text comes from are listed in docs/gateway-contract.md §10.10. `gbk` is the Chinese
// text in GBK (hex, with {M} = sora-2 and {G} = default), for answers sent in that charset; `{M}` and
// `{G}` are the model and the key's group.

const RELAY_TEXTS = [
  { name: 'token invalid', status: 401, layer: 'auth', code: '', en: 'Invalid token', zh: '无效的令牌' },
  { name: 'token not provided', status: 401, layer: 'auth', code: '', en: 'Token not provided', zh: '未提供令牌' },
  {
    name: 'token quota used up', status: 401, layer: 'auth', code: '',
    en: 'This token quota is exhausted TokenStatusExhausted[sk-sim***ood]',
    zh: '该令牌额度已用尽 TokenStatusExhausted[sk-sim***ood]',
    gbk: 'b8c3c1eec5c6b6eeb6c8d2d1d3c3bea120546f6b656e5374617475734578686175737465645b736b2d73696d2a2a2a6f6f645d',
  },
  { name: 'token expired', status: 401, layer: 'auth', code: '', en: 'This token has expired', zh: '该令牌已过期' },
  { name: 'token disabled', status: 401, layer: 'auth', code: '', en: 'This token status is unavailable', zh: '该令牌状态不可用' },
  {
    name: 'no channel (distributor)', status: 503, layer: 'auth', code: 'model_not_found',
    en: 'No available channel for model {M} under group {G} (distributor)', zh: '分组 {G} 下模型 {M} 无可用渠道（distributor）',
  },
  {
    name: 'no channel (older relays)', status: 503, layer: 'auth', code: '',
    en: 'No available channel for model {M} under group {G}', zh: '当前分组 {G} 下对于模型 {M} 无可用渠道',
    gbk: 'b5b1c7b0b7d6d7e92064656661756c7420cfc2b6d4d3dac4a3d0cd20736f72612d3220cedebfc9d3c3c7feb5c0',
  },
  {
    name: 'channel lookup failed', status: 503, layer: 'auth', code: 'model_not_found',
    en: 'Failed to get available channel for model {M} under group {G} (distributor): no channel', zh: '获取分组 {G} 下模型 {M} 的可用渠道失败（distributor）：no channel',
  },
  { name: 'token may not use the model', status: 403, layer: 'auth', code: '', en: 'This token has no access to model {M}', zh: '该令牌无权访问模型 {M}' },
  { name: 'group denied', status: 403, layer: 'auth', code: '', en: 'No permission to access this group', zh: '无权访问 {G} 分组' },
  { name: 'ip not allowed', status: 403, layer: 'auth', code: 'access_denied', zh: '您的 IP 不在令牌允许访问的列表中' },
  {
    name: 'user quota insufficient', status: 403, layer: 'task', code: 'insufficient_user_quota',
    zh: '用户额度不足, 剩余额度: ＄0.000000',
    gbk: 'd3c3bba7b6eeb6c8b2bbd7e32c20caa3d3e0b6eeb6c83a20a1e7302e303030303030',
  },
  { name: 'pre-charge failed', status: 403, layer: 'task', code: 'insufficient_user_quota', zh: '预扣费额度失败, 用户剩余额度: ＄0.100000, 需要预扣费额度: ＄0.440000' },
  { name: 'token quota not enough', status: 403, layer: 'openai', code: 'pre_consume_token_quota_failed', en: 'token quota is not enough, token remain quota: ＄0.010000, need quota: ＄0.440000' },
  { name: 'group saturated', status: 429, layer: 'task', code: 'rate_limit', en: 'Current group upstream load is saturated, please try again later', zh: '当前分组上游负载已饱和，请稍后再试' },
  {
    name: 'model price unset', status: 400, layer: 'task', code: 'model_price_error',
    en: 'model {M} ratio or price not set, please set or start self-use mode',
    zh: '模型 {M} 倍率或价格未配置，请联系管理员设置或开始自用模式；Model {M} ratio or price not set, please set or start self-use mode',
  },
  {
    name: 'upstream says the model does not exist', status: 404, layer: 'task', code: 'fail_to_fetch_task',
    en: '{"error":{"message":"The model `{M}` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}',
  },
  { name: 'upstream unreachable', status: 500, layer: 'task', code: 'do_request_failed', en: 'upstream error: do request failed' },
];

const byName = (name) => {
  const entry = RELAY_TEXTS.find((t) => t.name === name);
  if (!entry) throw new TypeError(`relay-texts: no text named "${name}"`);
  return entry;
};

/** The text of an entry in a language ('en' | 'zh'), model and group filled in. */
function relayText(entry, { language = 'en', model = 'sora-2', group = 'default' } = {}) {
  const template = entry[language] ?? entry.en ?? entry.zh;
  return template.replaceAll('{M}', model).replaceAll('{G}', group);
}

/** The body the relay's layer sends: the auth/distributor and OpenAI handlers' `error` object, a task handler's flat envelope. */
function relayEnvelope(entry, message, reqId = 'sim-relay') {
  if (entry.layer === 'task') return { code: entry.code || 'error', message, data: null };
  return { error: { message: `${message} (request id: ${reqId})`, type: 'new_api_error', param: '', code: entry.code } };
}

/**
 * The same answer with its Chinese text in GBK, as bytes (the rest of the JSON is ASCII), for
 * `sim.inject({ body: <Buffer>, headers: { 'Content-Type': 'application/json; charset=GBK' } })`.
 */
function gbkBody(entry) {
  if (!entry.gbk) throw new TypeError(`relay-texts: "${entry.name}" has no GBK form`);
  const marker = '\u0000TEXT\u0000';
  const [before, after] = JSON.stringify(relayEnvelope(entry, marker)).split(JSON.stringify(marker).slice(1, -1));
  return Buffer.concat([Buffer.from(before, 'ascii'), Buffer.from(entry.gbk, 'hex'), Buffer.from(after, 'ascii')]);
}

module.exports = { RELAY_TEXTS, byName, relayText, relayEnvelope, gbkBody };
