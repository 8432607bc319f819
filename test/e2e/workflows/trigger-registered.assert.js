'use strict';
// Real n8n 1.123.81 builds every node of a workflow before running it and throws
// UnrecognizedNodeTypeError for a type its loader did not find: a passing run means the packed
// package registers `unifiedAiGatewayTrigger` (package.json n8n.nodes) and n8n can load its class
// and resolve its parameters. The run starts from the Manual Trigger (the editor's Execute workflow
// from that trigger, as `n8n execute` did): the workflow's other trigger does not run, so the
// trigger's behaviour is covered by test/trigger.test.js through n8n-core's PollContext and, published,
// by the e2e's live checks.
const assert = require('node:assert/strict');
const { nodeOutput } = require('../run-e2e');

module.exports = async function (run, sim) {
	assert.equal(nodeOutput(run, 'Marker').length, 1, 'the Manual Trigger branch did not run');
	const runData = run.data.resultData.runData;
	assert.equal(runData['Gateway Trigger'], undefined, 'a run from the Manual Trigger ran the polling trigger too');
	assert.equal(sim.count('GET', '/v1/balance'), 0, 'the trigger polled in a run started from the Manual Trigger');
};
