'use strict';
// The workflow's Timeout Workflow (settings.executionTimeout = 15 s) in a real n8n: the node's wait
// (Max Wait 30 min) ends before n8n cancels the execution, and the task comes out as a pending item
// with its id and how to resume, instead of the execution being cancelled with nothing output.
const assert = require('node:assert/strict');
const { nodeOutput } = require('../run-e2e');

module.exports = async function (run, sim) {
	assert.notEqual(run.status, 'canceled', 'n8n cancelled the execution: the wait outlived it');
	const items = nodeOutput(run, 'Generate Video');
	assert.equal(items.length, 1, `expected the pending item, got ${JSON.stringify(items)}`);
	const json = items[0];
	assert.equal(json.pending, true, JSON.stringify(json));
	assert.match(String(json.taskId), /^task_/);
	assert.equal(json.queryRoute, 'generic');
	assert.match(json.message, /neared its time limit .*resume it with Task → Wait for Completion/);
	assert.equal(sim.find('POST', '/v1/video/generations').length, 1);
};

module.exports.before = (sim) => sim.scenario('sora-2', { durationMs: 600_000 });
