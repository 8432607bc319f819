'use strict';
// Every child process (npm, n8n) is tracked (test/n8n/children.js) so that Ctrl-C, a kill or a
// failure never leaves one running, from the first the demo starts (this file is the first it requires).


const { track, stopChildren } = require('../../test/n8n/children');
const { removeTempDir } = require('../../test/n8n/tempdirs');

track();

// What finish() ends besides the children: the n8n instance, the simulator and the temp folder
// (unset with --keep). The simulator is known as soon as it runs, before the instance is returned.
const cleanup = { instance: undefined, sim: undefined, tmpRoot: undefined, done: false };

async function finish() {
	if (cleanup.done) return;
	cleanup.done = true;
	if (cleanup.instance) await cleanup.instance.stop();
	await stopChildren();
	if (cleanup.sim) {
		try {
			await cleanup.sim.close();
		} catch {
			// closing is best effort
		}
	}
	if (cleanup.tmpRoot) removeTempDir(cleanup.tmpRoot);
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
