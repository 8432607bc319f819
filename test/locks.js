'use strict';
/*
 * Between processes on one machine (two jest runs, runners side by side in CI): whether a process
 * is alive, and one holder at a time of a lock folder (the holder's pid in it; a lock whose process
 * is gone, or older than staleMs, is taken over). Used by build-current.js (one build of dist/),
 * install-side-folders.js (one install of a side folder), harness/global-setup.js (roots of runs
 * that are gone) and n8n/run.js (ports reserved across runners).
 */
const fs = require('node:fs');
const path = require('node:path');

function alive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

/** Blocks this process for ms (a lock is waited for in synchronous code). */
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Runs fn() holding the lock folder `lock`; waits (250 ms steps) while a living process holds it.
 * options: { onWait(pid) (called once, when it has to wait), staleMs (a lock older than this is
 * taken over too) }. Returns what fn returns; the lock goes whatever happens.
 */
function withLock(lock, fn, { onWait = () => {}, staleMs = Infinity } = {}) {
	for (let told = false; ; ) {
		try {
			fs.mkdirSync(lock);
			fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
			break;
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
			let pid = 0;
			try {
				pid = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
			} catch {
				// taken this very moment: its pid is not written yet
			}
			const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0);
			if ((pid > 0 && !alive(pid)) || age > staleMs) {
				fs.rmSync(lock, { recursive: true, force: true });
				continue;
			}
			if (!told) onWait(pid);
			told = true;
			pause(250);
		}
	}
	try {
		return fn();
	} finally {
		fs.rmSync(lock, { recursive: true, force: true });
	}
}

module.exports = { alive, pause, withLock };
