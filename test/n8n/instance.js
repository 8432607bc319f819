'use strict';
/*
 * The one way every real-n8n runner (e2e, stop, restart, queue, UI, demo, bench) starts n8n + this
 * package + the gateway simulator. It only puts together the parts beside it (prepareN8n,
 * installPackage, the simulator, import / publish through n8n's CLI, startN8n, the owner login).
 *
 *   const { startInstance } = require('../n8n/instance');
 *   const inst = await startInstance({ version, mode: 'start', simulator: { apiKey }, workflows, publish });
 *   // inst.n8n.baseUrl, inst.cookie, inst.sim, inst.userFolder …
 *   await inst.stop();
 *
 * Steps, in this order, each through options.step(name, fn) so a runner can print it:
 *   'line'        prepareN8n (or options.n8nDir as it is)
 *   'package'     npm pack + install into the user folder (options.tgz: that tarball)
 *   'simulator'   start it (options.simulator: start options, an async factory, or a running one)
 *   'credentials' import:credentials; 'workflows' import:workflow; 'publish' publish each id
 *   'n8n'         startN8n (mode 'start'); then 'webhooks': wait until n8n has registered the webhooks
 *                 of the published workflows (after every start: test/n8n/rest.js waitForWebhooks);
 *                 'login' owner set-up and login
 * mode 'execute' stops before 'n8n' (the runner uses `n8n execute`, and may start() n8n later on
 * the same folder); mode 'queue' starts test/queue/cluster.js (Redis, PostgreSQL, main + workers;
 * it publishes through main's REST API once main runs, and waits for the webhooks).
 * credentials, workflows, vars and publish may be functions (async too) of the simulator; vars is
 * resolved first, and workflows gets it as its second argument.
 */

const fs = require('fs');
const path = require('path');

const { n8nLine } = require('./lines');
const { prepareN8n } = require('./install');
const { startN8n } = require('./server');
const { SIM_API_KEY } = require('./redact');
const { setupOwnerAndLogin, login, waitForWebhooks, webhooksOf } = require('./rest');
const children = require('./children');
const { tempDir, removeTempDir } = require('./tempdirs');
const cli = require('../e2e/cli');
const { installPackage } = require('../e2e/package');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const plainStep = (name, fn) => fn();
const valueOf = async (value, ...args) => (typeof value === 'function' ? value(...args) : value);

/** Workflow placeholders every runner fills from its simulator and the gateway credential. */
function simVars(sim) {
	return { ...(sim ? { SIM_MAIN: sim.mainUrl, SIM_ALT: sim.altUrl, SIM_FILES: sim.filesUrl } : {}), CRED_ID: cli.CRED_ID, CRED_NAME: cli.CRED_NAME };
}

/** The gateway credential for the simulator (its good key). */
function simCredential(sim, apiKey = SIM_API_KEY) {
	return cli.gatewayCredential({ baseUrl: `${sim.mainUrl}/v1`, altBaseUrl: sim.altUrl, apiKey });
}

/** What options.simulator says: { sim, own } (own: stop() closes it). */
async function simulatorOf(option) {
	if (!option) return { sim: undefined, own: false };
	if (typeof option === 'function') return { sim: await option(), own: true };
	if (option.mainUrl && typeof option.close === 'function') return { sim: option, own: false };
	return { sim: await require('../simulator').startSimulator({ apiKey: SIM_API_KEY, ...option }), own: true };
}

/** credentials, vars, workflows and publish of options, resolved against the simulator. */
async function setupOf(options, sim) {
	const vars = options.vars === undefined ? simVars(sim) : await valueOf(options.vars, sim);
	const credentials = options.credentials === undefined ? (sim ? [simCredential(sim)] : []) : await valueOf(options.credentials, sim);
	const workflows = (await valueOf(options.workflows, sim, vars)) || [];
	const publish = (await valueOf(options.publish, sim)) || [];
	return { vars, credentials: [].concat(credentials || []), workflows: [].concat(workflows), publish };
}

/** The webhooks ({ path, method }) of the workflows that are published: n8n must have them before a call. */
function publishedWebhooks({ workflows, vars, publish }) {
	const ids = new Set(publish.map(String));
	return workflows.map((w) => cli.loadWorkflow(w, vars)).filter((w) => ids.has(String(w.id))).flatMap(webhooksOf);
}

/**
 * Import credentials and workflows into a user folder (its database) and publish the given ids
 * (each one n8n start-up: 1.x update:workflow --active, 2.x publish:workflow).
 * options: { version, env (of each CLI start-up), step }
 */
async function importInto(userFolder, { credentials, workflows, vars, publish }, options = {}) {
	const step = options.step || plainStep;
	const cmd = { version: options.version, ...(options.env ? { env: options.env } : {}) };
	if (credentials.length) await step('credentials', () => cli.importCredential(userFolder, credentials, cmd));
	if (workflows.length) await step('workflows', () => cli.importWorkflow(userFolder, workflows, vars, cmd));
	if (publish.length) await step('publish', async () => {
		for (const id of publish) await cli.activateWorkflow(userFolder, id, cmd);
	});
}

/**
 * SIGTERM, a moment, then SIGKILL of the whole group: n8n gets no time to wind anything down.
 * sigterm: false sends SIGKILL alone (a crash, the OOM killer, `docker kill`): not even a warning.
 */
async function killHard(server, { sigterm = true } = {}) {
	const send = (sig) => {
		try {
			process.kill(-server.pid, sig);
		} catch {
			// gone already
		}
	};
	if (sigterm) {
		send('SIGTERM');
		await sleep(2000);
	}
	send('SIGKILL');
	await server.stop();
}

/**
 * options: { version (default N8N_VERSION or 1.123.81), n8nDir, mode ('start' | 'execute' | 'queue'),
 *   dir (temp root; default a fresh one, removed by stop() unless keep), keep (default E2E_KEEP=1),
 *   userFolder (default <dir>/user), packageDir, packDir (default dir), tgz (install this tarball),
 *   simulator, credentials (default: the gateway credential for the simulator), workflows, vars
 *   (default simVars), publish (ids), env (of `n8n start` and, in queue mode, every process), login
 *   (true: create the owner and log in; 'existing': log in), probes (the webhooks to wait for after
 *   each start, [{ path, method }]; default: those of the published workflows; [] waits for none), trackChildren (stop() also ends every child process this process spawned), step,
 *   queue: { workers, concurrency } }
 * Resolves with { mode, version, line, host, dir, userFolder, userFolders, installed, tgz, sim, vars,
 *   n8n, cluster, cookie, start(), stopN8n(), kill(), stop() }. A failed start stops what it started.
 */
async function startInstance(options = {}) {
	const mode = options.mode || 'start';
	const { version } = options; // undefined: N8N_VERSION, else the default line (lines.js)
	const step = options.step || plainStep;
	if (options.trackChildren) children.track();
	const ownDir = !options.dir;
	const keep = options.keep ?? process.env.E2E_KEEP === '1';
	// Removed by stop(), or at exit, Ctrl-C included (test/n8n/tempdirs.js), unless kept.
	const dir = options.dir || tempDir(options.prefix || 'n8n-instance-', { keep });
	let ownSim = false;
	let stopped = false;
	const inst = { mode, dir, userFolder: options.userFolder || path.join(dir, mode === 'queue' ? 'main' : 'user') };

	/** What a later start() runs n8n with when it is given no env (a runner may change it between starts). */
	inst.env = options.env;
	/** `n8n start` on the instance's user folder (again, after stopN8n() or kill()). opts: { env, login, probes, step } */
	inst.start = async (opts = {}) => {
		const step = opts.step || options.step || plainStep;
		const server = await step('n8n', () => startN8n(inst.userFolder, { version: inst.version, n8nDir: options.n8nDir, env: opts.env ?? inst.env }));
		inst.n8n = server;
		const hooks = opts.probes ?? options.probes ?? inst.webhooks ?? [];
		if (hooks.length) await step('webhooks', () => waitForWebhooks(server.baseUrl, hooks));
		const how = opts.login ?? options.login;
		if (how === 'existing') inst.cookie = (await step('login', () => login(server.baseUrl))).cookie;
		else if (how) inst.cookie = (await step('login', () => setupOwnerAndLogin(server.baseUrl))).cookie;
		return server;
	};
	/** Stops `n8n start` (SIGTERM, then SIGKILL of its group); the rest keeps running. */
	inst.stopN8n = async () => {
		const server = inst.n8n;
		inst.n8n = undefined;
		inst.cookie = undefined;
		if (server) await server.stop();
	};
	/** The hard kill: SIGTERM, 2 s, SIGKILL of n8n's group ({ sigterm: false }: SIGKILL alone). start() brings it back on the same folder. */
	inst.kill = async (opts = {}) => {
		const server = inst.n8n;
		inst.n8n = undefined;
		inst.cookie = undefined;
		if (server) await killHard(server, opts);
	};
	/** Everything started, in reverse: n8n (or the cluster), the simulator it started, tracked children, its temp folder. */
	inst.stop = async () => {
		if (stopped) return;
		stopped = true;
		if (inst.cluster) await inst.cluster.stop().catch(() => {});
		await inst.stopN8n().catch(() => {});
		if (ownSim && inst.sim) await inst.sim.close().catch(() => {});
		if (options.trackChildren) await children.stopChildren();
		if (ownDir && !keep) removeTempDir(dir);
	};

	try {
		inst.host = await step('line', () => (options.n8nDir ? { dir: options.n8nDir, reused: true } : prepareN8n({ version })));
		inst.line = n8nLine(version, { dir: options.n8nDir });
		inst.version = inst.line.version;
		if (mode === 'queue') {
			({ sim: inst.sim, own: ownSim } = await step('simulator', () => simulatorOf(options.simulator)));
			const setup = await setupOf(options, inst.sim);
			inst.vars = setup.vars;
			inst.cluster = await require('../queue/cluster').startCluster({
				version: inst.version,
				dir,
				...setup,
				...(options.queue || {}),
				probes: options.probes,
				env: options.env,
			});
			inst.userFolders = inst.cluster.folders;
			inst.tgz = inst.cluster.tgz;
			if (options.login) inst.cookie = (await step('login', () => setupOwnerAndLogin(inst.cluster.main.baseUrl))).cookie;
			return inst;
		}
		fs.mkdirSync(inst.userFolder, { recursive: true });
		inst.userFolders = [inst.userFolder];
		inst.installed = await step('package', () =>
			installPackage(inst.userFolder, options.tgz ? { tgz: options.tgz } : { packDir: options.packDir || dir, packageDir: options.packageDir }),
		);
		inst.tgz = inst.installed.tgz;
		({ sim: inst.sim, own: ownSim } = await step('simulator', () => simulatorOf(options.simulator)));
		const setup = await setupOf(options, inst.sim);
		inst.vars = setup.vars;
		inst.webhooks = publishedWebhooks(setup);
		await importInto(inst.userFolder, setup, { version: inst.version, step });
		if (mode === 'start') await inst.start();
		return inst;
	} catch (e) {
		await inst.stop();
		throw e;
	}
}

/**
 * Ctrl-C or SIGTERM while a runner works with an instance: say so, stop it (n8n's process group, its
 * simulator, its folder), exit 130. `target`: the instance, or a function giving it (undefined while
 * startInstance runs: then every child process started since this call is ended, n8n midway
 * through its start included, and the folder goes at exit). Returns the function that takes the
 * handler off again.
 */
function stopOnSignal(target) {
	children.track();
	const onSignal = (signal) => {
		console.log(`interrupted (${signal}), stopping n8n and the simulator`);
		const inst = typeof target === 'function' ? target() : target;
		(inst ? inst.stop() : children.stopChildren()).finally(() => process.exit(130));
	};
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	return () => {
		process.removeListener('SIGINT', onSignal);
		process.removeListener('SIGTERM', onSignal);
	};
}

module.exports = { startInstance, stopOnSignal, importInto, publishedWebhooks, simVars, simCredential };
