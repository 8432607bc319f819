'use strict';
// Child processes for the n8n tooling: run a command to its end, find a free port, small text helpers.

const childProcess = require('child_process');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');

const { alive } = require('../locks');

function readJson(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return undefined;
	}
}

function tail(text, lines = 60) {
	return String(text || '').split('\n').slice(-lines).join('\n');
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Run a command, resolving with { code, stdout, stderr, ms }. Never rejects on a
 * non-zero exit; rejects only when the command cannot be started.
 * opts: { cwd, env, logFile, heartbeat: label (prints elapsed time every ~15 s), timeoutMs }
 */
function run(cmd, args, opts = {}) {
	return new Promise((resolve, reject) => {
		const started = Date.now();
		const child = childProcess.spawn(cmd, args, {
			cwd: opts.cwd,
			env: opts.env || process.env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const out = [];
		const err = [];
		let log;
		if (opts.logFile) log = fs.createWriteStream(opts.logFile, { flags: opts.appendLog ? 'a' : 'w' });
		child.stdout.on('data', (d) => {
			out.push(d);
			if (log) log.write(d);
		});
		child.stderr.on('data', (d) => {
			err.push(d);
			if (log) log.write(d);
		});
		let beat;
		if (opts.heartbeat) {
			beat = setInterval(() => {
				const s = Math.round((Date.now() - started) / 1000);
				console.log(`  ... ${opts.heartbeat} (${s}s elapsed)`);
			}, 15000);
		}
		let timer;
		let timedOut = false;
		if (opts.timeoutMs) {
			timer = setTimeout(() => {
				timedOut = true;
				child.kill('SIGKILL');
			}, opts.timeoutMs);
		}
		child.on('error', (e) => {
			clearInterval(beat);
			clearTimeout(timer);
			reject(e);
		});
		child.on('close', (code, signal) => {
			clearInterval(beat);
			clearTimeout(timer);
			const finish = () =>
				resolve({
					code: timedOut ? 'timeout' : code === null ? signal : code,
					stdout: Buffer.concat(out).toString('utf8'),
					stderr: Buffer.concat(err).toString('utf8'),
					ms: Date.now() - started,
				});
			if (log) log.end(finish);
			else finish();
		});
	});
}

/** Ports this process has handed out: a port is given once, however many processes start at once. */
const given = new Set();

/**
 * Ports handed out by every runner on this machine: a file per port holding the pid that took it.
 * n8n listens only once it has loaded (half a minute on a busy machine): until then a port checked
 * free by one runner looks free to another running beside it (.ci/run starts several at once).
 */
const RESERVED = path.join(os.tmpdir(), 'n8n-nodes-unified-ai-gateway-ports');

function releaseAll() {
	for (const port of given) fs.rmSync(path.join(RESERVED, String(port)), { force: true });
}

/** Takes the port for this process, unless a living process has it; released at exit. */
function reserve(port) {
	fs.mkdirSync(RESERVED, { recursive: true });
	const file = path.join(RESERVED, String(port));
	for (let attempt = 0; attempt < 2; attempt++) {
		try {
			fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
			if (given.size === 0) process.once('exit', releaseAll);
			given.add(port);
			return true;
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
			const owner = Number(fs.readFileSync(file, 'utf8'));
			if (owner && alive(owner)) return false;
			fs.rmSync(file, { force: true }); // left by a process that is gone
		}
	}
	return false;
}

/**
 * A free TCP port on 127.0.0.1, below Linux's ephemeral range (32768-60999): a port the OS picks
 * for "any port" comes from that range, the same one every outgoing connection (to PostgreSQL,
 * Redis, the simulator) takes its local port from, so between release and n8n's own listen it
 * could be taken. Seen once: a queue worker exited early with "Port … is already in use".
 */
async function freePort() {
	for (let tries = 0; tries < 200; tries++) {
		const port = 20000 + Math.floor(Math.random() * 12000);
		if (given.has(port)) continue;
		if ((await canListen(port)) && reserve(port)) return port;
	}
	throw new Error('no free TCP port on 127.0.0.1 between 20000 and 32000 after 200 tries');
}

function canListen(port) {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.unref();
		srv.once('error', () => resolve(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
}

module.exports = { run, readJson, tail, sleep, freePort };
