#!/usr/bin/env node
'use strict';
/*
 * A user's first ten minutes: run the example workflows of examples/ in a real n8n.
 *
 *   npm run demo                      builds, then runs this file against the gateway simulator
 *   npm run demo -- --live            the same examples against your gateway (costs money):
 *                                     UAG_BASE_URL, UAG_API_KEY, optional UAG_ALT_BASE_URL
 *   npm run demo -- --live --yes      without the confirmation question
 *
 * This file only composes: test/n8n/instance.js (n8n + package + simulator, started as every
 * real-n8n runner starts them), the e2e helpers (test/e2e: import, execute, read binaries); the
 * demo's own parts are beside it: examples.js (which run, in what order), cost.js (the estimate),
 * summary.js (what is printed), files.js (demo-output/), simulator.js, options.js, processes.js.
 *
 * Steps: prepare n8n (installed once, reused), pack this package and install it into a temp n8n
 * user folder, start the simulator (short task durations), import the gateway credential, the same
 * gateway as an OpenAI credential (the AI Agent's chat model) and every example, run each example
 * with `n8n execute` (the scheduled-batch pair, which needs a Data table, in a started n8n:
 * data-table.js), print what came out and write the files to demo-output/<example>/. The
 * simulator and n8n are stopped at the end, on failure and on Ctrl-C. Exit code 1 when an example
 * failed.
 *
 * Environment: N8N_VERSION (the n8n line; default the newest 2.x, as the UI test: the line users
 * install today), N8N_E2E_DIR, DEMO_LIVE=1 (= --live), DEMO_KEEP=1 (= --keep), DEMO_TASK_MS.
 */

const { cleanup, finish, onInterrupt } = require('./processes'); // first: it tracks every child process


const n8n = require('../../test/n8n');
const cli = require('../../test/e2e/cli');
const { startInstance } = require('../../test/n8n/instance');
const { tempDir } = require('../../test/n8n/tempdirs');
const { chatModelCredential } = require('../../test/e2e/chat-credential');
const { CRED, CHAT_CRED, loadExamples, withDemoCredential, withTriggerIds, withWaitSeconds } = require('./examples');
const { estimateAll, printEstimate } = require('./cost');
const { printNodes, printSummary } = require('./summary');
const { OUTPUT_DIR, clearOutput, writeFiles, writeLinkedFiles } = require('./files');
const { runScheduledBatchPair } = require('./data-table');
const { startSimulator, simDetail, taskMs, videoMs } = require('./simulator');
const { parseArgs, help, liveSettings, confirmPayment } = require('./options');
const { printEstimate: printTimeEstimate, printUsage } = require('./usage');
const { PLACEHOLDERS } = require('./files');
const t = require('./terminal');

const SIM_KEY = n8n.SIM_API_KEY;
const version = process.env.N8N_VERSION || n8n.NEWEST_2X;
const line = n8n.n8nLine(version);

/**
 * n8n's binary data mode for `n8n execute`. 2.x keeps binaries on disk, always (no setting). On
 * 1.x the simulator's small files stay inline in the run JSON; live videos can be large, so n8n
 * keeps them in its file store. files.js reads either way.
 */
function binaryModeEnv(live) {
	if (!line.binaryModes.includes('default')) return {};
	return { N8N_DEFAULT_BINARY_DATA_MODE: live ? 'filesystem' : 'default' };
}

/** The gateway credential and the chat model's OpenAI credential, for the simulator or --live. */
function credentials(sim, live) {
	// The OpenAI Chat Model node appends /chat/completions to its Base URL as it is: it must end in /v1.
	const chatBase = live ? `${live.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1` : `${sim.mainUrl}/v1`;
	const gateway = live
		? cli.gatewayCredential({ ...CRED, ...live })
		: cli.gatewayCredential({ ...CRED, baseUrl: `${sim.mainUrl}/v1`, altBaseUrl: sim.altUrl, apiKey: SIM_KEY });
	return [gateway, chatModelCredential({ ...CHAT_CRED, baseUrl: chatBase, apiKey: live ? live.apiKey : SIM_KEY })];
}

async function setUp(examples, opts, live) {
	const tmpRoot = tempDir('uag-demo-', { keep: opts.keep });
	cleanup.tmpRoot = opts.keep ? undefined : tmpRoot;

	console.log(`\n${t.bold('Setting up')}`);
	const labels = {
		package: 'packed this package and installed it into a fresh n8n user folder',
		credentials: `imported the credentials "${CRED.name}" and "${CHAT_CRED.name}" (${live ? live.baseUrl : 'the simulator'})`,
		workflows: `imported ${examples.length} example workflows (n8n import:workflow)`,
	};
	const instance = await startInstance({
		version,
		mode: 'execute',
		dir: tmpRoot,
		trackChildren: true,
		simulator: live
			? undefined
			: async () => {
					cleanup.sim = await startSimulator(SIM_KEY);
					return cleanup.sim;
				},
		credentials: (sim) => credentials(sim, live),
		workflows: examples.map((e) => withDemoCredential(e.workflow)),
		vars: {},
		step: async (name, fn) => {
			if (labels[name]) return t.step(labels[name], fn);
			const result = await fn();
			if (name === 'line') console.log(`${t.green('✔')} n8n ${version} ${result.reused ? 'reused from' : 'installed into'} ${t.rel(result.dir)}`);
			if (name === 'simulator' && result.sim) {
				console.log(`${t.green('✔')} gateway simulator on ${result.sim.mainUrl} (image tasks take ${t.seconds(taskMs())}, videos ${t.seconds(videoMs())})`);
			}
			return result;
		},
	});
	cleanup.instance = instance;
	return instance;
}

async function runExample(example, workflow, { userFolder, sim }, live) {
	clearOutput(example);
	const fromIndex = sim ? sim.requests.length : 0;
	const watch = t.progress(`n8n execute --id=${workflow.id}`, simDetail(sim, fromIndex));
	let res;
	try {
		res = await cli.executeWorkflow(userFolder, workflow.id, {
			version,
			timeoutMs: (live ? example.timeoutMin : 3) * 60000,
			env: binaryModeEnv(live),
		});
	} finally {
		watch.stop();
	}
	const result = { example, ms: res.ms, run: res.run };
	printNodes(workflow, res.run);
	if (!res.ok) {
		console.log(`${t.red('✘')} ${example.name} failed after ${t.seconds(res.ms)}`);
		console.log(t.hide(res.error).split('\n').slice(0, 12).map((l) => `    ${l}`).join('\n'));
		return { ...result, status: 'failed' };
	}
	if (example.agentNode) result.files = await writeLinkedFiles(example, res.run);
	if (example.files.length) result.files = writeFiles(example, res.run, userFolder);
	console.log(`${t.green('✔')} ${example.name} ran in ${t.seconds(res.ms)} (n8n start-up included)`);
	return { ...result, status: 'ok' };
}

/** Runs the examples in order; an example that needs another's task IDs gets them, or is skipped. */
async function runExamples(examples, stack, live) {
	const results = [];
	const taskIds = new Map();
	for (const example of examples) {
		if (example.dataTablePartOf) continue; // ran with its partner (data-table.js prints it)
		console.log(`\n${t.bold(example.name)}  ${t.dim(t.rel(example.file))}`);
		console.log(`  ${example.what}`);
		if (example.minMajor && line.major < example.minMajor) {
			console.log(`${t.yellow('–')} skipped: needs n8n ${example.minMajor}.x (this is ${version})`);
			results.push({ example, status: 'skipped' });
			continue;
		}
		if (example.dataTablePair) {
			const partner = examples.find((e) => e.name === example.dataTablePair);
			const pair = await runScheduledBatchPair(example, partner, { instance: stack, version, env: binaryModeEnv(live), live });
			results.push(pair.submit, pair.collect);
			taskIds.set(example.name, pair.taskIds);
			continue;
		}
		let workflow = withDemoCredential(example.workflow);
		if (example.usesTaskIdsOf) {
			const ids = taskIds.get(example.usesTaskIdsOf) || [];
			if (!ids.length) {
				console.log(`${t.yellow('–')} skipped: no task IDs from ${example.usesTaskIdsOf} to collect`);
				results.push({ example, status: 'skipped' });
				continue;
			}
			workflow = withTriggerIds(workflow, ids);
			console.log(`  ${t.dim(example.emulated)}`);
			await cli.importWorkflow(stack.userFolder, workflow, {}, { version });
		}
		if (example.waitSeconds !== undefined) {
			workflow = withWaitSeconds(workflow, example.waitSeconds);
			console.log(`  ${t.dim(example.emulated)}`);
			await cli.importWorkflow(stack.userFolder, workflow, {}, { version });
		}
		const result = await runExample(example, workflow, stack, live);
		results.push(result);
	}
	return results;
}

async function main() {
	const started = Date.now();
	const opts = parseArgs(process.argv.slice(2));
	if (opts.help) {
		console.log(help(version, n8n.NEWEST_2X));
		return 0;
	}
	const live = opts.live ? liveSettings() : undefined;
	t.addSecret(SIM_KEY);
	if (live) t.addSecret(live.apiKey);

	t.state.simulator = !live;
	console.log(t.bold(`Unified AI Gateway nodes: demo in a real n8n ${version}`));
	console.log(
		live
			? `Gateway: ${live.baseUrl} (live: real calls, real charges)`
			: 'Gateway: the simulator in test/simulator (no account, no network, nothing is charged)',
	);
	if (!live) console.log(t.yellow(`Results are ${PLACEHOLDERS}; chat answers echo the prompt.`));
	const { examples, unknown } = loadExamples();
	if (unknown.length) console.log(t.yellow(`note: examples the demo does not run: ${unknown.join(', ')}`));
	printTimeEstimate(line, examples.length);
	const cost = estimateAll(examples);
	if (live) {
		printEstimate(cost);
		if (!(await confirmPayment(live, opts))) return 2;
	}

	const stack = await setUp(examples, opts, live);
	const results = await runExamples(examples, stack, live);
	const keptFolder = opts.keep ? stack.userFolder : undefined;
	const failed = printSummary({ results, ms: Date.now() - started, live, cost, outputDir: OUTPUT_DIR, keptFolder });
	await printUsage({ ms: Date.now() - started, host: stack.host, line, outputDir: OUTPUT_DIR });
	return failed ? 1 : 0;
}

let interrupted = false;
onInterrupt((signal) => {
	interrupted = true;
	t.state.interrupted = true;
	t.clearLine();
	console.log(`\n${t.yellow(`Interrupted (${signal}): stopping n8n and the simulator…`)}`);
});

if (require.main === module) {
	// dist/ first: a runner started with `node …` after a source edit runs the current code (test/build-current.js).
	require('../../test/build-current').ensureCurrent();
	main()
		.then(
			(code) => code,
			(error) => {
				// After Ctrl-C the stopped children make the step in progress fail: not worth a message.
				if (!interrupted) console.log(`\n${t.red('Demo failed:')} ${t.hide(error && error.message ? error.message : String(error))}`);
				return 1;
			},
		)
		.then(async (code) => {
			await finish();
			if (!interrupted) process.exit(code);
		});
}
