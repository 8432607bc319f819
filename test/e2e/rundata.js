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

/**
 * The bytes of a binary of a run: base64 in the run data (1.x default mode) or the file in n8n's
 * binary store on disk (filesystem mode, always on 2.x): `<userFolder>/.n8n/{binaryData,storage}/<path of the id>`.
 * result: what executeWorkflow returned plus { userFolder } (the third argument of an assertion).
 */
function binaryBuffer(result, binary) {
	if (binary.data && !/^filesystem/.test(binary.data)) return Buffer.from(binary.data, 'base64');
	const id = String(binary.id || '');
	const m = /^filesystem(?:-v2)?:(.+)$/.exec(id);
	if (!m) throw new Error(`binary has neither inline data nor a filesystem id: ${JSON.stringify(binary)}`);
	const fs = require('fs');
	const path = require('path');
	// 1.x keeps the store in .n8n/binaryData, 2.x in .n8n/storage; a workflow's setup may have moved it (binaryFolder).
	const candidates = [...(result.binaryFolder ? [path.join(result.binaryFolder, m[1])] : []), ...['binaryData', 'storage'].map((store) => path.join(result.userFolder, '.n8n', store, m[1]))];
	const file = candidates.find((f) => fs.existsSync(f));
	if (!file) throw new Error(`binary ${id} is not in n8n's store (${candidates.join(' or ')})`);
	return fs.readFileSync(file);
}

module.exports.binaryBuffer = binaryBuffer;
