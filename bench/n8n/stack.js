'use strict';
/*
 * The n8n the benchmark runs in, started the way users run it, with the packed package installed:
 *   regular  one `n8n start` with a fresh user folder (SQLite); the node runs in main
 *   queue    Redis + PostgreSQL + main + two `n8n worker`s (test/queue/cluster.js); the node runs
 *            in the workers
 * Both give { baseUrl, cookie, runners: [{ name, pid }] (the processes whose RSS is sampled), stop() }.
 * stop() ends everything started, by process id; a failed start has stopped its part already.
 */

const fs = require('fs');
const path = require('path');

const n8n = require('../../test/n8n');
const cli = require('../../test/e2e/cli');
const pkg = require('../../test/e2e/package');
const { startCluster, waitForWebhooks } = require('../../test/queue/cluster');
const workflows = require('./workflows');

/** Settings of every n8n process: binary data on disk on both lines (the workflows save executions in full). */
function benchEnv(line) {
	return {
		// 2.x stores binaries on disk always (and refuses the old setting's "default"); 1.x needs it said.
		...(line.major < 2 ? { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' } : {}),
	};
}

async function startRegular({ version, dir, credential, vars }) {
	const line = n8n.n8nLine(version);
	const userFolder = path.join(dir, 'main');
	fs.mkdirSync(userFolder, { recursive: true });
	const cmd = { version };
	await pkg.installPackage(userFolder, { packDir: path.join(dir, 'pack') });
	await cli.importCredential(userFolder, credential, cmd);
	const list = workflows.ALL();
	await cli.importWorkflow(userFolder, list, vars, cmd);
	for (const wf of list) await cli.activateWorkflow(userFolder, wf.id, cmd);
	const server = await n8n.startN8n(userFolder, { version, env: benchEnv(line) });
	try {
		await waitForWebhooks(server.baseUrl, workflows.PROBES);
		const { cookie } = await n8n.setupOwnerAndLogin(server.baseUrl);
		return { mode: 'regular', line, baseUrl: server.baseUrl, cookie, runners: [{ name: 'main', pid: server.pid }], logs: [server.logFile], stop: () => server.stop() };
	} catch (e) {
		await server.stop();
		throw e;
	}
}

async function startQueue({ version, dir, credential, vars }) {
	const line = n8n.n8nLine(version);
	const list = workflows.ALL();
	const cluster = await startCluster({
		version,
		dir,
		credential,
		workflows: list,
		vars,
		activate: list.map((w) => w.id),
		probes: workflows.PROBES,
		env: benchEnv(line),
	});
	try {
		const { cookie } = await n8n.setupOwnerAndLogin(cluster.main.baseUrl);
		return {
			mode: 'queue',
			line,
			baseUrl: cluster.main.baseUrl,
			cookie,
			runners: cluster.workers.map((w) => ({ name: w.name, pid: w.server.pid })),
			logs: [cluster.main.logFile, ...cluster.workers.map((w) => w.server.logFile)],
			stop: () => cluster.stop(),
		};
	} catch (e) {
		await cluster.stop();
		throw e;
	}
}

/** options: { queue, version, dir, credential, vars } */
async function startStack(options) {
	return options.queue ? startQueue(options) : startRegular(options);
}

module.exports = { startStack };
