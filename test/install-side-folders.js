'use strict';
// Installs a side folder `npm test` needs beside the package's own node_modules (the folders given,
// else all), from its committed lock, when missing or stale (its lock changed). Each npm script that
// uses one calls this first: the project's .npmrc (ignore-scripts) keeps npm from running a pretest.
//   test/lines/n8n-2  the n8n-workflow / n8n-core that n8n 2.x bundles (type-check and unit tests)
//   test/scan         n8n's verification scanner, @n8n/scan-community-package, as published
// Install scripts stay off (their .npmrc): isolated-vm wants Node >= 24, and a dependency of the
// scanner runs `only-allow pnpm`; nothing these folders are used for needs a native build.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const { withLock } = require('./locks');

const FOLDERS = ['test/lines/n8n-2', 'test/scan'];
const ROOT = path.resolve(__dirname, '..');
const STAMP = 'node_modules/.installed-from-lock';

function lockHash(dir) {
	const hash = crypto.createHash('sha256');
	for (const file of ['package-lock.json', '.npmrc']) {
		hash.update(`${file}\0${fs.readFileSync(path.join(dir, file), 'utf8')}\0`);
	}
	return hash.digest('hex');
}

function readStamp(dir) {
	try {
		return fs.readFileSync(path.join(dir, STAMP), 'utf8').trim();
	} catch {
		return '';
	}
}

/**
 * One install of a folder at a time (.ci/run installs both in the background while npm test, beside
 * it, may ask for one): a lock folder with the installer's pid, taken over when that process is gone.
 */
for (const folder of process.argv.length > 2 ? process.argv.slice(2) : FOLDERS) {
	const dir = path.join(ROOT, folder);
	const wanted = lockHash(dir);
	if (readStamp(dir) === wanted) continue;
	const ok = withLock(path.join(dir, '.installing'), () => {
		if (readStamp(dir) === wanted) return true; // installed by the process this one waited for
		const started = Date.now();
		process.stdout.write(`${folder}: installing from its package-lock.json (npm ci)...\n`);
		const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
		const args = ['ci', '--ignore-scripts', '--legacy-peer-deps', '--no-audit', '--no-fund', '--prefer-offline'];
		const result = spawnSync(npm, args, { cwd: dir, stdio: 'inherit' });
		if (result.status !== 0) {
			process.stderr.write(`${folder}: npm ci failed (exit ${result.status ?? result.signal})\n`);
			return false;
		}
		fs.writeFileSync(path.join(dir, STAMP), `${wanted}\n`);
		process.stdout.write(`${folder}: installed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
		return true;
	}, { onWait: (pid) => process.stdout.write(`${folder}: being installed by process ${pid || 'unknown'}, waiting for it\n`) });
	if (!ok) process.exit(1);
}
