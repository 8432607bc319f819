'use strict';
/*
 * Temporary folders of the test tooling, removed when the process ends: at exit, on an uncaught
 * error, and on Ctrl-C or SIGTERM (every real-n8n runner, the demo, the scan, the jest run's root).
 *
 *   const { tempDir, removeTempDir } = require('./tempdirs');
 *   const dir = tempDir('n8n-e2e-');            // <os.tmpdir()>/n8n-e2e-XXXXXX, removed at exit
 *   const kept = tempDir('n8n-e2e-', { keep: true }); // the runner prints it and leaves it (E2E_KEEP=1)
 *   removeTempDir(dir);                          // now, and forgotten
 *
 * A signal handler is added only while a folder is registered. When the runner has its own handler
 * for the signal, that one decides when to exit (its process.exit() runs the 'exit' clean-up);
 * when it has none, this one removes the folders and exits as the signal would (130 / 143).
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const folders = new Set();
const SIGNAL_CODES = { SIGINT: 130, SIGTERM: 143 };
let hooked = false;

function removeAll() {
	for (const dir of folders) {
		try {
			fs.rmSync(dir, { recursive: true, force: true });
		} catch {
			// best effort at exit: a folder still in use is left to the OS
		}
	}
	folders.clear();
}

function onSignal(signal) {
	// The runner's own handler stops what uses the folders first, then exits (and 'exit' removes them).
	if (process.listenerCount(signal) > 1) return;
	removeAll();
	process.exit(SIGNAL_CODES[signal]);
}

function hook() {
	if (hooked) return;
	hooked = true;
	process.on('exit', removeAll);
	for (const signal of Object.keys(SIGNAL_CODES)) process.on(signal, onSignal);
}

function unhook() {
	if (!hooked || folders.size) return;
	hooked = false;
	process.removeListener('exit', removeAll);
	for (const signal of Object.keys(SIGNAL_CODES)) process.removeListener(signal, onSignal);
}

/** Registers a folder for removal at exit (it may exist already). Returns it. */
function removeAtExit(dir) {
	folders.add(dir);
	hook();
	return dir;
}

/** A fresh folder <os.tmpdir()>/<prefix>XXXXXX; removed at exit unless options.keep. */
function tempDir(prefix, options = {}) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	return options.keep ? dir : removeAtExit(dir);
}

/** Removes a folder now (and no longer at exit). */
function removeTempDir(dir) {
	folders.delete(dir);
	fs.rmSync(dir, { recursive: true, force: true });
	unhook();
}

/** Keeps a registered folder after all (E2E_KEEP=1 decided late). */
function keepTempDir(dir) {
	folders.delete(dir);
	unhook();
}

module.exports = { tempDir, removeTempDir, removeAtExit, keepTempDir };
