'use strict';
// POST /v1/chat/completions in OpenAI's wire format, plain and SSE, including tool calling
// (`tools` → an assistant message with `tool_calls`, chosen by ../chat-agent.js).
const { sendJson, CORS } = require('../respond');
const { badRequest, noChannel } = require('../errors');
const { jsonBody, requireString } = require('../validate');
const { randomAlnum, unixSeconds } = require('../ids');
const { agentReply, textOf } = require('../chat-agent');
const { chatChargeUsd, settle, logConsume } = require('../prices');
const { pngFor } = require('../png');

// The content parts new-api reads (dto/openai_request.go MediaContent; real-newapi/chat-content-parts.json),
// each checked for the fields it must have: what an OpenAI-type upstream would refuse.
const PARTS = {
  text: (p) => typeof p.text === 'string',
  image_url: (p) => typeof (p.image_url?.url ?? p.image_url) === 'string',
  input_audio: (p) => typeof p.input_audio?.data === 'string' && ['mp3', 'wav'].includes(p.input_audio?.format),
  file: (p) => typeof p.file?.file_data === 'string' || typeof p.file?.file_id === 'string',
  video_url: (p) => typeof (p.video_url?.url ?? p.video_url) === 'string',
};

function validatePart(part, where) {
  const check = part && PARTS[part.type];
  if (!check) throw badRequest(`${where}: unknown content part type ${JSON.stringify(part && part.type)}`, where);
  if (!check(part)) throw badRequest(`${where}: a ${part.type} part lacks its fields`, where);
}

function validateMessage(m, i, callIds) {
  if (!m || typeof m !== 'object' || typeof m.role !== 'string') {
    throw badRequest(`messages[${i}] must be an object with role and content`, 'messages');
  }
  if (m.role === 'assistant' && Array.isArray(m.tool_calls)) {
    // OpenAI: an assistant message that calls tools may have null or no content.
    for (const c of m.tool_calls) callIds.add(c && c.id);
    return;
  }
  if (m.content === undefined) throw badRequest(`messages[${i}] must be an object with role and content`, 'messages');
  if (Array.isArray(m.content)) m.content.forEach((part, j) => validatePart(part, `messages[${i}].content[${j}]`));
  if (m.role === 'tool' && !callIds.has(m.tool_call_id)) {
    throw badRequest(
      `messages[${i}]: a message with role 'tool' must answer a preceding assistant tool call (tool_call_id ${JSON.stringify(m.tool_call_id)} is unknown)`,
      `messages.[${i}].tool_call_id`,
    );
  }
}

function validate(body) {
  requireString(body, 'model');
  const { messages, tools } = body;
  if (!Array.isArray(messages) || messages.length === 0) {
    throw badRequest('messages is required and must be a non-empty array of {role, content}', 'messages');
  }
  const callIds = new Set();
  messages.forEach((m, i) => validateMessage(m, i, callIds));
  if (tools !== undefined) {
    const ok = Array.isArray(tools) && tools.every((t) => t && t.type === 'function' && t.function && /^[a-zA-Z0-9_-]{1,64}$/.test(t.function.name));
    if (!ok) throw badRequest('tools must be an array of {type: "function", function: {name (a-z, A-Z, 0-9, _ and -, at most 64), description, parameters}}', 'tools');
  }
}

// Deterministic answer so tests can assert on it.
function answerFor(body) {
  const lastUser = [...body.messages].reverse().find((m) => m.role === 'user');
  const text = lastUser ? textOf(lastUser.content) : '';
  const format = body.response_format && body.response_format.type;
  if (format === 'json_object' || format === 'json_schema') return JSON.stringify({ echo: text, model: body.model });
  // An image model through chat answers as new-api's Gemini conversion does (real-newapi/chat-markdown-image.json):
  // text, then the picture as a Markdown image with a data: URL (streamed in pieces that cut it).
  if (/image|banana/.test(body.model)) {
    return `Here is your image.\n\n![image](data:image/png;base64,${pngFor(`${body.model} ${text}`).toString('base64')})`;
  }
  return `Echo: ${text}`;
}

/** { content, toolCalls?, finish }: the assistant's turn. */
function replyFor(body) {
  const agent = agentReply(body);
  if (agent && agent.toolCalls) {
    const toolCalls = agent.toolCalls.map((c) => ({
      id: `call_${randomAlnum(24)}`,
      type: 'function',
      function: { name: c.name, arguments: JSON.stringify(c.arguments) },
    }));
    return { content: null, toolCalls, finish: 'tool_calls' };
  }
  return { content: agent ? agent.content : answerFor(body), finish: 'stop' };
}

const tokens = (s) => Math.max(1, Math.ceil(s.length / 4));

function usageFor(body, reply) {
  const prompt = tokens(body.messages.map((m) => textOf(m.content)).join(' ') + JSON.stringify(body.tools || ''));
  const completion = tokens(reply.content ?? JSON.stringify(reply.toolCalls));
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

// Code-point slices so the pieces always reassemble to the exact text.
function pieces(content, count = 5) {
  const chars = Array.from(content);
  const size = Math.max(1, Math.ceil(chars.length / count));
  const out = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out.length ? out : [''];
}

/** The deltas OpenAI streams: the role first, then text pieces, or per call its id+name, then argument pieces. */
function deltasFor(reply) {
  if (!reply.toolCalls) return [{ role: 'assistant', content: '' }, ...pieces(reply.content).map((p) => ({ content: p }))];
  const deltas = [];
  reply.toolCalls.forEach((call, index) => {
    const head = { index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } };
    deltas.push(index === 0 ? { role: 'assistant', content: null, tool_calls: [head] } : { tool_calls: [head] });
    for (const part of pieces(call.function.arguments, 3)) deltas.push({ tool_calls: [{ index, function: { arguments: part } }] });
  });
  return deltas;
}

async function stream(ctx, body, reply) {
  const { res } = ctx;
  const id = `chatcmpl-${randomAlnum(24)}`;
  const created = unixSeconds();
  const chunk = (choices, extra = {}) => ({ id, object: 'chat.completion.chunk', created, model: body.model, choices, ...extra });
  const choice = (delta, finish = null) => [{ index: 0, delta, finish_reason: finish }];
  const usage = usageFor(body, reply);
  const wantsUsage = body.stream_options && body.stream_options.include_usage === true;
  const events = [...deltasFor(reply).map((d) => chunk(choice(d))), chunk(choice({}, reply.finish), wantsUsage ? {} : { usage })];
  // As OpenAI: with include_usage, one last chunk with no choices carries the usage.
  if (wantsUsage) events.push(chunk([], { usage }));
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
  const reply = replyFor(body);
  // A relay settles a chat by its tokens as it answers; its usage log has the row (the answer's request id).
  if (ctx.sim.profile !== 'commercial') {
    const usage = usageFor(body, reply);
    const usd = chatChargeUsd(ctx.sim, body.model, usage);
    settle(ctx.sim, usd);
    logConsume(ctx.sim, { model: body.model, usd, requestId: ctx.reqId, usage });
  }
  if (body.stream === true) return stream(ctx, body, reply);
  const message = { role: 'assistant', content: reply.content, ...(reply.toolCalls ? { tool_calls: reply.toolCalls } : {}) };
  sendJson(ctx, 200, {
    id: `chatcmpl-${randomAlnum(24)}`,
    object: 'chat.completion',
    created: unixSeconds(),
    model: body.model,
    choices: [{ index: 0, message, finish_reason: reply.finish }],
    usage: usageFor(body, reply),
  });
}

module.exports = [{ method: 'POST', path: '/v1/chat/completions', handler: completions }];
