#!/usr/bin/env node
'use strict';
/*
 * npm run dev: this package in a real n8n while you edit it, as the n8n-nodes-starter's
 * `n8n-node dev` gives, on the n8n the tests install (docs/DEVELOPMENT.md, "Edit and see", says why
 * not `n8n-node dev` itself).
 *
 *   npm run dev                       n8n 2.41.1 (N8N_VERSION=1.123.81 for the 1.x line)
 *   DEV_DIR=~/uag-dev npm run dev     keep n8n's user folder (workflows, credentials) between runs
 *
 * Steps: dist/ made current (test/build-current.js); n8n of the line prepared (installed once into
 * ~/.cache/n8n-nodes-unified-ai-gateway, reused) and started through test/n8n/instance.js with the
 * packed package installed as a community package (so it resolves n8n-workflow from n8n, as in
 * production), the gateway simulator and a credential for it, an owner logged in, and
 * N8N_DEV_RELOAD=true; then `npm run build:watch` (scripts/build-watch.js). Each time the build is
 * current again, dist/ is copied over the installed package's and n8n reloads the nodes (reopen the
 * node, or reload the editor, to see a changed form). Ctrl-C stops everything it started.
 */
require('../../test/build-current').ensureCurrent();

const childProcess = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('../../test/n8n');
const { startInstance } = require('../../test/n8n/instance');
const { STAMP } = require('../../test/build-current');
const { startSimulator } = require('../demo/simulator');

const ROOT = path.resolve(__dirname, '..', '..');
const VERSION = process.env.N8N_VERSION || n8n.NEWEST_2X;
const say = (line) => process.stdout.write(`[dev] ${line}\n`);

/** dist/ over the installed package's dist/ (build state left out): n8n's watcher reloads the nodes. */
function copyDist(target) {
	fs.cpSync(path.join(ROOT, 'dist'), path.join(target, 'dist'), {
		recursive: true,
		force: true,
		filter: (src) => !/\.(tsbuildinfo|build-(stamp|pending)\.json)$|\.build-lock$/.test(src),
	});
}

async function main() {
	const dir = process.env.DEV_DIR ? path.resolve(process.env.DEV_DIR) : undefined;
	let watch;
	let inst;
	let stopping = false;
	const stop = async () => {
		if (stopping) return;
		stopping = true;
		fs.unwatchFile(path.join(ROOT, STAMP));
		if (watch) watch.kill('SIGTERM');
		if (inst) await inst.stop();
	};
	process.on('SIGINT', () => void stop().then(() => process.exit(130)));
	process.on('SIGTERM', () => void stop().then(() => process.exit(143)));
	try {
		say(`starting n8n ${VERSION} with this package and the gateway simulator (a first start of a line installs it: minutes)`);
		inst = await startInstance({
			version: VERSION,
			mode: 'start',
			...(dir ? { dir, keep: true } : { prefix: 'uag-dev-' }),
			simulator: () => startSimulator(n8n.SIM_API_KEY),
			login: true,
			env: { N8N_DEV_RELOAD: 'true' },
			step: async (name, fn) => {
				const t = Date.now();
				const result = await fn();
				say(`${name} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
				return result;
			},
		});
		say(`n8n ${inst.version}: ${inst.n8n.baseUrl}  (owner ${n8n.OWNER.email} / ${n8n.OWNER.password})`);
		say(`gateway simulator: ${inst.sim.mainUrl}, credential "${require('../../test/e2e/cli').CRED_NAME}" imported (key ${n8n.SIM_API_KEY})`);
		say(`package installed at ${inst.installed.dir}; user folder ${inst.userFolder}${dir ? '' : ' (removed at exit; DEV_DIR keeps one)'}`);
		say('watching the sources: edit nodes/ or credentials/, the build, the copy and n8n\'s reload follow. Ctrl-C stops.');
		let last = fs.statSync(path.join(ROOT, STAMP), { throwIfNoEntry: false })?.mtimeMs;
		fs.watchFile(path.join(ROOT, STAMP), { interval: 500 }, (now) => {
			// A new stamp: the build caught up with the sources (none while it compiles or fails).
			if (!now.mtimeMs || now.mtimeMs === last) return;
			last = now.mtimeMs;
			copyDist(inst.installed.dir);
			say('dist/ copied into n8n: nodes reloaded');
		});
		watch = childProcess.spawn(process.execPath, [path.join(ROOT, 'scripts/build-watch.js')], { cwd: ROOT, stdio: 'inherit' });
		await new Promise((resolve) => watch.on('exit', resolve));
	} finally {
		await stop();
	}
}

main().catch((error) => {
	console.error(`[dev] ${error && error.message ? error.message : error}`);
	process.exitCode = 1;
});
