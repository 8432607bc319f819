'use strict';
// How the demo prints: colours on a terminal only, secrets hidden, a progress line while n8n runs.

const path = require('path');

const { redact } = require('../../test/n8n');

const tty = process.stdout.isTTY === true;
const color = (code) => (text) => (tty && !process.env.NO_COLOR ? `\x1b[${code}m${text}\x1b[0m` : String(text));
const bold = color('1');
const dim = color('2');
const green = color('32');
const red = color('31');
const yellow = color('33');

// The keys in use (simulator and --live): never printed, even inside an n8n error message.
const secrets = [];
function addSecret(value) {
	if (value && value.length >= 6) secrets.push(value);
}
function hide(text) {
	let out = redact(text);
	for (const s of secrets) out = out.split(s).join('***');
	return out;
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
/** A path relative to the current folder when it is inside it, else absolute. */
function rel(p) {
	const r = path.relative(process.cwd(), p);
	return r.startsWith('..') || path.isAbsolute(r) ? p : r || '.';
}

function bytes(n) {
	if (n < 1024) return `${n} B`;
	if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`;
	return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function usd(n) {
	return `${Number(n.toFixed(6))} USD`;
}

function excerpt(text, max = 70) {
	const one = String(text ?? '').replace(/\s+/g, ' ').trim();
	return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

// interrupted: set on Ctrl-C (a progress line must not redraw over the "stopping" message).
// simulator: the gateway is the simulator, so every result is a placeholder and is labelled one.
const state = { interrupted: false, simulator: false };

/**
 * A line that shows progress while a command runs: a spinner redrawn in place on a terminal;
 * in a log (no terminal), a line whenever the detail changes (at most every 2 s) and at least
 * every 10 s ("still running").
 */
function progress(label, detail = () => '') {
	const started = Date.now();
	const frames = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';
	let frame = 0;
	let lastLine = Date.now();
	let lastDetail = '';
	const draw = () => {
		if (state.interrupted) return;
		const s = Math.round((Date.now() - started) / 1000);
		const extra = detail();
		if (tty) {
			const line = `  ${frames[frame++ % frames.length]} ${label} (${s} s)${extra ? ` · ${extra}` : ''}`;
			process.stdout.write(`\r\x1b[2K${line.slice(0, (process.stdout.columns || 120) - 1)}`);
			return;
		}
		const since = Date.now() - lastLine;
		if ((extra && extra !== lastDetail && since >= 2000) || since >= 10000) {
			lastLine = Date.now();
			lastDetail = extra;
			console.log(`  … still running (${s} s)${extra ? `: ${extra}` : ''}`);
		}
	};
	const timer = setInterval(draw, tty ? 120 : 500);
	return {
		stop() {
			clearInterval(timer);
			if (tty) process.stdout.write('\r\x1b[2K');
		},
	};
}

/** Runs fn with a progress line, then prints ✔ label (time) or ✘ label. */
async function step(label, fn) {
	const p = progress(label);
	const started = Date.now();
	try {
		const result = await fn();
		p.stop();
		console.log(`${green('✔')} ${label} ${dim(`(${seconds(Date.now() - started)})`)}`);
		return result;
	} catch (error) {
		p.stop();
		console.log(`${red('✘')} ${label}`);
		throw error;
	}
}

/** Clears a half-drawn progress line (before a message printed on a signal). */
function clearLine() {
	if (tty) process.stdout.write('\r\x1b[2K');
}

module.exports = { bold, dim, green, red, yellow, addSecret, hide, seconds, rel, bytes, usd, excerpt, progress, step, clearLine, state };
