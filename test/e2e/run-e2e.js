#!/usr/bin/env node
'use strict';
/*
 * End-to-end tests against a real n8n of one line.
 *
 *   npm run test:e2e                         (builds, then runs this file; n8n 1.123.81)
 *   N8N_VERSION=2.41.1 npm run test:e2e      (the 2.x line)
 *   node test/e2e/run-e2e.js [name-filter ...]
 *
 * Steps: prepare n8n (test/n8n: installed once per version, reused later), pack this
 * package and install the tarball as a community package into a fresh temp n8n user folder,
 * start the gateway simulator, import a credential and the workflows in test/e2e/workflows/*.json;
 * run a workflow with a setup() (its own n8n settings) with `n8n execute --rawOutput`; then start
 * n8n once and, in it: the live checks of what n8n loaded (live.js), then side by side each
 * workflow as the editor runs it (rest-workflows.js executeInServer), the scheduled-batch example
 * pair on a Data table (scheduled-batch.js) and the published trigger (live.js), those two on
 * simulators of their own. Each run is checked with its <name>.assert.js.
 *
 * Environment:
 *   N8N_VERSION     the n8n line (a folder of test/n8n/hosts; default 1.123.81)
 *   N8N_E2E_DIR     where that n8n is installed (default ~/.cache/n8n-nodes-unified-ai-gateway/n8n-<version>)
 *   E2E_KEEP=1      keep the temp folders (printed) for inspection
 *   E2E_VERBOSE=1   print the n8n command lines and their output
 *   E2E_LIVE=0      skip the live checks
 *
 * The helpers are exported for the demo and UI tests (re-exported from test/n8n and the files here).
 */

const fs = require('fs');
const path = require('path');

const { chatModelCredential, CHAT_CRED_ID, CHAT_CRED_NAME } = require('./chat-credential');
const n8n = require('../n8n');
const cli = require('./cli');
const pkg = require('./package');
const { startInstance, simVars, simCredential } = require('../n8n/instance');
const rundata = require('./rundata');
const scheduledBatch = require('./scheduled-batch');
const liveChecks = require('./live');
const rest = require('./rest-workflows');
const { assertRunMatchesSchemas } = require('../schemas');
const { tempDir, removeTempDir } = require('../n8n/tempdirs');

const { REPO_ROOT } = pkg;
const { SIM_API_KEY, redact } = n8n;
const N8N_VERSION = process.env.N8N_VERSION || n8n.DEFAULT_VERSION;
const WORKFLOWS_DIR = path.join(__dirname, 'workflows');

const n8nDir = (version) => n8n.n8nLine(version).dir;

function listWorkflows(filters = []) {
	if (!fs.existsSync(WORKFLOWS_DIR)) return [];
	return fs
		.readdirSync(WORKFLOWS_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((f) => {
			const name = f.replace(/\.json$/, '');
			return { name, file: path.join(WORKFLOWS_DIR, f), assertFile: path.join(WORKFLOWS_DIR, `${name}.assert.js`) };
		})
		.filter((w) => !filters.length || filters.some((x) => w.name.includes(x)));
}

const firstLine = (msg) => String(msg).split('\n')[0];
const indent = (msg) =>
	String(msg)
		.split('\n')
		.map((l) => `      ${l}`)
		.join('\n');

/**
 * A workflow file that names an example ({ example, replace }) runs that example as shipped, with only
 * what ties it to this n8n replaced (its credential, a URL on the simulator): one home for the workflow.
 */
function fromExample(file) {
	const given = JSON.parse(fs.readFileSync(file, 'utf8'));
	if (typeof given.example !== 'string') return file;
	let text = fs.readFileSync(path.join(REPO_ROOT, 'examples', `${given.example}.json`), 'utf8');
	for (const [from, to] of Object.entries(given.replace ?? {})) {
		if (!text.includes(from)) throw new Error(`examples/${given.example}.json has no ${JSON.stringify(from)} to replace`);
		text = text.split(from).join(to);
	}
	return JSON.parse(text);
}

/** Prints FAIL <name>: <first line>, the rest indented. */
function reportFailure(name, e) {
	const msg = redact(e && e.message ? e.message : String(e));
	console.log(`FAIL ${name}: ${firstLine(msg)}`);
	const rest = msg.split('\n').slice(1).join('\n').trim();
	if (rest) console.log(indent(rest));
}

/** A workflow with a setup() needs an n8n process of its own (its settings): `n8n execute`, before n8n starts. */
const ownProcess = (w) => typeof w.check.setup === 'function';

/**
 * A workflow for a newer line than this one (its assertion's `minMajor`, e.g. 2 for the AI Node
 * SDK): on an older line it runs only if the assertion has an `older` check (what that line must
 * do instead: fail in plain words), else it is skipped and said so.
 */
const olderLine = (w, ctx) => typeof w.check.minMajor === 'number' && ctx.instance.line.major < w.check.minMajor;

/**
 * Runs one workflow and its assertion; throws what a failure should say. In the started n8n
 * (ctx.api) as the editor runs it, or, for a workflow with a setup(), with `n8n execute`.
 */
async function runOne(w, ctx) {
	const older = olderLine(w, ctx);
	ctx.sim.reset();
	if (typeof w.check.before === 'function') await w.check.before(ctx.sim);
	// setup(ctx) → { env, teardown, result }: settings of this workflow's n8n process, what undoes them
	// once the assertion has run (it may read what n8n stored there), facts handed to the assertion.
	const setup = ownProcess(w) ? ((await w.check.setup(ctx)) ?? {}) : {};
	try {
		const timeoutMs = w.check.timeoutMs || Number(process.env.E2E_TIMEOUT_MS) || 180000;
		const res =
			ctx.api && !ownProcess(w)
				? await rest.executeInServer(ctx.api, w.workflow, { version: ctx.version, timeoutMs, log: ctx.log })
				: await cli.executeWorkflow(ctx.userFolder, w.id, { timeoutMs, ...(setup.env ? { env: setup.env } : {}) });
		const result = { ...res, userFolder: ctx.userFolder, version: ctx.version, ...setup.result };
		if (w.check.expectError || older) {
			if (res.ok) throw new Error('the execution succeeded, but an error was expected');
		} else if (!res.ok) {
			throw new Error(res.error);
		}
		// A check may return a note (a part it could not run here, e.g. without ffprobe): printed on its ok line.
		const note = await (older ? w.check.older : w.check)(res.run, ctx.sim, result);
		// What the node emitted in real n8n matches the output schema n8n shows before a run.
		assertRunMatchesSchemas(res.run, w.nodes);
		return [res.warning, typeof note === 'string' ? note : undefined].filter(Boolean).join('; ') || undefined;
	} finally {
		await setup.teardown?.();
	}
}

/** A check's own simulator and the gateway credential on it: no check resets another's simulator. */
/**
 * The same simulator under a credential of its own, for a workflow whose before() plays another build
 * (`sim.setProfile('plainNewApi')`): the node keeps a gateway's price list and build for a minute per
 * credential (api/runReads.ts), so under the shared credential it would meet what an earlier workflow
 * read of the other build.
 */
const RELAY_CRED = { id: 'e2eRelayCred', name: 'Unified AI Gateway (plain relay)' };

async function ownSimulator(startSimulator, id, name) {
	const sim = await startSimulator({ apiKey: SIM_API_KEY });
	return { sim, credential: cli.gatewayCredential({ baseUrl: `${sim.mainUrl}/v1`, altBaseUrl: sim.altUrl, apiKey: SIM_API_KEY, id, name }) };
}

/**
 * Run the e2e suite of a line: one n8n serves the workflows, the scheduled batch and the live
 * checks (a workflow with a setup() gets an `n8n execute` of its own first). options: { filters
 * (workflow name parts), packageDir, version, startSimulator (defaults to the one in
 * test/simulator), live (default: E2E_LIVE !== '0') }. Resolves with the exit code.
 */
async function main(options = {}) {
	const filters = options.filters || [];
	const version = options.version || N8N_VERSION;
	const started = Date.now();
	const workflows = listWorkflows(filters);
	const live = options.live ?? (process.env.E2E_LIVE === '1' || (process.env.E2E_LIVE !== '0' && !filters.length));
	let batch = scheduledBatch.selected(filters);
	if (!workflows.length && !live && !batch) {
		console.error(`no workflows found in ${WORKFLOWS_DIR}${filters.length ? ` matching ${filters.join(', ')}` : ''}`);
		console.log('0 passed, 1 failed');
		return 1;
	}
	const counts = { passed: 0, failed: 0 };
	/** Runs one named check: `ok  <name>  (<s>s)  <note>` or FAIL with what it says; never throws. */
	const check = async (name, fn) => {
		const t = Date.now();
		try {
			const note = await fn();
			counts.passed++;
			console.log(`ok  ${name}  (${((Date.now() - t) / 1000).toFixed(1)}s)${note ? `  ${note}` : ''}`);
			return true;
		} catch (e) {
			counts.failed++;
			reportFailure(name, e);
			return false;
		}
	};
	let instance;
	const ownSims = [];
	const tmpRoot = tempDir('n8n-e2e-', { keep: process.env.E2E_KEEP === '1' });
	const onSignal = (signal) => {
		// n8n children get the same terminal signal; just leave no temp folder behind.
		if (process.env.E2E_KEEP !== '1') fs.rmSync(tmpRoot, { recursive: true, force: true });
		console.log(`interrupted (${signal})`);
		process.exit(130);
	};
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	const labels = {
		package: 'packed and installed the package into a fresh n8n user folder',
		credentials: 'imported the credentials',
		workflows: () => `imported ${ready.length} workflow(s)`,
		publish: 'published the trigger workflow',
	};
	const step = async (name, fn) => {
		const t = Date.now();
		const r = await fn();
		if (name === 'line') console.log(`n8n ${version} ${r.reused ? 'reused from' : 'installed in'} ${r.dir}${r.reused ? '' : ` (${(r.ms / 1000).toFixed(0)}s)`}`);
		if (name === 'n8n') console.log(`n8n ${version} started (${(r.startMs / 1000).toFixed(1)}s)${live && n8n.n8nLine(version).major >= 2 ? ', durable poll scheduler on' : ''}`);
		const label = typeof labels[name] === 'function' ? labels[name]() : labels[name];
		if (label) console.log(`${label} (${((Date.now() - t) / 1000).toFixed(1)}s)`);
		return r;
	};
	// Parse everything first so one broken file fails alone.
	const ready = [];
	const parse = (vars) => {
		for (const w of workflows) {
			try {
				w.workflow = cli.loadWorkflow(fromExample(w.file), vars);
				({ id: w.id, nodes: w.nodes } = w.workflow);
				if (!fs.existsSync(w.assertFile)) throw new Error(`missing ${path.basename(w.assertFile)}`);
				w.check = require(w.assertFile);
				if (typeof w.check !== 'function') throw new Error(`${path.basename(w.assertFile)} must export a function`);
				ready.push(w);
			} catch (e) {
				counts.failed++;
				console.log(`FAIL ${w.name}: ${firstLine(e.message)}`);
			}
		}
		return ready.map((w) => w.workflow);
	};
	try {
		const startSimulator = options.startSimulator || ((o) => require('../simulator').startSimulator(o));
		// The trigger and the batch have simulators of their own: they run beside the workflows.
		const trigger = live ? await ownSimulator(startSimulator, 'e2eTriggerCred', 'Unified AI Gateway (trigger)') : undefined;
		const batchOwn = batch ? await ownSimulator(startSimulator, 'e2eBatchCred', 'Unified AI Gateway (batch)') : undefined;
		ownSims.push(...[trigger, batchOwn].filter(Boolean).map((o) => o.sim));
		// Before n8n starts: the trigger's first poll, at activation, meets finished tasks and slow queries.
		if (trigger) trigger.ids = await liveChecks.prepareTriggerScenario({ sim: trigger.sim });
		instance = await startInstance({
			version,
			mode: 'execute',
			dir: tmpRoot,
			packageDir: options.packageDir,
			simulator: options.startSimulator ? () => options.startSimulator({ apiKey: SIM_API_KEY }) : { apiKey: SIM_API_KEY },
			vars: (sim) => ({ ...simVars(sim), CHAT_CRED_ID, CHAT_CRED_NAME, RELAY_CRED_ID: RELAY_CRED.id, RELAY_CRED_NAME: RELAY_CRED.name }),
			// The gateway's credential, the same gateway as an OpenAI credential for the AI Agent's chat
			// model, and the credentials of the trigger's and the batch's simulators.
			credentials: (sim) => [
				simCredential(sim),
				chatModelCredential({ baseUrl: `${sim.mainUrl}/v1`, apiKey: SIM_API_KEY }),
				cli.gatewayCredential({ baseUrl: `${sim.mainUrl}/v1`, altBaseUrl: sim.altUrl, apiKey: SIM_API_KEY, ...RELAY_CRED }),
				...[trigger, batchOwn].filter(Boolean).map((o) => o.credential),
			],
			workflows: (sim, vars) => [
				...parse(vars),
				...(trigger ? [liveChecks.triggerWorkflow({ ...simVars(trigger.sim), CRED_ID: trigger.credential.id, CRED_NAME: trigger.credential.name }, trigger.ids)] : []),
			],
			publish: trigger ? [liveChecks.TRIGGER_ID] : [],
			step,
		});
		const { userFolder, sim, vars, installed } = instance;
		const line = instance.line;
		const credential = simCredential(sim);
		const ctx = { userFolder, sim, version, vars, credential, installed, tmpRoot, instance };
		const runWorkflow = (w) => {
			if (olderLine(w, ctx) && typeof w.check.older !== 'function') {
				console.log(`skip ${w.name}: needs n8n ${w.check.minMajor}.x or later (this is ${version})`);
				return undefined;
			}
			return check(`${w.name}${olderLine(w, ctx) ? ` (n8n ${line.major}.x: ${w.check.olderLabel ?? 'refused'})` : ''}`, async () => {
				const warning = await runOne(w, ctx);
				return warning && `(note: ${warning})`;
			});
		};
		// 1. A workflow with settings of its own: its own `n8n execute`, before n8n starts on the folder.
		for (const w of ready.filter(ownProcess)) await runWorkflow(w);
		// 2. One `n8n start` for the rest (info: what `n8n execute` logged at, read by some assertions).
		const server = await instance.start({ env: { ...(live ? liveChecks.liveEnv(line) : {}), N8N_LOG_LEVEL: 'info' }, login: true, step });
		Object.assign(ctx, { api: { baseUrl: server.baseUrl, cookie: instance.cookie }, log: () => server.log() });
		// 3. What n8n loaded, before anything runs in it.
		if (live) for (const [name, fn] of liveChecks.START_CHECKS) await check(`live: ${name}`, () => fn(server, instance.cookie, ctx));
		// 4. Side by side, each on its own simulator: the workflows one after the other, the trigger, the batch.
		batch = batch && scheduledBatch.hasDataTableNode(version);
		if (scheduledBatch.selected(filters) && !batch) console.log(`skip ${scheduledBatch.NAME}: n8n ${version} has no Data table node (Data tables came with n8n 1.113)`);
		const triggerPassed = await Promise.all([
			(async () => {
				for (const w of ready.filter((x) => !ownProcess(x))) await runWorkflow(w);
			})(),
			batch ? check(scheduledBatch.LABEL, () => scheduledBatch.runScheduledBatch({ api: ctx.api, sim: batchOwn.sim, version, credential: batchOwn.credential })) : undefined,
			live ? check(`live: ${liveChecks.TRIGGER_CHECK}`, () => liveChecks.checkTrigger({ sim: trigger.sim }, line, trigger.ids)) : undefined,
		]).then((results) => results[2]);
		await instance.stopN8n();
		// 5. n8n stopped: its database as the trigger left it.
		if (live && line.major >= 2 && triggerPassed) await check(`live: ${liveChecks.POLLER_STATE_CHECK}`, () => liveChecks.checkPollerState(ctx, line, trigger.ids));
	} catch (e) {
		reportFailure('setup', e);
		counts.failed = Math.max(counts.failed + 1, workflows.length - counts.passed);
	} finally {
		process.removeListener('SIGINT', onSignal);
		process.removeListener('SIGTERM', onSignal);
		if (instance) await instance.stop();
		for (const s of ownSims) await s.close().catch(() => {});
		if (process.env.E2E_KEEP === '1') console.log(`kept temp folder ${tmpRoot}`);
		else removeTempDir(tmpRoot);
	}
	console.log(`e2e on n8n ${version} finished in ${((Date.now() - started) / 1000).toFixed(1)}s`);
	console.log(`${counts.passed} passed, ${counts.failed} failed`);
	return counts.failed ? 1 : 0;
}

/** Runs a test script's main() (dist/ made current first): its code is the exit code; a crash still ends on the count line. */
function runAsScript(run) {
	// dist/ first: a runner started with `node …` after a source edit runs the current code (test/build-current.js).
	require('../build-current').ensureCurrent();
	run().then(
		(code) => {
			process.exitCode = code;
		},
		(e) => {
			console.error(e);
			console.log('0 passed, 1 failed');
			process.exitCode = 1;
		},
	);
}

module.exports = {
	N8N_VERSION,
	REPO_ROOT,
	SIM_API_KEY,
	n8nDir,
	n8nBin: (dir = n8nDir()) => n8n.n8nBin(dir),
	prepareN8n: n8n.prepareN8n,
	brokenInstall: n8n.brokenInstall,
	n8nEnv: n8n.n8nEnv,
	runN8n: n8n.runN8n,
	startN8n: n8n.startN8n,
	redact,
	run: n8n.run,
	...cli,
	packPackage: pkg.packPackage,
	installPackage: pkg.installPackage,
	...rundata,
	listWorkflows,
	main,
	runAsScript,
};

if (require.main === module) runAsScript(() => main({ filters: process.argv.slice(2) }));
