'use strict';
// Every child process (npm, n8n) is tracked so that Ctrl-C, a kill or a failure never leaves one
// running: test/n8n spawns through child_process.spawn, so it is wrapped before that loads (this
// file is the first the demo requires).

const childProcess = require('child_process');
const fs = require('fs');

const children = new Set();
const originalSpawn = childProcess.spawn;
childProcess.spawn = function trackedSpawn(...args) {
	const child = originalSpawn.apply(this, args);
	children.add(child);
	child.once('exit', () => children.delete(child));
	child.once('error', () => children.delete(child));
	return child;
};

// What finish() ends besides the children: the simulator and the temp folder (unset with --keep).
const cleanup = { sim: undefined, tmpRoot: undefined, done: false };

/** SIGTERM to each child still running (only the demo's own), SIGKILL after 3 s. */
async function stopChildren() {
	const running = [...children].filter((c) => c.exitCode === null && c.signalCode === null);
	await Promise.all(
		running.map(
			(child) =>
				new Promise((resolve) => {
					const timer = setTimeout(() => {
						try {
							child.kill('SIGKILL');
						} catch {
							// already gone
						}
						resolve();
					}, 3000);
					child.once('exit', () => {
						clearTimeout(timer);
						resolve();
					});
					try {
						child.kill('SIGTERM');
					} catch {
						clearTimeout(timer);
						resolve();
					}
				}),
		),
	);
}

async function finish() {
	if (cleanup.done) return;
	cleanup.done = true;
	await stopChildren();
	if (cleanup.sim) {
		try {
			await cleanup.sim.close();
		} catch {
			// closing is best effort
		}
	}
	if (cleanup.tmpRoot) fs.rmSync(cleanup.tmpRoot, { recursive: true, force: true });
}

/** On Ctrl-C or SIGTERM: onSignal(signal) says so, then everything stops and the process exits 130. */
function onInterrupt(onSignal) {
	let interrupted = false;
	for (const signal of ['SIGINT', 'SIGTERM']) {
		process.on(signal, () => {
			if (interrupted) return;
			interrupted = true;
			onSignal(signal);
			finish().finally(() => {
				console.log('Stopped: no n8n or simulator left running.');
				process.exit(130);
			});
		});
	}
}

module.exports = { cleanup, finish, onInterrupt };
