'use strict';
// Every child process (npm, n8n) of this process, tracked once track() ran, so that Ctrl-C, a kill
// or a failure never leaves one running, also one started midway through a start-up. The n8n
// tooling spawns through child_process.spawn as a module property, so the wrapper sees every call
// made after it is installed.

const childProcess = require('child_process');

const children = new Set();
let originalSpawn;

/** Wraps child_process.spawn (once) so that every child started from now on is known. */
function track() {
	if (originalSpawn) return;
	originalSpawn = childProcess.spawn;
	childProcess.spawn = function trackedSpawn(...args) {
		const child = originalSpawn.apply(this, args);
		children.add(child);
		child.once('exit', () => children.delete(child));
		child.once('error', () => children.delete(child));
		return child;
	};
}

/** SIGTERM to each tracked child still running, SIGKILL after 3 s. */
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

module.exports = { track, stopChildren };
