'use strict';
// docs/gateway-contract.md §5 rule 5: task queries and downloads use the same key. A result URL on the gateway's own host
// gets the key (without it: 401 and a paid image lost); the separate files host never gets it.
const assert = require('node:assert/strict');
const { nodeItems } = require('../run-e2e');

module.exports = async function (run, sim) {
	const items = nodeItems(run, 'Generate Image');
	assert.equal(items.length, 1, `expected 1 image item, got ${items.length}`);
	const { json, binary } = items[0];
	assert.ok(String(json.url).includes('/v1/results/'), `result not on the gateway host: ${json.url}`);
	const fetched = sim.find('GET', /^\/v1\/results\//);
	assert.equal(fetched.length, 1, `expected one result download on the gateway host, saw ${fetched.length}`);
	assert.equal(fetched[0].authValid, true, 'the gateway-host result was fetched without the key');
	assert.ok(sim.find('GET', /^\/files\//, 'files').every((r) => !r.hasAuth), 'the key reached the files host');
	assert.ok(binary && binary.data, 'no binary "data" on the item');
	assert.equal(binary.data.mimeType, 'image/png');
};
module.exports.before = (sim) => sim.scenario('*', { durationMs: 1500, resultHost: 'main', imageShape: 'full' });
