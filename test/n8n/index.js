'use strict';
/*
 * Real n8n of a given line for the e2e, the demo and the UI test.
 *
 *   const n8n = require('./test/n8n');
 *   const host = await n8n.prepareN8n({ version: '2.41.1' });   // installed once, then reused
 *   await n8n.runN8n(userFolder, ['import:workflow', '--input=wf.json'], { version: '2.41.1' });
 *   const server = await n8n.startN8n(userFolder, { version: '2.41.1' }); // server.baseUrl, server.stop()
 *
 * The version defaults to N8N_VERSION (default 1.123.81); see lines.js for what differs by line.
 * n8n + package + simulator in one call, as every real-n8n runner starts them: instance.js.
 */

const lines = require('./lines');
const install = require('./install');
const env = require('./env');
const server = require('./server');
const run = require('./run');
const redact = require('./redact');
const rest = require('./rest');

module.exports = { ...lines, ...install, ...env, ...server, ...run, ...redact, ...rest };
