'use strict';
// Reading n8n's run data (for the assertion modules).

function runDataOf(run) {
	return run && run.data && run.data.resultData && run.data.resultData.runData;
}

/** Items ([{json, binary?, pairedItem}]) of node `nodeName`, output `output`, run `runIndex`. */
function nodeItems(run, nodeName, output = 0, runIndex = 0) {
	const runData = runDataOf(run);
	const nodeRuns = runData && runData[nodeName];
	if (!nodeRuns) {
		throw new Error(`node "${nodeName}" did not run (ran: ${Object.keys(runData || {}).join(', ') || 'none'})`);
	}
	const taskData = nodeRuns[runIndex];
	if (!taskData) throw new Error(`node "${nodeName}" has no run #${runIndex}`);
	if (taskData.error) throw new Error(`node "${nodeName}" failed: ${taskData.error.message}`);
	const outputs = (taskData.data && taskData.data.main) || [];
	return outputs[output] || [];
}

/** The `json` of each item of a node's output. */
function nodeOutput(run, nodeName, output = 0, runIndex = 0) {
	return nodeItems(run, nodeName, output, runIndex).map((i) => i.json);
}

/** The error object of a node's run, or undefined. */
function nodeError(run, nodeName, runIndex = 0) {
	const runData = runDataOf(run);
	const t = runData && runData[nodeName] && runData[nodeName][runIndex];
	return t && t.error;
}

module.exports = { nodeItems, nodeOutput, nodeError };
