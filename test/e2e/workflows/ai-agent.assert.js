'use strict';
// n8n's AI Agent (LangChain tool calling) with the OpenAI Chat Model node on the gateway and the
// packed node as two tools: the model asks for the balance, then for an image; n8n runs our node as
// `Check_Balance` and `Generate_Image`; the agent's answer carries the image URL the gateway made.
const assert = require('node:assert/strict');
const { nodeOutput } = require('../run-e2e');

/** The json of a tool node's run (tools answer on the ai_tool connection, not main). */
function toolOutput(run, nodeName) {
	const runs = run.data.resultData.runData[nodeName];
	assert.ok(runs && runs.length, `the tool "${nodeName}" never ran`);
	return runs.flatMap((r) => ((r.data && r.data.ai_tool && r.data.ai_tool[0]) || []).map((i) => i.json));
}

module.exports = async function (run, sim) {
	// What the gateway received: one image request carrying the prompt the model chose, one balance read.
	const images = sim.find('POST', '/v1/images/generations');
	assert.equal(images.length, 1, `expected 1 image request, the gateway saw ${images.length}`);
	assert.deepEqual(
		{ model: images[0].body.model, prompt: images[0].body.prompt, size: images[0].body.size, resolution: images[0].body.resolution },
		{ model: 'gpt-image-2', prompt: 'a lighthouse at dawn', size: '1:1', resolution: '1k' },
	);
	assert.equal(sim.count('GET', /balance$/), 1, 'expected one balance read by the Check Balance tool');

	// The chat model: three turns (balance call, image call, answer), offered both tools each time.
	const chats = sim.find('POST', '/v1/chat/completions');
	assert.equal(chats.length, 3, `expected 3 chat calls, the gateway saw ${chats.length}`);
	for (const chat of chats) {
		assert.equal(chat.body.model, 'gpt-5.6-sol');
		const tools = Object.fromEntries(chat.body.tools.map((t) => [t.function.name, t.function.parameters]));
		assert.deepEqual(Object.keys(tools).sort(), ['Check_Balance', 'Generate_Image']);
		assert.equal(tools.Generate_Image.properties.prompt.type, 'string', 'the $fromAI prompt is not in the tool schema');
		assert.equal(chat.authValid, true, 'a chat call carried a wrong key');
	}
	const lastTurn = chats[2].body.messages;
	assert.equal(lastTurn.filter((m) => m.role === 'tool').length, 2, 'the last chat call does not carry both tool results');

	// What n8n ran and what the user sees.
	const [image] = toolOutput(run, 'Generate Image');
	assert.match(String(image.url), new RegExp(`^${sim.filesUrl}/files/img-\\w+-1\\.png$`), `tool output: ${JSON.stringify(image)}`);
	assert.equal(toolOutput(run, 'Check Balance')[0].remainingBalance, 100.5);
	const answer = nodeOutput(run, 'AI Agent');
	assert.equal(answer.length, 1, `expected 1 agent item, got ${answer.length}`);
	assert.ok(String(answer[0].output).includes(image.url), `the agent's answer lacks the image URL ${image.url}: ${answer[0].output}`);

	assert.ok(!JSON.stringify(run).includes('sk-sim-good'), 'the API key appears in the run data');
};
