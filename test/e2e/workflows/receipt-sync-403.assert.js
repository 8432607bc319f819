'use strict';
// In real n8n, a paid sync image (gpt-image-2: no task id) whose file host refuses the download
// (403, a signed link that expired) ends with an error item that holds the full signed URL (query
// included: the receipt), names the file host, and n8n's log names the URL too.
const assert = require('node:assert/strict');
const { nodeItems } = require('../run-e2e');

const XML = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>';

module.exports = async function (run, sim, result) {
	const items = nodeItems(run, 'Generate Image');
	assert.equal(items.length, 1, `expected 1 item, got ${items.length}`);
	const { json, binary } = items[0];
	const [file] = sim.requests.filter((r) => r.origin === 'files');
	assert.ok(file, 'the file host was never asked');
	const url = `${sim.filesUrl}${file.path}?${new URLSearchParams(file.query)}`;
	assert.match(url, /\?X-Expires=\d+&X-Signature=[0-9a-f]+$/);
	assert.equal(json.url, url, `the item's url is not the full signed URL: ${json.url}`);
	assert.ok(String(json.error).includes(url), `the error does not hold the full URL: ${json.error}`);
	assert.match(String(json.error), /file host .* answered 403/);
	assert.match(String(json.description), /fetch this URL again before it expires/);
	assert.equal(binary, undefined, 'an error page was stored as the image');
	assert.equal(sim.count('POST', '/v1/images/generations'), 1);
	const log = `${result.stdout}\n${result.stderr}`;
	assert.ok(log.includes(url), "n8n's log does not name the full result URL");
	const metadata = run.data.resultData.metadata;
	if (metadata) assert.ok(JSON.stringify(metadata).includes(url), `custom data lacks the URL: ${JSON.stringify(metadata)}`);
	assert.ok(!log.includes('sk-sim-good') && !JSON.stringify(run).includes('sk-sim-good'), 'the key leaked');
};

module.exports.before = (sim) => {
	sim.scenario('*', { signedUrls: true });
	sim.inject({ origin: 'files', path: /\.png$/, status: 403, body: XML, headers: { 'Content-Type': 'application/xml' }, times: Infinity });
};
