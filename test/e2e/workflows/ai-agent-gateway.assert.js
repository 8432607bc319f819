'use strict';
// In real n8n, examples/ai-agent-chat-model.json as shipped (its credential on the simulator): n8n's
// AI Agent thinks with our Unified AI Gateway Chat Model sub-node (a subclass of the AI Node SDK's
// BaseChatModel whose calls go through the package's transport), calls n8n's Calculator and our
// node as Check Balance, one tool call per turn, then answers with both results. On 1.x, which has
// no AI Node SDK, the same workflow stops at the sub-node with its plain "needs n8n 2.x" error, and
// nothing is sent.
const assert = require('node:assert/strict');
const { nodeOutput } = require('../run-e2e');

/** The items of a tool node's run (tools answer on the ai_tool connection, not main). */
function toolItems(run, nodeName) {
	const runs = run.data.resultData.runData[nodeName];
	assert.ok(runs && runs.length, `the tool "${nodeName}" never ran`);
	return runs.flatMap((r) => (r.data && r.data.ai_tool && r.data.ai_tool[0]) || []);
}

module.exports = async function (run, sim) {
	// The chat model: three turns (calculator, balance, answer), each offered both tools, on our credential.
	const chats = sim.find('POST', '/v1/chat/completions');
	assert.equal(chats.length, 3, `expected 3 chat calls, the gateway saw ${chats.length}`);
	for (const chat of chats) {
		assert.equal(chat.body.model, 'gpt-5.6-sol');
		assert.equal(chat.body.temperature, 0.2, 'the Options → Sampling Temperature of the sub-node was not sent');
		// n8n 2.x names a tool after its node: the Calculator's is `Calculator`.
		assert.deepEqual(chat.body.tools.map((t) => t.function.name).sort(), ['Calculator', 'Check_Balance']);
		assert.equal(chat.authExact, true, 'a chat call did not carry exactly `Bearer <key>`');
		// The package's own body: the agent's system message as role system (none renamed for gpt-5).
		assert.equal(chat.body.messages[0].role, 'system', JSON.stringify(chat.body.messages[0]));
		assert.ok(!('max_completion_tokens' in chat.body), 'a client rewrote the request');
	}
	const [calc] = chats[1].body.messages.filter((m) => m.role === 'assistant').flatMap((m) => m.tool_calls);
	// As the agent sends the turn back (n8n's agent adds the call's id to its arguments when it replays it).
	assert.deepEqual({ name: calc.function.name, input: JSON.parse(calc.function.arguments).input }, { name: 'Calculator', input: '12 * 7' });
	assert.equal(chats[2].body.messages.filter((m) => m.role === 'tool').length, 2, 'the last chat call lacks a tool result');
	assert.equal(sim.count('GET', /balance$/), 1, 'expected one balance read by the Check Balance tool');

	// What n8n ran and what the user sees.
	assert.match(JSON.stringify(toolItems(run, 'Calculator')), /84/, 'the calculator did not answer 84');
	assert.equal(toolItems(run, 'Check Balance')[0].json.remainingBalance, 100.5);
	const modelRuns = run.data.resultData.runData['Gateway Chat Model'];
	assert.equal(modelRuns && modelRuns.length, 3, 'n8n did not log three calls of the chat model sub-node');
	const [answer] = nodeOutput(run, 'AI Agent');
	// n8n hands the tool's answer to the model as JSON: Calculator: [{"response":"84"}].
	assert.match(String(answer.output), /Calculator: .*\b84\b/, `the agent's answer: ${answer.output}`);
	assert.match(String(answer.output), /Check_Balance: 100\.5 remaining/, `the agent's answer lacks the balance: ${answer.output}`);
	assert.ok(!JSON.stringify(run).includes('sk-sim-good'), 'the API key appears in the run data');
};

module.exports.minMajor = 2;
module.exports.olderLabel = '"needs n8n 2.x"';
module.exports.older = async function (run, sim) {
	const text = JSON.stringify(run.data.resultData);
	assert.match(text, /The Unified AI Gateway Chat Model needs n8n 2\.x \(n8n's AI Node SDK, @n8n\/ai-node-sdk, is not in this n8n\)/);
	assert.equal(sim.find('POST', '/v1/chat/completions').length, 0, 'a chat call was sent without the SDK');
	assert.ok(!text.includes('sk-sim-good'), 'the API key appears in the run data');
};
