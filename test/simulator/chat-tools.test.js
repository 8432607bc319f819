'use strict';
// The simulator's chat speaks OpenAI tool calling, plain and streamed, so that n8n's AI Agent
// (LangChain's ChatOpenAI) can run against it. Wire shapes as OpenAI sends them.
const { startSimulator } = require('./index');

const KEY = 'sk-sim-test-key';
const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
const chat = (body) => fetch(`${sim.mainUrl}/v1/chat/completions`, { method: 'POST', headers, body: JSON.stringify(body) });

// What n8n sends for a gateway node used as a tool ($fromAI('prompt') → a required string).
const IMAGE_TOOL = {
  type: 'function',
  function: {
    name: 'Generate_Image',
    description: 'Generates one image from a text prompt and returns its public URL',
    parameters: { type: 'object', properties: { prompt: { type: 'string', description: 'What the image shows' } }, required: ['prompt'], additionalProperties: false },
  },
};
const BALANCE_TOOL = {
  type: 'function',
  function: { name: 'Check_Balance', description: 'Returns the remaining quota. Free.', parameters: { type: 'object', properties: {} } },
};
const VIDEO_TOOL = {
  type: 'function',
  function: { name: 'Make_Clip', description: 'Renders a short video', parameters: { type: 'object', properties: { text: { type: 'string' }, seconds: { type: 'integer' } }, required: ['text', 'seconds'] } },
};
const TOOLS = [BALANCE_TOOL, IMAGE_TOOL, VIDEO_TOOL];
const ASK = 'Check that my balance is above 1, then make a square poster image of a lighthouse at dawn for our newsletter and give me its link.';
const URL = 'http://127.0.0.1:9/files/img-abc-1.png';

/** The SSE stream → { chunks, toolCalls (reassembled as a client does), content, finish }. */
async function readStream(res) {
  const text = await res.text();
  const lines = text.split('\n\n').filter(Boolean).map((l) => l.replace(/^data: /, ''));
  expect(lines.at(-1)).toBe('[DONE]');
  const chunks = lines.slice(0, -1).map((l) => JSON.parse(l));
  const calls = [];
  let content = '';
  let finish = null;
  for (const c of chunks) {
    for (const choice of c.choices) {
      const d = choice.delta;
      if (typeof d.content === 'string') content += d.content;
      for (const tc of d.tool_calls || []) {
        calls[tc.index] ??= { id: '', type: '', function: { name: '', arguments: '' } };
        const call = calls[tc.index];
        if (tc.id) call.id = tc.id;
        if (tc.type) call.type = tc.type;
        if (tc.function?.name) call.function.name += tc.function.name;
        if (tc.function?.arguments) call.function.arguments += tc.function.arguments;
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
  }
  return { chunks, toolCalls: calls, content, finish };
}

let sim;
beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, quiet: true });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

test('with tools, an ask for an image answers with a tool call carrying the prompt', async () => {
  const res = await chat({ model: 'gpt-5.6-sol', messages: [{ role: 'user', content: 'Make an image of a red fox in fresh snow.' }], tools: TOOLS });
  expect(res.status).toBe(200);
  const body = await res.json();
  const [choice] = body.choices;
  expect(choice.finish_reason).toBe('tool_calls');
  expect(choice.message.role).toBe('assistant');
  expect(choice.message.content).toBeNull();
  expect(choice.message.tool_calls).toHaveLength(1);
  const [call] = choice.message.tool_calls;
  expect(call).toEqual({ id: expect.stringMatching(/^call_\w+$/), type: 'function', function: { name: 'Generate_Image', arguments: expect.any(String) } });
  expect(JSON.parse(call.function.arguments)).toEqual({ prompt: 'a red fox in fresh snow' });
  expect(body.usage.total_tokens).toBeGreaterThan(0);
});

test('asks are served in order, one call each, then the answer cites the tool results', async () => {
  const messages = [{ role: 'system', content: 'You are a design assistant.' }, { role: 'user', content: ASK }];
  const first = (await (await chat({ model: 'gpt-5.6-sol', messages, tools: TOOLS })).json()).choices[0].message;
  expect(first.tool_calls.map((c) => [c.function.name, JSON.parse(c.function.arguments)])).toEqual([['Check_Balance', {}]]);

  // LangChain sends the assistant turn back with content "" and the tool result as role "tool".
  messages.push({ ...first, content: '' }, { role: 'tool', tool_call_id: first.tool_calls[0].id, content: '[{"remaining":100.5,"summary":"100.5 remaining"}]' });
  const second = (await (await chat({ model: 'gpt-5.6-sol', messages, tools: TOOLS })).json()).choices[0].message;
  expect(second.tool_calls.map((c) => [c.function.name, JSON.parse(c.function.arguments)])).toEqual([
    ['Generate_Image', { prompt: 'a lighthouse at dawn for our newsletter' }],
  ]);

  messages.push(second, { role: 'tool', tool_call_id: second.tool_calls[0].id, content: JSON.stringify([{ url: URL, model: 'gpt-image-2' }]) });
  const final = await (await chat({ model: 'gpt-5.6-sol', messages, tools: TOOLS })).json();
  expect(final.choices[0].finish_reason).toBe('stop');
  expect(final.choices[0].message.tool_calls).toBeUndefined();
  expect(final.choices[0].message.content).toContain(`Generate_Image: ${URL}`);
  expect(final.choices[0].message.content).toContain('Check_Balance: 100.5 remaining');
});

test('a video ask fills the schema: the prompt in its string property, defaults for other required ones', async () => {
  const res = await chat({ model: 'gpt-5.6-sol', messages: [{ role: 'user', content: [{ type: 'text', text: 'Please generate a short video of waves at night; thanks' }] }], tools: TOOLS });
  const call = (await res.json()).choices[0].message.tool_calls[0];
  expect(call.function.name).toBe('Make_Clip');
  expect(JSON.parse(call.function.arguments)).toEqual({ text: 'waves at night', seconds: 0 });
});

test('streamed: tool-call deltas as OpenAI sends them, finish tool_calls, usage in a last chunk without choices', async () => {
  const res = await chat({ model: 'gpt-5.6-sol', messages: [{ role: 'user', content: 'Create an image of a paper boat' }], tools: [IMAGE_TOOL], stream: true, stream_options: { include_usage: true } });
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const { chunks, toolCalls, content, finish } = await readStream(res);
  expect(chunks[0].choices[0].delta).toMatchObject({ role: 'assistant', content: null, tool_calls: [{ index: 0, type: 'function', function: { name: 'Generate_Image', arguments: '' } }] });
  expect(chunks.filter((c) => c.choices[0]?.delta.tool_calls?.[0].function.arguments).length).toBeGreaterThan(1);
  expect(finish).toBe('tool_calls');
  expect(content).toBe('');
  expect(toolCalls).toHaveLength(1);
  expect(toolCalls[0].id).toMatch(/^call_/);
  expect(JSON.parse(toolCalls[0].function.arguments)).toEqual({ prompt: 'a paper boat' });
  const last = chunks.at(-1);
  expect(last.choices).toEqual([]);
  expect(last.usage.total_tokens).toBeGreaterThan(0);
});

test('streamed final answer after the tool result carries the URL', async () => {
  const messages = [
    { role: 'user', content: 'Create an image of a paper boat' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'Generate_Image', arguments: '{"prompt":"a paper boat"}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: `Image ready at ${URL}` },
  ];
  const { content, finish, toolCalls } = await readStream(await chat({ model: 'gpt-5.6-sol', messages, tools: [IMAGE_TOOL], stream: true }));
  expect(finish).toBe('stop');
  expect(toolCalls).toEqual([]);
  expect(content).toContain(`Generate_Image: ${URL}`);
});

test('no matching ask, tool_choice none, or no tools: the usual plain answer', async () => {
  const plain = async (extra, text = 'What is a lighthouse for?') => (await (await chat({ model: 'gpt-5.6-sol', messages: [{ role: 'user', content: text }], ...extra })).json()).choices[0];
  expect((await plain({ tools: TOOLS })).message).toEqual({ role: 'assistant', content: 'Echo: What is a lighthouse for?' });
  expect((await plain({ tools: TOOLS, tool_choice: 'none' }, 'Make an image of a cat')).message.content).toBe('Echo: Make an image of a cat');
  expect((await plain({}, 'Make an image of a cat')).finish_reason).toBe('stop');
  const forced = await plain({ tools: TOOLS, tool_choice: { type: 'function', function: { name: 'Check_Balance' } } });
  expect(forced.message.tool_calls[0].function.name).toBe('Check_Balance');
});

test('a tool result that answers no call, or a malformed tool, is a 400 naming the field', async () => {
  const orphan = await chat({ model: 'gpt-5.6-sol', messages: [{ role: 'user', content: 'hi' }, { role: 'tool', tool_call_id: 'call_x', content: 'r' }], tools: TOOLS });
  expect(orphan.status).toBe(400);
  expect((await orphan.json()).error).toMatchObject({ param: 'messages.[1].tool_call_id', message: expect.stringContaining('call_x') });
  const badTool = await chat({ model: 'gpt-5.6-sol', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'has space' } }] });
  expect(badTool.status).toBe(400);
  expect((await badTool.json()).error.param).toBe('tools');
});
