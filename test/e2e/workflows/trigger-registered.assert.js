'use strict';
// Real n8n 1.123.81 builds every node of a workflow before running it and throws
// UnrecognizedNodeTypeError for a type its loader did not find: a passing run means the packed
// package registers `unifiedAiGatewayTrigger` (package.json n8n.nodes) and n8n can load its class
// and resolve its parameters. `n8n execute` runs in 'cli' mode from the Manual Trigger and never
// calls a polling trigger's poll() (n8n-core executePollNode calls it only in 'manual' mode), so
// the trigger's behaviour is covered by test/trigger.test.js through n8n-core's PollContext.
const assert = require('node:assert/strict');
const { nodeOutput } = require('../run-e2e');

module.exports = async function (run, sim) {
	assert.equal(nodeOutput(run, 'Marker').length, 1, 'the Manual Trigger branch did not run');
	const runData = run.data.resultData.runData;
	assert.equal(runData['Gateway Trigger'], undefined, 'n8n execute unexpectedly ran the polling trigger');
	assert.equal(sim.count('GET', '/v1/balance'), 0, 'the trigger polled although n8n execute cannot run it');
};
