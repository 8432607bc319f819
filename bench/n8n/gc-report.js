'use strict';
/*
 * node bench/n8n/gc-report.js <bench output> <kept folder>: main's collections per run, from V8's
 * own trace. Run the bench as `BENCH_TRACE_GC=1 E2E_KEEP=1 npm run bench:n8n | tee <bench output>`;
 * the folder is the one it names last ("kept …"). The bench prints each run's epoch span,
 * trace-gc.js the epoch each n8n process started at, V8 each collection's time since then.
 *
 * Per run: the full collections (Mark-Compact) and the main thread's time in them (the final
 * pause and the incremental steps before it; V8's helper threads mark beside it and are in main's
 * CPU too), the scavenges, the most V8 held, and the full collections per second of the run:
 * a run of seconds with 4-5 of them is V8 collecting without pause near its cap
 * (docs/performance-log.md, "What moves main's CPU").
 */
const fs = require('fs');
const path = require('path');

function parseRuns(benchOutput) {
	const runs = [];
	for (const m of benchOutput.matchAll(
		/^run \d+\/\d+ (\S+) done in [\d.]+s \(epoch ms (\d+)-(\d+)\)/gm,
	))
		runs.push({ name: m[1], from: Number(m[2]), to: Number(m[3]) });
	return runs;
}

/** Main's collections: the process whose start trace-gc.js logged first (n8n's own, not a runner's). */
function parseTrace(log) {
	const start = log.match(/^trace-gc: pid (\d+) started at epoch ms (\d+)/m);
	if (!start)
		throw new Error('no "trace-gc: pid … started" line: was the bench run with BENCH_TRACE_GC=1?');
	const [, pid, origin] = start;
	const events = [];
	const line =
		/^\[(\d+):0x[0-9a-f]+\]\s+([\d.]+) ms: (Scavenge|Mark-Compact)(?: \((?:interleaved|reduce)\))? ([\d.]+) \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB, pooled: [\d.]+ MB, ([\d.]+) \/ [\d.]+ ms(?:\s+\(\+ ([\d.]+) ms)?/gm;
	for (const m of log.matchAll(line)) {
		if (m[1] !== pid) continue;
		events.push({
			at: Number(origin) + Number(m[2]),
			kind: m[3],
			heldMb: Math.max(Number(m[5]), Number(m[7])),
			mainMs: Number(m[8]) + Number(m[9] ?? 0),
		});
	}
	return events;
}

function summary(run, events) {
	const inRun = events.filter((e) => e.at >= run.from && e.at <= run.to);
	const full = inRun.filter((e) => e.kind === 'Mark-Compact');
	const perSecond = new Array(Math.ceil((run.to - run.from) / 1000)).fill(0);
	for (const e of full)
		perSecond[Math.min(perSecond.length - 1, Math.floor((e.at - run.from) / 1000))]++;
	const sum = (list) => list.reduce((total, e) => total + e.mainMs, 0) / 1000;
	return (
		[
			`${run.name}: ${full.length} full collections, ${sum(full).toFixed(1)} s of main's thread in them`,
			`${inRun.length - full.length} scavenges (${sum(inRun.filter((e) => e.kind !== 'Mark-Compact')).toFixed(1)} s)`,
			`V8 held at most ${Math.max(0, ...inRun.map((e) => e.heldMb)).toFixed(0)} MB`,
			`seconds with 4 or more: ${perSecond.filter((n) => n >= 4).length} of ${perSecond.length}`,
		].join(', ') + `\n  full collections per second: ${perSecond.join(' ')}`
	);
}

if (require.main === module) {
	const [output, folder] = process.argv.slice(2);
	if (!output || !folder) {
		console.error('usage: node bench/n8n/gc-report.js <bench output> <kept folder>');
		process.exit(2);
	}
	const runs = parseRuns(fs.readFileSync(output, 'utf8'));
	const events = parseTrace(fs.readFileSync(path.join(folder, 'main', 'n8n-start.log'), 'utf8'));
	for (const run of runs) console.log(summary(run, events));
}

module.exports = { parseRuns, parseTrace, summary };
