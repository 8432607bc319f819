'use strict';
// The simulator's "model" behind /v1/chat/completions when the request offers `tools`: a small,
// deterministic rule set that picks a tool and its arguments from the user's last message, the way
// a tool-calling model would, so that n8n's AI Agent (LangChain) can run against the simulator.
//
//   "check my balance"                       → a tool named or described as balance/quota, {}
//   "make|create|generate … image of X"      → a tool named (or described) image, { prompt: 'X' }
//   "make|create|generate … video of X"      → a tool named (or described) video, { prompt: 'X' }
//   "calculate|compute|what is 12 * 7"       → a tool named (or described) calculator/math, { input: '12 * 7' }
//
// Several asks in one message are served in the order they are written, one tool call per
// answer; each tool is called once per user message. When every ask has its tool result, the
// answer cites the results (every URL they contain). Nothing asked for → no tool call.

const VERB = /\b(?:make|create|generate|draw|render|produce|design|paint|film|shoot)\b/i;
const IMAGE_WORDS = 'image|picture|photo|poster|illustration|drawing|logo|artwork';
const VIDEO_WORDS = 'video|clip|movie|animation|film';
const nounPattern = (words) => new RegExp(`\\b(?:${words})s?\\b`, 'i');
const IMAGE_NOUN = nounPattern(IMAGE_WORDS);
const VIDEO_NOUN = nounPattern(VIDEO_WORDS);
// Where a prompt ends: end of sentence, "then …", "and give/send …", or the next ask.
const PROMPT_END = new RegExp(
  [
    '[.!?](?:\\s|$)',
    ';',
    '\\s+(?:and\\s+)?then\\b',
    '\\s+and\\s+(?:also\\s+)?(?:give|send|return|tell|show|share|reply|post|email|make|create|generate|draw|render|produce)\\b',
    `\\s+and\\s+(?:a|an|one)\\s+(?:\\w+\\s+)?(?:${IMAGE_WORDS}|${VIDEO_WORDS})s?\\b`,
  ].join('|'),
  'i',
);

// A sum to work out: "calculate 12 * 7", "what is (3 + 4) / 2": the arithmetic after the verb.
const MATH_ASK = /\b(?:calculate|compute|work out|what(?:'s| is)|how much is)\s+(-?[\d.(][\d.\s+\-*/^%()]*[\d)])/i;

const INTENTS = [
  { kind: 'balance', asks: (t) => t.search(/\b(?:balance|quota|credits?)\b/i), tool: /balance|quota/i },
  { kind: 'math', asks: (t) => (MATH_ASK.exec(t)?.index ?? -1), tool: /calculat|math/i },
  { kind: 'video', asks: (t) => creativeAsk(t, VIDEO_NOUN), tool: /video/i },
  { kind: 'image', asks: (t) => creativeAsk(t, IMAGE_NOUN), tool: /image|picture/i, not: /video/i },
];

/** Position of "make … <noun>" in the text, or -1. */
function creativeAsk(text, noun) {
  const verb = VERB.exec(text);
  if (!verb) return -1;
  const after = text.slice(verb.index);
  const found = noun.exec(after);
  if (!found) return -1;
  // The noun belongs to this verb only if no sentence ends between them.
  if (/[.!?]\s/.test(after.slice(0, found.index))) return -1;
  return verb.index + found.index;
}

/** The words that describe what to make: "… image of X and give me …" → "X". */
function promptFor(text, noun, from) {
  const rest = text.slice(from);
  const described = new RegExp(`${noun.source}\\s*(?:of|showing|depicting|about|with|:)\\s+`, 'i').exec(rest);
  const start = described ? described.index + described[0].length : (noun.exec(rest)?.index ?? 0);
  const tail = rest.slice(start);
  const end = PROMPT_END.exec(tail);
  const prompt = (end ? tail.slice(0, end.index) : tail).trim().replace(/^["'“]|["'”]$/g, '');
  return prompt || text.trim();
}

function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.filter((p) => p && p.type === 'text').map((p) => p.text).join('\n');
  return '';
}

const toolName = (tool) => tool?.function?.name;

/** The offered tool for an intent: by name first, then by description. */
function toolFor(intent, tools) {
  const fits = (text) => intent.tool.test(text) && !(intent.not && intent.not.test(text));
  return tools.find((t) => fits(toolName(t))) || tools.find((t) => fits(t.function.description || ''));
}

/** Arguments for a tool's JSON schema: the prompt in the prompt-like property, defaults elsewhere. */
function argumentsFor(tool, prompt) {
  const schema = tool.function.parameters || {};
  const props = schema.properties || {};
  const names = Object.keys(props);
  const promptKey = prompt === undefined
    ? undefined
    : ['prompt', 'text', 'description', 'query', 'input', 'instructions'].find((k) => k in props) ||
      names.find((k) => props[k]?.type === 'string');
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const args = {};
  for (const name of names) {
    if (name === promptKey) args[name] = prompt;
    else if (required.has(name)) args[name] = defaultFor(props[name]);
  }
  return args;
}

function defaultFor(prop = {}) {
  if (prop.default !== undefined) return prop.default;
  if (Array.isArray(prop.enum) && prop.enum.length) return prop.enum[0];
  const type = Array.isArray(prop.type) ? prop.type[0] : prop.type;
  return { number: 0, integer: 0, boolean: false, array: [], object: {} }[type] ?? '';
}

/** The tool calls and their results since the user's last message. */
function turnSoFar(messages) {
  let start = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user') start = i;
  });
  const calls = new Map();
  const results = [];
  for (const m of messages.slice(start + 1)) {
    if (m.role === 'assistant' && Array.isArray(m.tool_calls)) {
      for (const c of m.tool_calls) calls.set(c.id, toolName(c));
    }
    if (m.role === 'tool') results.push({ name: calls.get(m.tool_call_id) || 'tool', text: textOf(m.content) });
  }
  return { request: start >= 0 ? textOf(messages[start].content) : '', called: new Set(calls.values()), results };
}

const URL_PATTERN = /https?:\/\/[^\s"'<>\\)\]]+/g;

/** A tool result in a few words: our node's `summary` if it has one, else the text shortened. */
function gist(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const first = Array.isArray(value) ? value[0] : value;
  if (first && typeof first === 'object' && typeof first.summary === 'string') return first.summary;
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 200 ? `${one.slice(0, 199)}…` : one;
}

/** The final answer after tool results: one line per result, every URL in it quoted as is. */
function citeResults(results) {
  const lines = results.map(({ name, text }) => {
    const urls = [...new Set(text.match(URL_PATTERN) || [])];
    return `${name}: ${urls.length ? urls.join(' ') : gist(text)}`;
  });
  return `Done. Here is what the tools returned:\n${lines.join('\n')}`;
}

/**
 * The next assistant message for a chat request with tools:
 * { toolCalls: [{ name, arguments }] } or { content } (or null: no tools, answer as usual).
 */
function agentReply(body) {
  const tools = (Array.isArray(body.tools) ? body.tools : []).filter((t) => t && t.type === 'function' && toolName(t));
  if (!tools.length || body.tool_choice === 'none') return null;
  const { request, called, results } = turnSoFar(body.messages);
  const forced = body.tool_choice?.function?.name;
  const asks = INTENTS.map((intent) => ({ intent, at: intent.asks(request), tool: toolFor(intent, tools) }))
    .filter((a) => a.at >= 0 && a.tool && (!forced || toolName(a.tool) === forced))
    .sort((a, b) => a.at - b.at);
  const next = asks.find((a) => !called.has(toolName(a.tool)));
  if (next) {
    const noun = { image: IMAGE_NOUN, video: VIDEO_NOUN }[next.intent.kind];
    const prompt = next.intent.kind === 'math' ? MATH_ASK.exec(request)[1].trim() : noun ? promptFor(request, noun, next.at) : undefined;
    return { toolCalls: [{ name: toolName(next.tool), arguments: argumentsFor(next.tool, prompt) }] };
  }
  if (results.length) return { content: citeResults(results) };
  const mustCall = forced || (body.tool_choice === 'required' ? toolName(tools[0]) : undefined);
  if (mustCall && !called.has(mustCall)) {
    const tool = tools.find((t) => toolName(t) === mustCall);
    if (tool) return { toolCalls: [{ name: mustCall, arguments: argumentsFor(tool, request.trim()) }] };
  }
  return null;
}

module.exports = { agentReply, promptFor, textOf, IMAGE_NOUN, VIDEO_NOUN };
