'use strict';
// bench/n8n/gc-report.js: main's collections per bench run, read from V8's trace in n8n's log
// (docs/performance-log.md, "When V8 collects without pause", quotes its figures).
const { parseRuns, parseTrace, summary } = require('../bench/n8n/gc-report');

const ORIGIN = 1_700_000_000_000;
const output = [
	'run 1/2 default-package starts with V8 holding 211 MB in main for 199 MB in use, after 0 s',
	`run 1/2 default-package done in 3.0s (epoch ms ${ORIGIN + 10_000}-${ORIGIN + 13_000}); load: …`,
	`run 2/2 default-loop-plain done in 2.0s (epoch ms ${ORIGIN + 20_000}-${ORIGIN + 22_000}); load: …`,
].join('\n');
const log = [
	`trace-gc: pid 100 started at epoch ms ${ORIGIN}`,
	`trace-gc: pid 200 started at epoch ms ${ORIGIN + 5_000}`,
	// Before the first run: not counted.
	'[100:0x3f53c000]     9000 ms: Mark-Compact 250.0 (300.0) -> 210.0 (300.0) MB, pooled: 0 MB, 50.00 / 0.00 ms  (average mu = 1.000, current mu = 1.000) finalize incremental marking via task; GC in old space requested',
	'[100:0x3f53c000]    10100 ms: Scavenge 212.9 (242.0) -> 203.7 (242.0) MB, pooled: 0 MB, 7.50 / 0.00 ms  (average mu = 1.000, current mu = 1.000) task; ',
	'[100:0x3f53c000]    10200 ms: Scavenge (interleaved) 213.0 (242.0) -> 203.8 (290.0) MB, pooled: 0 MB, 2.50 / 0.00 ms  (average mu = 1.000, current mu = 1.000) task; ',
	'[100:0x3f53c000]    11500 ms: Mark-Compact 256.5 (293.5) -> 216.7 (355.3) MB, pooled: 8 MB, 32.00 / 0.01 ms  (+ 68.0 ms in 286 steps since start of marking, biggest step 8.1 ms, walltime since start of marking 199 ms) (average mu = 0.569, current mu = 0.749) finalize incremental marking via task; GC in old space requested',
	'[100:0x3f53c000]    11700 ms: Mark-Compact 221.4 (355.3) -> 213.8 (349.5) MB, pooled: 0 MB, 20.00 / 0.00 ms  (average mu = 0.569, current mu = 0.749) finalize incremental marking via task; GC in old space requested',
	'[100:0x3f53c000]    12900 ms: Mark-Compact (reduce) 202.4 (341.3) -> 202.2 (214.3) MB, pooled: 0 MB, 30.00 / 0.00 ms  (average mu = 0.569, current mu = 0.749) finalize incremental marking via task; GC in old space requested',
	// Another process of n8n's (its task runner) in the same run: not main's.
	'[200:0x4542e000]     6000 ms: Mark-Compact 14.4 (17.3) -> 4.9 (14.0) MB, pooled: 0 MB, 9.00 / 0.00 ms  (average mu = 1.000, current mu = 1.000) finalize incremental marking via stack guard; GC in old space requested',
	"Unified AI Gateway: a line of n8n's own",
	'[100:0x3f53c000]    21000 ms: Mark-Compact 230.0 (360.0) -> 220.0 (360.0) MB, pooled: 0 MB, 10.00 / 0.00 ms  (average mu = 0.5, current mu = 0.5) finalize incremental marking via task; GC in old space requested',
].join('\n');

test('each run is named with its span in epoch milliseconds', () => {
	expect(parseRuns(output)).toEqual([
		{ name: 'default-package', from: ORIGIN + 10_000, to: ORIGIN + 13_000 },
		{ name: 'default-loop-plain', from: ORIGIN + 20_000, to: ORIGIN + 22_000 },
	]);
});

test("main's collections only, on the bench's clock, the incremental steps counted with the pause", () => {
	const events = parseTrace(log);
	expect(events.map((e) => [e.at - ORIGIN, e.kind, e.heldMb, e.mainMs])).toEqual([
		[9000, 'Mark-Compact', 300, 50],
		[10100, 'Scavenge', 242, 7.5],
		[10200, 'Scavenge', 290, 2.5],
		[11500, 'Mark-Compact', 355.3, 100],
		[11700, 'Mark-Compact', 355.3, 20],
		[12900, 'Mark-Compact', 341.3, 30],
		[21000, 'Mark-Compact', 360, 10],
	]);
});

test('a run sums its own collections and counts them per second of the run', () => {
	const [pkg, loop] = parseRuns(output);
	const events = parseTrace(log);
	expect(summary(pkg, events)).toBe(
		"default-package: 3 full collections, 0.1 s of main's thread in them, 2 scavenges (0.0 s), V8 held at most 355 MB, seconds with 4 or more: 0 of 3\n" +
			'  full collections per second: 0 2 1',
	);
	expect(summary(loop, events)).toBe(
		"default-loop-plain: 1 full collections, 0.0 s of main's thread in them, 0 scavenges (0.0 s), V8 held at most 360 MB, seconds with 4 or more: 0 of 2\n" +
			'  full collections per second: 0 1',
	);
});

test('a log without the trace says how to get one', () => {
	expect(() => parseTrace('n8n ready')).toThrow(/BENCH_TRACE_GC=1/);
});
