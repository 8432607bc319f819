#!/usr/bin/env node
'use strict';
/*
 * The checks that take n8n down, on one n8n of a line, one after the other:
 *
 *   npm run test:e2e:lifecycle                  (builds; N8N_VERSION = the line) stop, restart, kill
 *   node test/e2e/lifecycle.js [stop|restart|kill …]   some of them, in this order
 *
 * Each check is a module of its own that runs alone too (npm run test:e2e:stop, :restart, :kill):
 *   stop-keeps-ids.js       Stop keeps every task id (custom data, n8n's log), collected again
 *   restart-resumes.js      a parked long render survives SIGTERM + SIGKILL and a restart
 *   kill-keeps-receipts.js  SIGKILL alone mid-submit, mid-wait, mid-download: every receipt kept
 * A check says what it needs and does the rest itself: { name, key (its own credential and
 * simulator), workflows (with {{CRED_ID}} placeholders), logLevel (n8n's, when it begins),
 * run(ctx) → note }. Here one `n8n start` serves them all: the package and every check's workflows
 * are imported once, each check has a simulator of its own (a check's scenarios never reach
 * another), publishes its own workflows through n8n's REST API when its turn comes (and waits until
 * n8n has registered their webhooks), and finds n8n running at the log level it asked for (none:
 * it reads no log): a check that restarts n8n brings it back at the level the next one asks for
 * (instance.env), else n8n is restarted for it. One failing check is reported by its name and the next one still runs (n8n is started
 * again when a failure left it down).
 *
 * Prints `ok  <check>: <note>` or `FAIL <check>: …` per check, then `N passed, N failed`.
 */

const e2e = require('./run-e2e');
const cli = require('./cli');
const rest = require('./rest-workflows');
const { startInstance, stopOnSignal } = require('../n8n/instance');

const secs = (ms) => `${(ms / 1000).toFixed(1)}s`;

/** The check modules in the order they run (required when used: each of them requires this file). */
const checkModules = () => [require('./stop-keeps-ids'), require('./restart-resumes'), require('./kill-keeps-receipts')].map((m) => m.check);

/** A check's placeholders: its own gateway credential. */
const varsOf = (check) => ({ CRED_ID: `e2e${check.key}Cred`, CRED_NAME: `Unified AI Gateway (${check.key})` });

/** The log level n8n runs at for a check (one that reads no log takes n8n's as it is: warn when started for it). */
const levelOf = (check) => check?.logLevel ?? 'warn';

/** n8n running at the level this check needs, logged in (a check before may have left it down). */
async function ready(instance, check) {
	if (instance.n8n && check.logLevel && instance.n8n.logLevel !== check.logLevel) await instance.stopN8n();
	if (!instance.n8n) await instance.start({ env: { N8N_LOG_LEVEL: levelOf(check) }, login: 'existing' });
	return { baseUrl: instance.n8n.baseUrl, cookie: instance.cookie };
}

/**
 * Runs the checks on one n8n of the line; resolves with the exit code. options: { version,
 * prefix (of the temp folder) }.
 */
async function runChecks(checks, options = {}) {
	const version = options.version || e2e.N8N_VERSION;
	const started = Date.now();
	const { startSimulator } = require('../simulator');
	const sims = [];
	let instance;
	let passed = 0;
	let failed = 0;
	const offSignal = stopOnSignal(() => instance);
	try {
		for (const check of checks) sims.push(await startSimulator({ apiKey: e2e.SIM_API_KEY }));
		const credentials = checks.map((check, i) => {
			const { CRED_ID: id, CRED_NAME: name } = varsOf(check);
			return cli.gatewayCredential({ baseUrl: `${sims[i].mainUrl}/v1`, altBaseUrl: sims[i].altUrl, apiKey: e2e.SIM_API_KEY, id, name });
		});
		instance = await startInstance({
			version,
			prefix: options.prefix || 'e2e-lifecycle-',
			simulator: sims[0],
			credentials,
			workflows: checks.flatMap((check) => check.workflows.map((w) => cli.loadWorkflow(w, varsOf(check)))),
			vars: {},
			env: { N8N_LOG_LEVEL: levelOf(checks[0]) },
			login: true,
			step: async (name, fn) => {
				const t = Date.now();
				const result = await fn();
				if (name === 'line') console.log(`n8n ${version} from ${result.dir}`);
				if (name === 'n8n') console.log(`n8n ${version} started (${secs(result.startMs)})`);
				if (name === 'workflows') console.log(`imported the workflows of ${checks.map((c) => c.name).join(', ')} (${secs(Date.now() - t)})`);
				return result;
			},
		});
		for (const [i, check] of checks.entries()) {
			const t = Date.now();
			try {
				const api = await ready(instance, check);
				for (const w of check.workflows) if (check.publish?.includes(w.id)) await rest.publishWorkflow(api, w.id);
				// A check that restarts n8n brings it back at the level the next one needs.
				instance.env = { N8N_LOG_LEVEL: levelOf(checks.slice(i + 1).find((c) => c.logLevel) ?? check) };
				const note = await check.run({ instance, sim: sims[i], version, vars: varsOf(check) });
				passed++;
				console.log(`ok  ${check.name}  (${secs(Date.now() - t)})${note ? `  ${note}` : ''}`);
			} catch (e) {
				failed++;
				const message = e2e.redact(e.stack || e.message);
				console.log(`FAIL ${check.name}: ${message.split('\n')[0]}`);
				console.log(message.split('\n').slice(1, 12).map((l) => `      ${l}`).join('\n'));
			}
		}
	} catch (e) {
		failed = Math.max(failed + 1, checks.length - passed);
		console.log(`FAIL setup: ${e2e.redact(e.stack || e.message)}`);
	} finally {
		offSignal();
		if (instance) await instance.stop();
		for (const sim of sims) await sim.close().catch(() => {});
	}
	console.log(`${checks.map((c) => c.key).join(', ')} on n8n ${version} finished in ${secs(Date.now() - started)}`);
	console.log(`${passed} passed, ${failed} failed`);
	return failed ? 1 : 0;
}

function main(words) {
	const all = checkModules();
	const checks = words.length ? all.filter((c) => words.some((w) => c.key.toLowerCase().includes(w.toLowerCase()))) : all;
	if (!checks.length) throw new Error(`no check matches ${words.join(', ')}: ${all.map((c) => c.key).join(', ')}`);
	return runChecks(checks);
}

if (require.main === module) e2e.runAsScript(() => main(process.argv.slice(2)));
module.exports = { runChecks, main };
