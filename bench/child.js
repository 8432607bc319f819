'use strict';
// The gateway simulator in a child process, asked over IPC (bench:requests, bench:alloc): neither
// its CPU nor its allocations are counted as the client's.

const { fork } = require('node:child_process');

/** In the parent: starts `file` and returns `ask(cmd, arg)`, which resolves with the child's answer. */
function forkSimulator(file) {
	const child = fork(file, { stdio: 'inherit' });
	let asked = 0;
	const waiting = new Map();
	child.on('message', ({ id, answer }) => waiting.get(id)?.(answer));
	const ask = (cmd, arg) =>
		new Promise((resolve) => {
			const id = ++asked;
			waiting.set(id, resolve);
			child.send({ id, cmd, arg });
		});
	return { child, ask };
}

/**
 * In the child: answers `start` ({ apiKey }: the simulator's URLs) and `close` itself, every other
 * command with `commands[cmd](sim, arg)`.
 */
function serveSimulator(startSimulator, commands) {
	let sim;
	process.on('message', async ({ id, cmd, arg }) => {
		let answer;
		if (cmd === 'start') {
			sim = await startSimulator({ apiKey: arg.apiKey });
			answer = { mainUrl: sim.mainUrl, altUrl: sim.altUrl };
		} else if (cmd === 'close') {
			await sim.close();
			answer = true;
		} else answer = await commands[cmd](sim, arg);
		process.send({ id, answer });
		if (cmd === 'close') process.disconnect();
	});
}

module.exports = { forkSimulator, serveSimulator };
