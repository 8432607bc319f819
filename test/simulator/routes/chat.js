'use strict';
const { sendJson, CORS } = require('../respond');
const { badRequest, noChannel } = require('../errors');
const { jsonBody, requireString } = require('../validate');
const { randomAlnum, unixSeconds } = require('../ids');

function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.filter((p) => p && p.type === 'text').map((p) => p.text).join('\n');
  return '';
}

function validate(body) {
  requireString(body, 'model');
  const { messages } = body;
  if (!Array.isArray(messages) || messages.length === 0) {
    throw badRequest('messages is required and must be a non-empty array of {role, content}', 'messages');
  }
  messages.forEach((m, i) => {
    if (!m || typeof m !== 'object' || typeof m.role !== 'string' || m.content === undefined) {
      throw badRequest(`messages[${i}] must be an object with role and content`, 'messages');
    }
  });
}

// Deterministic answer so tests can assert on it.
function answerFor(body) {
  const lastUser = [...body.messages].reverse().find((m) => m.role === 'user');
  const text = lastUser ? textOf(lastUser.content) : '';
  const format = body.response_format && body.response_format.type;
  if (format === 'json_object' || format === 'json_schema') return JSON.stringify({ echo: text, model: body.model });
  return `Echo: ${text}`;
}

const tokens = (s) => Math.max(1, Math.ceil(s.length / 4));

function usageFor(body, content) {
  const prompt = tokens(body.messages.map((m) => textOf(m.content)).join(' '));
  const completion = tokens(content);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

// Code-point slices so the pieces always reassemble to the exact answer.
function pieces(content, count = 5) {
  const chars = Array.from(content);
  const size = Math.max(1, Math.ceil(chars.length / count));
  const out = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out.length ? out : [''];
}

async function stream(ctx, body, content) {
  const { res } = ctx;
  const id = `chatcmpl-${randomAlnum(24)}`;
  const created = unixSeconds();
  const chunk = (delta, finish = null, extra = {}) => ({
    id, object: 'chat.completion.chunk', created, model: body.model,
    choices: [{ index: 0, delta, finish_reason: finish }], ...extra,
  });
  const events = [
    chunk({ role: 'assistant', content: '' }),
    ...pieces(content).map((p) => chunk({ content: p })),
    chunk({}, 'stop', { usage: usageFor(body, content) }),
  ];
  res.writeHead(200, { ...CORS, 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  let sent = 0;
  for (const ev of events) {
    if (res.destroyed) return;
    if (ctx.breakStream && sent === 2) return res.destroy();
    res.write(`data: ${JSON.stringify(ev)}\n\n`);
    sent += 1;
    await ctx.sim.sleep(2);
  }
  if (ctx.breakStream) return res.destroy();
  res.end('data: [DONE]\n\n');
}

async function completions(ctx) {
  const body = jsonBody(ctx);
  validate(body);
  if (!ctx.sim.hasModel(body.model)) throw noChannel(body.model);
  const content = answerFor(body);
  if (body.stream === true) return stream(ctx, body, content);
  sendJson(ctx, 200, {
    id: `chatcmpl-${randomAlnum(24)}`,
    object: 'chat.completion',
    created: unixSeconds(),
    model: body.model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: usageFor(body, content),
  });
}

module.exports = [{ method: 'POST', path: '/v1/chat/completions', handler: completions }];
