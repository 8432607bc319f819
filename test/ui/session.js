'use strict';
/*
 * The UI test's bookkeeping: one line per check (`ok  <name>` / `FAIL <name>: <why>`), checks that
 * need an earlier one are reported as not run when it failed, a page screenshot per failure, and
 * the small assertion helpers every check file uses.
 */

const fs = require('fs');
const path = require('path');

const ARTIFACTS_DIR = path.join(__dirname, '.artifacts');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function check(cond, message) {
	if (!cond) throw new Error(message);
}

/** Poll fn until it returns a truthy value; throw message (plus the last value) on timeout. */
async function waitUntil(fn, message, timeoutMs = 10000) {
	const started = Date.now();
	let last;
	for (;;) {
		try {
			last = await fn();
			if (last) return last;
		} catch (e) {
			last = e.message;
		}
		if (Date.now() - started > timeoutMs) {
			throw new Error(`${message}${last !== undefined && last !== false ? ` (last: ${JSON.stringify(last)})` : ''}`);
		}
		await sleep(200);
	}
}

const list = (xs) => (xs.length ? xs.map((x) => `"${x}"`).join(', ') : '(none)');

class Session {
	/** redact(text) hides secrets in failure messages; page() gives the page to capture on a failure. */
	constructor({ redact = (t) => t, page = () => undefined } = {}) {
		this.results = [];
		this.failed = new Set();
		this.redact = redact;
		this.page = page;
		fs.rmSync(ARTIFACTS_DIR, { recursive: true, force: true }); // failures of an earlier run
	}

	/** Run one check; `needs` names checks it builds on (it is not run when one of them failed). */
	async test(name, fn, needs = []) {
		const started = Date.now();
		const missing = needs.filter((n) => this.failed.has(n));
		if (missing.length) return this.fail(name, `not run, it needs "${missing.join('", "')}"`);
		try {
			await fn();
			this.results.push({ name, ok: true });
			console.log(`ok  ${name}  (${((Date.now() - started) / 1000).toFixed(1)}s)`);
		} catch (e) {
			this.fail(name, this.errorText(e));
			await this.capture(name);
		}
	}

	fail(name, message) {
		this.failed.add(name);
		this.results.push({ name, ok: false });
		const [first, ...rest] = message.split('\n');
		console.log(`FAIL ${name}: ${first}`);
		const more = rest.slice(0, 12).join('\n').trim();
		if (more) console.log(more.replace(/^/gm, '      '));
	}

	/** A page screenshot of the failure in test/ui/.artifacts/ (page: the one given, else the session's). */
	async capture(name, page = this.page()) {
		try {
			if (!page || page.isClosed()) return;
			fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
			const file = path.join(ARTIFACTS_DIR, `${name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').slice(0, 60)}.png`);
			await page.screenshot({ path: file, timeout: 5000 });
			console.log(`      page screenshot: ${path.relative(process.cwd(), file)}`);
		} catch {
			// best effort
		}
	}

	/** An error's message without secrets, trimmed of Playwright's colour codes. */
	errorText(e) {
		const msg = e && e.message ? e.message : String(e);
		return this.redact(msg.replace(/\u001b\[[0-9;]*m/g, ''));
	}

	get anyFailed() {
		return this.results.some((r) => !r.ok);
	}

	/** Print the summary; the exit code (1 on any failure or when nothing ran). */
	finish(startedAt) {
		const passed = this.results.filter((r) => r.ok).length;
		const failed = this.results.length - passed;
		console.log(`ui test finished in ${((Date.now() - startedAt) / 1000).toFixed(1)}s`);
		console.log(`${passed} passed, ${failed} failed`);
		return failed || !passed ? 1 : 0;
	}
}

module.exports = { Session, ARTIFACTS_DIR, check, waitUntil, list, sleep };
