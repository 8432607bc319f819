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

function alive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

/**
 * One install of a folder at a time (.ci/run installs both in the background while npm test, beside
 * it, may ask for one): a file with the installer's pid; a file left by a process that is gone is
 * taken over. Returns the release.
 */
function lock(folder, dir) {
	const file = path.join(dir, '.installing');
	const wait = new Int32Array(new SharedArrayBuffer(4));
	for (let said = false; ; ) {
		try {
			fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
			return () => fs.rmSync(file, { force: true });
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
		}
		let owner = 0;
		try {
			owner = Number(fs.readFileSync(file, 'utf8'));
		} catch {
			continue; // released meanwhile
		}
		if (!owner || !alive(owner)) {
			fs.rmSync(file, { force: true });
			continue;
		}
		if (!said) process.stdout.write(`${folder}: being installed by process ${owner}, waiting for it\n`);
		said = true;
		Atomics.wait(wait, 0, 0, 500);
	}
}

for (const folder of process.argv.length > 2 ? process.argv.slice(2) : FOLDERS) {
	const dir = path.join(ROOT, folder);
	const wanted = lockHash(dir);
	if (readStamp(dir) === wanted) continue;
	const release = lock(folder, dir);
	try {
		if (readStamp(dir) === wanted) continue; // installed by the process we waited for
		const started = Date.now();
		process.stdout.write(`${folder}: installing from its package-lock.json (npm ci)...\n`);
		const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
		const args = ['ci', '--ignore-scripts', '--legacy-peer-deps', '--no-audit', '--no-fund', '--prefer-offline'];
		const result = spawnSync(npm, args, { cwd: dir, stdio: 'inherit' });
		if (result.status !== 0) {
			process.stderr.write(`${folder}: npm ci failed (exit ${result.status ?? result.signal})\n`);
			process.exitCode = 1;
			break;
		}
		fs.writeFileSync(path.join(dir, STAMP), `${wanted}\n`);
		process.stdout.write(`${folder}: installed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
	} finally {
		release();
	}
}
