'use strict';
// n8n's AI Agent (LangChain tool calling) with the OpenAI Chat Model node on the gateway and the
// packed node as three tools: the model asks for the balance, an image, then a video; n8n runs our
// node as `Check_Balance`, `Generate_Image` and `Generate_Video`; the agent's answer carries the
// image URL the gateway made and the id of the video still rendering. As a tool the node attaches
// no file (Generate Image has Download Result on) and answers a long video quickly as pending, in
// words the model can act on (On Timeout = Fail is set there: a tool call answers pending anyway).
const assert = require('node:assert/strict');
const { nodeOutput } = require('../run-e2e');

/** The items of a tool node's run (tools answer on the ai_tool connection, not main). */
function toolItems(run, nodeName) {
	const runs = run.data.resultData.runData[nodeName];
	assert.ok(runs && runs.length, `the tool "${nodeName}" never ran`);
	return runs.flatMap((r) => (r.data && r.data.ai_tool && r.data.ai_tool[0]) || []);
}

const toolOutput = (run, nodeName) => toolItems(run, nodeName).map((i) => i.json);

module.exports = async function (run, sim) {
	// What the gateway received: one image request carrying the prompt the model chose, one balance read.
	const images = sim.find('POST', '/v1/images/generations');
	assert.equal(images.length, 1, `expected 1 image request, the gateway saw ${images.length}`);
	assert.deepEqual(
		{ model: images[0].body.model, prompt: images[0].body.prompt, size: images[0].body.size, resolution: images[0].body.resolution },
		{ model: 'gpt-image-2', prompt: 'a lighthouse at dawn', size: '1:1', resolution: '1k' },
	);
	assert.equal(sim.count('GET', /balance$/), 1, 'expected one balance read by the Check Balance tool');
	const videos = sim.requests.filter((r) => r.method === 'POST' && /^\/v1\/(video\/generations|videos)$/.test(r.path));
	assert.equal(videos.length, 1, `expected 1 video submit, the gateway saw ${videos.length}`);
	assert.deepEqual({ model: videos[0].body.model, prompt: videos[0].body.prompt }, { model: 'seedance-2.0', prompt: 'waves at night' });
	// Download Result is on in Generate Image: as a tool, no file is fetched (nor attached).
	assert.equal(sim.requests.filter((r) => r.origin === 'files').length, 0, 'a tool call downloaded a result file');

	// The chat model: four turns (balance, image, video, answer), offered all three tools each time.
	const chats = sim.find('POST', '/v1/chat/completions');
	assert.equal(chats.length, 4, `expected 4 chat calls, the gateway saw ${chats.length}`);
	for (const chat of chats) {
		assert.equal(chat.body.model, 'gpt-5.6-sol');
		const tools = Object.fromEntries(chat.body.tools.map((t) => [t.function.name, t.function.parameters]));
		assert.deepEqual(Object.keys(tools).sort(), ['Check_Balance', 'Generate_Image', 'Generate_Video']);
		assert.equal(tools.Generate_Image.properties.prompt.type, 'string', 'the $fromAI prompt is not in the tool schema');
		assert.equal(chat.authValid, true, 'a chat call carried a wrong key');
	}
	const lastTurn = chats[3].body.messages;
	assert.equal(lastTurn.filter((m) => m.role === 'tool').length, 3, 'the last chat call does not carry all three tool results');

	// What n8n ran and what the user sees.
	for (const tool of ['Generate Image', 'Generate Video', 'Check Balance']) {
		assert.ok(toolItems(run, tool).every((i) => !i.binary), `the tool "${tool}" output carries a binary`);
	}
	const [image] = toolOutput(run, 'Generate Image');
	assert.match(String(image.url), new RegExp(`^${sim.filesUrl}/files/img-\\w+-1\\.png$`), `tool output: ${JSON.stringify(image)}`);
	assert.equal(toolOutput(run, 'Check Balance')[0].remainingBalance, 100.5);

	// The long video: a quick pending answer with its task id, state and how to check it.
	const [video] = toolOutput(run, 'Generate Video');
	assert.equal(video.pending, true, `Generate Video: ${JSON.stringify(video)}`);
	assert.ok(sim.task(video.taskId), `Generate Video names ${video.taskId}, which the gateway never created`);
	assert.match(String(video.message), new RegExp(`^Task ${video.taskId} is still running \\(status '[^']+'.*Task → Get.*with task id ${video.taskId}.*Do not call this tool again for it`));
	assert.equal(video.submitResponse, undefined, 'the submit answer is handed to the model');
	const videoRun = run.data.resultData.runData['Generate Video'][0];
	assert.ok(videoRun.executionTime < 45_000, `the video tool took ${videoRun.executionTime} ms`);

	const answer = nodeOutput(run, 'AI Agent');
	assert.equal(answer.length, 1, `expected 1 agent item, got ${answer.length}`);
	assert.ok(String(answer[0].output).includes(image.url), `the agent's answer lacks the image URL ${image.url}: ${answer[0].output}`);
	assert.ok(String(answer[0].output).includes(video.taskId), `the agent's answer lacks the video's task id ${video.taskId}: ${answer[0].output}`);

	assert.ok(!JSON.stringify(run).includes('sk-sim-good'), 'the API key appears in the run data');
};

// The long video: still rendering well after the tool's short wait.
module.exports.before = (sim) => sim.scenario('seedance-2.0', { durationMs: 600_000, progressSteps: [20] });
