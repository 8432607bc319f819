'use strict';
/*
 * What is measured on n8n itself: the RSS of the processes that run the node, and the size of the
 * executions n8n stores.
 */

const fs = require('fs');

const { restJson } = require('../../test/n8n');

/** VmRSS of a process in MB (the kernel's figure: what n8n really holds, heap and buffers alike). */
function rssMb(pid) {
	const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]);
	if (!Number.isFinite(kb)) throw new Error(`no VmRSS for process ${pid}`);
	return kb / 1024;
}

/**
 * Samples every runner's RSS until stop(); stop() returns { name: peakMb }. 200 ms is fine enough:
 * memory that comes and goes faster than that is not what makes a 500-item night fail.
 */
function sampleRss(runners, everyMs = 200) {
	const peak = Object.fromEntries(runners.map((r) => [r.name, 0]));
	const sample = () => {
		for (const r of runners) {
			try {
				peak[r.name] = Math.max(peak[r.name], rssMb(r.pid));
			} catch {
				// a process that ended is reported by the run, not here
			}
		}
	};
	sample();
	const timer = setInterval(sample, everyMs);
	return {
		stop: () => {
			clearInterval(timer);
			sample();
			return peak;
		},
	};
}

/** CPU seconds a process has used (user + system), from /proc/<pid>/stat. */
function cpuSeconds(pid) {
	const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 per second on Linux)
}

const rssNow = (runners) => Object.fromEntries(runners.map((r) => [r.name, rssMb(r.pid)]));

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * n8n's REST API as the editor calls it; the answer's JSON. A read is asked again for up to 90 s:
 * n8n answers 503 "Database is not ready" while its database ping waits behind a large save (seen
 * with the hand-built loop's 2,000 items in SQLite, and with its 600 on a loaded machine).
 */
async function rest(stack, method, route, body) {
	for (let tries = 0; ; tries++) {
		try {
			return (await restJson(stack.baseUrl, method, route, body, stack.cookie)).json;
		} catch (e) {
			if (method !== 'GET' || tries >= 45 || !/answered 503|fetch failed/.test(e.message)) throw e;
			await sleep(2000);
		}
	}
}

/**
 * The stored execution through n8n's REST API (what the editor loads): status, and the stored
 * data as n8n keeps it in its database (a flatted JSON string; an object on a line that parses it).
 * Waits until the execution has left "running" (its data is written as it ends).
 */
async function storedExecution(stack, id, timeoutMs = 60_000) {
	const until = Date.now() + timeoutMs;
	for (;;) {
		const json = await rest(stack, 'GET', `/rest/executions/${id}`);
		if (!['new', 'running', 'waiting'].includes(json.status) || Date.now() > until) {
			const text = typeof json.data === 'string' ? json.data : JSON.stringify(json.data ?? null);
			return { status: json.status, bytes: Buffer.byteLength(text), binaries: binariesIn(text), largestStringKb: largestString(text) / 1024 };
		}
		await sleep(500);
	}
}

/**
 * How the binaries are kept in the stored data: references (`<mode>:<id>`; filesystem in regular
 * mode, 2.x queue mode keeps them in the database's own table) or inline base64 `data` (what the
 * ≤ 2 KB per item target rules out).
 */
function binariesIn(text) {
	const refs = [...text.matchAll(/"(filesystem(?:-v2)?|database|s3|azure):[^"]+"/g)].map((m) => m[1]);
	return {
		byReference: refs.length,
		modes: [...new Set(refs)],
		// Inline binary data is a long base64 string; no other field of these workflows is near that long.
		inline: largestString(text) > 16 * 1024,
	};
}

function largestString(text) {
	let largest = 0;
	for (const m of text.matchAll(/"((?:[^"\\]|\\.)*)"/g)) largest = Math.max(largest, m[1].length);
	return largest;
}

/**
 * V8's own figures for an n8n process, from its /metrics endpoint (N8N_METRICS=true; prom-client's
 * default metrics under n8n's prefix): seconds spent collecting garbage so far (every kind summed),
 * how many full (mark-compact) collections so far, the heap in use now and the heap V8 holds for it
 * (committed, MB). undefined when the endpoint does not answer.
 */
async function v8Now(baseUrl) {
	try {
		const res = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(5000) });
		if (res.status !== 200) return undefined;
		const text = await res.text();
		const gcS = [...text.matchAll(/^\w*nodejs_gc_duration_seconds_sum(?:\{[^}]*\})?\s+([\d.eE+-]+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
		const major = /^\w*nodejs_gc_duration_seconds_count\{[^}]*kind="major"[^}]*\}\s+(\d+)$/m.exec(text);
		const mb = (name) => {
			const m = new RegExp(`^\\w*${name}(?:\\{[^}]*\\})?\\s+([\\d.eE+-]+)$`, 'm').exec(text);
			return m ? Number(m[1]) / 1024 / 1024 : NaN;
		};
		return { gcS, majorGcs: major ? Number(major[1]) : NaN, heapUsedMb: mb('nodejs_heap_size_used_bytes'), heapTotalMb: mb('nodejs_heap_size_total_bytes') };
	} catch {
		return undefined;
	}
}

/**
 * Samples an n8n process's V8 figures until stop(); stop() returns { gcS (collecting during the
 * sampling), majorGcs, heapPeakMb, committedStartMb, committedPeakMb } or undefined when /metrics
 * never answered. The committed heap is what the full collections follow: with the heap cap at
 * 320 MB, V8 collects in full every 0.2-0.3 s while it holds about 350 MB, however little is in
 * use (docs/PERFORMANCE.md, Main's CPU against the loop's).
 *
 * Every 2 s: a scrape is not free for the process measured. n8n computes all its metrics for it
 * (prom-client builds the text, n8n reads /proc/self/smaps_rollup for its PSS): measured on an
 * n8n 2.41.1 at rest (machine load 4-9), scrapes every 0.5 s cost main 40-70 ms of CPU per second,
 * every 2 s 5-15 ms. Charged per second of each run, that cost pulls the package's main CPU ÷ the
 * loop's towards the ratio of their walls, away from the ratio of their work (bench:n8n scraped
 * every 0.5 s until 2026-11-27).
 */
async function sampleV8(baseUrl, everyMs = 2000) {
	const first = await v8Now(baseUrl);
	let peak = first?.heapUsedMb ?? NaN;
	let committed = first?.heapTotalMb ?? NaN;
	const higher = (a, b) => (Number.isFinite(a) ? Math.max(a, b) : b);
	const timer = setInterval(() => {
		void v8Now(baseUrl).then((now) => {
			if (!now) return;
			peak = higher(peak, now.heapUsedMb);
			committed = higher(committed, now.heapTotalMb);
		});
	}, everyMs);
	return {
		stop: async () => {
			clearInterval(timer);
			const last = await v8Now(baseUrl);
			if (!first || !last) return undefined;
			return {
				gcS: last.gcS - first.gcS,
				majorGcs: last.majorGcs - first.majorGcs,
				heapPeakMb: Math.max(peak, last.heapUsedMb),
				committedStartMb: first.heapTotalMb,
				committedPeakMb: Math.max(committed, last.heapTotalMb),
			};
		},
	};
}

/**
 * Waits until V8 in an n8n process holds at most `marginMb` more heap than it has in use (at rest
 * V8 holds 12-21 MB more; with a young generation grown by a burst it holds 45-150 MB more),
 * reading /metrics every second, for at most `timeoutMs`. Resolves with { heldMb, usedMb,
 * waitedMs, settled }, or undefined without /metrics.
 *
 * Why: at the 320 MB cap, V8 collects in full every 0.2 s for as long as it holds about 350 MB,
 * however little is in use (docs/PERFORMANCE.md, Main's CPU against the loop's). Right after the
 * warm-up it may still hold 280-300 MB: the package's run, first after it, then crossed that line
 * within a second of its submits, while the loop's run began after the package's had been read
 * back, with the heap already given back (216-242 MB). Each side now starts from the same rest.
 */
async function heapAtRest(baseUrl, { marginMb = 32, timeoutMs = 30_000 } = {}) {
	const started = Date.now();
	for (;;) {
		const now = await v8Now(baseUrl);
		if (!now || !Number.isFinite(now.heapTotalMb) || !Number.isFinite(now.heapUsedMb)) return undefined;
		const waitedMs = Date.now() - started;
		const figures = { heldMb: now.heapTotalMb, usedMb: now.heapUsedMb, waitedMs };
		if (now.heapTotalMb <= now.heapUsedMb + marginMb) return { ...figures, settled: true };
		if (waitedMs >= timeoutMs) return { ...figures, settled: false };
		await sleep(1000);
	}
}

module.exports = { cpuSeconds, heapAtRest, rest, rssMb, rssNow, sampleRss, sampleV8, storedExecution };
